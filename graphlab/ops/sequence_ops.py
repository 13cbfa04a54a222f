"""Sequences and ranges: ``tf.linspace`` (TF 2.21's linspace_nd graph, with BroadcastArgs), ``tf.roll``
(Roll, with TF's gradient), ``tf.sequence_mask``, and TF1's ``tf.arg_max`` / ``tf.arg_min``.
(``tf.reverse_sequence`` lives in array_ops.)
"""
import numpy as np

from graphlab.framework import dtypes, tensor_shape
from graphlab.framework import graph as graph_mod
from graphlab.formats.errors import InvalidArgumentError
from graphlab.ops.broadcast_ops import broadcast_to
from graphlab.ops import array_ops, math_ops
from graphlab.framework.registry import (NOT_DIFFERENTIABLE, ShapeError, build_op, const_value, constant, convert_to_tensor,
                                   merge_error, register_op)


# -------------------------------------------------------------------------------------------- BroadcastArgs
def _broadcast_args_outputs(op):
    a, b = op._inputs
    ka, kb = const_value(a), const_value(b)
    if ka is not None and kb is not None:
        return [(a._dtype.base_dtype, tensor_shape.TensorShape([len(np.broadcast_shapes(tuple(ka), tuple(kb)))]))]
    la = a._shape.as_list()[0] if a._shape.ndims == 1 else None
    lb = b._shape.as_list()[0] if b._shape.ndims == 1 else None
    return [(a._dtype.base_dtype, tensor_shape.TensorShape([None if la is None or lb is None else max(la, lb)]))]


def _broadcast_args_kernel(ctx, a, b):
    try:
        return np.array(np.broadcast_shapes(tuple(int(v) for v in a), tuple(int(v) for v in b)), dtype=a.dtype)
    except ValueError:
        raise InvalidArgumentError(None, ctx.op, "Incompatible shapes: [%s] vs. [%s]"
                                   % (",".join(map(str, a)), ",".join(map(str, b)))) from None


register_op("BroadcastArgs", inputs=["s0: T", "s1: T"], outputs=_broadcast_args_outputs,
            kernel=_broadcast_args_kernel, grad=NOT_DIFFERENTIABLE,
            doc="The shape two shapes broadcast to.")


def broadcast_dynamic_shape(shape_x, shape_y):
    """``tf.broadcast_dynamic_shape``."""
    return build_op("BroadcastArgs", [shape_x, shape_y]).outputs[0]


# ----------------------------------------------------------------------------------------------- linspace
def _raw_cast(x, dtype):
    """gen_math_ops.cast: a Cast op even when x already has the type (tf.cast would skip it)."""
    return build_op("Cast", [x], attrs={"DstT": dtypes.as_dtype(dtype), "Truncate": False}).outputs[0]


def _int_tensor(value, name):
    """TF's convert_to_int_tensor: an integer tensor, Cast to int32."""
    tensor = convert_to_tensor(value, name=name, preferred_dtype=dtypes.int32)
    if not tensor.dtype.is_integer:
        raise TypeError("Argument `tensor` (name: %s) must be of type integer. Received `tensor` = %s of dtype: %s"
                        % (name, tensor, tensor.dtype.name))
    return _raw_cast(tensor, dtypes.int32)


def linspace(start, stop, num, name=None, axis=0):
    """``tf.linspace`` / ``tf.lin_space``: num evenly spaced values from start to stop (broadcast over their
    shapes, the new axis at ``axis``), built as TF 2.21's linspace_nd."""
    with graph_mod.name_scope(name, "linspace", [start, stop]):
        start = convert_to_tensor(start, name="start")
        stop = convert_to_tensor(stop, name="stop", dtype=start.dtype)
        num_int = _int_tensor(num, name="num")
        num = math_ops.cast(num_int, dtype=start.dtype)
        shape = broadcast_dynamic_shape(array_ops.shape(start), array_ops.shape(stop))
        start, stop = broadcast_to(start, shape), broadcast_to(stop, shape)
        expanded_start = array_ops.expand_dims(start, axis=axis)
        expanded_stop = array_ops.expand_dims(stop, axis=axis)
        shape = array_ops.shape(expanded_start)
        ndims = array_ops.shape(shape)[0]
        axis = array_ops.where_v2(axis >= 0, axis, ndims + axis)
        num_fill = math_ops.maximum(num_int - 2, 0)
        n_steps = math_ops.maximum(num_int - 1, 1)
        delta = (expanded_stop - expanded_start) / math_ops.cast(n_steps, expanded_stop.dtype)
        expanded_start = math_ops.cast(expanded_start, delta.dtype)
        expanded_stop = math_ops.cast(expanded_stop, delta.dtype)
        range_end = array_ops.where_v2(num_int >= 0, n_steps, -1)
        desired = math_ops.cast(array_ops.range(1, range_end, dtype=dtypes.int64), delta.dtype)
        mask = math_ops.equal(axis, array_ops.range(ndims))
        desired = array_ops.reshape(desired, array_ops.where_v2(mask, num_fill, 1))
        res = expanded_start + delta * desired
        concatenated = array_ops.concat((expanded_start, res, expanded_stop), axis=axis)
        begin = array_ops.zeros_like(shape)
        size = array_ops.concat((shape[0:axis], array_ops.reshape(num_int, [1]), shape[axis + 1:]), axis=0)
        return array_ops.slice(concatenated, begin, size)


