"""Broadcasting in gradients: the BroadcastGradientArgs and BroadcastTo ops, and the one place where the
gradient of a broadcasting op is summed back to the shapes of its inputs (``reduce_broadcast``).

Gradient rules of broadcasting ops (Add, Mul, Maximum, Select ...) return output-shaped gradients; the
gradient algorithm (graphlab/gradients.py) passes them through ``reduce_broadcast`` for every op type in
``BROADCASTING_OPS``, so no rule repeats the un-broadcasting. It builds what TF builds: Shape ops (Consts when
the shapes are known), BroadcastGradientArgs when the axes are only known at run time, Sum and Reshape.
"""
import numpy as np

from graphlab.formats.errors import InvalidArgumentError
from graphlab.framework import dtypes, registry, tensor_shape
from graphlab.framework.indexed_slices import IndexedSlices
from graphlab.framework.registry import NOT_DIFFERENTIABLE, build_op, register_op
from graphlab.framework.tensor import Tensor
from graphlab.ops import array_ops, math_ops

# -------------------------------------------------------------------------------- BroadcastGradientArgs


def _bga_outputs(op):
    return [(op._inputs[0]._dtype.base_dtype, tensor_shape.TensorShape([None]))] * 2


def _bga_kernel(ctx, s0, s1):
    """For shapes s0, s1 of a broadcasting op's inputs: the axes of the result each input was stretched
    along (those its gradient must be summed over)."""
    s0, s1 = [int(d) for d in s0], [int(d) for d in s1]
    n = max(len(s0), len(s1))
    p0, p1 = [1] * (n - len(s0)) + s0, [1] * (n - len(s1)) + s1
    r0, r1 = [], []
    for axis, (a, b) in enumerate(zip(p0, p1)):
        if a == b:
            if a == 1:   # TF reduces size-1 axes of both (harmless, keeps shapes consistent)
                r0.append(axis)
                r1.append(axis)
            continue
        if a == 1:
            r0.append(axis)
        elif b == 1:
            r1.append(axis)
        else:
            raise InvalidArgumentError(None, ctx.op, "Incompatible shapes: %s vs. %s" % (s0, s1))
    dt = ctx.attrs["T"].as_numpy_dtype
    return np.array(r0, dtype=dt), np.array(r1, dtype=dt)


register_op(
    "BroadcastGradientArgs",
    inputs=["s0: T", "s1: T"],
    outputs=_bga_outputs,
    kernel=_bga_kernel,
    grad=NOT_DIFFERENTIABLE,
    doc="Reduction axes that undo numpy broadcasting of two shapes (used by gradients).")


def broadcast_gradient_args(s0, s1, name=None):
    op = build_op("BroadcastGradientArgs", [s0, s1], name=name)
    return op.outputs[0], op.outputs[1]


# ----------------------------------------------------------------------------- central un-broadcasting

BROADCASTING_OPS = {
    "Add", "AddV2", "Sub", "Mul", "RealDiv", "Div", "DivNoNan", "FloorDiv", "FloorMod", "TruncateDiv",
    "Maximum", "Minimum", "Pow", "SquaredDifference", "Atan2", "Xdivy", "Xlogy", "Xlog1py", "NextAfter", "MulNoNan", "Mod", "Complex",
    "Select", "SelectV2",
}
"""Op types whose inputs broadcast against each other: their rules return output-shaped gradients and
``reduce_broadcast`` sums each back to its input's shape. Add an op type here when registering one."""


def _fully_equal(x, y, grad):
    if not isinstance(grad, Tensor):     # IndexedSlices: TF's shortcut is for dense gradients only
        return False
    sx, sy, sg = x._shape, y._shape, grad._shape
    return (sx.is_fully_defined() and sy.is_fully_defined() and sg.is_fully_defined()
            and sx.as_list() == sy.as_list() == sg.as_list())


def _static_axes(x_shape, y_shape):
    """TF's ``_InferGradientReductionAxes``: reduction axes known at build time, or (None, None)."""
    if x_shape.ndims is None or y_shape.ndims is None:
        return None, None
    xs, ys = x_shape.as_list(), y_shape.as_list()
    rank = max(len(xs), len(ys))
    x_axes, y_axes = [], []
    for axis in range(rank):
        xd = 1 if axis < rank - len(xs) else xs[axis - (rank - len(xs))]
        yd = 1 if axis < rank - len(ys) else ys[axis - (rank - len(ys))]
        if xd == 1 and yd != 1:
            x_axes.append(axis)
        elif yd == 1 and xd != 1:
            y_axes.append(axis)
        elif xd is None or yd is None:
            return None, None
    return x_axes, y_axes


