"""Segment reductions and partitioning: SegmentSum/Mean/Max/Min/Prod (sorted ids), UnsortedSegmentMax/Min/Prod
(UnsortedSegmentSum lives with Gather in array_ops; its gradient rule is here), tf.unsorted_segment_mean /
sqrt_n, DynamicPartition and ParallelDynamicStitch, each with TF's gradient (math_grad.py, data_flow_grad.py).

As TF's CPU kernels: an empty sorted segment holds 0 (1 for Prod); an empty unsorted segment holds the
reduction's identity (the type's lowest value for Max, highest for Min, 1 for Prod); unsorted ids below 0
are dropped.
"""
import numpy as np

from graphlab.framework import dtypes, tensor_shape
from graphlab.framework import graph as graph_mod
from graphlab.formats.errors import InvalidArgumentError
from graphlab.ops import array_ops, math_ops
from graphlab.framework.registry import build_op, const_value, constant, convert_to_tensor, get_opdef, register_op


def _lowest(dtype):
    return np.finfo(dtype).min if np.dtype(dtype).kind == "f" else np.iinfo(dtype).min


def _highest(dtype):
    return np.finfo(dtype).max if np.dtype(dtype).kind == "f" else np.iinfo(dtype).max


# -------------------------------------------------------------------------------- sorted segment reductions
def _sorted_outputs(op):
    data, ids = op._inputs
    if ids._shape.ndims is not None and ids._shape.ndims != 1:
        raise ValueError("Shape must be rank 1 but is rank %d" % ids._shape.ndims)
    dtype = data._dtype.base_dtype
    if data._shape.ndims is None:
        return [(dtype, tensor_shape.UNKNOWN)]
    if data._shape.ndims < 1:
        raise ValueError("Shape must be at least rank 1 but is rank 0")
    return [(dtype, tensor_shape.TensorShape([None] + data._shape.as_list()[1:]))]


_UFUNCS = {"Sum": (np.add, 0), "Mean": (np.add, 0), "Max": (np.maximum, None), "Min": (np.minimum, None),
           "Prod": (np.multiply, 1)}


def _sorted_kernel(kind):
    ufunc, _ = _UFUNCS[kind]

    def kernel(ctx, data, ids):
        ids = np.asarray(ids).astype(np.int64).reshape(-1)
        if data.ndim < 1 or ids.size != data.shape[0]:
            raise InvalidArgumentError(None, ctx.op, "segment_ids should be the same size as dimension 0 of input.")
        if ids.size and np.any(np.diff(ids) < 0):
            raise InvalidArgumentError(None, ctx.op, "segment ids are not increasing")
        n = int(ids[-1]) + 1 if ids.size else 0
        if ids.size and ids[0] < 0:
            raise InvalidArgumentError(None, ctx.op, "Segment id %d out of range [0, %d), possibly because "
                                       "'segment_ids' input is not sorted." % (ids[0], n))
        empty_value = 1 if kind == "Prod" else 0
        out = np.full((n,) + data.shape[1:], empty_value, dtype=data.dtype)
        if ids.size:
            starts = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]])
            reduced = ufunc.reduceat(data, starts, axis=0)
            if kind == "Mean":
                counts = np.diff(np.r_[starts, ids.size]).reshape((-1,) + (1,) * (data.ndim - 1))
                reduced = reduced / counts if data.dtype.kind == "f" else reduced // counts
            out[ids[starts]] = reduced
        return out
    return kernel


def _segment_mean_grad(op, grad):
    """TF's _SegmentMeanGrad: each element gets its segment's gradient over the segment's size."""
    data_rank = array_ops.rank(op.inputs[0])
    ids_shape = array_ops.shape(op.inputs[1])
    remaining = array_ops.ones(array_ops.expand_dims(data_rank - 1, 0), dtype=ids_shape.dtype)
    ones = array_ops.ones(array_ops.concat([ids_shape, remaining], 0), dtype=grad.dtype)
    scaled = math_ops.divide(grad, segment_sum(ones, op.inputs[1]))
    return [array_ops.gather(scaled, op.inputs[1]), None]