# ---------------------------------------------------------------------------------------------------- Roll
def _roll_outputs(op):
    x, shift, axis = op._inputs
    if shift._shape.ndims is not None and shift._shape.ndims > 1:
        raise ValueError("Shape must be at most rank 1 but is rank %d" % shift._shape.ndims)
    if axis._shape.ndims is not None and axis._shape.ndims > 1:
        raise ValueError("Shape must be at most rank 1 but is rank %d" % axis._shape.ndims)
    if shift._shape.ndims is not None and axis._shape.ndims is not None:
        problem = merge_error(shift._shape.as_list(), axis._shape.as_list())
        if problem:
            raise ShapeError(problem)
    return [(x._dtype.base_dtype, x._shape)]


def _roll_kernel(ctx, x, shift, axis):
    shift, axis = np.reshape(shift, [-1]), np.reshape(axis, [-1])
    if shift.size != axis.size:
        raise InvalidArgumentError(None, ctx.op, "shift and axis must have the same size")
    for a in axis:
        if not -x.ndim <= a < x.ndim:
            raise InvalidArgumentError(None, ctx.op, "axis %d is out of range" % a)
    return np.roll(x, tuple(int(s) for s in shift), tuple(int(a) for a in axis))


register_op("Roll", inputs=["input: T", "shift: Tshift", "axis: Taxis"], outputs=_roll_outputs, kernel=_roll_kernel,
            grad=lambda op, grad: [roll(grad, -op.inputs[1], op.inputs[2]), None, None],
            doc="Shifts elements along the axes, wrapping around.")


def roll(input, shift, axis, name=None):  # noqa: A002
    """``tf.roll`` / ``tf.manip.roll``."""
    return build_op("Roll", [input, shift, axis], name=name).outputs[0]


# ----------------------------------------------------------------------------------------- sequence_mask
def sequence_mask(lengths, maxlen=None, dtype=dtypes.bool, name=None):
    """``tf.sequence_mask``: mask[..., j] = j < lengths[...]."""
    with graph_mod.name_scope(name, "SequenceMask", [lengths, maxlen]):
        lengths = convert_to_tensor(lengths)
        if maxlen is None:
            axes = constant(np.arange(lengths.shape.ndims, dtype=np.int32)) \
                if lengths.shape.ndims is not None else array_ops.range(0, array_ops.rank(lengths))
            maxlen = build_op("Max", [lengths, axes], attrs={"keep_dims": False}).outputs[0]
            maxlen = math_ops.maximum(constant(0, maxlen.dtype), maxlen)
        else:
            maxlen = convert_to_tensor(maxlen)
        if maxlen.shape.ndims is not None and maxlen.shape.ndims != 0:
            raise ValueError("Argument `maxlen` must be scalar for sequence_mask, received `maxlen` = %s with "
                             "shape '%s' instead" % (maxlen, maxlen.shape))
        row = build_op("Range", [constant(0, maxlen.dtype), maxlen,
                                 constant(1, maxlen.dtype)]).outputs[0]
        matrix = _raw_cast(array_ops.expand_dims(lengths, -1), maxlen.dtype)
        result = row < matrix
        if dtype is None or result.dtype.is_compatible_with(dtypes.as_dtype(dtype)):
            return result
        return _raw_cast(result, dtype)


# ------------------------------------------------------------------------------------------ arg_max/min
def arg_max(input, dimension, output_type=dtypes.int64, name=None):  # noqa: A002
    """TF1's ``tf.arg_max`` (the raw ArgMax op: the axis is required)."""
    return build_op("ArgMax", [input, dimension], attrs={"output_type": dtypes.as_dtype(output_type)},
                    name=name).outputs[0]


def arg_min(input, dimension, output_type=dtypes.int64, name=None):  # noqa: A002
    """TF1's ``tf.arg_min``."""
    return build_op("ArgMin", [input, dimension], attrs={"output_type": dtypes.as_dtype(output_type)},
                    name=name).outputs[0]


lin_space = linspace

__all__ = ["broadcast_dynamic_shape", "linspace", "lin_space", "roll", "sequence_mask", "arg_max", "arg_min"]
