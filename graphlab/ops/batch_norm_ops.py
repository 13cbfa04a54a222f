"""Fused batch normalization (``tf.nn.fused_batch_norm``, the op behind ``tf.layers.batch_normalization``):
FusedBatchNormV3 and its gradient FusedBatchNormGradV3, with TF's CPU kernels' outputs.

In training the op normalizes with the batch's mean and biased variance, and reports the mean and the
unbiased (n / (n - 1)) variance, blended into the given running values when exponential_avg_factor < 1;
reserve_space_1/2 keep the batch mean and biased variance for the gradient. In inference it normalizes with
the given mean and variance. float16/bfloat16 inputs are computed in float32.
"""
import numpy as np

from graphlab.framework import dtypes, registry, tensor_shape
from graphlab.formats.errors import InvalidArgumentError
from graphlab.ops import array_ops, math_ops
from graphlab.framework.registry import build_op, constant, convert_to_tensor, register_op

_HALF_OR_FLOAT = (dtypes.float16, dtypes.bfloat16, dtypes.float32)


def _axes(data_format):
    """The axes reduced over, channels last (the kernels move a channels-first input's channels last)."""
    if data_format not in ("NHWC", "NDHWC", "NCHW", "NCDHW"):
        raise ValueError("data_format must be one of NHWC, NDHWC, NCHW, NCDHW (got %r)" % data_format)
    return (0, 1, 2) if data_format in ("NHWC", "NCHW") else (0, 1, 2, 3)


def _channels_first(data_format):
    return data_format in ("NCHW", "NCDHW")


def _last(x, data_format):
    """x with its channels last (a view): the kernels compute channels-last."""
    return np.moveaxis(x, 1, -1) if _channels_first(data_format) else x


def _back(y, data_format):
    return np.moveaxis(y, -1, 1) if _channels_first(data_format) else y


def _check_types(op):
    _check_x_type(op._inputs[0])


def _check_x_type(x):
    t = x._dtype.base_dtype
    if t not in _HALF_OR_FLOAT:
        raise TypeError("Value passed to parameter 'x' has DataType %s not in list of allowed values: float16, "
                        "bfloat16, float32" % t.name)


def _channels(op, vectors):
    """Rank checks of x and the per-channel vectors; the channel count (or None)."""
    x = op._inputs[0]
    rank = len(_axes(op._attrs["data_format"])) + 1
    if x._shape.ndims is not None and x._shape.ndims != rank:
        raise ValueError("Shape must be rank %d but is rank %d" % (rank, x._shape.ndims))
    channel_axis = 1 if _channels_first(op._attrs["data_format"]) else -1
    channels = x._shape.as_list()[channel_axis] if x._shape.ndims is not None else None
    for t in vectors:
        if t._shape.ndims is None:
            continue
        if t._shape.ndims != 1:
            raise ValueError("Shape must be rank 1 but is rank %d" % t._shape.ndims)
        size = t._shape.as_list()[0]
        if channels is not None and size is not None and size != channels:
            raise ValueError("Dimensions must be equal, but are %d and %d" % (channels, size))
        channels = size if channels is None else channels
    return channels


# --------------------------------------------------------------------------------------- FusedBatchNormV3
def _fbn_outputs(op):
    _check_types(op)
    x, scale, offset, mean, var = op._inputs
    uses_running = not op._attrs["is_training"] or op._attrs["exponential_avg_factor"] != 1.0
    c = _channels(op, [scale, offset] + ([mean, var] if uses_running else []))
    u = op._attrs["U"]
    vector = tensor_shape.TensorShape([c])
    return [(x._dtype.base_dtype, x._shape), (u, vector), (u, vector), (u, vector), (u, vector),
            (u, tensor_shape.UNKNOWN)]


def _fbn_kernel(ctx, x, scale, offset, mean, var):
    a = ctx.attrs
    axes = _axes(a["data_format"])
    if _channels_first(a["data_format"]):
        outs = _fbn_kernel_last(ctx, _last(x, a["data_format"]), scale, offset, mean, var, axes)
        return (_back(outs[0], a["data_format"]),) + tuple(outs[1:])
    return _fbn_kernel_last(ctx, x, scale, offset, mean, var, axes)