def _segment_min_or_max_grad(op, grad):
    """TF's _SegmentMinOrMaxGrad: split evenly between the elements equal to their segment's extremum."""
    zeros = array_ops.zeros_like(op.inputs[0], dtype=op.inputs[0].dtype)
    gathered_outputs = array_ops.gather(op.outputs[0], op.inputs[1])
    is_selected = math_ops.equal(op.inputs[0], gathered_outputs)
    num_selected = segment_sum(math_ops.cast(is_selected, grad.dtype), op.inputs[1])
    weighted = math_ops.divide(grad, num_selected)
    gathered = array_ops.gather(weighted, op.inputs[1])
    return [array_ops.where_v2(is_selected, gathered, zeros), None]


def _segment_prod_grad(op, grad):
    """TF's _SegmentProdGrad: the product of the other elements, exact where the data holds zeros."""
    data, ids = op.inputs
    is_zero = math_ops.equal(data, 0)
    num_zeros = build_op("SegmentSum", [math_ops.cast(is_zero, dtype=dtypes.int32), ids]).outputs[0]
    grad = array_ops.where_v2(math_ops.greater(num_zeros, 1), array_ops.zeros_like(grad), grad)
    non_zero_data = array_ops.where_v2(is_zero, array_ops.ones_like(data), data)
    non_zero_prod = build_op("SegmentProd", [non_zero_data, ids]).outputs[0]
    gathered_prod = array_ops.gather(op.outputs[0], ids)
    gathered_non_zero_prod = array_ops.gather(non_zero_prod, ids)
    prod_divided_by_el = gathered_prod / non_zero_data
    partial = array_ops.where_v2(is_zero, gathered_non_zero_prod, prod_divided_by_el)
    return [array_ops.gather(grad, ids) * partial, None]


_SORTED_GRADS = {"Sum": lambda op, grad: [array_ops.gather(grad, op.inputs[1]), None], "Mean": _segment_mean_grad,
                 "Max": _segment_min_or_max_grad, "Min": _segment_min_or_max_grad, "Prod": _segment_prod_grad}

for _kind in ("Sum", "Mean", "Max", "Min", "Prod"):
    register_op("Segment" + _kind, inputs=["data: T", "segment_ids: Tindices=int32"], outputs=_sorted_outputs,
                kernel=_sorted_kernel(_kind), grad=_SORTED_GRADS[_kind],
                doc="%s of the rows of data in each segment (sorted ids; missing segments hold %s)."
                    % (_kind, "1" if _kind == "Prod" else "0"))


def _sorted(kind):
    def segment(data, segment_ids, name=None):
        return build_op("Segment" + kind, [data, segment_ids], name=name).outputs[0]
    segment.__name__ = segment.__qualname__ = "segment_" + kind.lower()
    segment.__doc__ = "``tf.math.segment_%s`` (segment_ids sorted)." % kind.lower()
    return segment


segment_sum, segment_mean, segment_max, segment_min, segment_prod = (
    _sorted(k) for k in ("Sum", "Mean", "Max", "Min", "Prod"))


# ------------------------------------------------------------------------------ unsorted segment reductions
def _unsorted_outputs(op):
    data, ids, num = op._inputs
    dtype = data._dtype.base_dtype
    n = const_value(num)
    if data._shape.ndims is None or ids._shape.ndims is None:
        return [(dtype, tensor_shape.UNKNOWN)]
    dd, di = data._shape.as_list(), ids._shape.as_list()
    if len(di) > len(dd):
        raise ValueError("Shape must be at least rank %d but is rank %d" % (len(di), len(dd)))
    _prefix_check(dd, di)
    return [(dtype, tensor_shape.TensorShape([None if n is None else int(n)] + dd[len(di):]))]


def _prefix_check(data_dims, ids_dims):
    for a, b in zip(data_dims, ids_dims):
        if a is not None and b is not None and a != b:
            raise ValueError("Dimensions must be equal, but are %d and %d" % (a, b))


