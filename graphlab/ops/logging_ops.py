"""Print and Assert: ops whose only job is a side effect when they run (not when they are built).

Like every op they run only if a fetch needs them: an Assert that nothing depends on checks nothing,
which is why TF code wraps the guarded value in ``control_dependencies([assert_op])``.
"""
import collections
import logging
import os
import pprint
import random
import sys

import numpy as np

from graphlab.framework import dtypes, graph as graph_mod, tensor_shape
from graphlab.formats.errors import InvalidArgumentError
from graphlab.framework.tensor import Tensor
from graphlab.ops import control_flow_ops
from graphlab.framework.registry import NOT_DIFFERENTIABLE, build_op, convert_to_tensor, no_outputs, register_op


def _element_text(arr):
    """A function showing one element as TF's C++ streams do: floats with the fewest of %.6g/%.9g (float32)
    or %.15g/%.17g (float64) digits that read back the same value, bools as 1/0, strings raw."""
    kind = arr.dtype.kind
    if kind == "f":
        ftype = np.float64 if arr.dtype == np.float64 else np.float32
        short, full = ("%.15g", "%.17g") if ftype is np.float64 else ("%.6g", "%.9g")

        def text(v):
            t = short % v
            return t if ftype(t) == ftype(v) else full % v
        return text
    if kind == "b":
        return lambda v: "1" if v else "0"
    if kind in "OSU":
        return lambda v: _c_escape(v if isinstance(v, bytes) else str(v).encode("utf-8"))
    return str


_ESCAPES = {ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t", ord('"'): '\\"', ord("'"): "\\'",
            ord("\\"): "\\\\"}


def _c_escape(data):
    """A string element as TF's SummarizeValue shows it (absl's Utf8SafeCEscape: quotes, backslashes and
    control characters escaped, UTF-8 text kept)."""
    out = bytearray()
    for b in data:
        esc = _ESCAPES.get(b)
        out += esc.encode() if esc else bytes([b]) if b >= 0x20 and b != 0x7f else b"\\%03o" % b
    return out.decode("utf-8", "replace")


def _format(value, summarize):
    """One value as TF's Print and Assert show it (TF's SummarizeArray): nested brackets, at most
    ``summarize`` elements counted across the whole tensor (-1: all), "..." where some were left out.
    A scalar shows as a one-element vector: ``[7]``."""
    arr = np.asarray(value)
    flat = arr.reshape(-1)
    shape = arr.shape or (1,)
    limit = flat.size if summarize is None or summarize < 0 else min(summarize, flat.size)
    text = _element_text(arr)
    out = []
    index = [0]

    def one_dim(dim):
        if index[0] >= limit:
            return
        if dim == len(shape) - 1:
            for i in range(shape[dim]):
                if index[0] >= limit:
                    if dim != 0:
                        out.append("...")
                    return
                if i:
                    out.append(" ")
                out.append(text(flat[index[0]]))
                index[0] += 1
            return
        for _ in range(shape[dim]):
            opened = index[0] < limit
            if opened:
                out.append("[")
            one_dim(dim + 1)
            if opened or index[0] < limit:
                out.append("]")

    one_dim(0)
    return "[%s%s]" % ("".join(out), "..." if flat.size > limit else "")


# ----------------------------------------------------------------------------------------------- Print
def _print_kernel(ctx, value, *data):
    first_n = ctx.attrs["first_n"]
    count = ctx.state.get(("print-count", ctx.op.name), 0)
    if first_n < 0 or count < first_n:
        ctx.state[("print-count", ctx.op.name)] = count + 1
        sys.stderr.write(ctx.attrs["message"] + "".join(_format(d, ctx.attrs["summarize"]) for d in data) + "\n")
    return value


register_op(
    "Print",
    inputs=["input: T", "data: list"],
    outputs=lambda op: [(op._inputs[0]._dtype.base_dtype, op._inputs[0]._shape)],
    kernel=_print_kernel,
    grad=lambda op, grad: [grad] + [None] * (len(op.inputs) - 1),
    stateful=True,
    doc="Passes input through and, when run, prints message + data to stderr.")


