"""Graph functions for tf.data: a Python function traced once into a graph of its own (its arguments are
Placeholders ``args_0``, ``args_1`` ...; its results pass through ``Identity`` ops), kept in the outer graph's
function library under TF's name (``__inference_Dataset_map_<fn>_<n>``), run by the dataset kernels with the
session's executor, and exported as a FunctionDef in the GraphDef's library as TF writes it (inputs named
``op:output_arg:index``), so a graph with a pipeline loads and runs in TensorFlow.
"""
import json
import os
import re

from graphlab.formats import graph_io
from graphlab.formats.protos import attr_value_pb2, function_pb2, node_def_pb2
from graphlab.framework import dtypes, graph as graph_mod
from graphlab.framework.tensor import Tensor

with open(os.path.join(os.path.dirname(graph_io.__file__), "tf_op_outputs.json")) as _f:
    TF_OP_OUTPUTS = json.load(_f)


def library(graph):
    """The graph's function library: name -> function (created on first use)."""
    lib = getattr(graph, "_function_library", None)
    if lib is None:
        lib = graph._function_library = {}
    return lib


def _clean(name):
    return re.sub(r"[^A-Za-z0-9_]", "", name) or "fn"


class TracedFunction:
    """A Python function traced with placeholders for its arguments. A tensor of an enclosing graph that the
    function uses is captured as TF captures it: a Placeholder named after it (under the scope of the op that
    used it) becomes one more argument, and the dataset op passes the outer tensor as ``other_arguments``."""

    def __init__(self, outer, fn, kind, arg_types, arg_shapes, call):
        from graphlab.framework import registry
        counter = getattr(outer, "_function_counter", 0) + 1
        outer._function_counter = counter
        self.name = "__inference_Dataset_%s_%s_%d" % (kind, _clean(getattr(fn, "__name__", "fn")), counter)
        self.graph = graph_mod.Graph()
        self.graph._function_counter = counter * 1000
        self.graph._outer_graph = outer
        self.captured = []          # outer tensors, in the order of their placeholders after the arguments
        self._captures = {}
        self._user_names = {}
        self.graph._capture = self._capture_inputs
        from graphlab.ops import array_ops
        registry.CAPTURING[0] += 1
        try:
            with self.graph.as_default():
                self.args = [array_ops.placeholder(t, s, name="args_%d" % i)
                             for i, (t, s) in enumerate(zip(arg_types, arg_shapes))]
                raw = call(fn, self.args)
                self.structure = raw
                flat = flatten(raw)
                self.outputs = []
                for i, value in enumerate(flat):
                    value = _as_output(value)
                    self.outputs.append(array_ops.identity(value, name="Identity" if i == 0 else "Identity_%d" % i))
        finally:
            registry.CAPTURING[0] -= 1
        self.n_args = len(self.args)
        self.args = self.args + [self._captures[id(t)] for t in self.captured]
        library(outer)[self.name] = self
        for name, inner in library(self.graph).items():     # functions of datasets built inside this one
            library(outer)[name] = inner

    def capture(self, tensor):
        """The placeholder standing for outer ``tensor`` in this function's graph."""
        if tensor.graph is self.graph:
            return tensor
        key = id(tensor)
        if key not in self._captures:
            outer = self.graph._outer_graph
            source = tensor
            if tensor.graph is not outer and getattr(outer, "_capture", None) is not None:
                with outer.as_default():
                    source = outer._capture([tensor])[0]     # through the enclosing function first
            from graphlab.ops import array_ops
            ph = array_ops.placeholder(tensor.dtype.base_dtype, tensor.shape, name=tensor.op.name)
            self._user_names[ph] = tensor.op.name
            self._captures[key] = ph
            self.captured.append(source)
        return self._captures[key]

    def _capture_inputs(self, inputs):
        out = []
        for x in inputs:
            if isinstance(x, Tensor):
                out.append(self.capture(x) if x.graph is not self.graph else x)
            elif isinstance(x, (list, tuple)) and any(isinstance(e, Tensor) for e in x):
                out.append(type(x)(self.capture(e) if isinstance(e, Tensor) and e.graph is not self.graph else e
                                   for e in x))
            else:
                out.append(x)
        return out

    def run(self, session, values):
        """The function's outputs for argument ``values`` (numpy), through a cached plan of its graph."""
        from graphlab.runtime.executor import Plan
        key = ("__function_plan__", id(self))
        plan = session._state.get(key)
        if plan is None:
            plan = session._state.setdefault(key, Plan(session, self.outputs, [], self.args))
        slots = plan.run(list(values))
        return [slots[s] for s in plan.fetch_slots]

    def to_proto(self):
        fd = function_pb2.FunctionDef()
        fd.signature.name = self.name
        args = {t: normalize(t.op.name) for t in self.args}
        for t in self.args:
            fd.signature.input_arg.add(name=args[t], type=t.dtype.as_datatype_enum)
        outs = ["identity" if i == 0 else "identity_%d" % i for i in range(len(self.outputs))]
        for name, t in zip(outs, self.outputs):
            fd.signature.output_arg.add(name=name, type=t.dtype.base_dtype.as_datatype_enum)
            fd.ret[name] = function_input(t, args)
        fd.attr["_tf_data_function"].b = True
        for i, t in enumerate(self.args):
            user_name = self._user_names.get(t) or t.op.name
            fd.arg_attr[i].attr["_user_specified_name"].s = user_name.encode()
            fd.arg_attr[i].attr["_output_shapes"].CopyFrom(graph_io.attr_to_proto([t.shape]))
        body_nodes(fd, [op for op in self.graph.get_operations() if op.type != "Placeholder" or
                        op.outputs[0] not in args], args)
        return fd

    def attr_value(self):
        av = attr_value_pb2.AttrValue()
        av.func.name = self.name
        av.func.attr["_tf_data_function"].b = True
        return av


