"""Random ops. Each stateful kernel keeps its generator in the session's state, keyed by the op's name: two
runs of one op give new numbers, and a fresh session on a seeded graph repeats the same sequence, as in TF.
RandomUniform, RandomStandardNormal, TruncatedNormal, RandomUniformInt and RandomShuffle draw TF's own
numbers (Philox, see philox.py): a seeded tf.random_shuffle gives TF's order.
"""
import numpy as np

from graphlab.framework import dtypes, tensor_shape
from graphlab.framework import graph as graph_mod
from graphlab.framework.random_seed import get_seed, set_random_seed  # noqa: F401  (re-export)
from graphlab.ops import array_ops, philox
from graphlab.framework.registry import NOT_DIFFERENTIABLE, build_op, convert_to_tensor, register_op


def _generator(ctx):
    """This op's Generator in this session: seeded from (seed, seed2) unless both are 0 (fresh randomness)."""
    key = ("random", ctx.op.name)
    gen = ctx.state.get(key)
    if gen is None:
        seed, seed2 = ctx.attrs.get("seed", 0), ctx.attrs.get("seed2", 0)
        gen = np.random.default_rng([seed, seed2] if seed or seed2 else None)
        ctx.state[key] = gen
    return gen


def _stream(ctx):
    """This op's Philox stream in this session (TF's numbers for its seed and seed2)."""
    key = ("philox", ctx.op.name)
    stream = ctx.state.get(key)
    if stream is None:
        stream = ctx.state[key] = philox.Stream(ctx.attrs.get("seed", 0), ctx.attrs.get("seed2", 0))
    return stream


def _philox_kernel(draw):
    """A kernel filling the requested shape with ``draw(stream, count, numpy dtype)``."""
    def kernel(ctx, shape):
        dims = _dims(shape)
        count = int(np.prod(dims, dtype=np.int64))
        return draw(_stream(ctx), count, ctx.attrs["dtype"].as_numpy_dtype).reshape(dims)
    return kernel


def _shape_outputs(op):
    return [(op._attrs["dtype"], array_ops._shape_of(array_ops._partial_shape(op._inputs[0])))]


def _seed_attrs(seed, dtype):
    s1, s2 = get_seed(seed)
    return {"dtype": dtypes.as_dtype(dtype).base_dtype, "seed": s1 or 0, "seed2": s2 or 0}


def _dims(value):
    return [int(d) for d in value]


register_op(
    "RandomStandardNormal",
    inputs=["shape: T=int32"],
    outputs=_shape_outputs,
    kernel=_philox_kernel(philox.normal),
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="Samples from the normal distribution with mean 0 and standard deviation 1.")

register_op(
    "RandomUniform",
    inputs=["shape: T=int32"],
    outputs=_shape_outputs,
    kernel=_philox_kernel(philox.uniform),
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="Samples uniformly from [0, 1).")


register_op(
    "TruncatedNormal",
    inputs=["shape: T=int32"],
    outputs=_shape_outputs,
    kernel=_philox_kernel(philox.truncated_normal),
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="Normal samples with values beyond two standard deviations redrawn.")


def _uniform_int_kernel(ctx, shape, low, high):
    if low >= high:
        from graphlab.formats.errors import InvalidArgumentError
        raise InvalidArgumentError(None, ctx.op, "Need minval < maxval: %d >= %d" % (low, high))
    dims = _dims(shape)
    count = int(np.prod(dims, dtype=np.int64))
    return philox.uniform_int(_stream(ctx), count, low, high, ctx.attrs["Tout"].as_numpy_dtype).reshape(dims)


register_op(
    "RandomUniformInt",
    inputs=["shape: T=int32", "minval: Tout", "maxval: Tout"],
    outputs=lambda op: [(op._attrs["Tout"], array_ops._shape_of(array_ops._partial_shape(op._inputs[0])))],
    kernel=_uniform_int_kernel,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="Integers sampled uniformly from [minval, maxval).")

def _shuffle_kernel(ctx, value):
    """TF's order along the first axis; nothing to shuffle (a scalar, one row, no elements) draws nothing."""
    if np.ndim(value) == 0 or value.shape[0] <= 1 or value.size <= 1:
        return value
    return value[philox.shuffle_order(_stream(ctx), value.shape[0])]