def _unsorted_kernel(kind):
    ufunc, _ = _UFUNCS[kind]

    def kernel(ctx, data, ids, num):
        num = int(num)
        identity = {"Sum": 0, "Max": _lowest(data.dtype), "Min": _highest(data.dtype), "Prod": 1}[kind]
        out = np.full((num,) + data.shape[ids.ndim:], identity, dtype=data.dtype)
        flat_ids = np.asarray(ids).reshape(-1)
        bad = np.flatnonzero(flat_ids >= num)
        if bad.size:
            raise InvalidArgumentError(None, ctx.op, "segment_ids[%d] = %d is out of range [0, %d)"
                                       % (bad[0], flat_ids[bad[0]], num))
        keep = flat_ids >= 0
        rows = data.reshape((flat_ids.size,) + data.shape[ids.ndim:])[keep]
        ufunc.at(out, flat_ids[keep], rows)
        return out
    return kernel


def _gather_drop_negatives(params, ids, zero_clipped_indices=None, is_positive=None):
    """TF's _GatherDropNegatives: gather(params, max(ids, 0)), zero where an id was negative."""
    if zero_clipped_indices is None:
        zero_clipped_indices = math_ops.maximum(ids, array_ops.zeros_like(ids))
    gathered = array_ops.gather(params, zero_clipped_indices)
    if is_positive is None:
        is_positive = math_ops.greater_equal(ids, 0)
        is_positive_shape = array_ops.shape(is_positive)
        broadcastable = array_ops.concat(
            [is_positive_shape, array_ops.ones([array_ops.rank(gathered) - array_ops.rank(is_positive)],
                                               dtype=is_positive_shape.dtype)], axis=0)
        is_positive = array_ops.reshape(is_positive, broadcastable)
        is_positive = is_positive & array_ops.ones_like(gathered, dtype=dtypes.bool)
    zero_slice = array_ops.zeros_like(gathered)
    return array_ops.where_v2(is_positive, gathered, zero_slice), zero_clipped_indices, is_positive


# UnsortedSegmentSum's block is in array_ops (beside Gather, whose gradient it is); these are its rules.
unsorted_segment_sum_outputs = _unsorted_outputs
unsorted_segment_sum_kernel = _unsorted_kernel("Sum")


def unsorted_segment_sum_grad(op, grad):
    """TF's _UnsortedSegmentSumGrad (the rule of array_ops' UnsortedSegmentSum)."""
    return [_gather_drop_negatives(grad, op.inputs[1])[0], None, None]


def _unsorted_min_or_max_grad(op, grad):
    """TF's _UnsortedSegmentMinOrMaxGrad."""
    gathered_outputs, zero_clipped, is_positive = _gather_drop_negatives(op.outputs[0], op.inputs[1])
    is_selected = math_ops.logical_and(math_ops.equal(op.inputs[0], gathered_outputs), is_positive)
    num_selected = array_ops.unsorted_segment_sum(math_ops.cast(is_selected, grad.dtype), op.inputs[1],
                                                  op.inputs[2])
    weighted = math_ops.divide(grad, num_selected)
    gathered, _, _ = _gather_drop_negatives(weighted, None, zero_clipped, is_positive)
    zeros = array_ops.zeros_like(gathered)
    return [array_ops.where_v2(is_selected, gathered, zeros), None, None]


def _unsorted_prod_grad(op, grad):
    """TF's _UnsortedSegmentProdGrad."""
    data, ids, num = op.inputs
    is_zero = math_ops.equal(data, 0)
    num_zeros = build_op("UnsortedSegmentSum", [math_ops.cast(is_zero, dtype=dtypes.int32), ids, num]).outputs[0]
    grad = array_ops.where_v2(math_ops.greater(num_zeros, 1), array_ops.zeros_like(grad), grad)
    non_zero_data = array_ops.where_v2(is_zero, array_ops.ones_like(data), data)
    non_zero_prod = build_op("UnsortedSegmentProd", [non_zero_data, ids, num]).outputs[0]
    zero_clipped = math_ops.maximum(ids, array_ops.zeros_like(ids))
    gathered_prod = array_ops.gather(op.outputs[0], zero_clipped)
    gathered_non_zero_prod = array_ops.gather(non_zero_prod, zero_clipped)
    prod_divided_by_el = gathered_prod / data
    partial = array_ops.where_v2(is_zero, gathered_non_zero_prod, prod_divided_by_el)
    gathered_grad = _gather_drop_negatives(grad, ids, zero_clipped)[0]
    return [gathered_grad * partial, None, None]


