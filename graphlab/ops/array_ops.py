"""Array ops: constants, placeholders, identity, and ops that rearrange values without arithmetic.

Each op is one block: its registration (inputs, output rule, kernel, gradient) followed by its public
Python function(s).
"""
import numpy as np

from graphlab.framework import dtypes, tensor_shape
from graphlab.framework.errors import InvalidArgumentError
from graphlab.ops.registry import (NOT_DIFFERENTIABLE, build_op, constant, convert_to_tensor,
                                   register_op, same_as_input)

# ---------------------------------------------------------------------------------------------- Const
register_op(
    "Const",
    outputs=lambda op: [(op._attrs["dtype"], tensor_shape.TensorShape(list(op._attrs["value"].shape)))],
    kernel=lambda ctx: ctx.attrs["value"],
    grad=NOT_DIFFERENTIABLE,
    doc="A value embedded in the graph itself (and so in every file the graph is saved to).")

# ----------------------------------------------------------------------------------------- Placeholder


def _placeholder_kernel(ctx):
    """Runs only when nothing was fed: that is the error."""
    shape = ctx.attrs["shape"]
    raise InvalidArgumentError(None, ctx.op, "You must feed a value for placeholder tensor '%s' with dtype %s%s" % (
        ctx.op.name, dtypes.tf_type_name(ctx.attrs["dtype"]),
        "" if shape.ndims is None else " and shape %s" % shape.bracket_str()))


register_op(
    "Placeholder",
    outputs=lambda op: [(op._attrs["dtype"], op._attrs["shape"])],
    kernel=_placeholder_kernel,
    grad=NOT_DIFFERENTIABLE,
    doc="A value supplied at run time through feed_dict.")


def placeholder(dtype, shape=None, name=None):
    """``tf.placeholder``: a tensor whose value must be fed; ``None`` dims accept any size."""
    return build_op("Placeholder", (), attrs={"dtype": dtypes.as_dtype(dtype),
                                             "shape": tensor_shape.as_shape(shape)},
                    name=name).outputs[0]


register_op(
    "PlaceholderWithDefault",
    inputs=["input: dtype"],
    outputs=lambda op: [(op._attrs["dtype"], op._attrs["shape"])],
    kernel=lambda ctx, value: value,
    grad=lambda op, grad: [grad],
    doc="Like a placeholder, but computes `input` when nothing is fed.")


def placeholder_with_default(input, shape, name=None):  # noqa: A002  (TF's argument name)
    value = convert_to_tensor(input)
    shape = tensor_shape.as_shape(shape)
    if not value.shape.is_compatible_with(shape):
        raise ValueError("Shapes %s and %s are incompatible" % (value.shape, shape))
    return build_op("PlaceholderWithDefault", [value], attrs={"dtype": value.dtype.base_dtype, "shape": shape},
                    name=name).outputs[0]


# -------------------------------------------------------------------------------------------- Identity
register_op(
    "Identity",
    inputs=["input: T"],
    outputs=same_as_input(0),
    kernel=lambda ctx, x: x,
    grad=lambda op, grad: [grad],
    doc="Passes its input through; used to name a value or to attach control dependencies.")


def identity(input, name=None):  # noqa: A002
    """``tf.identity``: the same value under a new name (a Variable gives a snapshot of its value)."""
    return build_op("Identity", [input], name=name).outputs[0]


# ------------------------------------------------------------------------------------------------ Pack
def _pack_outputs(op):
    values = op._inputs
    axis = op._attrs["axis"]
    shape = values[0]._shape
    for t in values[1:]:
        if not shape.is_compatible_with(t._shape):
            raise ValueError("Shapes must be equal rank, but are %s and %s" % (
                shape.ndims, t._shape.ndims) if shape.ndims != t._shape.ndims else
                "Dimension mismatch in Pack: %s vs %s" % (shape, t._shape))
        shape = shape.merge_with(t._shape)
    if shape.ndims is None:
        return [(values[0]._dtype.base_dtype, tensor_shape.UNKNOWN)]
    dims = shape.as_list()
    rank = len(dims) + 1
    if not -rank <= axis < rank:
        raise ValueError("axis = %d not in [%d, %d)" % (axis, -rank, rank))
    dims.insert(axis % rank, len(values))
    return [(values[0]._dtype.base_dtype, tensor_shape.TensorShape(dims))]


def _pack_grad(op, grad):
    return unstack(grad, num=op._attrs["N"], axis=op._attrs["axis"])


register_op(
    "Pack",
    inputs=["values: N*T"],
    outputs=_pack_outputs,
    kernel=lambda ctx, *values: np.stack(values, axis=ctx.attrs["axis"]),
    grad=_pack_grad,
    doc="Stacks N tensors of one shape along a new axis.")


def stack(values, axis=0, name="stack"):
    """``tf.stack``: N tensors of shape S become one tensor with a new axis of size N."""
    return build_op("Pack", [list(values)], attrs={"axis": axis}, name=name).outputs[0]


def _unpack_outputs(op):
    value = op._inputs[0]
    axis, num = op._attrs["axis"], op._attrs["num"]
    if value._shape.ndims is None:
        return [(value._dtype.base_dtype, tensor_shape.UNKNOWN)] * num
    dims = value._shape.as_list()
    del dims[axis]
    return [(value._dtype.base_dtype, tensor_shape.TensorShape(dims))] * num


def _unpack_kernel(ctx, value):
    axis = ctx.attrs["axis"]
    return tuple(np.take(value, i, axis=axis) for i in range(value.shape[axis]))


register_op(
    "Unpack",
    inputs=["value: T"],
    outputs=_unpack_outputs,
    kernel=_unpack_kernel,
    grad=lambda op, *grads: [stack([g if g is not None else zeros_like_output(op, i)
                                    for i, g in enumerate(grads)], axis=op._attrs["axis"])],
    doc="Splits a tensor along an axis into that many tensors.")


def unstack(value, num=None, axis=0, name="unstack"):
    """``tf.unstack``: the inverse of stack; ``num`` must be known statically or given."""
    value = convert_to_tensor(value)
    if num is None:
        if value.shape.ndims is None or value.shape.as_list()[axis] is None:
            raise ValueError("Cannot infer num from shape %s" % value.shape)
        num = value.shape.as_list()[axis]
    return build_op("Unpack", [value], attrs={"num": num, "axis": axis}, name=name).outputs


# ------------------------------------------------------------------------------------------- ZerosLike
register_op(
    "ZerosLike",
    inputs=["x: T"],
    outputs=same_as_input(0),
    kernel=lambda ctx, x: np.zeros_like(x),
    grad=NOT_DIFFERENTIABLE,
    doc="Zeros with the shape and dtype of x.")


def zeros_like(tensor, dtype=None, name=None, optimize=True):
    """``tf.zeros_like``."""
    tensor = convert_to_tensor(tensor)
    if dtype is not None and dtypes.as_dtype(dtype) != tensor.dtype.base_dtype:
        from graphlab.ops import math_ops
        return math_ops.cast(build_op("ZerosLike", [tensor], name=name).outputs[0], dtype)
    return build_op("ZerosLike", [tensor], name=name).outputs[0]


def zeros_like_output(op, index):
    """Zeros shaped like output ``index`` of ``op`` (for gradient rules where one output got no gradient)."""
    return zeros_like(op.outputs[index])


__all__ = ["constant", "placeholder", "placeholder_with_default", "identity", "stack", "unstack", "zeros_like"]