class DatasetFactory:
    """The function TF's make_one_shot_iterator writes: the ops that build the dataset, copied by value."""

    def __init__(self, outer, variant):
        import hashlib
        self.variant = variant
        # TF's suffix is random; ours is the same for the same graph, so saved graphs and lessons are stable
        counter = getattr(outer, "_function_counter", 0) + 1
        outer._function_counter = counter
        digest = hashlib.sha1(("%s/%d" % (variant.name, counter)).encode()).hexdigest()[:11]
        self.name = "_make_dataset_%s" % digest
        library(outer)[self.name] = self
        self.args, self.outputs = [], [variant]

    def run(self, session, values):
        return TracedFunction.run(self, session, values)

    def to_proto(self):
        from graphlab.runtime import pruning
        fd = function_pb2.FunctionDef()
        fd.signature.name = self.name
        out = self.variant.op.name.lower()
        fd.signature.output_arg.add(name=out, type=dtypes.variant.as_datatype_enum)
        fd.signature.description = "Factory function for a dataset."
        fd.signature.is_stateful = True
        fd.ret[out] = function_input(self.variant, {})
        fd.attr["_disable_call_shape_inference"].b = True
        body_nodes(fd, pruning.prune([self.variant], [], []), {})
        return fd

    def attr_value(self):
        av = attr_value_pb2.AttrValue()
        av.func.name = self.name
        return av


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
    if isinstance(value, (TracedFunction, DatasetFactory)):
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


def _as_output(value):
    from graphlab.framework.registry import convert_to_tensor
    return value if isinstance(value, Tensor) else convert_to_tensor(value)


def flatten(structure):
    """Leaves of a dataset element: tuples and dicts are structure; a list is one tensor, as in tf.data."""
    if isinstance(structure, dict):
        return [v for k in sorted(structure) for v in flatten(structure[k])]
    if isinstance(structure, tuple):
        return [v for s in structure for v in flatten(s)]
    if hasattr(structure, "_variant_tensor"):
        return [structure._variant_tensor]
    return [structure]


def pack(structure, flat):
    """``flat`` values arranged like ``structure`` (tuples, lists, dicts, namedtuples)."""
    items = list(flat)

    def build(s):
        if isinstance(s, dict):
            return {k: build(s[k]) for k in sorted(s)}
        if isinstance(s, tuple):
            built = [build(x) for x in s]
            return type(s)(*built) if hasattr(s, "_fields") else tuple(built)
        return items.pop(0)
    return build(structure)


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
        from graphlab.formats.protos import graph_def_pb2
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
        return TracedFunction.run(self, session, values)

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
