"""Counting values: Unique / UniqueWithCounts (``tf.unique``), DenseBincount (``tf.bincount``, built as TF 2.21's
bincount_ops builds it) and HistogramFixedWidth (``tf.histogram_fixed_width``), plus TF's
``tf.histogram_fixed_width_bins`` composite. TF registers no gradient for these ops: differentiating through
them raises TF's LookupError.
"""
import collections

import numpy as np

from graphlab.framework import dtypes, tensor_shape
from graphlab.framework import graph as graph_mod
from graphlab.formats.errors import InvalidArgumentError
from graphlab.ops import array_ops, math_ops
from graphlab.framework.registry import build_op, const_value, constant, convert_to_tensor, register_op


# ------------------------------------------------------------------------------------ Unique, UniqueWithCounts
def _unique_outputs(with_counts):
    def outputs(op):
        x = op._inputs[0]
        if x._shape.ndims is not None and x._shape.ndims != 1:
            raise ValueError("Shape must be rank 1 but is rank %d" % x._shape.ndims)
        idx = op._attrs["out_idx"]
        # TF: the positions have the input's shape as it is known (an unknown one stays unknown)
        out = [(x._dtype.base_dtype, tensor_shape.TensorShape([None])), (idx, x._shape)]
        return out + [(idx, tensor_shape.TensorShape([None]))] if with_counts else out
    return outputs


def _unique_kernel(with_counts):
    def kernel(ctx, x):
        if np.ndim(x) != 1:
            raise InvalidArgumentError(None, ctx.op, "unique expects a 1D vector.")
        values, first, inverse, counts = np.unique(x, return_index=True, return_inverse=True, return_counts=True)
        order = np.argsort(first, kind="stable")          # TF lists values in order of first appearance
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        idx_type = ctx.attrs["out_idx"].as_numpy_dtype
        out = (values[order].astype(x.dtype), rank[inverse.reshape(-1)].astype(idx_type))
        return out + (counts[order].astype(idx_type),) if with_counts else out
    return kernel


register_op("Unique", inputs=["x: T"], outputs=_unique_outputs(False), kernel=_unique_kernel(False), grad=None,
            doc="The distinct values of a vector in order of first appearance, and each element's position there.")
register_op("UniqueWithCounts", inputs=["x: T"], outputs=_unique_outputs(True), kernel=_unique_kernel(True), grad=None,
            doc="Unique, plus how often each distinct value occurs.")


Unique = collections.namedtuple("Unique", ["y", "idx"])
UniqueWithCounts = collections.namedtuple("UniqueWithCounts", ["y", "idx", "count"])


def unique(x, out_idx=dtypes.int32, name=None):
    """``tf.unique``: TF's namedtuple Unique(y, idx), with x == gather(y, idx)."""
    outs = build_op("Unique", [x], attrs={"out_idx": dtypes.as_dtype(out_idx)}, name=name).outputs
    return Unique(outs[0], outs[1])


def unique_with_counts(x, out_idx=dtypes.int32, name=None):
    """``tf.unique_with_counts``: TF's namedtuple UniqueWithCounts(y, idx, count)."""
    outs = build_op("UniqueWithCounts", [x], attrs={"out_idx": dtypes.as_dtype(out_idx)}, name=name).outputs
    return UniqueWithCounts(outs[0], outs[1], outs[2])


# --------------------------------------------------------------------------------------------- DenseBincount
def _bincount_outputs(op):
    arr, size, weights = op._inputs
    n = const_value(size)
    dims = arr._shape.as_list() if arr._shape.ndims is not None else None
    length = None if n is None else int(n)
    shape = [length] if dims is None or len(dims) <= 1 else [dims[0], length]
    return [(weights._dtype.base_dtype, tensor_shape.TensorShape(shape))]


def _bincount_kernel(ctx, arr, size, weights):
    size = int(size)
    if size < 0:
        raise InvalidArgumentError(None, ctx.op, "size (%d) must be non-negative" % size)
    if np.any(arr < 0):
        raise InvalidArgumentError(None, ctx.op, "Input arr must be non-negative!")
    flat = np.asarray(arr).reshape(-1)
    keep = flat < size
    w = np.asarray(weights).reshape(-1)
    if ctx.attrs["binary_output"]:
        out = np.zeros(size, dtype=weights.dtype)
        out[flat[keep]] = 1
        return out
    counts = np.bincount(flat[keep], weights=w[keep] if w.size else None, minlength=size)
    return counts.astype(weights.dtype)