def Print(input_, data, message=None, first_n=None, summarize=None, name=None):  # noqa: N802  (TF's name)
    """``tf.Print``: the value of ``input_``, printing ``data`` to stderr each time it is computed."""
    op = build_op("Print", [input_, list(data)],
                  attrs={"message": message or "", "first_n": -1 if first_n is None else first_n,
                         "summarize": 3 if summarize is None else summarize}, name=name)
    op._own_attrs()["U"] = list(op._attrs["Tlist"])     # TF's name for the data types, written to GraphDefs
    return op.outputs[0]


# ------------------------------------------------------------------------------------- StringFormat
def _format_v2(value, summarize):
    """One tensor as TF's StringFormat (and so tf.print) shows it (SummarizeValue with print_v2): numpy-like
    nested brackets, rows on their own lines, the first and last ``summarize`` entries of each dimension
    with "..." between (-1: all), strings quoted, a scalar bare."""
    arr = np.asarray(value)
    ends = arr.size if summarize is None or summarize < 0 else min(summarize, arr.size)
    if arr.dtype.kind == "c":
        element = lambda v: "?"      # noqa: E731  (TF prints no complex numbers)
    elif arr.dtype.kind in "OSU":
        element = lambda v: '"%s"' % _c_escape(v if isinstance(v, bytes) else str(v).encode("utf-8"))  # noqa: E731
    else:
        element = _element_text(arr)
    if arr.ndim == 0:
        return element(arr[()])
    out = []
    ndims = arr.ndim

    def spacing(dim):
        out.append(" " if dim == ndims - 1 else "\n" * (ndims - dim - 1) + " " * (dim + 1))

    def one_dim(dim, sub):
        if dim == ndims:
            out.append(element(sub))
            return
        out.append("[")
        count = sub.shape[0]
        for i in range(min(ends, count)):
            if i:
                spacing(dim)
            one_dim(dim + 1, sub[i])
        if count > 2 * ends:
            spacing(dim)
            out.append("...")
        for i in range(max(ends, count - ends), count):
            spacing(dim)
            one_dim(dim + 1, sub[i])
        out.append("]")

    one_dim(0, arr)
    return "".join(out)


def _string_format_outputs(op):
    template, placeholder = op._attrs["template"], op._attrs["placeholder"]
    if template.count(placeholder) != len(op._inputs):
        raise ValueError("%d placeholder(s) in template does not match %d inputs provided" % (
            template.count(placeholder), len(op._inputs)))
    return [(dtypes.string, tensor_shape.TensorShape([]))]


def _string_format_kernel(ctx, *values):
    pieces = ctx.attrs["template"].split(ctx.attrs["placeholder"])
    out = [pieces[0]]
    for value, piece in zip(values, pieces[1:]):
        out.append(_format_v2(value, ctx.attrs["summarize"]))
        out.append(piece)
    return np.array("".join(out).encode("utf-8"), dtype=object)


register_op(
    "StringFormat",
    inputs=["inputs: list"],
    outputs=_string_format_outputs,
    kernel=_string_format_kernel,
    grad=NOT_DIFFERENTIABLE,
    doc="A scalar string: the template with each placeholder replaced by the next input's summary.")


def string_format(template, inputs, placeholder="{}", summarize=3, name=None):
    """``tf.strings.format``: ``template`` with each ``placeholder`` replaced by the next tensor of
    ``inputs`` (one tensor alone is taken as a list of one), summarized as tf.print shows it."""
    if isinstance(inputs, Tensor):
        inputs = [inputs]
    if template.count(placeholder) != len(inputs):
        raise ValueError("The template expects %d tensors, but the inputs only has %d. Please ensure the number "
                         "of placeholders in template matches inputs length." % (template.count(placeholder),
                                                                                 len(inputs)))
    op = build_op("StringFormat", [list(inputs)], attrs={"template": template, "placeholder": placeholder,
                                                          "summarize": summarize}, name=name)
    op._own_attrs()["T"] = list(op._attrs["Tlist"])     # TF's name for the input types, written to GraphDefs
    return op.outputs[0]