def _shape(x, out_type=dtypes.int32):
    """``tf.shape`` (a Const named Shape when the static shape is fully known, as TF builds it)."""
    return array_ops.shape(x, out_type=out_type)


# TF's rules for these ops return the gradient untouched when x, y and grad have one fully known shape;
# the others always go through SmartBroadcastGradientArgs (and so build the two Shape constants).
SAME_SHAPE_SHORTCUT = frozenset(["Add", "AddV2", "Sub", "Mul", "MulNoNan", "SquaredDifference"])


def reduce_broadcast(x, y, gx, gy, op_type="AddV2", incoming=None):
    """Sum the output-shaped gradients ``gx``, ``gy`` of a broadcasting op back to the shapes of ``x`` and
    ``y`` (TF's SmartBroadcastGradientArgs: static axes when shapes allow, BroadcastGradientArgs if not).
    ``incoming`` is the gradient the op's rule was given: when it was an IndexedSlices, TF's same-shape
    shortcut does not apply (and an Add/Sub hands the slices on unless they must be summed)."""
    grad = gx if gx is not None else gy
    if grad is None or op_type in SAME_SHAPE_SHORTCUT and not isinstance(incoming, IndexedSlices) and \
            _fully_equal(x, y, grad) and (op_type != "Mul" or grad.dtype.base_dtype in (dtypes.int32, dtypes.float32)):
        return gx, gy
    sx = _shape(x)
    sy = _shape(y)
    x_axes, y_axes = _static_axes(x._shape, y._shape)
    if x_axes is None or y_axes is None:
        x_axes, y_axes = broadcast_gradient_args(sx, sy)
        x_must = y_must = True
    else:
        x_must = bool(x_axes) or x._shape.ndims < y._shape.ndims
        y_must = bool(y_axes) or y._shape.ndims < x._shape.ndims
    if gx is not None and x_must:
        gx = array_ops.reshape(math_ops.reduce_sum(gx, x_axes, keepdims=True), sx)
    if gy is not None and y_must:
        gy = array_ops.reshape(math_ops.reduce_sum(gy, y_axes, keepdims=True), sy)
    return gx, gy


# ---------------------------------------------------------------------------------------- BroadcastTo

def _broadcast_to_outputs(op):
    value = registry.const_value(op._inputs[1])
    if value is None:
        n = op._inputs[1]._shape.num_elements() if op._inputs[1]._shape.is_fully_defined() else None
        return [(op._inputs[0]._dtype.base_dtype, tensor_shape.unknown_shape(n) if n is not None
                 else tensor_shape.UNKNOWN)]
    return [(op._inputs[0]._dtype.base_dtype, tensor_shape.TensorShape([int(d) for d in value]))]


def _broadcast_to_kernel(ctx, x, shape):
    try:
        return np.array(np.broadcast_to(x, [int(d) for d in shape]))
    except ValueError:
        raise InvalidArgumentError(None, ctx.op, "Unable to broadcast tensor of shape %s to tensor of shape %s"
                                   % (list(np.shape(x)), [int(d) for d in shape])) from None


def _broadcast_to_grad(op, grad):
    """TF's rule: sum over the axes BroadcastGradientArgs finds, reshape back to the input's shape."""
    x, target = op.inputs
    sx = _shape(x, target.dtype)
    value = registry.const_value(target)
    if value is not None and target._op._type != "Const":
        target = registry.constant(np.asarray(value, target.dtype.as_numpy_dtype), name="Const")
    _, axes = broadcast_gradient_args(target, sx)
    return [array_ops.reshape(math_ops.reduce_sum(grad, axes, keepdims=True), sx), None]


register_op(
    "BroadcastTo",
    inputs=["input: T", "shape: Tidx=int32"],
    outputs=_broadcast_to_outputs,
    kernel=_broadcast_to_kernel,
    grad=_broadcast_to_grad,
    doc="Broadcasts input to the given shape, numpy style.")



def broadcast_to(input, shape, name=None):  # noqa: A002
    """``tf.broadcast_to``."""
    return build_op("BroadcastTo", [input, shape], name=name).outputs[0]


__all__ = ["broadcast_to", "broadcast_gradient_args", "reduce_broadcast", "BROADCASTING_OPS"]