register_op("DenseBincount", inputs=["input: Tidx", "size: Tidx", "weights: T"], outputs=_bincount_outputs,
            kernel=_bincount_kernel, grad=None,
            doc="How often each value 0..size-1 occurs in input (summing weights when given).")


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=dtypes.int32, name=None, axis=None,
             binary_output=False):
    """``tf.bincount`` / ``tf.math.bincount``: counts of each value 0..max(arr), as TF 2.21 builds it."""
    with graph_mod.name_scope(name or "bincount", None, []):
        arr = convert_to_tensor(arr, name="arr")
        if weights is not None:
            weights = convert_to_tensor(weights, name="weights")
        if weights is not None and binary_output:
            raise ValueError("Arguments `binary_output` and `weights` are mutually exclusive. Please specify only "
                             "one.")
        if not arr.dtype.is_integer:
            arr = math_ops.cast(arr, dtypes.int32)
        axis = 0 if axis is None else axis
        if axis not in (0, -1):
            raise ValueError("Unsupported value for argument axis=%s. Only 0 and -1 are currently supported." % axis)
        nonempty = array_ops.size(arr) > 0
        output_size = math_ops.cast(nonempty, arr.dtype) * (math_ops.reduce_max(arr) + 1)
        if minlength is not None:
            minlength = convert_to_tensor(minlength, name="minlength", dtype=arr.dtype)
            output_size = math_ops.maximum(minlength, output_size)
        if maxlength is not None:
            maxlength = convert_to_tensor(maxlength, name="maxlength", dtype=arr.dtype)
            output_size = math_ops.minimum(maxlength, output_size)
        if axis == 0:
            if weights is not None:
                weights = array_ops.reshape(weights, [-1])
            arr = array_ops.reshape(arr, [-1])
        if weights is None:
            weights = constant([], dtype=dtype if dtype else arr.dtype)
        elif not hasattr(weights, "_op"):
            raise ValueError("Argument `weights` must be a tf.Tensor if `values` is a tf.Tensor. Received weights=%s "
                             "of type: %s" % (weights, type(weights).__name__))
        return build_op("DenseBincount", [arr, output_size, weights],
                        attrs={"binary_output": bool(binary_output)}).outputs[0]


# ------------------------------------------------------------------------------------- HistogramFixedWidth
def _histogram_outputs(op):
    values, value_range, nbins = op._inputs
    if value_range._shape.ndims is not None and value_range._shape.ndims != 1:
        raise ValueError("Shape must be rank 1 but is rank %d" % value_range._shape.ndims)
    n = const_value(nbins)
    return [(op._attrs["dtype"], tensor_shape.TensorShape([None if n is None else int(n)]))]


def _histogram_kernel(ctx, values, value_range, nbins):
    nbins = int(nbins)
    lo, hi = value_range.reshape(-1)[:2]
    if nbins <= 0:
        raise InvalidArgumentError(None, ctx.op, "nbins should be a positive number, but got '%d'" % nbins)
    if not lo < hi:
        raise InvalidArgumentError(None, ctx.op, "value_range should satisfy value_range[0] < value_range[1], but got "
                                   "'[%s, %s]'" % (_short(lo), _short(hi)))
    step = (np.asarray(values, np.float64).reshape(-1) - float(lo)) / (float(hi) - float(lo))
    index = np.clip(np.floor(step * nbins), 0, nbins - 1).astype(np.int64)
    return np.bincount(index, minlength=nbins).astype(ctx.attrs["dtype"].as_numpy_dtype)


def _short(v):
    return ("%g" % v) if float(v) != int(v) else str(int(v))


register_op("HistogramFixedWidth", inputs=["values: T", "value_range: T", "nbins: int32"],
            outputs=_histogram_outputs, kernel=_histogram_kernel, grad=None,
            doc="Counts of values in nbins equal-width bins over value_range (outliers in the end bins).")


def histogram_fixed_width(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """``tf.histogram_fixed_width``."""
    with graph_mod.name_scope(name, "histogram_fixed_width", [values, value_range, nbins]) as scope:
        return build_op("HistogramFixedWidth", [values, value_range, nbins], attrs={"dtype": dtypes.as_dtype(dtype)},
                        name=scope).outputs[0]


def histogram_fixed_width_bins(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """``tf.histogram_fixed_width_bins``: each value's bin index, as TF builds it (Assert on nbins > 0)."""
    from graphlab.ops import control_flow_ops, logging_ops
    with graph_mod.name_scope(name, "histogram_fixed_width_bins", [values, value_range, nbins]):
        values = convert_to_tensor(values, name="values")
        shape = array_ops.shape(values)
        values = array_ops.reshape(values, [-1])
        value_range = convert_to_tensor(value_range, name="value_range")
        nbins = convert_to_tensor(nbins, dtype=dtypes.int32, name="nbins")
        check = logging_ops.Assert(math_ops.greater(nbins, 0), ["nbins %s must > 0" % nbins])
        nbins = control_flow_ops.with_dependencies([check], nbins)
        nbins_float = math_ops.cast(nbins, values.dtype)
        scaled = math_ops.truediv(values - value_range[0], value_range[1] - value_range[0], name="scaled_values")
        indices = math_ops.floor(nbins_float * scaled, name="indices")
        indices = math_ops.cast(array_ops.clip_by_value(indices, 0, nbins_float - 1), dtypes.int32)
        return array_ops.reshape(indices, shape)


__all__ = ["unique", "unique_with_counts", "bincount", "histogram_fixed_width", "histogram_fixed_width_bins"]
