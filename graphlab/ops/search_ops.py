"""Index arithmetic and shape checks TF1 exposes at its root: UnravelIndex, LowerBound/UpperBound
(``tf.searchsorted``), EnsureShape and ParallelConcat (``tf.parallel_stack``); and the functions built on
them or on TopKV2 (``tf.sort``, ``tf.argsort``)."""
import numpy as np

from graphlab.framework import dtypes, graph as graph_mod, tensor_shape
from graphlab.formats.errors import InvalidArgumentError
from graphlab.framework.registry import NOT_DIFFERENTIABLE, build_op, const_value, convert_to_tensor, register_op


# ======================================================================================= UnravelIndex
def _unravel_outputs(op):
    indices, dims = op._inputs
    n = dims._shape.as_list()[0] if dims._shape.ndims == 1 else None
    shape = [n] if indices._shape.ndims == 0 else (
        [n] + indices._shape.as_list() if indices._shape.ndims is not None else None)
    return [(indices._dtype.base_dtype, tensor_shape.TensorShape(shape))]


def _unravel_kernel(ctx, indices, dims):
    if np.any(indices < 0) or np.any(indices >= np.prod(dims)):
        raise InvalidArgumentError(None, ctx.op, "index is out of bound as with dims")
    return np.array(np.unravel_index(indices, dims), dtype=np.asarray(indices).dtype)


register_op("UnravelIndex", inputs=["indices: Tidx", "dims: Tidx"], outputs=_unravel_outputs,
            kernel=_unravel_kernel, grad=NOT_DIFFERENTIABLE,
            doc="The coordinates in an array of shape dims of each flat index (one row per dimension).")


def unravel_index(indices, dims, name=None):
    """``tf.unravel_index``."""
    return build_op("UnravelIndex", [indices, dims], name=name).outputs[0]


# ============================================================================= LowerBound, UpperBound
def _bound(side):
    def kernel(ctx, sorted_inputs, values):
        rows = [np.searchsorted(s, v, side=side) for s, v in zip(sorted_inputs, values)]
        return np.array(rows, dtype=ctx.op._attrs["out_type"].as_numpy_dtype).reshape(np.shape(values))
    return kernel


for _type, _side in (("LowerBound", "left"), ("UpperBound", "right")):
    register_op(_type, inputs=["sorted_inputs: T", "values: T"],
                outputs=lambda op: [(op._attrs["out_type"], op._inputs[1]._shape)], kernel=_bound(_side),
                grad=NOT_DIFFERENTIABLE,
                doc="Row by row, where each value would go in the sorted row (%s side of equal entries)." % _side)


def searchsorted(sorted_sequence, values, side="left", out_type=dtypes.int32, name=None):
    """``tf.searchsorted``: for 2-D or higher inputs TF reshapes to rows first, as here."""
    from graphlab.ops import array_ops
    if side not in ("left", "right"):
        raise ValueError("Argument `side` must be either 'right' or 'left'. Received: `side` = '%s'." % side)
    sorted_sequence = convert_to_tensor(sorted_sequence)
    values = convert_to_tensor(values)
    sequence_size = array_ops.shape(sorted_sequence)[-1]
    values_size = array_ops.shape(values)[-1]
    sorted_sequence_2d = array_ops.reshape(sorted_sequence, [-1, sequence_size])
    values_2d = array_ops.reshape(values, [-1, values_size])
    op_type = "UpperBound" if side == "right" else "LowerBound"
    out = build_op(op_type, [sorted_sequence_2d, values_2d], attrs={"out_type": dtypes.as_dtype(out_type)},
                   name=name).outputs[0]
    return array_ops.reshape(out, array_ops.shape(values))


# ======================================================================================== EnsureShape
def _ensure_kernel(ctx, x):
    want = ctx.op._attrs["shape"]
    if not want.is_compatible_with(tensor_shape.TensorShape(np.shape(x))):
        raise InvalidArgumentError(None, ctx.op, "Shape of tensor %s %s is not compatible with expected shape %s."
                                   % (ctx.op.inputs[0].name, tensor_shape.TensorShape(np.shape(x)).bracket_str(),
                                      want.bracket_str()))
    return x


