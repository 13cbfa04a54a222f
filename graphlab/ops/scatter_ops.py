"""Index-based reads and writes: GatherNd and ScatterNd, the TensorScatter* ops (new tensors) and the TF1
Scatter* / ScatterNd* state ops that update a variable in place (``tf.scatter_update``, ``tf.scatter_add``
...), with TF's gradients for the stateless ones.

GatherNd's rule builds ScatterNd, except for [N, 1] indices, where TF hands IndexedSlices on; graphlab (which
has no IndexedSlices yet) sums those rows at once with UnsortedSegmentSum, so that branch's op names differ.
"""
import numpy as np

from graphlab.framework import tensor_shape
from graphlab.formats.errors import InvalidArgumentError
from graphlab.ops import array_ops, math_ops
from graphlab.framework.registry import NOT_DIFFERENTIABLE, ShapeError, build_op, dims_text, merge_error, register_op


def _show(index):
    return "[%s]" % ", ".join(str(int(i)) for i in np.reshape(index, [-1]))


def _check_nd_indices(ctx, indices, shape, what, suffix=""):
    """TF's message for the first index vector outside ``shape``."""
    flat = np.asarray(indices).reshape(-1, np.shape(indices)[-1]) if np.ndim(indices) else np.zeros((0, 0))
    bounds = np.asarray(shape[:flat.shape[1]])
    bad = np.flatnonzero(np.any((flat < 0) | (flat >= bounds), axis=1)) if flat.size else []
    if len(bad):
        raise InvalidArgumentError(None, ctx.op, "indices[%d] = %s does not index into %s %s%s"
                                   % (bad[0], _show(flat[bad[0]]), what, dims_text(shape), suffix))
    return flat


# --------------------------------------------------------------------------------------------- GatherNd
def _gather_nd_outputs(op):
    params, indices = op._inputs
    dtype = params._dtype.base_dtype
    if params._shape.ndims is None or indices._shape.ndims is None:
        return [(dtype, tensor_shape.UNKNOWN)]
    di, dp = indices._shape.as_list(), params._shape.as_list()
    if not di:
        raise ValueError("indices.shape[-1] must be <= params.rank, but saw indices shape: [] and params shape: %s"
                         % params._shape.bracket_str())
    depth = di[-1]
    if depth is None:
        return [(dtype, tensor_shape.UNKNOWN)]
    if depth > len(dp):
        raise ValueError("indices.shape[-1] must be <= params.rank, but saw indices shape: %s and params shape: %s"
                         % (indices._shape.bracket_str(), params._shape.bracket_str()))
    return [(dtype, tensor_shape.TensorShape(di[:-1] + dp[depth:]))]


def _gather_nd_kernel(ctx, params, indices):
    flat = _check_nd_indices(ctx, indices, params.shape, "param shape", ", node name: %s" % ctx.op.name)
    if flat.size == 0 and np.shape(indices)[-1] == 0:
        rows = np.broadcast_to(params, (int(np.prod(np.shape(indices)[:-1])),) + params.shape).copy()
    else:
        rows = params[tuple(flat.T)]
    return rows.reshape(np.shape(indices)[:-1] + params.shape[np.shape(indices)[-1]:])


def _gather_nd_grad(op, grad):
    """TF's _GatherNdGrad: ScatterNd of the gradient back to the indexed positions."""
    ref, indices = op.inputs
    ref_shape = array_ops.shape(ref, out_type=indices.dtype)
    if indices.shape.ndims == 2 and indices.shape.as_list()[-1] == 1:
        rows = array_ops.squeeze(indices, axis=-1)          # TF: IndexedSlices(grad, rows, ref_shape)
        return [array_ops.unsorted_segment_sum(grad, rows, ref_shape[0]), None]
    return [scatter_nd(indices, grad, ref_shape), None]


register_op("GatherNd", inputs=["params: Tparams", "indices: Tindices"], outputs=_gather_nd_outputs,
            kernel=_gather_nd_kernel, grad=_gather_nd_grad,
            doc="Slices of params at the index vectors in the last axis of indices.")


# -------------------------------------------------------------------------------------------- ScatterNd
def _scatter_nd_outputs(op):
    indices, updates, shape = op._inputs
    dims = array_ops._partial_shape(shape)
    dtype = updates._dtype.base_dtype
    if dims is None:
        return [(dtype, tensor_shape.UNKNOWN)]
    _check_updates_shape(indices, updates, dims, partial_input=2)
    return [(dtype, tensor_shape.TensorShape(dims))]


