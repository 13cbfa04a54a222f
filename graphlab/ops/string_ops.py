"""String ops of TF1's root and ``tf.strings``: AsString, StringStrip, StringToNumber, StringLength,
StringLower/StringUpper, ReduceJoin, UnsortedSegmentJoin, RegexReplace / StaticRegexReplace and RegexFullMatch
(RE2, as TF), StringSplit (TF1's per-character delimiters) and StringSplitV2 (a whole separator). None has a
gradient. (StringJoin and StaticRegexFullMatch live in io_ops.py, where the Saver needs them.)"""
import numpy as np

from graphlab.framework import dtypes, graph as graph_mod, tensor_shape
from graphlab.formats.errors import InvalidArgumentError
from graphlab.framework.registry import NOT_DIFFERENTIABLE, build_op, convert_to_tensor, register_op


def _bytes(v):
    return v if isinstance(v, bytes) else str(v).encode("utf-8")


def _map(fn, out_dtype=object):
    def kernel(ctx, values):
        values = np.asarray(values, dtype=object)
        out = np.empty(values.shape, dtype=out_dtype)
        for index, value in np.ndenumerate(values):
            out[index] = fn(ctx, _bytes(value))
        return out
    return kernel


def _same_shape(dtype):
    return lambda op: [(dtype if not callable(dtype) else dtype(op), op._inputs[0]._shape)]


def _elementwise(op_type, fn, doc, out_dtype=dtypes.string, np_dtype=object):
    register_op(op_type, inputs=["input: string"], outputs=_same_shape(out_dtype), kernel=_map(fn, np_dtype),
                grad=NOT_DIFFERENTIABLE, doc=doc)


# ======================================================================================= simple maps
_WHITESPACE = b" \t\n\v\f\r"
_elementwise("StringStrip", lambda ctx, s: s.strip(_WHITESPACE), "Leading and trailing whitespace removed.")
_elementwise("StringLower", lambda ctx, s: bytes(c + 32 if 65 <= c <= 90 else c for c in s),
             "ASCII letters in lower case.")
_elementwise("StringUpper", lambda ctx, s: bytes(c - 32 if 97 <= c <= 122 else c for c in s),
             "ASCII letters in upper case.")


def _length(ctx, s):
    return len(s) if ctx.attrs.get("unit", "BYTE") == "BYTE" else len(s.decode("utf-8", "replace"))


_elementwise("StringLength", _length, "The length of each string in bytes (or UTF-8 characters).",
             dtypes.int32, np.int32)


def _to_number(ctx, s):
    out_type = ctx.attrs["out_type"]
    text = s.decode("utf-8", "replace")
    try:
        if out_type.is_integer:
            value = int(text.strip())
            info = np.iinfo(out_type.as_numpy_dtype)
            if not info.min <= value <= info.max:
                raise ValueError
            return value
        return float(text.strip())
    except ValueError:
        raise InvalidArgumentError(None, ctx.op, "StringToNumberOp could not correctly convert string: %s" % text) \
            from None


register_op("StringToNumber", inputs=["string_tensor: string"], outputs=lambda op: [(op._attrs["out_type"],
                                                                                      op._inputs[0]._shape)],
            kernel=lambda ctx, x: _map(_to_number)(ctx, x).astype(ctx.attrs["out_type"].as_numpy_dtype),
            grad=NOT_DIFFERENTIABLE, doc="Each string parsed as a number of out_type.")


# ============================================================================================ AsString
def _format_of(ctx, dtype):
    precision, scientific = ctx.attrs["precision"], ctx.attrs["scientific"]
    shortest, width, fill = ctx.attrs["shortest"], ctx.attrs["width"], ctx.attrs["fill"]
    spec = "%" + (fill if fill else "") + (str(width) if width > -1 else "")
    if dtype.kind in "iu":
        return spec + "d"
    if dtype.kind == "b":
        return None
    if precision > -1:
        spec += ".%d" % precision
    return spec + ("g" if shortest else "e" if scientific else "f")


def _as_string(ctx, x):
    x = np.asarray(x)
    fmt = _format_of(ctx, x.dtype)
    out = np.empty(x.shape, dtype=object)
    for index, value in np.ndenumerate(x):
        if x.dtype.kind == "b":
            text = "true" if value else "false"
        elif x.dtype.kind == "c":
            text = "(%s,%s)" % (fmt % value.real, fmt % value.imag)
        else:
            text = fmt % value
        out[index] = text.encode()
    return out


register_op("AsString", inputs=["input: T"], outputs=_same_shape(dtypes.string), kernel=_as_string,
            grad=NOT_DIFFERENTIABLE, doc="Each number as text (printf %d, %f, %e or %g, with width and fill).")