# -------------------------------------------------------------------------------------------- PrintV2
def _print_v2_kernel(ctx, text):
    text = (text.item() if isinstance(text, np.ndarray) else text)
    text = (text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text)) + ctx.attrs["end"]
    stream = ctx.attrs["output_stream"]
    if stream == "stdout":
        sys.stdout.write(text)
        sys.stdout.flush()
    elif stream == "stderr":
        sys.stderr.write(text)
        sys.stderr.flush()
    elif stream.startswith("file://"):
        with open(stream[len("file://"):], "a", encoding="utf-8") as f:
            f.write(text)
    else:       # log(info), log(warning), log(error): TF logs through its C++ logging, graphlab through Python's
        level = {"log(info)": logging.INFO, "log(warning)": logging.WARNING, "log(error)": logging.ERROR}[stream]
        logging.getLogger("tensorflow").log(level, text.rstrip("\n"))


register_op(
    "PrintV2",
    inputs=["input: string"],
    outputs=no_outputs,
    kernel=_print_v2_kernel,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="When run, writes a scalar string and ``end`` to the output stream (stderr, stdout, a log, a file).")

_LOG_LEVELS = {logging.INFO: "log(info)", logging.WARNING: "log(warning)", logging.ERROR: "log(error)"}
_LOG_FUNCTIONS = {"info": "log(info)", "warning": "log(warning)", "warn": "log(warning)", "error": "log(error)"}


def _stream_name(stream):
    """TF's names of the streams tf.print writes to: sys.stdout, sys.stderr, a logging level or logging
    function (Python's or tf.logging's), or "file://<path>"."""
    if isinstance(stream, str) and stream.startswith("file://"):
        return stream
    if stream is sys.stdout:
        return "stdout"
    if stream is sys.stderr:
        return "stderr"
    if type(stream) is int:
        return _LOG_LEVELS.get(stream)
    if callable(stream) and getattr(stream, "__module__", None) in ("logging", "graphlab.logging_compat"):
        return _LOG_FUNCTIONS.get(getattr(stream, "__name__", None))
    return None


def _placeholder_for(text, placeholder="{}"):
    """A placeholder that the template's own text does not contain (TF's: "{}" plus digits of a seeded
    random.Random(5))."""
    rng = random.Random(5)
    while placeholder in text:
        placeholder += str(rng.randint(0, 9))
    return placeholder


def print_v2(*inputs, **kwargs):
    """``tf.print``: a PrintV2 op that, when run, prints ``inputs`` (tensors, Python values and structures
    of both) separated by ``sep`` and followed by ``end`` to ``output_stream`` (default sys.stderr). Built as
    TF builds it: one StringFormat whose template holds the Python values and a placeholder per tensor, unless
    the only input is a scalar string tensor."""
    output_stream = kwargs.pop("output_stream", sys.stderr)
    name = kwargs.pop("name", None)
    summarize = kwargs.pop("summarize", 3)
    sep = kwargs.pop("sep", " ")
    end = kwargs.pop("end", os.linesep)
    if kwargs:
        raise ValueError("Unrecognized keyword arguments for tf.print: %s" % kwargs)
    stream = _stream_name(output_stream)
    if not stream:
        raise ValueError("Unsupported output stream, logging level, or file.%s. Supported streams are sys.stdout, "
                         "sys.stderr, tf.logging.info, tf.logging.warning, tf.logging.error. File needs to be in "
                         "the form of 'file://<filepath>'." % (output_stream,))
    if (len(inputs) == 1 and isinstance(inputs[0], Tensor) and inputs[0].shape.ndims == 0
            and inputs[0].dtype.base_dtype == dtypes.string):
        formatted = inputs[0]
    else:
        from graphlab.framework import nest
        sorted_inputs = [collections.OrderedDict(sorted(x.items())) if isinstance(x, collections.OrderedDict)
                         else x for x in inputs]
        tensor_free = nest.map_structure(lambda x: "" if isinstance(x, Tensor) else x, sorted_inputs)
        placeholder = _placeholder_for(" ".join(pprint.pformat(x) for x in tensor_free))
        templates, tensors = [], []
        for x in inputs:
            slots = []
            for leaf in nest.flatten(x):
                if isinstance(leaf, Tensor):
                    tensors.append(leaf)
                    slots.append(placeholder)
                else:
                    slots.append(leaf)
            templates.append(x if isinstance(x, str) else pprint.pformat(nest.pack_sequence_as(x, slots)))
        template = sep.join(templates).replace("'" + placeholder + "'", placeholder)
        formatted = string_format(template, tensors, placeholder=placeholder, summarize=summarize,
                                  name=name + "_format" if name else None)
    return build_op("PrintV2", [formatted], attrs={"output_stream": stream, "end": end}, name=name)


