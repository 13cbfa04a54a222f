"""Ops that work on rows picked by index: Unique, the Scatter family (ScatterUpdate, ScatterAdd, ScatterSub,
ScatterMul, ScatterDiv, ScatterMin, ScatterMax) and SparseToDense.

They are what sparse gradients need: an optimizer updates only the rows an IndexedSlices names
(GradientDescent's ScatterSub, Adam's ScatterAdd), after summing repeated rows (Unique, then
UnsortedSegmentSum), and sampled softmax masks accidental hits with SparseToDense. Scatter ops change a
variable in place and output its handle, as Assign does; like TF's kernel, they apply the rows before the
first bad index and then fail naming it.
"""
import numpy as np

from graphlab.framework import dtypes, tensor_shape
from graphlab.formats.errors import InvalidArgumentError
from graphlab.framework.registry import NOT_DIFFERENTIABLE, ShapeError, build_op, merge_error, register_op


def merge_shapes(a, b):
    """TF's shape-inference Merge of two static shapes, with its messages (registry.merge_error)."""
    problem = merge_error(a.as_list() if a.ndims is not None else None, b.as_list() if b.ndims is not None else None)
    if problem:
        raise ShapeError(problem)
    return a.merge_with(b)


def _dims(shape):
    return "[%s]" % ",".join(str(d) for d in shape)


# ---------------------------------------------------------------------------------------- Scatter family
def _scatter_outputs(op):
    ref, indices, updates = op._inputs
    if ref._shape.ndims is not None and indices._shape.ndims is not None and updates._shape.ndims != 0:
        merge_shapes(updates._shape, indices._shape.concatenate(ref._shape.as_list()[1:]))
    return [(ref._dtype, ref._shape)]


def _scatter_kernel(combine):
    def kernel(ctx, ref, indices, updates):
        params = ref.read(ctx)
        indices, updates = np.asarray(indices), np.asarray(updates)
        if params.ndim < 1:
            raise InvalidArgumentError(None, ctx.op, "params must be at least 1-D, got shape %s" %
                                       _dims(params.shape))
        if updates.ndim and updates.shape != indices.shape + params.shape[1:]:
            raise InvalidArgumentError(None, ctx.op, (
                "Must have updates.shape = indices.shape + params.shape[1:] or updates.shape = [], got "
                "updates.shape %s, indices.shape %s, params.shape %s" % (
                    _dims(updates.shape), _dims(indices.shape), _dims(params.shape))))
        flat = indices.reshape(-1)
        rows = updates.reshape((-1,) + params.shape[1:]) if updates.ndim else \
            np.broadcast_to(updates, (flat.size,) + params.shape[1:])
        bad = np.flatnonzero((flat < 0) | (flat >= params.shape[0]))
        stop = bad[0] if bad.size else flat.size
        out = params if params.flags.writeable else params.copy()     # in place, as TF's scatter kernels
        combine(out, flat[:stop], rows[:stop].astype(out.dtype, copy=False))
        ref.write(out)
        if bad.size:               # TF's kernel has applied the rows before the bad one
            where = np.unravel_index(stop, indices.shape) if indices.ndim else ()
            raise InvalidArgumentError(None, ctx.op, "indices%s = %d is not in [0, %d)" % (
                "[%s]" % ",".join(str(int(i)) for i in where) if indices.ndim else "", flat[stop],
                params.shape[0]))
        return ref
    return kernel


def _assign_rows(out, idx, rows):
    out[idx] = rows            # repeated rows: the last one wins


_SCATTER = {
    "ScatterUpdate": (_assign_rows, "ref[indices] = updates"),
    "ScatterAdd": (np.add.at, "ref[indices] += updates"),
    "ScatterSub": (np.subtract.at, "ref[indices] -= updates"),
    "ScatterMul": (np.multiply.at, "ref[indices] *= updates"),
    "ScatterDiv": (np.divide.at, "ref[indices] /= updates"),
    "ScatterMin": (np.minimum.at, "ref[indices] = min(ref[indices], updates)"),
    "ScatterMax": (np.maximum.at, "ref[indices] = max(ref[indices], updates)"),
}

for _type, (_combine, _doc) in _SCATTER.items():
    register_op(
        _type,
        inputs=["ref: Ref(T)", "indices: Tindices", "updates: T"],
        outputs=_scatter_outputs,
        kernel=_scatter_kernel(_combine),
        grad=NOT_DIFFERENTIABLE,
        stateful=True,
        doc=_doc + " for each row named by indices (repeated rows combine in order); outputs the handle.")