register_op(
    "RandomShuffle",
    inputs=["value: T"],
    outputs=lambda op: [(op._inputs[0]._dtype.base_dtype, op._inputs[0]._shape)],
    kernel=lambda ctx, x: _shuffle_kernel(ctx, x),
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="Shuffles a tensor along its first axis.")


def _math():
    from graphlab.ops import math_ops
    return math_ops


def _scaled(op_type, shape, mean, stddev, dtype, seed, name, default):
    """random_normal / truncated_normal: sample * stddev + mean under one scope, as TF."""
    with graph_mod.name_scope(name, default, [shape, mean, stddev]) as scope:
        dtype = dtypes.as_dtype(dtype).base_dtype
        shape_t = _shape_tensor(shape)
        mean_t = convert_to_tensor(mean, dtype=dtype, name="mean")
        std_t = convert_to_tensor(stddev, dtype=dtype, name="stddev")
        sample = build_op(op_type, [shape_t], attrs=_seed_attrs(seed, dtype)).outputs[0]
        m = _math()
        return m.add(sample * std_t, mean_t, name=scope)   # operators give TF's lowercase "mul"


def _shape_tensor(shape):
    if isinstance(shape, tensor_shape.TensorShape):
        shape = shape.as_list()
    return convert_to_tensor(shape, dtype=dtypes.int32, name="shape") \
        if not hasattr(shape, "_op") else shape


def random_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """``tf.random_normal``: RandomStandardNormal, then mul and add (named "random_normal")."""
    return _scaled("RandomStandardNormal", shape, mean, stddev, dtype, seed, name, "random_normal")


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """``tf.truncated_normal``."""
    return _scaled("TruncatedNormal", shape, mean, stddev, dtype, seed, name, "truncated_normal")


def random_uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    """``tf.random_uniform``: floats in [minval, maxval) (a bare RandomUniform for [0, 1), as TF 2's compat.v1
    builds it), or RandomUniformInt for integer dtypes (maxval required)."""
    dtype = dtypes.as_dtype(dtype).base_dtype
    if dtype.is_integer and maxval is None:
        raise ValueError("Must specify maxval for integer dtype %r" % dtype)
    if maxval is None:
        maxval = 1
    with graph_mod.name_scope(name, "random_uniform", [shape, minval, maxval]) as scope:
        shape_t = _shape_tensor(shape)
        # TF skips min/max only for the Python ints 0 and 1 (0.0, as initializers pass, builds them);
        # with the int 0 as minval it only multiplies by maxval (tf.image's random flips)
        min_zero = type(minval) is int and minval == 0
        plain = min_zero and type(maxval) is int and maxval == 1
        if plain and not dtype.is_integer:
            return build_op("RandomUniform", [shape_t], attrs=_seed_attrs(seed, dtype)).outputs[0]
        lo = convert_to_tensor(minval, dtype=dtype, name="min")
        hi = convert_to_tensor(maxval, dtype=dtype, name="max")
        if dtype.is_integer:
            attrs = _seed_attrs(seed, dtype)
            attrs["Tout"] = attrs.pop("dtype")
            return build_op("RandomUniformInt", [shape_t, lo, hi], attrs=attrs, name=scope).outputs[0]
        sample = build_op("RandomUniform", [shape_t], attrs=_seed_attrs(seed, dtype)).outputs[0]
        m = _math()
        if min_zero:
            return m.multiply(sample, hi)
        return m.add(sample * (hi - lo), lo, name=scope)


def random_shuffle(value, seed=None, name=None):
    """``tf.random_shuffle``."""
    value = convert_to_tensor(value, name="value") if hasattr(value, "_op") else value
    s1, s2 = get_seed(seed)
    return build_op("RandomShuffle", [value], attrs={"seed": s1 or 0, "seed2": s2 or 0}, name=name).outputs[0]


__all__ = ["random_normal", "truncated_normal", "random_uniform", "random_shuffle", "set_random_seed",
           "get_seed"]