for _kind, _rule in (("Max", _unsorted_min_or_max_grad), ("Min", _unsorted_min_or_max_grad),
                     ("Prod", _unsorted_prod_grad)):
    register_op("UnsortedSegment" + _kind,
                inputs=["data: T", "segment_ids: Tindices=int32", "num_segments: Tnumsegments=int32"],
                outputs=_unsorted_outputs, kernel=_unsorted_kernel(_kind), grad=_rule,
                doc="%s of the rows of data sharing a segment id (negative ids dropped)." % _kind)


def _unsorted(kind):
    def segment(data, segment_ids, num_segments, name=None):
        return build_op("UnsortedSegment" + kind, [data, segment_ids, num_segments], name=name).outputs[0]
    segment.__name__ = segment.__qualname__ = "unsorted_segment_" + kind.lower()
    segment.__doc__ = "``tf.math.unsorted_segment_%s``." % kind.lower()
    return segment


unsorted_segment_max, unsorted_segment_min, unsorted_segment_prod = (_unsorted(k) for k in ("Max", "Min", "Prod"))


def _shape_internal(t):
    """TF's shape_internal without out_type: a known shape is converted as a TensorShape ("Shape/shape_as_tensor")."""
    with graph_mod.name_scope(None, "Shape", [t]) as scope:
        if t.shape.is_fully_defined():
            dims = t.shape.as_list()
            dtype = np.int64 if any(d >= 2 ** 31 for d in dims) else np.int32
            return constant(np.array(dims, dtype=dtype), name="shape_as_tensor")
        return build_op("Shape", [t], attrs={"out_type": dtypes.int32}, name=scope).outputs[0]


def _segment_counts(data, segment_ids, num_segments):
    """TF's _unsorted_segment_N: how many rows each segment has (at least 1), shaped to broadcast."""
    num_segments = convert_to_tensor(num_segments)
    ids_shape = _shape_internal(segment_ids)
    ones = array_ops.ones(ids_shape, dtype=data.dtype)
    n = array_ops.unsorted_segment_sum(ones, segment_ids, num_segments)
    broadcastable = array_ops.concat(
        [num_segments[None], array_ops.ones([array_ops.rank(data) - array_ops.rank(segment_ids)],
                                            dtype=num_segments.dtype)], axis=0)
    n = array_ops.reshape(n, broadcastable)
    return math_ops.maximum(n, 1)


def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    """``tf.math.unsorted_segment_mean``: the sum over each segment's size."""
    with graph_mod.name_scope(name, "UnsortedSegmentMean", []):
        data = convert_to_tensor(data)
        segment_ids = convert_to_tensor(segment_ids)
        n = _segment_counts(data, segment_ids, num_segments)
        return array_ops.unsorted_segment_sum(data, segment_ids, num_segments) / n


def unsorted_segment_sqrt_n(data, segment_ids, num_segments, name=None):
    """``tf.math.unsorted_segment_sqrt_n``: the sum over the square root of each segment's size."""
    with graph_mod.name_scope(name, "UnsortedSegmentSqrtN", []):
        data = convert_to_tensor(data)
        segment_ids = convert_to_tensor(segment_ids)
        n = _segment_counts(data, segment_ids, num_segments)
        return array_ops.unsorted_segment_sum(data, segment_ids, num_segments) / math_ops.sqrt(n)


# ------------------------------------------------------------------------ DynamicPartition, ParallelDynamicStitch
def _partition_outputs(op):
    data, parts = op._inputs
    n = op._attrs["num_partitions"]
    dtype = data._dtype.base_dtype
    if data._shape.ndims is None or parts._shape.ndims is None:
        return [(dtype, tensor_shape.UNKNOWN)] * n
    dd, dp = data._shape.as_list(), parts._shape.as_list()
    if len(dp) > len(dd):
        raise ValueError("Shape must be at least rank %d but is rank %d" % (len(dp), len(dd)))
    _prefix_check(dd, dp)
    return [(dtype, tensor_shape.TensorShape([None] + dd[len(dp):]))] * n


def _partition_kernel(ctx, data, parts):
    n = ctx.attrs["num_partitions"]
    flat = np.asarray(parts).reshape(-1)
    bad = np.flatnonzero((flat < 0) | (flat >= n))
    if bad.size:
        raise InvalidArgumentError(None, ctx.op, "partitions[%d] = %d is not in [0, %d)" % (bad[0], flat[bad[0]], n))
    rows = data.reshape((flat.size,) + data.shape[np.ndim(parts):])
    return tuple(rows[flat == i] for i in range(n))


