"""``tf.graph_util``: rewriting serialized graphs (GraphDef protos), e.g. freezing a model for serving.

These work on protos, not on the live Graph (which is append-only): they read a GraphDef and return a new
one. ``convert_variables_to_constants`` keeps only what the outputs need and replaces each variable by a
Const holding its current value in the session.
"""

from graphlab.framework import graph_io
from graphlab.formats.protos import attr_value_pb2, graph_def_pb2, node_def_pb2


def _node_name(name):
    return name[1:].split(":")[0] if name.startswith("^") else name.split(":")[0]


def extract_sub_graph(graph_def, dest_nodes):
    """The nodes `dest_nodes` depend on (data and control inputs), in their original order."""
    if not isinstance(graph_def, graph_def_pb2.GraphDef):
        raise TypeError("graph_def must be a graph_pb2.GraphDef proto.")
    if isinstance(dest_nodes, str):
        raise TypeError("dest_nodes must be a list.")
    by_name = {}
    for nd in graph_def.node:
        by_name[nd.name] = nd
    for d in dest_nodes:
        if d not in by_name:
            raise AssertionError("%s is not in graph" % d)
    keep, todo = set(), list(dest_nodes)
    while todo:
        n = todo.pop()
        if n in keep:
            continue
        keep.add(n)
        todo.extend(_node_name(i) for i in by_name[n].input if _node_name(i) in by_name)
    out = graph_def_pb2.GraphDef()
    for nd in graph_def.node:
        if nd.name in keep:
            out.node.add().CopyFrom(nd)
    out.library.CopyFrom(graph_def.library)
    out.versions.CopyFrom(graph_def.versions)
    return out


def must_run_on_cpu(node, pin_variables_on_cpu=False):
    return False


def tensor_shape_from_node_def_name(graph, input_name):
    if ":" not in input_name:
        input_name += ":0"
    return graph.get_tensor_by_name(input_name).shape


_VARIABLE_OPS = ("Variable", "VariableV2", "VarHandleOp")


def convert_variables_to_constants(sess, input_graph_def, output_node_names, variable_names_whitelist=None,
                                   variable_names_blacklist=None):
    """Freeze: the subgraph for `output_node_names` with every variable replaced by a Const of its value
    (read from `sess`), so the result needs no checkpoint. Prints how many variables it converted, as TF."""
    sub = extract_sub_graph(input_graph_def, output_node_names)
    names = [nd.name for nd in sub.node if nd.op in _VARIABLE_OPS
             and (variable_names_whitelist is None or nd.name in variable_names_whitelist)
             and (variable_names_blacklist is None or nd.name not in variable_names_blacklist)]
    values = dict(zip(names, sess.run([n + ":0" for n in names]))) if names else {}
    out = graph_def_pb2.GraphDef()
    for nd in sub.node:
        new = out.node.add()
        if nd.name in values:
            value = values[nd.name]
            dtype = nd.attr["dtype"]
            new.op = "Const"
            new.name = nd.name
            new.attr["dtype"].CopyFrom(dtype)
            new.attr["value"].CopyFrom(attr_value_pb2.AttrValue(tensor=graph_io.make_tensor_proto(
                value, dtype.type)))
        elif nd.op == "ReadVariableOp" and _node_name(nd.input[0]) in values:
            new.op = "Identity"
            new.name = nd.name
            new.input.extend(nd.input)
            new.attr["T"].CopyFrom(nd.attr["dtype"])
        else:
            new.CopyFrom(nd)
            if nd.op == "Assign" and _node_name(nd.input[0]) in values:
                raise ValueError("Cannot freeze: output nodes depend on the Assign op '%s' of variable '%s'; "
                                 "freeze only inference outputs." % (nd.name, _node_name(nd.input[0])))
    out.library.CopyFrom(sub.library)
    out.versions.CopyFrom(sub.versions)
    # TF logs this at INFO on the "tensorflow" logger: hidden unless tf.logging.set_verbosity(INFO)
    # (the plain logger, so no handler is installed as a side effect)
    import logging
    logging.getLogger("tensorflow").info("Converted %d variables to const ops.", len(values))
    return out


def remove_training_nodes(input_graph, protected_nodes=None):
    """Drop Identity and CheckNumerics nodes (rewiring their consumers to their inputs), keeping
    `protected_nodes` and any Identity that carries control inputs."""
    protected = set(protected_nodes or [])
    types_to_remove = {"CheckNumerics": True}
    removed = set()
    nodes = list(input_graph.node)
    for nd in nodes:
        if nd.op in types_to_remove and nd.name not in protected:
            removed.add(nd.name)
    forward = {}
    for nd in nodes:
        if nd.op == "Identity" and nd.name not in protected and not any(i.startswith("^") for i in nd.input):
            forward[nd.name] = nd.input[0]
    for nd in nodes:
        if nd.name in removed:
            forward[nd.name] = nd.input[0]

    def resolve(name):
        control = name.startswith("^")
        base = name[1:] if control else name
        seen = set()
        while _node_name(base) in forward and ":" not in base and base not in seen:
            seen.add(base)
            base = forward[base]
        if control:
            return "^" + _node_name(base)
        return base

    out = graph_def_pb2.GraphDef()
    for nd in nodes:
        if nd.name in forward:
            continue
        new = node_def_pb2.NodeDef()
        new.CopyFrom(nd)
        del new.input[:]
        inputs = []
        for i in nd.input:
            r = resolve(i)
            if r not in inputs:
                inputs.append(r)
        new.input.extend(inputs)
        out.node.append(new)
    out.library.CopyFrom(input_graph.library)
    out.versions.CopyFrom(input_graph.versions)
    return out


__all__ = ["convert_variables_to_constants", "extract_sub_graph", "remove_training_nodes", "must_run_on_cpu",
           "tensor_shape_from_node_def_name"]
from graphlab.framework.graph_io import import_graph_def  # noqa: F401,E402  (tf.graph_util.import_graph_def)