def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill="", name=None):  # noqa: A002
    """``tf.as_string`` / ``tf.strings.as_string``."""
    return build_op("AsString", [input], attrs={"precision": int(precision), "scientific": bool(scientific),
                                               "shortest": bool(shortest), "width": int(width), "fill": fill},
                    name=name).outputs[0]


# ======================================================================================== ReduceJoin
def _reduce_join(ctx, inputs, axes):
    inputs = np.asarray(inputs, dtype=object)
    rank = inputs.ndim
    axes = [int(a) + rank if int(a) < 0 else int(a) for a in np.asarray(axes).reshape(-1)]
    for a in axes:
        if not 0 <= a < rank:
            raise InvalidArgumentError(None, ctx.op, "Invalid reduction dimension %d for input with %d dimension(s)"
                                       % (a - rank if a < 0 else a, rank))
    keep = [d for d in range(rank) if d not in axes]
    moved = np.transpose(inputs, keep + sorted(axes)) if rank else inputs
    outer = [inputs.shape[d] for d in keep]
    flat = moved.reshape(outer + [-1]) if rank else moved.reshape(1)
    sep = ctx.attrs["separator"].encode()
    out = np.empty(outer, dtype=object)
    for index in np.ndindex(*outer):
        out[index] = sep.join(_bytes(v) for v in flat[index])
    if ctx.attrs["keep_dims"]:
        out = out.reshape([1 if d in axes else inputs.shape[d] for d in range(rank)])
    return out


def _reduce_join_outputs(op):
    from graphlab.framework.registry import const_value
    x, axes = op._inputs
    value = const_value(axes)
    if value is None or x._shape.ndims is None:
        return [(dtypes.string, tensor_shape.UNKNOWN)]
    rank = x._shape.ndims
    axes = {int(a) % rank for a in np.asarray(value).reshape(-1)} if rank else set()
    dims = x._shape.as_list()
    if op._attrs["keep_dims"]:
        return [(dtypes.string, tensor_shape.TensorShape([1 if d in axes else dims[d] for d in range(rank)]))]
    return [(dtypes.string, tensor_shape.TensorShape([dims[d] for d in range(rank) if d not in axes]))]


register_op("ReduceJoin", inputs=["inputs: string", "reduction_indices: int32"], outputs=_reduce_join_outputs,
            kernel=_reduce_join, grad=NOT_DIFFERENTIABLE, doc="Strings joined with separator along the axes.")


def reduce_join(inputs, axis=None, keep_dims=None, separator="", name=None, reduction_indices=None, keepdims=None):
    """``tf.reduce_join`` / ``tf.strings.reduce_join``: axis None joins everything."""
    from graphlab.ops import array_ops
    keep = bool(keepdims if keepdims is not None else keep_dims)
    axis = reduction_indices if axis is None else axis
    inputs = convert_to_tensor(inputs, dtype=dtypes.string)
    if axis is None:
        axis = array_ops.range(array_ops.rank(inputs) - 1, -1, -1) if inputs.shape.ndims is None else \
            list(range(inputs.shape.ndims - 1, -1, -1))
    return build_op("ReduceJoin", [inputs, convert_to_tensor(axis, dtype=dtypes.int32)],
                    attrs={"keep_dims": keep, "separator": separator}, name=name).outputs[0]


# ================================================================================= UnsortedSegmentJoin
def _segment_join(ctx, inputs, segment_ids, num_segments):
    inputs = np.asarray(inputs, dtype=object)
    ids = np.asarray(segment_ids)
    n = int(num_segments)
    tail = inputs.shape[ids.ndim:]
    out = np.empty((n,) + tail, dtype=object)
    groups = [[] for _ in range(n)]
    for index, seg in np.ndenumerate(ids):
        if 0 <= seg < n:
            groups[int(seg)].append(np.asarray(inputs[index], dtype=object))
    sep = ctx.attrs["separator"].encode()
    for seg in range(n):
        for inner in np.ndindex(*tail):
            out[(seg,) + inner] = sep.join(_bytes(g[inner]) for g in groups[seg])
    return out


register_op("UnsortedSegmentJoin", inputs=["inputs: string", "segment_ids: Tindices", "num_segments: Tnumsegments"],
            outputs=lambda op: [(dtypes.string, tensor_shape.UNKNOWN)], kernel=_segment_join,
            grad=NOT_DIFFERENTIABLE, doc="The strings of each segment joined with separator.")


def unsorted_segment_join(inputs, segment_ids, num_segments, separator="", name=None):
    """``tf.strings.unsorted_segment_join``."""
    return build_op("UnsortedSegmentJoin", [inputs, segment_ids, num_segments], attrs={"separator": separator},
                    name=name).outputs[0]


