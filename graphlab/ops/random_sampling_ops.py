"""Sampling from distributions other than uniform and normal: Multinomial (``tf.random.categorical``,
``tf.multinomial``), RandomGamma (``tf.random.gamma``, differentiable through RandomGammaGrad as in TF:
implicit reparameterization), RandomPoissonV2 (``tf.random.poisson``), and ``tf.random_crop``.

All three draw TF's own numbers from its Philox stream (philox.categorical_uniforms says when TF's threads make
Multinomial's differ; philox_rejection runs gamma's and Poisson's rejection loops as TF's kernels do).
"""
import math

import numpy as np

from graphlab.framework import dtypes, tensor_shape
from graphlab.framework import graph as graph_mod
from graphlab.formats.errors import InvalidArgumentError
from graphlab.framework.random_seed import get_seed
from graphlab.ops import array_ops, math_ops, philox, philox_rejection
from graphlab.ops.random_ops import _stream, random_uniform
from graphlab.framework.registry import (NOT_DIFFERENTIABLE, ShapeError, build_op, const_value, convert_to_tensor,
                                   register_op)
from graphlab.ops.sequence_ops import broadcast_dynamic_shape


def _seeds(seed):
    s1, s2 = get_seed(seed)
    return {"seed": s1 or 0, "seed2": s2 or 0}


def _sample_shape(shape_tensor, param):
    """Output shape: the sample shape followed by the parameters' shape (static where known)."""
    dims = array_ops._partial_shape(shape_tensor)
    if dims is None or param._shape.ndims is None:
        return tensor_shape.UNKNOWN
    return tensor_shape.TensorShape(dims + param._shape.as_list())


# ------------------------------------------------------------------------------------------- Multinomial
def _multinomial_outputs(op):
    logits, num = op._inputs
    if logits._shape.ndims is not None and logits._shape.ndims != 2:
        raise ValueError("Shape must be rank 2 but is rank %d" % logits._shape.ndims)
    n = const_value(num)
    if n is not None and int(n) < 0:
        raise ShapeError("Dimension size, given by scalar input 1, must be non-negative but is %d" % int(n),
                         read_inputs=(1,))
    batch = logits._shape.as_list()[0] if logits._shape.ndims == 2 else None
    return [(op._attrs["output_dtype"], tensor_shape.TensorShape([batch, None if n is None else int(n)]))]


def _multinomial_kernel(ctx, logits, num):
    num = int(num)
    if num < 0:
        raise InvalidArgumentError(None, ctx.op, "num_samples should be non-negative, got %d" % num)
    if logits.ndim != 2:
        raise InvalidArgumentError(None, ctx.op, "logits should be a matrix, got shape %s" % list(logits.shape))
    if logits.shape[1] == 0:
        raise InvalidArgumentError(None, ctx.op, "num_classes should be positive, got 0")
    rows, classes = logits.shape
    if rows * num == 0:                          # TF draws nothing for an empty output
        return np.zeros((rows, num), ctx.attrs["output_dtype"].as_numpy_dtype)
    finite = np.isfinite(logits)
    # the row's largest finite logit (in the logits' own type, as TF takes it), then an unnormalised CDF that
    # counts only finite logits: an infinite or NaN class keeps the running total of the classes before it
    peak = np.where(finite, logits, np.finfo(logits.dtype).min).max(axis=1, keepdims=True).astype(np.float64)
    weights = np.where(finite, np.exp(logits.astype(np.float64) - peak), 0.0)
    cdf = np.cumsum(weights, axis=1)
    targets = philox.categorical_uniforms(_stream(ctx), rows, num) * cdf[:, -1:]
    out = np.stack([np.searchsorted(cdf[b], targets[b], side="right") for b in range(rows)])
    return out.astype(ctx.attrs["output_dtype"].as_numpy_dtype)


register_op("Multinomial", inputs=["logits: T", "num_samples: int32"], outputs=_multinomial_outputs,
            kernel=_multinomial_kernel, grad=NOT_DIFFERENTIABLE, stateful=True,
            doc="num_samples class indices per row, drawn with probabilities softmax(logits).")


def _categorical(logits, num_samples, dtype, seed):
    logits = convert_to_tensor(logits, name="logits")
    dtype = dtypes.as_dtype(dtype) if dtype else dtypes.int64
    if dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError("Argument `dtype` got invalid value %s. Accepted dtypes are (tf.int32, tf.int64)." % dtype)
    attrs = dict(_seeds(seed), output_dtype=dtype)
    return build_op("Multinomial", [logits, num_samples], attrs=attrs).outputs[0]