def _scatter(op_type, default_locking):
    def scatter(ref, indices, updates, use_locking=default_locking, name=None):
        if getattr(ref, "_is_resource_variable", False):       # ResourceScatter*, as TF dispatches it
            from graphlab.ops import resource_variable_ops
            return resource_variable_ops.state_scatter(ref, op_type[len("Scatter"):], indices, updates, name)
        ref = ref._ref() if hasattr(ref, "_ref") else ref
        return build_op(op_type, [ref, indices, updates], attrs={"use_locking": bool(use_locking)},
                        name=name).outputs[0]
    scatter.__name__ = "scatter_" + op_type[len("Scatter"):].lower()
    scatter.__doc__ = "``tf.%s``: %s; returns the variable's handle." % (scatter.__name__, _SCATTER[op_type][1])
    return scatter


scatter_update = _scatter("ScatterUpdate", True)
scatter_add = _scatter("ScatterAdd", False)
scatter_sub = _scatter("ScatterSub", False)
scatter_mul = _scatter("ScatterMul", False)
scatter_div = _scatter("ScatterDiv", False)
scatter_min = _scatter("ScatterMin", False)
scatter_max = _scatter("ScatterMax", False)


# ------------------------------------------------------------------------------------------ SparseToDense
def _sparse_to_dense_outputs(op):
    from graphlab.ops import array_ops
    indices, shape, values, default = op._inputs
    if indices._shape.ndims is not None and indices._shape.ndims > 2:
        raise ValueError("Shape must be at most rank 2 but is rank %d" % indices._shape.ndims)
    if default._shape.ndims not in (None, 0):
        _rank_error(0, default._shape.ndims)
    return [(values._dtype.base_dtype, array_ops._shape_of(array_ops._partial_shape(shape)))]


def _sparse_to_dense_kernel(ctx, indices, shape, values, default):
    indices, shape, values = np.asarray(indices), [int(d) for d in np.reshape(shape, [-1])], np.asarray(values)
    if indices.ndim > 2:
        raise InvalidArgumentError(None, ctx.op, "sparse_indices should be a scalar, vector, or matrix, got "
                                   "shape %s" % _dims(indices.shape))
    count = indices.shape[0] if indices.ndim else 1
    rank = indices.shape[1] if indices.ndim == 2 else 1
    if values.ndim and values.shape[0] != count or values.ndim > 1:
        raise InvalidArgumentError(None, ctx.op, "sparse_values has incorrect shape %s, should be [] or [%d]" %
                                   (_dims(values.shape), count))
    if np.ndim(default):
        raise InvalidArgumentError(None, ctx.op, "default_value should be a scalar.")
    if len(shape) != rank:
        raise InvalidArgumentError(None, ctx.op, "output_shape has incorrect number of elements: %d should be: "
                                   "%d" % (len(shape), rank))
    points = indices.reshape(count, rank)
    out = np.full(shape, default, dtype=values.dtype)
    rows = np.broadcast_to(values, (count,))
    for i, point in enumerate(points):
        text = ",".join(str(int(p)) for p in point)
        if np.any(point < 0) or np.any(point >= shape):
            raise InvalidArgumentError(None, ctx.op, "indices[%d] = [%s] is out of bounds: need 0 <= index < [%s]"
                                       % (i, text, ",".join(map(str, shape))))
        if ctx.attrs.get("validate_indices", True) and i:
            previous = tuple(points[i - 1])
            if tuple(point) == previous:
                raise InvalidArgumentError(None, ctx.op, "indices[%d] = [%s] is repeated" % (i, text))
            if tuple(point) < previous:
                raise InvalidArgumentError(None, ctx.op, "indices[%d] = [%s] is out of order. Many sparse ops "
                                           "require sorted indices.\n    Use `tf.sparse.reorder` to create a "
                                           "correctly ordered copy.\n\n" % (i, text))
        out[tuple(point)] = rows[i]
    return out


register_op(
    "SparseToDense",
    inputs=["sparse_indices: Tindices", "output_shape: Tindices", "sparse_values: T", "default_value: T"],
    outputs=_sparse_to_dense_outputs,
    kernel=_sparse_to_dense_kernel,
    grad=NOT_DIFFERENTIABLE,
    doc="A dense tensor of output_shape filled with default_value, with sparse_values at sparse_indices.")


def sparse_to_dense(sparse_indices, output_shape, sparse_values, default_value=0, validate_indices=True,
                    name=None):
    """``tf.sparse_to_dense`` (SparseToDense); the default value takes the values' type."""
    return build_op("SparseToDense", [sparse_indices, output_shape, sparse_values, default_value],
                    attrs={"validate_indices": bool(validate_indices)}, name=name).outputs[0]


__all__ = ["unique", "scatter_update", "scatter_add", "scatter_sub", "scatter_mul", "scatter_div", "scatter_min",
           "scatter_max", "sparse_to_dense", "merge_shapes"]