# ================================================================================= regular expressions
def _compile(ctx, pattern):
    import re2
    options = re2.Options()
    options.log_errors = False
    try:
        return re2.compile(pattern, options)
    except re2.error as e:
        raise InvalidArgumentError(None, ctx.op, "Invalid pattern: %s, error: %s" % (
            pattern, e.args[0].decode() if e.args and isinstance(e.args[0], bytes) else e)) from None


def _replace(ctx, values, pattern, rewrite):
    regex = _compile(ctx, pattern)
    count = 0 if ctx.attrs["replace_global"] else 1
    values = np.asarray(values, dtype=object)
    out = np.empty(values.shape, dtype=object)
    for index, value in np.ndenumerate(values):
        text = _bytes(value).decode("utf-8", "surrogateescape")
        out[index] = regex.sub(rewrite, text, count=count).encode("utf-8", "surrogateescape")
    return out


def _text(v):
    return _bytes(np.asarray(v, dtype=object).item()).decode("utf-8", "surrogateescape")


register_op("StaticRegexReplace", inputs=["input: string"], outputs=_same_shape(dtypes.string),
            kernel=lambda ctx, x: _replace(ctx, x, ctx.attrs["pattern"], ctx.attrs["rewrite"]),
            grad=NOT_DIFFERENTIABLE, doc="Matches of the RE2 pattern attr replaced by rewrite (\\1 refers to groups).")
register_op("RegexReplace", inputs=["input: string", "pattern: string", "rewrite: string"],
            outputs=_same_shape(dtypes.string),
            kernel=lambda ctx, x, p, r: _replace(ctx, x, _text(p), _text(r)),
            grad=NOT_DIFFERENTIABLE, doc="As StaticRegexReplace, the pattern and rewrite given as tensors.")


def regex_replace(input, pattern, rewrite, replace_global=True, name=None):  # noqa: A002
    """``tf.regex_replace`` / ``tf.strings.regex_replace``: StaticRegexReplace when pattern and rewrite are
    Python strings (as TF chooses), else RegexReplace."""
    if isinstance(pattern, (str, bytes)) and isinstance(rewrite, (str, bytes)):
        return build_op("StaticRegexReplace", [input], attrs={
            "pattern": pattern if isinstance(pattern, str) else pattern.decode(),
            "rewrite": rewrite if isinstance(rewrite, str) else rewrite.decode(),
            "replace_global": bool(replace_global)}, name=name).outputs[0]
    return build_op("RegexReplace", [input, pattern, rewrite], attrs={"replace_global": bool(replace_global)},
                    name=name).outputs[0]


register_op("RegexFullMatch", inputs=["input: string", "pattern: string"], outputs=_same_shape(dtypes.bool),
            kernel=lambda ctx, x, p: np.vectorize(lambda v: bool(_compile(ctx, _text(p)).fullmatch(
                _bytes(v).decode("utf-8", "surrogateescape"))), otypes=[bool])(np.asarray(x, dtype=object)),
            grad=NOT_DIFFERENTIABLE, doc="True where the whole string matches the pattern tensor (RE2).")


def regex_full_match(input, pattern, name=None):  # noqa: A002
    """``tf.strings.regex_full_match``: StaticRegexFullMatch for a Python pattern, else RegexFullMatch."""
    from graphlab.ops.io_ops import static_regex_full_match
    if isinstance(pattern, (str, bytes)):
        return static_regex_full_match(input, pattern if isinstance(pattern, str) else pattern.decode(), name=name)
    return build_op("RegexFullMatch", [input, pattern], name=name).outputs[0]


# ========================================================================== StringSplit, StringSplitV2
def _sparse_tokens(rows):
    indices = [[i, j] for i, row in enumerate(rows) for j in range(len(row))]
    values = [t for row in rows for t in row]
    width = max((len(r) for r in rows), default=0)
    return (np.array(indices, np.int64).reshape(-1, 2), np.array(values, dtype=object).reshape(-1),
            np.array([len(rows), width], np.int64))


def _split_v1(ctx, values, delimiter):
    values = np.asarray(values, dtype=object)
    if values.ndim != 1:
        raise InvalidArgumentError(None, ctx.op, "input must be a vector, got shape: %s"
                                   % tensor_shape.TensorShape(values.shape).bracket_str())
    delims = set(_bytes(np.asarray(delimiter, dtype=object).item()))
    skip_empty = ctx.attrs["skip_empty"]
    rows = []
    for value in values:
        s = _bytes(value)
        if not s:
            tokens = []          # an empty string has no tokens, even with skip_empty=False (TF)
        elif not delims:
            tokens = [bytes([c]) for c in s]
        else:
            tokens, start = [], 0
            for k, c in enumerate(s):
                if c in delims:
                    tokens.append(s[start:k])
                    start = k + 1
            tokens.append(s[start:])
        rows.append([t for t in tokens if t or not skip_empty])
    return _sparse_tokens(rows)