def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    """``tf.random.categorical``: samples class indices from unnormalized log-probabilities."""
    with graph_mod.name_scope(name, "categorical", [logits]):
        return _categorical(logits, num_samples, dtype, seed)


def multinomial(logits, num_samples, seed=None, name=None, output_dtype=None):
    """TF1's ``tf.multinomial`` / ``tf.random.multinomial``."""
    with graph_mod.name_scope(name, "multinomial", [logits]):
        return _categorical(logits, num_samples, output_dtype, seed)


# -------------------------------------------------------------------------------- RandomGamma (+ its grad)
def _gamma_kernel(ctx, shape, alpha):
    """TF's samples (philox_gamma), laid out as TF's: the sample shape, then alpha's shape."""
    dims = [int(d) for d in shape]
    num_samples = int(np.prod(dims, dtype=np.int64))
    if num_samples == 0 or alpha.size == 0:
        return np.zeros(dims + list(alpha.shape), alpha.dtype)
    samples = philox_rejection.gamma(_stream(ctx), alpha.astype(np.float64).reshape(-1), num_samples)
    return samples.reshape(dims + list(alpha.shape)).astype(alpha.dtype)


def _gamma_grad(op, grad):
    """TF's _RandomGammaGrad: d sample / d alpha from RandomGammaGrad, summed over the sample axes."""
    shape, alpha, sample = op.inputs[0], op.inputs[1], op.outputs[0]
    with graph_mod.get_default_graph().control_dependencies([grad]):
        num_sample_dims = array_ops.shape(shape)[0]
        new_shape = array_ops.concat([array_ops.ones([num_sample_dims], dtype=dtypes.int32), array_ops.shape(alpha)],
                                     axis=0)
        alpha_broadcastable = array_ops.reshape(alpha, new_shape)
        partial_a = build_op("RandomGammaGrad", [alpha_broadcastable, sample]).outputs[0]
        return [None, math_ops.reduce_sum(grad * partial_a, axis=array_ops.range(num_sample_dims))]


register_op("RandomGamma", inputs=["shape: S=int32", "alpha: T"],
            outputs=lambda op: [(op._inputs[1]._dtype.base_dtype, _sample_shape(op._inputs[0], op._inputs[1]))],
            kernel=_gamma_kernel, grad=_gamma_grad, stateful=True,
            doc="Samples from Gamma(alpha, 1) for each alpha, shape + alpha.shape of them.")


def _regularized_gamma(a, x):
    """P(a, x), the regularized lower incomplete gamma function, elementwise over arrays (the series below
    a + 1, the continued fraction above; a fixed number of terms, converged for the values sampling meets)."""
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        log_front = a * np.log(x) - x - np.vectorize(math.lgamma, otypes=[np.float64])(a) if a.size else a
        term = total = 1.0 / a                       # series: sum x^n / (a (a+1) ... (a+n))
        n = a.copy()
        for _ in range(300):
            n = n + 1
            term = term * x / n
            total = total + term
        series = total * np.exp(log_front)
        b = x + 1 - a                                # continued fraction (modified Lentz)
        c = np.full_like(x, 1e300)
        d = 1.0 / np.where(b == 0, 1e-300, b)
        h = d.copy()
        for i in range(1, 300):
            an = -i * (i - a)
            b = b + 2
            d = an * d + b
            d = np.where(np.abs(d) < 1e-300, 1e-300, d)
            c = b + an / c
            c = np.where(np.abs(c) < 1e-300, 1e-300, c)
            d = 1.0 / d
            h = h * d * c
        fraction = 1.0 - np.exp(log_front) * h
    return np.where(x <= 0, 0.0, np.where(x < a + 1, series, fraction))


def _gamma_grad_kernel(ctx, alpha, sample):
    """d x / d alpha at fixed P(alpha, x): -(dP/dalpha) / (dP/dx), the first by central differences."""
    a, x = np.broadcast_arrays(alpha.astype(np.float64), sample.astype(np.float64))
    h = 1e-5 * np.maximum(a, 1e-3)
    dp_da = (_regularized_gamma(a + h, x) - _regularized_gamma(a - h, x)) / (2 * h)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        lgamma = np.vectorize(math.lgamma, otypes=[np.float64])(a) if a.size else a
        density = np.exp((a - 1) * np.log(x) - x - lgamma)
        out = np.where((x > 0) & (a > 0), -dp_da / density, 0.0)
    return out.astype(sample.dtype)