def _check_updates_shape(indices, updates, dims, partial_input=None):
    """TF's ScatterNd shape check: updates must be indices.shape[:-1] + shape[indices.shape[-1]:]."""
    if indices._shape.ndims is None or updates._shape.ndims is None:
        return
    di, du = indices._shape.as_list(), updates._shape.as_list()
    depth = di[-1] if di else None
    if depth is None:
        return
    outer = len(di) - 1
    read = (partial_input,) if partial_input is not None else ()
    problem = merge_error(di[:outer], du[:outer])
    if problem:
        raise ShapeError("Dimensions [0,%d) of indices[shape=%s] = %s must match dimensions [0,%d) of updates[shape=%s]"
                         " = %s: %s" % (outer, indices._shape.bracket_str(), dims_text(di[:outer]), outer,
                                        updates._shape.bracket_str(), dims_text(du[:outer]), problem),
                         partial_inputs=read)
    problem = merge_error(list(dims[depth:]), du[outer:])
    if problem:
        raise ShapeError("Dimensions [%d,%d) of input[shape=%s] = %s must match dimensions [%d,%d) of updates[shape=%s]"
                         " = %s: %s" % (depth, len(dims), dims_text(dims),
                                        dims_text(dims[depth:]), outer, len(du), updates._shape.bracket_str(),
                                        dims_text(du[outer:]), problem), partial_inputs=read)


def _scatter_into(ctx, base, indices, updates, combine, what="shape"):
    flat = _check_nd_indices(ctx, indices, base.shape, what)
    depth = np.shape(indices)[-1]
    rows = np.asarray(updates).reshape((flat.shape[0],) + base.shape[depth:])
    combine(base, tuple(flat.T), rows)
    return base


def _scatter_nd_kernel(ctx, indices, updates, shape):
    base = np.zeros([int(s) for s in shape], dtype=updates.dtype)
    return _scatter_into(ctx, base, indices, updates, np.add.at)


register_op("ScatterNd", inputs=["indices: Tindices", "updates: T", "shape: Tindices"], outputs=_scatter_nd_outputs,
            kernel=_scatter_nd_kernel,
            grad=lambda op, grad: [None, gather_nd(grad, op.inputs[0]), None],
            doc="A zero tensor of the given shape with updates added at the index vectors (repeats add).")


# ------------------------------------------------------------------------------------- TensorScatter*
def _assign_at(base, index, rows):
    base[index] = rows


def _tensor_scatter_outputs(op):
    tensor, indices, updates = op._inputs
    if tensor._shape.is_fully_defined():
        _check_updates_shape(indices, updates, tensor._shape.as_list())
    return [(tensor._dtype.base_dtype, tensor._shape)]


def _tensor_scatter_kernel(combine):
    return lambda ctx, tensor, indices, updates: _scatter_into(ctx, np.array(tensor, copy=True), indices, updates,
                                                               combine)


def _tensor_scatter_update_grad(op, grad):
    indices = op.inputs[1]
    updates_grad = gather_nd(grad, indices)
    tensor_grad = tensor_scatter_update(array_ops.identity(grad), indices,
                                        array_ops.zeros_like(op.inputs[2], dtype=grad.dtype))
    return [tensor_grad, None, updates_grad]


def _tensor_scatter_add_grad(op, grad, sign=1):
    updates_grad = gather_nd(grad, op.inputs[1])
    return [array_ops.identity(grad), None, updates_grad if sign > 0 else -updates_grad]


def _tensor_scatter_min_or_max_grad(op, grad):
    """TF's _TensorScatterMinOrMaxGrad: shared evenly between the tensor and updates that hold the result."""
    indices, x, y, output = op.inputs[1], op.inputs[0], op.inputs[2], op.outputs[0]
    x_indicators = math_ops.cast(math_ops.equal(x, output), grad.dtype)
    y_output = gather_nd(output, indices)
    y_indicators = math_ops.cast(math_ops.equal(y, y_output), grad.dtype)
    ys_indicators = scatter_nd(indices, y_indicators, array_ops.shape(x, out_type=indices.dtype))
    indicators = x_indicators + ys_indicators
    x_grad = grad * x_indicators / indicators
    y_grad = gather_nd(grad / indicators, indices) * y_indicators
    return [x_grad, None, y_grad]


for _name, _combine, _rule in (
        ("TensorScatterUpdate", _assign_at, _tensor_scatter_update_grad),
        ("TensorScatterAdd", np.add.at, _tensor_scatter_add_grad),
        ("TensorScatterSub", np.subtract.at, lambda op, grad: _tensor_scatter_add_grad(op, grad, -1)),
        ("TensorScatterMax", np.maximum.at, _tensor_scatter_min_or_max_grad),
        ("TensorScatterMin", np.minimum.at, _tensor_scatter_min_or_max_grad)):
    register_op(_name, inputs=["tensor: T", "indices: Tindices", "updates: T"], outputs=_tensor_scatter_outputs,
                kernel=_tensor_scatter_kernel(_combine), grad=_rule,
                doc="A copy of tensor with updates combined in at the index vectors (%s)." % _name[13:].lower())