def _fbn_kernel_last(ctx, x, scale, offset, mean, var, axes):
    a = ctx.attrs
    eps = np.float32(a["epsilon"])
    xf = x.astype(np.float32)
    zero = np.float32(0)
    if a["is_training"]:
        n = xf.size // max(xf.shape[-1], 1)
        batch_mean = xf.mean(axis=axes, dtype=np.float32)
        batch_var = np.square(xf - batch_mean).mean(axis=axes, dtype=np.float32)
        y = (xf - batch_mean) * (scale / np.sqrt(batch_var + eps)) + offset
        unbiased = batch_var * np.float32(n / max(n - 1, 1))
        factor = np.float32(a["exponential_avg_factor"])
        if factor != 1:
            out_mean = (1 - factor) * mean + factor * batch_mean
            out_var = (1 - factor) * var + factor * unbiased
        else:
            out_mean, out_var = batch_mean, unbiased
        return (y.astype(x.dtype), out_mean.astype(np.float32), out_var.astype(np.float32),
                batch_mean, batch_var, np.array(zero))
    if mean.shape != scale.shape or var.shape != scale.shape:
        raise InvalidArgumentError(None, ctx.op, "When is_training=false, mean and variance must have the same "
                                   "shape as scale: %s and %s vs %s" % (list(mean.shape), list(var.shape),
                                                                        list(scale.shape)))
    y = (xf - mean) * (scale / np.sqrt(var + eps)) + offset
    zeros = np.zeros_like(scale, dtype=np.float32)
    return y.astype(x.dtype), mean.astype(np.float32), var.astype(np.float32), zeros, zeros.copy(), np.array(zero)


def _fbn_grad(op, *grads):
    """TF's _BaseFusedBatchNormGrad (version 2): FusedBatchNormGradV3 on the batch statistics the op kept
    (training) or on the given mean and variance (inference)."""
    x, scale = op.inputs[0], op.inputs[1]
    attrs = {k: op._attrs[k] for k in ("epsilon", "data_format", "is_training")}
    if op._attrs["is_training"]:
        stats = [op.outputs[3], op.outputs[4]]
    else:
        stats = [op.inputs[3], op.inputs[4]]
    grad = build_op("FusedBatchNormGradV3", [grads[0], x, scale] + stats + [op.outputs[5]], attrs=attrs).outputs
    return [grad[0], grad[1], grad[2], None, None]


register_op(
    "FusedBatchNormV3",
    inputs=["x: T", "scale: U", "offset: U", "mean: U", "variance: U"],
    outputs=_fbn_outputs,
    kernel=_fbn_kernel,
    grad=_fbn_grad,
    doc="Batch normalization over every axis but the channels: y, mean, variance and three reserve spaces.")


# ----------------------------------------------------------------------------------- FusedBatchNormGradV3
def _fbn_grad_outputs(op):
    _check_types(op)
    dy, x, scale = op._inputs[:3]
    c = _channels(op, [scale])
    u = op._attrs["U"]
    return [(x._dtype.base_dtype, x._shape), (u, tensor_shape.TensorShape([c])), (u, tensor_shape.TensorShape([c])),
            (u, tensor_shape.TensorShape([0])), (u, tensor_shape.TensorShape([0]))]


def _fbn_grad_kernel(ctx, dy, x, scale, mean, var, _reserve):
    a = ctx.attrs
    axes = _axes(a["data_format"])
    if _channels_first(a["data_format"]):
        f = a["data_format"]
        dx, scale_backprop, offset_backprop, e1, e2 = _fbn_grad_kernel_last(ctx, _last(dy, f), _last(x, f), scale,
                                                                            mean, var, axes)
        return _back(dx, f), scale_backprop, offset_backprop, e1, e2
    return _fbn_grad_kernel_last(ctx, dy, x, scale, mean, var, axes)


