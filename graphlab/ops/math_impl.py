"""tf.math functions TF builds from other ops (reduce_variance, reduce_std, polyval, reciprocal_no_nan), and
two ops of their own: EuclideanNorm (``tf.math.reduce_euclidean_norm``) and MulNoNan
(``tf.math.multiply_no_nan``), each with TF's gradient."""
import numpy as np

from graphlab.framework import graph as graph_mod
from graphlab.ops import array_ops, math_ops
from graphlab.ops.math_ops import _bcast, _reduction
from graphlab.framework.registry import broadcast_outputs, build_op, convert_to_tensor, register_op


# ====================================================================================== EuclideanNorm
def _euclidean_norm_grad(op, grad):
    """TF's _EuclideanNormGrad: x / (norm / grad), with the reduced axes kept so they broadcast."""
    from graphlab.ops.math_ops import reduced_shape
    output = op.outputs[0]
    if not op.get_attr("keep_dims"):
        kept = reduced_shape(array_ops.shape(op.inputs[0]), op.inputs[1])
        output = array_ops.reshape(output, kept)
        grad = array_ops.reshape(grad, kept)
    return [math_ops.truediv(op.inputs[0], output / grad), None]


def _euclidean_norm(x, axes, keep):
    return np.sqrt(np.sum(np.square(np.abs(x)), axis=axes, keepdims=keep)).astype(x.dtype)


_euclidean = _reduction("EuclideanNorm", _euclidean_norm, _euclidean_norm_grad,
                        "math.reduce_euclidean_norm: sqrt(sum(x ** 2)) over the axes.")


def reduce_euclidean_norm(input_tensor, axis=None, keepdims=False, name=None):
    """``tf.math.reduce_euclidean_norm``."""
    return _euclidean(input_tensor, axis=axis, keepdims=keepdims, name=name)


# =========================================================================================== MulNoNan
def _mul_no_nan(ctx, x, y):
    with np.errstate(invalid="ignore", over="ignore"):
        out = np.multiply(x, y)
    return np.where(np.equal(y, 0), np.zeros((), out.dtype), out).astype(np.result_type(x, y), copy=False)


def _mul_no_nan_grad(op, grad):
    x, y = op.inputs
    return [build_op("MulNoNan", [grad, y]).outputs[0], build_op("MulNoNan", [x, grad]).outputs[0]]


register_op("MulNoNan", inputs=["x: T", "y: T"], outputs=broadcast_outputs(), kernel=_bcast(_mul_no_nan),
            grad=_mul_no_nan_grad, doc="x * y, but 0 where y is 0 even if x is inf or nan.")


def multiply_no_nan(x, y, name=None):
    """``tf.math.multiply_no_nan``."""
    with graph_mod.name_scope(name, "multiply_no_nan", [x, y]) as scope:
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, name="y", dtype=x.dtype.base_dtype)
        return build_op("MulNoNan", [x, y], name=scope).outputs[0]


# ========================================================================================= composites
def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    """``tf.math.reduce_variance``: the mean squared deviation from the mean over the axes."""
    with graph_mod.get_default_graph().name_scope(name or "reduce_variance"):
        input_tensor = convert_to_tensor(input_tensor)
        means = math_ops.reduce_mean(input_tensor, axis=axis, keepdims=True)
        if means.dtype.is_integer:
            raise TypeError("Input must be either real or complex. Received integer type %r." % means.dtype)
        squared_deviations = math_ops.square(input_tensor - means)
        return math_ops.reduce_mean(squared_deviations, axis=axis, keepdims=keepdims)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    """``tf.math.reduce_std``: the square root of reduce_variance."""
    with graph_mod.get_default_graph().name_scope(name or "reduce_std"):
        input_tensor = convert_to_tensor(input_tensor)
        variance = reduce_variance(input_tensor, axis=axis, keepdims=keepdims)
        return math_ops.sqrt(variance)


def polyval(coeffs, x, name=None):
    """``tf.math.polyval``: coeffs[0] * x**(n-1) + ... + coeffs[n-1], by Horner's rule."""
    if not isinstance(coeffs, list):
        raise ValueError("Argument coeffs must be list type. Received type %s." % type(coeffs))
    with graph_mod.name_scope(name, "polyval", list(coeffs) + [x]) as scope:
        x = convert_to_tensor(x, name="x")
        if len(coeffs) < 1:
            return array_ops.zeros_like(x, name=scope)
        coeffs = [convert_to_tensor(c, name="coeff_%d" % i) for i, c in enumerate(coeffs)]
        p = coeffs[0]
        for c in coeffs[1:]:
            p = c + p * x
        return p


def reciprocal_no_nan(x, name=None):
    """``tf.math.reciprocal_no_nan``: 1 / x, and 0 where x is 0."""
    with graph_mod.name_scope(name, "reciprocal_no_nan", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        one = convert_to_tensor(1, dtype=x.dtype.base_dtype, name="one")
        return math_ops.div_no_nan(one, x, name=scope)
