"""``tf.saved_model.main_op``: the op a loaded SavedModel runs first (TF1 keeps it in a module of this name)."""

def main_op():
    """``tf.saved_model.main_op``: the op a loaded SavedModel runs first (local variables and tables)."""
    from graphlab.ops.control_flow_ops import group
    from graphlab.tf1_root import tables_initializer
    from graphlab.ops.variables import local_variables_initializer
    return group(local_variables_initializer(), tables_initializer())


def main_op_with_restore(restore_op_name):
    """``tf.saved_model.main_op_with_restore``: main_op, then the restore op named ``restore_op_name``."""
    from graphlab.framework.graph import get_default_graph
    from graphlab.ops.control_flow_ops import group
    graph = get_default_graph()
    with graph.control_dependencies([main_op()]):
        return group(graph.as_graph_element(restore_op_name))