def _fbn_grad_kernel_last(ctx, dy, x, scale, mean, var, axes):
    a = ctx.attrs
    inv = 1 / np.sqrt(var + np.float32(a["epsilon"]))
    dyf, xhat = dy.astype(np.float32), (x.astype(np.float32) - mean) * inv
    offset_backprop = dyf.sum(axis=axes, dtype=np.float32)
    scale_backprop = (dyf * xhat).sum(axis=axes, dtype=np.float32)
    if a["is_training"]:
        n = np.float32(x.size // max(x.shape[-1], 1))
        dx = scale * inv * (dyf - offset_backprop / n - xhat * (scale_backprop / n))
    else:
        dx = dyf * (scale * inv)
    empty = np.zeros([0], np.float32)
    return dx.astype(x.dtype), scale_backprop, offset_backprop, empty, empty.copy()


def _batch_norm_grad_graph(dy, x, scale, mean, var, epsilon, data_format, is_training):
    """TF's _BatchNormGrad: the gradients of FusedBatchNormV3 as ordinary ops, so they can be differentiated."""
    if _channels_first(data_format):
        raise NotImplementedError("second derivatives of a channels-first (%s) fused batch norm are not "
                                  "implemented in graphlab" % data_format)
    axes = list(_axes(data_format))
    x_dtype = x.dtype.base_dtype
    if x_dtype in (dtypes.float16, dtypes.bfloat16):
        x, dy = math_ops.cast(x, dtypes.float32), math_ops.cast(dy, dtypes.float32)
    if is_training:
        mean_dy = math_ops.reduce_mean(dy, axes)
        mean_x = math_ops.reduce_mean(x, axes)
        var_x = math_ops.reduce_mean(math_ops.squared_difference(x, array_ops.stop_gradient(mean_x)), axes)
        dy_offset, x_offset = dy - mean_dy, x - mean_x
        mean = math_ops.reduce_mean(dy * x_offset, axis=axes)
        dx = scale * math_ops.rsqrt(var_x + epsilon) * (dy_offset - math_ops.reciprocal(var_x + epsilon) * mean *
                                                         x_offset)
        dscale = math_ops.rsqrt(var_x + epsilon) * math_ops.reduce_sum(dy * x_offset, axis=axes)
        return math_ops.cast(dx, x_dtype), dscale, math_ops.reduce_sum(dy, axis=axes)
    doffset = math_ops.reduce_sum(dy, axis=axes)
    var_rsqrt = math_ops.rsqrt(var + epsilon)
    dscale = math_ops.reduce_sum(dy * (x - mean) * var_rsqrt, axis=axes)
    return math_ops.cast(dy * scale * var_rsqrt, x_dtype), dscale, doffset


def _fbn_grad_grad(op, *grads):
    """TF's _FusedBatchNormGradGradV3: differentiate the ops form of the first gradient (TF records it on a
    GradientTape, graphlab with tf.gradients, so the op names differ from TF's)."""
    dy, x, scale, mean, var = op.inputs[:5]
    first = _batch_norm_grad_graph(dy, x, scale, mean, var, op._attrs["epsilon"], op._attrs["data_format"],
                                   op._attrs["is_training"])
    pairs = [(f, g) for f, g in zip(first, grads[:3]) if g is not None]
    if not pairs:
        return [None] * 6
    # only through the ops just built, as TF's tape records them: dy usually depends on x further up
    out = registry.symbolic_gradients([f for f, _ in pairs], [dy, x, scale], grad_ys=[g for _, g in pairs],
                                      stop_gradients=[dy, x, scale])
    return list(out) + [None, None, None]


register_op(
    "FusedBatchNormGradV3",
    inputs=["y_backprop: T", "x: T", "scale: float32", "reserve_space_1: U", "reserve_space_2: U",
            "reserve_space_3: U"],
    outputs=_fbn_grad_outputs,
    kernel=_fbn_grad_kernel,
    grad=_fbn_grad_grad,
    doc="Gradient of FusedBatchNormV3 for x, scale and offset (and two empty reserve spaces).")


def fused_batch_norm(x, scale, offset, mean=None, variance=None, epsilon=0.001, data_format="NHWC",
                     is_training=True, name=None, exponential_avg_factor=1.0):
    """``tf.nn.fused_batch_norm``: (y, running_mean, running_var) from one FusedBatchNormV3."""
    if (not is_training or exponential_avg_factor != 1.0) and (mean is None or variance is None):
        raise ValueError("Both `mean` and `variance` must be a 1D tensor when `is_training` is False or "
                         "`exponential_avg_factor` != 1.0. Received: `mean` %r and `variance` %r" % (mean, variance))
    x = convert_to_tensor(x, name="input")
    _check_x_type(x)      # before the op's inputs are matched, as TF checks attr T first
    scale = convert_to_tensor(scale, name="scale")
    offset = convert_to_tensor(offset, name="offset")
    if mean is None:
        mean = constant([])
    if variance is None:
        variance = constant([])
    attrs = {"epsilon": float(epsilon), "exponential_avg_factor": float(exponential_avg_factor),
             "data_format": data_format, "is_training": bool(is_training)}
    outs = build_op("FusedBatchNormV3", [x, scale, offset, mean, variance], attrs=attrs, name=name).outputs
    return outs[0], outs[1], outs[2]


__all__ = ["fused_batch_norm"]