# ---------------------------------------------------------------------------------------------- Assert
def _assert_kernel(ctx, condition, *data):
    if not np.all(condition):
        shown = " ".join(_format(d, ctx.attrs["summarize"]) for d in data)
        raise InvalidArgumentError(None, ctx.op, "assertion failed: %s" % shown)


register_op(
    "Assert",
    inputs=["condition: bool", "data: list"],
    outputs=no_outputs,
    kernel=_assert_kernel,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="Fails the run with InvalidArgumentError when condition is false, showing data.")


def Assert(condition, data, summarize=None, name=None):  # noqa: N802  (TF's name)
    """``tf.Assert``: an op that fails the run when ``condition`` is false. As in TF, unless all data are
    strings or int32, the check sits in a cond ("AssertGuard") so the data are only computed on failure.

    Built as TF 2.x does: the data are converted once to learn their types (``Assert/Const``, ...) and
    again by the Assert op itself (``Assert/Assert/data_0``, ..., inside the guard's branch when guarded)."""
    graph = graph_mod.graph_of([condition] + list(data))
    with graph.as_default(), graph_mod.name_scope(name, "Assert", [condition, data]):
        types = [convert_to_tensor(d).dtype.base_dtype for d in data]
        attrs = {"summarize": 3 if summarize is None else summarize, "T": types}   # T: TF's name for the
        # data types (graphlab's own Tlist is not written to a GraphDef, and TF cannot load an Assert without T)
        if all(t in (dtypes.string, dtypes.int32) for t in types):
            return build_op("Assert", [condition, list(data)], attrs=attrs, name="Assert")
        condition = convert_to_tensor(condition, name="Condition")

        def true_assert():
            return build_op("Assert", [condition, list(data)], attrs=attrs, name="Assert")

        guarded = control_flow_ops.cond(condition, control_flow_ops.no_op, true_assert, name="AssertGuard")
        return guarded.op


def _static(tensor):
    from graphlab.framework.registry import const_value
    return const_value(tensor)


def _shown(item):
    """An Assert data item as a build-time failure prints it: a tensor's value when known, else the item."""
    value = _static(item) if isinstance(item, Tensor) else None
    return str(item if value is None else value)


def assert_equal(x, y, data=None, summarize=None, message=None, name=None):
    """``tf.assert_equal``: an Assert that fails the run unless x == y everywhere; when both values are
    known while building, a mismatch raises InvalidArgumentError at once.

    Built as TF 2.x builds it in graph mode: the Equal/All check and the Assert are always in the graph,
    and its scope is opened twice (once for the ``x is y`` shortcut), so the ops live under
    ``assert_equal_1/``."""
    graph = graph_mod.graph_of([x, y])
    with graph.as_default():
        with graph_mod.name_scope(name, "assert_equal", [x, y]):
            if x is y:
                return control_flow_ops.no_op()
        with graph_mod.name_scope(name, "assert_equal", [x, y]):
            x = convert_to_tensor(x, name="x")
            y = convert_to_tensor(y, name="y", dtype=x.dtype.base_dtype)
            if data is None:
                data = ["Condition x == y did not hold element-wise:", "x (%s) = " % x.name, x,
                        "y (%s) = " % y.name, y]
            if message is not None:
                data = [message] + list(data)
            from graphlab.ops import math_ops
            condition = math_ops.reduce_all(math_ops.equal(x, y))
            sx, sy = _static(x), _static(y)
            if sx is not None and sy is not None and not np.all(np.equal(sx, sy)):
                raise InvalidArgumentError(None, None, "\n".join(_shown(d) for d in data))
            return Assert(condition, data, summarize=summarize)


def assert_rank(x, rank, message=None, name=None):
    """``tf.assert_rank`` for a statically known rank: ValueError at build time on mismatch."""
    x = convert_to_tensor(x)
    if x.shape.ndims is not None and x.shape.ndims != rank:
        raise ValueError("%sTensor %s must have rank %d. Received rank %d, shape %s" % (
            (message + " ") if message else "", x.name, rank, x.shape.ndims, x.shape))
    return control_flow_ops.no_op(name=name or "assert_rank")


__all__ = ["Print", "Assert", "assert_equal", "assert_rank"]
