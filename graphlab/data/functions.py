"""Graph functions for tf.data: a Python function traced once into a graph of its own (its arguments are
Placeholders ``args_0``, ``args_1`` ...; its results pass through ``Identity`` ops), kept in the outer graph's
function library (graphlab/framework/function_library.py) under TF's name (``__inference_Dataset_map_<fn>_<n>``),
run by the dataset kernels through the session (``Session._run_function``), and exported as a FunctionDef in the
GraphDef's library as TF writes it, so a graph with a pipeline loads and runs in TensorFlow.
"""
import re

from graphlab.formats.protos import attr_value_pb2, function_pb2
from graphlab.framework import dtypes, graph as graph_mod, graph_io
from graphlab.framework.function_library import body_nodes, function_input, library, normalize
from graphlab.framework.tensor import Tensor


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
        """The function's outputs for argument ``values`` (numpy), run by the session."""
        return session._run_function(self, values)

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
        return session._run_function(self, values)

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


