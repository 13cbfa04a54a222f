"""The global step: an int64 scalar variable ``global_step`` in the GLOBAL_STEP collection that
``minimize(..., global_step=...)`` increments once per training step."""
from graphlab.framework import dtypes, graph as graph_mod
from graphlab.framework.graph import GraphKeys


def get_global_step(graph=None):
    """The global step variable of ``graph`` (by collection, else by the name ``global_step:0``), or None."""
    graph = graph or graph_mod.get_default_graph()
    found = graph.get_collection(GraphKeys.GLOBAL_STEP)
    if len(found) == 1:
        step = found[0]
    elif not found:
        try:
            step = graph.get_tensor_by_name("global_step:0")
        except (KeyError, ValueError):
            return None
    else:
        return None
    assert_global_step(step)
    return step


def assert_global_step(global_step_tensor):
    dtype = global_step_tensor.dtype.base_dtype
    if not dtype.is_integer:
        raise TypeError("Existing \"global_step\" does not have integer type: %s" % dtype)
    shape = global_step_tensor.get_shape()
    if shape.ndims != 0 and shape.is_fully_defined():
        raise TypeError("Existing \"global_step\" is not scalar: %s" % shape)


def create_global_step(graph=None):
    """Create ``global_step`` (int64, 0, not trainable); ValueError if the graph already has one."""
    graph = graph or graph_mod.get_default_graph()
    if get_global_step(graph) is not None:
        raise ValueError("\"global_step\" already exists.")
    from graphlab.ops.variable_scope import get_variable
    from graphlab.ops import init_ops
    with graph.as_default(), graph.name_scope(""):
        return get_variable(GraphKeys.GLOBAL_STEP, shape=[], dtype=dtypes.int64,
                                           initializer=init_ops.zeros_initializer(), trainable=False,
                                           collections=[GraphKeys.GLOBAL_VARIABLES, GraphKeys.GLOBAL_STEP])


def get_or_create_global_step(graph=None):
    graph = graph or graph_mod.get_default_graph()
    step = get_global_step(graph)
    if step is None:
        step = create_global_step(graph)
    return step


def global_step(sess, global_step_tensor):
    """The current value of the global step as a Python int."""
    return int(sess.run(global_step_tensor))