def _ensure_outputs(op):
    x, want = op._inputs[0], op._attrs["shape"]
    return [(x._dtype.base_dtype, x._shape.merge_with(want) if x._shape.is_compatible_with(want) else want)]


register_op("EnsureShape", inputs=["input: T"], outputs=_ensure_outputs, kernel=_ensure_kernel,
            grad=None,   # TF registers no gradient for EnsureShape
            doc="input, after checking at run time that its shape is compatible with the attr shape.")


def ensure_shape(x, shape, name=None):
    """``tf.ensure_shape``: the static shape is updated; a mismatch raises InvalidArgumentError when run."""
    shape = shape if isinstance(shape, tensor_shape.TensorShape) else tensor_shape.TensorShape(shape)
    return build_op("EnsureShape", [x], attrs={"shape": shape}, name=name).outputs[0]


# ====================================================================================== ParallelConcat
def _parallel_concat_outputs(op):
    return [(op._inputs[0]._dtype.base_dtype, op._attrs["shape"])]


register_op("ParallelConcat", inputs=["values: N*T"], outputs=_parallel_concat_outputs,
            kernel=lambda ctx, *values: np.concatenate(values, axis=0),
            grad=None,   # none in TF either
            doc="The values (each of first dimension 1) concatenated along the first dimension.")


def parallel_stack(values, name="parallel_stack"):
    """``tf.parallel_stack``: like tf.stack, all shapes known at build time (TF defines no gradient)."""
    from graphlab.ops import array_ops
    with graph_mod.get_default_graph().name_scope(name):
        values = [convert_to_tensor(v) for v in values]
        value_shape = values[0].shape
        output_shape = tensor_shape.TensorShape([len(values)]).concatenate(value_shape)
        expanded = [array_ops.expand_dims(v, 0) for v in values]
        return build_op("ParallelConcat", [expanded], attrs={"shape": output_shape}).outputs[0]


# ============================================================================================ sorting
def _sort_or_argsort(values, axis, direction, return_argsort):
    from graphlab.ops import array_ops, math_ops, nn_ops
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError('Unknown direction: %s' % direction)
    values = convert_to_tensor(values, name="values")
    axis = -1 if axis is None else axis
    rank = values.shape.ndims
    if rank is None:
        raise ValueError("sort/argsort needs a known rank")
    axis = axis + rank if axis < 0 else axis
    perm = None
    if axis != rank - 1:
        perm = list(range(rank))
        perm[axis], perm[-1] = perm[-1], perm[axis]
        values = array_ops.transpose(values, perm)
    k = array_ops.shape(values)[-1]
    ascending = direction == "ASCENDING"
    if ascending:
        flipped = (math_ops.negative(values) if not values.dtype.is_integer
                   else math_ops.subtract(math_ops.negative(values), 1))   # -x - 1: no overflow at min
        top = nn_ops.top_k(flipped, k=k)
        out = top.indices if return_argsort else (
            math_ops.negative(top.values) if not values.dtype.is_integer
            else math_ops.negative(math_ops.add(top.values, 1)))
    else:
        top = nn_ops.top_k(values, k=k)
        out = top.indices if return_argsort else top.values
    return array_ops.transpose(out, perm) if perm is not None else out


def sort(values, axis=-1, direction="ASCENDING", name=None):
    """``tf.sort`` (with TopKV2, as TF builds it)."""
    with graph_mod.get_default_graph().name_scope(name or "sort"):
        return _sort_or_argsort(values, axis, direction, return_argsort=False)


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """``tf.argsort``: int32 indices that sort ``values`` (TopKV2 keeps ties in order, so it is stable)."""
    with graph_mod.get_default_graph().name_scope(name or "argsort"):
        return _sort_or_argsort(values, axis, direction, return_argsort=True)


del const_value