def _partition_grad(op, *grads):
    """TF's _DynamicPartitionGrads: partition the element positions the same way and stitch the gradients
    back to them."""
    data, indices = op.inputs
    prefix_shape = array_ops.shape(indices)
    original = array_ops.reshape(array_ops.range(math_ops.reduce_prod(prefix_shape)), prefix_shape)
    partitioned = dynamic_partition(original, indices, op._attrs["num_partitions"])
    stitched = build_op("ParallelDynamicStitch", [partitioned, list(grads)]).outputs[0]
    return [array_ops.reshape(stitched, array_ops.shape(data)), None]


register_op("DynamicPartition", inputs=["data: T", "partitions: int32"], outputs=_partition_outputs,
            kernel=_partition_kernel, grad=_partition_grad,
            doc="Splits data into num_partitions tensors by each row's partition index.")

def _stitch():
    return get_opdef("DynamicStitch")    # registered with the gradient machinery (graphlab.gradients)


register_op("ParallelDynamicStitch", inputs=["indices: N*int32", "data: N*T"],
            outputs=lambda op: _stitch().outputs(op), kernel=lambda ctx, *args: _stitch().kernel(ctx, *args),
            grad=lambda op, grad: _stitch().grad(op, grad),
            doc="DynamicStitch whose results do not depend on the order of equal indices (TF may run it in "
                "parallel; here it is the same kernel).")


def dynamic_partition(data, partitions, num_partitions, name=None):
    """``tf.dynamic_partition``."""
    return build_op("DynamicPartition", [data, partitions], attrs={"num_partitions": int(num_partitions)},
                    name=name).outputs


# ------------------------------------------------------------------------------------ DynamicStitch
# The inverse of DynamicPartition: rows of several tensors interleaved into one (also what TF's reduced_shape
# builds a reduction's kept-dims shape with).

def _stitch_outputs(op):
    n = len(op._inputs) // 2
    indices, data = op._inputs[:n], op._inputs[n:]
    values = [const_value(t) for t in indices]
    first, d0 = indices[0]._shape, data[0]._shape
    rest = None
    if first.ndims is not None and d0.ndims is not None:
        rest = d0.as_list()[first.ndims:]
    size = None if any(v is None for v in values) else \
        max([int(np.max(v)) + 1 for v in values if np.size(v)] or [0])
    dims = tensor_shape.TensorShape([size]).concatenate(
        tensor_shape.UNKNOWN if rest is None else tensor_shape.TensorShape(rest))
    return [(data[0]._dtype.base_dtype, dims)]


def _stitch_kernel(ctx, *args):
    n = len(args) // 2
    indices, data = [np.asarray(i) for i in args[:n]], [np.asarray(d) for d in args[n:]]
    size = max([int(i.max()) + 1 for i in indices if i.size] or [0])
    rest = data[0].shape[indices[0].ndim:]
    out = np.zeros((size,) + rest, dtype=data[0].dtype)
    for idx, d in zip(indices, data):
        out[idx.reshape(-1)] = d.reshape((-1,) + rest)
    return out


def _stitch_grad(op, grad):
    n = len(op._inputs) // 2
    return [None] * n + [array_ops.gather(grad, i) for i in op.inputs[:n]]


register_op(
    "DynamicStitch",
    inputs=["indices: N*int32", "data: N*T"],
    outputs=_stitch_outputs,
    kernel=_stitch_kernel,
    grad=_stitch_grad,
    doc="Interleaves data[i] into one tensor at rows indices[i] (later inputs win on repeats).")

def dynamic_stitch(indices, data, name=None):
    """``tf.dynamic_stitch``."""
    return build_op("DynamicStitch", [list(indices), list(data)], name=name).outputs[0]


__all__ = ["segment_sum", "segment_mean", "segment_max", "segment_min", "segment_prod", "unsorted_segment_max",
           "unsorted_segment_min", "unsorted_segment_prod", "unsorted_segment_mean", "unsorted_segment_sqrt_n",
           "dynamic_partition"]
