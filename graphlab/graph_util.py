"""``tf.graph_util``: rewriting serialized graphs (GraphDef protos), e.g. freezing a model for serving.

These work on protos, not on the live Graph (which is append-only): they read a GraphDef and return a new
one. ``convert_variables_to_constants`` keeps only what the outputs need and replaces each variable by a
Const holding its current value in the session.
"""

import numpy as np

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
    by_name = {nd.name: nd for nd in sub.node}
    names = [nd.name for nd in sub.node if nd.op in _VARIABLE_OPS
             and (variable_names_whitelist is None or nd.name in variable_names_whitelist)
             and (variable_names_blacklist is None or nd.name not in variable_names_blacklist)]
    # a resource variable's value is what its v/Read/ReadVariableOp reads (TF's freezing fetches that too)
    fetches = [n + ("/Read/ReadVariableOp:0" if by_name[n].op == "VarHandleOp" else ":0") for n in names]
    values = dict(zip(names, sess.run(fetches))) if names else {}
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
        else:
            new.CopyFrom(nd)
            if nd.op in _ASSIGN_OPS and _node_name(nd.input[0]) in values:
                raise ValueError("Cannot freeze: output nodes depend on the Assign op '%s' of variable '%s'; "
                                 "freeze only inference outputs." % (nd.name, _node_name(nd.input[0])))
    freeze_resource_reads(out, {n: by_name[n].attr["dtype"] for n in values if by_name[n].op == "VarHandleOp"})
    out.library.CopyFrom(sub.library)
    out.versions.CopyFrom(sub.versions)
    # TF logs this at INFO on the "tensorflow" logger: hidden unless tf.logging.set_verbosity(INFO)
    # (the plain logger, so no handler is installed as a side effect)
    import logging
    logging.getLogger("tensorflow").info("Converted %d variables to const ops.", len(values))
    return out


_ASSIGN_OPS = ("Assign", "AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp")
_CARRIERS = ("Identity", "Enter", "Exit", "Switch", "Merge", "NextIteration")
_DT_RESOURCE = 20


def freeze_resource_reads(graph_def, resources):
    """Rewrite, in place, what reads the resource variables ``resources`` ({VarHandleOp name: dtype
    AttrValue}) once those have become Consts, as TF's freezing does: ReadVariableOp becomes Identity,
    ResourceGather a GatherV2 with a ``<name>/axis`` Const (added at the end), ResourceGatherNd a GatherNd,
    and control-flow ops carrying the handle (Enter, Switch ...) take the variable's dtype."""
    carried = dict(resources)
    changed = True
    while changed:                   # loops: NextIteration may come before what feeds it
        changed = False
        for nd in graph_def.node:
            if nd.name in carried or nd.op not in _CARRIERS or not nd.input or nd.attr["T"].type != _DT_RESOURCE:
                continue
            source = [carried[_node_name(i)] for i in nd.input if not i.startswith("^") and _node_name(i) in carried]
            if source:
                nd.attr["T"].CopyFrom(source[0])
                carried[nd.name] = source[0]
                changed = True
    for nd in list(graph_def.node):
        if not nd.input or _node_name(nd.input[0]) not in carried:
            continue
        if nd.op == "ReadVariableOp":
            _retype(nd, "Identity", T=nd.attr["dtype"])
        elif nd.op == "ResourceGather":
            if nd.attr["batch_dims"].i != 0:
                raise ValueError("batch_dims != 0 is not supported by freeze_graph.")
            axis_name = nd.name + "/axis"
            if not any(n.name == axis_name for n in graph_def.node):
                axis = graph_def.node.add(name=axis_name, op="Const")
                axis.attr["dtype"].CopyFrom(nd.attr["Tindices"])
                axis.attr["value"].CopyFrom(attr_value_pb2.AttrValue(tensor=graph_io.make_tensor_proto(
                    np.array(0), nd.attr["Tindices"].type)))
            nd.input.insert(2, axis_name)
            _retype(nd, "GatherV2", Tparams=nd.attr["dtype"], Tindices=nd.attr["Tindices"], Taxis=nd.attr["Tindices"])
        elif nd.op == "ResourceGatherNd":
            _retype(nd, "GatherNd", Tparams=nd.attr["dtype"], Tindices=nd.attr["Tindices"])


def _retype(nd, op, **attrs):
    """Make ``nd`` an ``op`` node with ``attrs`` (AttrValues), keeping its colocation (``_class``)."""
    keep = {k: attr_value_pb2.AttrValue() for k in attrs}
    for k, v in attrs.items():
        keep[k].CopyFrom(v)
    colocation = None
    if "_class" in nd.attr:
        colocation = attr_value_pb2.AttrValue()
        colocation.CopyFrom(nd.attr["_class"])
    nd.op = op
    nd.attr.clear()
    for k, v in keep.items():
        nd.attr[k].CopyFrom(v)
    if colocation is not None:
        nd.attr["_class"].CopyFrom(colocation)


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