register_op("RandomGammaGrad", inputs=["alpha: T", "sample: T"],
            outputs=lambda op: [(op._inputs[1]._dtype.base_dtype, op._inputs[1]._shape)],
            kernel=_gamma_grad_kernel, grad=None,
            doc="d sample / d alpha of Gamma(alpha, 1) samples (TF registers no gradient for it).")


def random_gamma(shape, alpha, beta=None, dtype=dtypes.float32, seed=None, name=None):
    """``tf.random.gamma`` / ``tf.random_gamma``: Gamma(alpha, beta) samples (beta a rate), never exactly 0."""
    with graph_mod.name_scope(name, "random_gamma", [shape, alpha, beta]):
        shape = convert_to_tensor(shape, name="shape", dtype=dtypes.int32)
        alpha = convert_to_tensor(alpha, name="alpha", dtype=dtype)
        beta = convert_to_tensor(beta if beta is not None else 1, name="beta", dtype=dtype)
        broadcast_shape = broadcast_dynamic_shape(array_ops.shape(alpha), array_ops.shape(beta))
        from graphlab.ops.broadcast_ops import broadcast_to
        alpha_broadcast = broadcast_to(alpha, broadcast_shape)
        sample = build_op("RandomGamma", [shape, alpha_broadcast], attrs=_seeds(seed)).outputs[0]
        tiny = np.finfo(alpha.dtype.as_numpy_dtype).tiny
        return math_ops.maximum(tiny, sample / beta)


# ------------------------------------------------------------------------------------------ RandomPoissonV2
def _poisson_kernel(ctx, shape, rate):
    """TF's samples (philox_rejection): the sample shape, then the rates' shape; a negative rate gives 0."""
    dims = [int(d) for d in shape]
    out_dtype = ctx.attrs["dtype"].as_numpy_dtype
    num_samples = int(np.prod(dims, dtype=np.int64))
    if num_samples == 0 or rate.size == 0:
        return np.zeros(dims + list(rate.shape), out_dtype)
    samples = philox_rejection.poisson(_stream(ctx), rate.astype(np.float64).reshape(-1), num_samples, out_dtype)
    return samples.reshape(dims + list(rate.shape)).astype(out_dtype)


register_op("RandomPoissonV2", inputs=["shape: S=int32", "rate: R=float64"],
            outputs=lambda op: [(op._attrs["dtype"], _sample_shape(op._inputs[0], op._inputs[1]))],
            kernel=_poisson_kernel, grad=NOT_DIFFERENTIABLE, stateful=True,
            doc="Samples from Poisson(rate) for each rate, shape + rate.shape of them.")


def random_poisson(lam, shape, dtype=dtypes.float32, seed=None, name=None):
    """TF1's ``tf.random_poisson`` / ``tf.random.poisson`` (lam first, as TF1)."""
    with graph_mod.name_scope(name, "random_poisson", [lam, shape]):
        shape = convert_to_tensor(shape, name="shape", dtype=dtypes.int32)
        attrs = dict(_seeds(seed), dtype=dtypes.as_dtype(dtype))
        return build_op("RandomPoissonV2", [shape, lam], attrs=attrs).outputs[0]


# ---------------------------------------------------------------------------------------------- random_crop
def random_crop(value, size, seed=None, name=None):
    """``tf.random_crop``: a random slice of ``size``, with TF's Assert that it fits."""
    from graphlab.ops import control_flow_ops, logging_ops
    with graph_mod.name_scope(name, "random_crop", [value, size]) as scope:
        value = convert_to_tensor(value, name="value")
        size = convert_to_tensor(size, dtype=dtypes.int32, name="size")
        shape = array_ops.shape(value)
        check = logging_ops.Assert(math_ops.reduce_all(shape >= size),
                                   ["Need value.shape >= size, got ", shape, size], summarize=1000)
        shape = control_flow_ops.with_dependencies([check], shape)
        limit = shape - size + 1
        offset = random_uniform(array_ops.shape(shape), dtype=size.dtype, maxval=size.dtype.max, seed=seed) % limit
        return array_ops.slice(value, offset, size, name=scope)


__all__ = ["categorical", "multinomial", "random_gamma", "random_poisson", "random_crop"]