# ------------------------------------------------------------------------------- Scatter* on variables
def _state_nd_kernel(combine):
    def kernel(ctx, ref, indices, updates):
        value = ref.read(ctx)
        if not value.flags.writeable:
            value = value.copy()
        # in place (indices are checked before any row changes), as TF's ScatterNd* on a variable
        ref.write(_scatter_into(ctx, value, indices, np.asarray(updates, dtype=value.dtype), combine))
        return ref
    return kernel


def _nd_state_outputs(op):
    ref, indices, updates = op._inputs
    if ref._shape.is_fully_defined():
        _check_updates_shape(indices, updates, ref._shape.as_list())
    return [(ref._dtype, ref._shape)]


# (the row-wise ScatterUpdate/Add/... ops on variables are in graphlab/ops/indexed_ops.py)
_ROW_COMBINES = {"Update": _assign_at, "Add": np.add.at, "Sub": np.subtract.at}

for _kind in ("Update", "Add", "Sub"):
    register_op("ScatterNd" + _kind, inputs=["ref: Ref(T)", "indices: Tindices", "updates: T"],
                outputs=_nd_state_outputs, kernel=_state_nd_kernel(_ROW_COMBINES[_kind]), grad=NOT_DIFFERENTIABLE,
                stateful=True, doc="Updates a variable in place at index vectors (%s); outputs its handle."
                                   % _kind.lower())


# ----------------------------------------------------------------------------------------- public API
def gather_nd(params, indices, name=None, batch_dims=0):
    """``tf.gather_nd`` (batch_dims 0)."""
    if batch_dims:
        raise NotImplementedError("graphlab implements tf.gather_nd for batch_dims=0 only; fold the batch axes "
                                  "into the indices instead.")
    if getattr(params, "_is_resource_variable", False):
        return params.gather_nd(indices, name=name)            # ResourceGatherNd, as TF
    return build_op("GatherNd", [params, indices], attrs={"bad_indices_policy": ""}, name=name).outputs[0]


def scatter_nd(indices, updates, shape, name=None):
    """``tf.scatter_nd``."""
    return build_op("ScatterNd", [indices, updates, shape], attrs={"bad_indices_policy": ""}, name=name).outputs[0]


def _tensor_scatter(op_type):
    def op(tensor, indices, updates, name=None):
        return build_op(op_type, [tensor, indices, updates], name=name).outputs[0]
    op.__doc__ = "``tf.tensor_scatter_nd_*`` / TF1's ``tf.tensor_scatter_*``: the %s op." % op_type
    op.__name__ = op.__qualname__ = "tensor_scatter_" + op_type[13:].lower()
    return op


tensor_scatter_update = _tensor_scatter("TensorScatterUpdate")
tensor_scatter_add = _tensor_scatter("TensorScatterAdd")
tensor_scatter_sub = _tensor_scatter("TensorScatterSub")
tensor_scatter_max = _tensor_scatter("TensorScatterMax")
tensor_scatter_min = _tensor_scatter("TensorScatterMin")


def _state_scatter(op_type, default_locking=False):
    def op(ref, indices, updates, use_locking=default_locking, name=None):
        if getattr(ref, "_is_resource_variable", False):       # ResourceScatterNd*, as TF dispatches it
            from graphlab.ops import resource_variable_ops
            return resource_variable_ops.state_scatter(ref, op_type[len("Scatter"):], indices, updates, name,
                                                       use_locking)
        return build_op(op_type, [ref, indices, updates], attrs={"use_locking": bool(use_locking)},
                        name=name).outputs[0]
    op.__doc__ = "``tf.%s``: updates the variable ``ref`` when run and returns its new value." % op_type
    op.__name__ = op.__qualname__ = "scatter_nd_" + op_type.replace("ScatterNd", "").lower()
    return op


scatter_nd_update = _state_scatter("ScatterNdUpdate", True)
scatter_nd_add, scatter_nd_sub = (_state_scatter("ScatterNd" + k) for k in ("Add", "Sub"))

__all__ = ["gather_nd", "scatter_nd", "tensor_scatter_update", "tensor_scatter_add", "tensor_scatter_sub",
           "tensor_scatter_max", "tensor_scatter_min", "scatter_nd_update", "scatter_nd_add", "scatter_nd_sub"]
