"""A graph's function library: the functions its ops call (tf.data's map, filter, ... functions and dataset
factories), kept under TF's names and exported as the GraphDef's FunctionDefLibrary as TF writes it (inputs
named ``op:output_arg:index``), and the functions of an imported GraphDef's library rebuilt as graphs.

Tracing a Python function into one is tf.data's business (graphlab/data/functions.py); running one is the
runtime's (``Session._run_function``). A function object here has ``name``, ``graph``, ``args``, ``outputs``,
``captured``, ``run(session, values)``, ``to_proto()`` and ``attr_value()``.
"""
import json
import os
import re

from graphlab.formats.protos import attr_value_pb2, function_pb2, graph_def_pb2, node_def_pb2
from graphlab.framework import graph as graph_mod, graph_io

with open(os.path.join(os.path.dirname(__file__), "tf_op_outputs.json")) as _f:
    TF_OP_OUTPUTS = json.load(_f)


def library(graph):
    """The graph's function library: name -> function (created on first use)."""
    lib = getattr(graph, "_function_library", None)
    if lib is None:
        lib = graph._function_library = {}
    return lib


def normalize(name):
    """TF's name for a FunctionDef argument: lower case, other characters than [a-z0-9_] made "_"."""
    return re.sub(r"[^a-z0-9_]", "_", name.lower())


def function_input(tensor, args):
    """How a FunctionDef names a tensor: an argument by its name, else ``op:output_arg:index``."""
    if tensor in args:
        return args[tensor] if isinstance(args, dict) else tensor.op.name
    specs = TF_OP_OUTPUTS.get(tensor.op.type)
    if not specs:
        return "%s:output:%d" % (tensor.op.name, tensor.value_index)
    position = tensor.value_index
    for arg_name, count in specs:
        n = count if isinstance(count, int) else _attr_length(tensor.op, count)
        if position < n:
            return "%s:%s:%d" % (tensor.op.name, arg_name, position)
        position -= n
    return "%s:output:%d" % (tensor.op.name, tensor.value_index)


def _attr_length(op, attr):
    value = op._attrs.get(attr)
    if value is None and attr in ("output_types", "Toutput_types", "component_types"):
        value = op._attrs.get("output_types") or op._attrs.get("Toutput_types") or op._attrs.get("component_types")
    return value if isinstance(value, int) else len(value or [])


def body_nodes(fd, ops, args):
    for op in ops:
        nd = node_def_pb2.NodeDef(name=op.name, op=op.type)
        nd.input.extend(function_input(t, args) for t in op.inputs)
        nd.input.extend("^" + c.name for c in op.control_inputs)
        for key, value in graph_io._exported_attrs(op):
            nd.attr[key].CopyFrom(attr_proto(value))
        fd.node_def.add().CopyFrom(nd)


def attr_proto(value):
    """An attr's AttrValue; a function (traced, a dataset factory or imported) names itself."""
    if hasattr(value, "attr_value"):
        return value.attr_value()
    return graph_io.attr_to_proto(value)


def library_proto(graph):
    """A FunctionDefLibrary for every function the graph's datasets use (None when there is none)."""
    lib = getattr(graph, "_function_library", None)
    if not lib:
        return None
    proto = function_pb2.FunctionDefLibrary()
    for name in sorted(lib):
        proto.function.add().CopyFrom(lib[name].to_proto())
    return proto


# ------------------------------------------------------------------------- functions read from a GraphDef
class FuncRef:
    """A ``func`` attr read from a GraphDef before its library is resolved."""

    def __init__(self, attr_value):
        self.name = attr_value.func.name
        self.proto = attr_value


class ImportedFunction:
    """A FunctionDef of an imported GraphDef's library (written by TF or by graphlab), rebuilt as a graphlab
    graph of its own: its arguments are Placeholders, its body the FunctionDef's nodes (``op:output_arg:index``
    inputs turned into output positions), so the dataset kernels run it like a traced function; it exports
    back as the same FunctionDef."""

    def __init__(self, fdef, library_proto, ref):
        self.name = fdef.signature.name
        self.fdef = fdef
        self._attr = ref
        gd = graph_def_pb2.GraphDef()
        gd.library.CopyFrom(library_proto)
        kinds = {nd.name: nd for nd in fdef.node_def}
        for i, arg in enumerate(fdef.signature.input_arg):
            nd = gd.node.add(name=arg.name, op="Placeholder")
            nd.attr["dtype"].type = arg.type
            shapes = fdef.arg_attr[i].attr["_output_shapes"].list.shape if i in fdef.arg_attr else []
            if len(shapes) == 1:
                nd.attr["shape"].shape.CopyFrom(shapes[0])
            else:
                nd.attr["shape"].shape.unknown_rank = True
        for src in fdef.node_def:
            nd = gd.node.add()
            nd.CopyFrom(src)
            del nd.input[:]
            nd.input.extend(_graph_input(i, kinds) for i in src.input)
        self.graph = graph_mod.Graph()
        with self.graph.as_default():
            graph_io.import_graph_def(gd, name="")
            self.args = [self.graph.get_tensor_by_name(a.name + ":0") for a in fdef.signature.input_arg]
            self.outputs = []
            for o in fdef.signature.output_arg:
                ref = _graph_input(fdef.ret[o.name], kinds)
                self.outputs.append(self.graph.get_tensor_by_name(ref if ":" in ref else ref + ":0"))
        self.captured = []

    def run(self, session, values):
        return session._run_function(self, values)

    def to_proto(self):
        fd = function_pb2.FunctionDef()
        fd.CopyFrom(self.fdef)
        return fd

    def attr_value(self):
        av = attr_value_pb2.AttrValue()
        av.CopyFrom(self._attr)
        return av


def _graph_input(name, nodes):
    """A FunctionDef input (``arg``, ``op:output_arg:index``, ``^op``) as a GraphDef input (``op:position``)."""
    if name.startswith("^") or ":" not in name:
        return name
    op_name, arg_name, index = name.split(":")
    nd = nodes.get(op_name)
    specs = TF_OP_OUTPUTS.get(nd.op) if nd is not None else None
    if not specs:
        return "%s:%s" % (op_name, index)
    position = 0
    for spec_name, count in specs:
        if spec_name == arg_name:
            return "%s:%d" % (op_name, position + int(index))
        if isinstance(count, int):
            position += count
        else:
            av = nd.attr[count]
            position += av.i if av.WhichOneof("value") == "i" else len(av.list.type) or len(av.list.shape)
    return "%s:%s" % (op_name, index)


def resolve_functions(graph, attrs, library_proto, where):
    """Replace the FuncRefs in ``attrs`` by functions of ``library_proto`` (built once per graph)."""
    for key, value in list(attrs.items()):
        if isinstance(value, FuncRef):
            lib = library(graph)
            fn = lib.get(value.name)
            if fn is None:
                fdef = next((f for f in library_proto.function if f.signature.name == value.name), None)
                if fdef is None:
                    raise ValueError("%s names function '%s', which the GraphDef's library does not hold"
                                     % (where, value.name))
                fn = lib[value.name] = ImportedFunction(fdef, library_proto, value.proto)
            attrs[key] = fn