def _split_v2(ctx, values, sep):
    values = np.asarray(values, dtype=object)
    if values.ndim != 1:
        raise InvalidArgumentError(None, ctx.op, "input must be a vector, got shape: %s"
                                   % tensor_shape.TensorShape(values.shape).bracket_str())
    sep = _bytes(np.asarray(sep, dtype=object).item())
    maxsplit = ctx.attrs["maxsplit"]
    rows = []
    for value in values:
        s = _bytes(value)
        rows.append(s.split(None, maxsplit) if not sep else s.split(sep, maxsplit))
    return _sparse_tokens(rows)


def _sparse_outputs(op):
    return [(dtypes.int64, tensor_shape.TensorShape([None, 2])), (dtypes.string, tensor_shape.TensorShape([None])),
            (dtypes.int64, tensor_shape.TensorShape([2]))]


register_op("StringSplit", inputs=["input: string", "delimiter: string"], outputs=_sparse_outputs,
            kernel=_split_v1, grad=NOT_DIFFERENTIABLE,
            doc="Tokens of each string split at any one of the delimiter's characters (a SparseTensor's parts).")
register_op("StringSplitV2", inputs=["input: string", "sep: string"], outputs=_sparse_outputs, kernel=_split_v2,
            grad=NOT_DIFFERENTIABLE, doc="Tokens of each string split at the whole separator (whitespace runs if '').")


def string_split(source, sep=None, skip_empty=True, delimiter=None, result_type="SparseTensor", name=None):
    """``tf.string_split`` (TF1): a SparseTensor of tokens; each character of ``delimiter`` splits."""
    from graphlab.ops.parsing_ops import SparseTensor
    if result_type != "SparseTensor":
        raise NotImplementedError("graphlab's tf.string_split gives SparseTensors only (ragged tensors are not "
                                  "implemented)")
    delimiter = sep if sep is not None else (" " if delimiter is None else delimiter)
    with graph_mod.name_scope(name, "StringSplit", [source]):
        source = convert_to_tensor(source, dtype=dtypes.string)
        op = build_op("StringSplit", [source, convert_to_tensor(delimiter, dtype=dtypes.string)],
                      attrs={"skip_empty": bool(skip_empty)})
        return SparseTensor(*op.outputs)


def split(source, sep=None, maxsplit=-1, result_type="SparseTensor", name=None, input=None):  # noqa: A002
    """``tf.strings.split`` (TF1 form): a SparseTensor of tokens split at the whole ``sep`` (whitespace if None)."""
    from graphlab.ops.parsing_ops import SparseTensor
    source = input if input is not None else source
    if result_type != "SparseTensor":
        raise NotImplementedError("graphlab's tf.strings.split gives SparseTensors only (ragged tensors are not "
                                  "implemented)")
    with graph_mod.name_scope(name, "StringSplit", [source]):
        source = convert_to_tensor(source, dtype=dtypes.string)
        op = build_op("StringSplitV2", [source, convert_to_tensor(sep or "", dtype=dtypes.string)],
                      attrs={"maxsplit": int(maxsplit)})
        return SparseTensor(*op.outputs)


# =========================================================================================== functions
def _unary_fn(op_type):
    def fn(input, name=None, **attrs):  # noqa: A002
        return build_op(op_type, [input], attrs=attrs or None, name=name).outputs[0]
    return fn


def string_strip(input, name=None):  # noqa: A002
    """``tf.string_strip`` / ``tf.strings.strip``."""
    return build_op("StringStrip", [input], name=name).outputs[0]


def lower(input, encoding="", name=None):  # noqa: A002
    return build_op("StringLower", [input], attrs={"encoding": encoding}, name=name).outputs[0]


def upper(input, encoding="", name=None):  # noqa: A002
    return build_op("StringUpper", [input], attrs={"encoding": encoding}, name=name).outputs[0]


def length(input, name=None, unit="BYTE"):  # noqa: A002
    """``tf.strings.length``: bytes (unit "BYTE") or UTF-8 characters ("UTF8_CHAR")."""
    return build_op("StringLength", [input], attrs={"unit": unit}, name=name).outputs[0]


def string_to_number(string_tensor, out_type=dtypes.float32, name=None):
    """``tf.string_to_number`` / ``tf.strings.to_number``."""
    return build_op("StringToNumber", [string_tensor], attrs={"out_type": dtypes.as_dtype(out_type)},
                    name=name).outputs[0]


def to_number(input, out_type=dtypes.float32, name=None):  # noqa: A002
    return string_to_number(input, out_type, name)
