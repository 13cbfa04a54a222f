"""Scan ops: running sums and products along one axis (TF's Cumsum and Cumprod, ``tf.cumsum``,
``tf.cumprod``). Their gradients are scans themselves, run the other way; reduce_prod's exact gradient is
built from exclusive cumprods (graphlab/ops/math_ops.py)."""
import numpy as np

from graphlab.framework import dtypes
from graphlab.formats.errors import InvalidArgumentError
from graphlab.ops.math_ops import _scope, div_no_nan
from graphlab.framework.registry import build_op, convert_to_tensor, register_op

# TF's scan ops: x and a scalar axis; attrs exclusive (leave each element out of its own running total)
# and reverse (run from the end). The shape rule is TF's UnchangedShape: a bad axis is found at run time.
_NUMBER_TYPES = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.uint8, dtypes.int16, dtypes.int8,
                 dtypes.complex64, dtypes.int64, "qint8", "quint8", "qint32", dtypes.bfloat16, "qint16",
                 "quint16", dtypes.uint16, dtypes.complex128, dtypes.float16, dtypes.uint32, dtypes.uint64)


def _allowed_names(allowed):
    return ", ".join(d if isinstance(d, str) else d.name for d in allowed)


def _scan_outputs(op):
    x, axis = op._inputs
    if x._dtype.base_dtype not in _NUMBER_TYPES:
        raise TypeError("Value passed to parameter 'x' has DataType %s not in list of allowed values: %s"
                        % (x._dtype.base_dtype.name, _allowed_names(_NUMBER_TYPES)))
    if axis._dtype.base_dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError("Value passed to parameter 'axis' has DataType %s not in list of allowed values: "
                        "int32, int64" % axis._dtype.base_dtype.name)
    return [(x._dtype.base_dtype, x._shape)]


def _scan_kernel(np_scan, identity):
    """A numpy kernel for Cumsum/Cumprod: checks the axis in TF's words, then scans (flipped for reverse,
    shifted by one with ``identity`` in front for exclusive)."""
    def kernel(ctx, x, axis):
        x = np.asarray(x)
        if np.ndim(axis):
            raise InvalidArgumentError(None, ctx.op, "ScanOp: axis must be a scalar, not [%s]" % ",".join(
                str(d) for d in np.shape(axis)))
        a, rank = int(axis), x.ndim
        if not -rank <= a < rank:
            raise InvalidArgumentError(None, ctx.op, "ScanOp: Expected scan axis in the range [%d, %d), but "
                                       "got %d" % (-rank, rank, a + rank if a < 0 else a))
        a %= rank
        if ctx.attrs["reverse"]:
            x = np.flip(x, a)
        out = np_scan(x, axis=a, dtype=x.dtype)
        if ctx.attrs["exclusive"] and x.shape[a]:
            first = np.full_like(np.take(out, [0], axis=a), identity)
            out = np.concatenate([first, np.delete(out, -1, axis=a)], axis=a)
        if ctx.attrs["reverse"]:
            out = np.flip(out, a)
        return np.ascontiguousarray(out)
    return kernel


def _cumsum_grad(op, grad):
    """TF's _CumsumGrad: the same scan of the incoming gradient, run the other way."""
    return [cumsum(grad, op.inputs[1], exclusive=op._attrs["exclusive"], reverse=not op._attrs["reverse"]),
            None]


def _cumprod_grad(op, grad):
    """TF's _CumprodGrad: cumsum(cumprod(x) * grad) run the other way, divided by x (div_no_nan: 0 where x
    is 0, as in TF; tf.reduce_prod's gradient uses exclusive cumprods instead, which are exact at zeros)."""
    x, axis = op.inputs
    exclusive, reverse = op._attrs["exclusive"], op._attrs["reverse"]
    prod = cumprod(x, axis, exclusive=exclusive, reverse=reverse)
    out = cumsum(prod * grad, axis, exclusive=exclusive, reverse=not reverse)
    return [div_no_nan(out, x), None]


register_op(
    "Cumsum",
    inputs=["x: T", "axis: Tidx=int32"],
    outputs=_scan_outputs,
    kernel=_scan_kernel(np.cumsum, 0),
    grad=_cumsum_grad,
    doc="Running sums along an axis (exclusive: each total leaves its own element out; reverse: from the end).")
register_op(
    "Cumprod",
    inputs=["x: T", "axis: Tidx=int32"],
    outputs=_scan_outputs,
    kernel=_scan_kernel(np.cumprod, 1),
    grad=_cumprod_grad,
    doc="Running products along an axis (exclusive: each leaves its own element out; reverse: from the end).")


def _scan(op_type, x, axis, exclusive, reverse, name):
    graph, scope = _scope(name, op_type, [x])
    with scope as s:
        x = convert_to_tensor(x, name="x")
        return build_op(op_type, [x, axis], attrs={"exclusive": bool(exclusive), "reverse": bool(reverse)},
                        name=s).outputs[0]


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    """``tf.cumsum``: cumsum([a, b, c]) is [a, a+b, a+b+c]; exclusive gives [0, a, a+b]; reverse gives
    [a+b+c, b+c, c]. ``axis`` must be in [-rank, rank)."""
    return _scan("Cumsum", x, axis, exclusive, reverse, name)


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    """``tf.cumprod``: cumprod([a, b, c]) is [a, a*b, a*b*c]; exclusive gives [1, a, a*b]; reverse gives
    [a*b*c, b*c, c]. ``axis`` must be in [-rank, rank)."""
    return _scan("Cumprod", x, axis, exclusive, reverse, name)
