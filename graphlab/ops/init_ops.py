"""Initializers (TF1 ``init_ops``): objects called as ``init(shape, dtype, partition_info)`` that build the
ops computing a variable's first value. ``get_variable`` calls them inside ``<var>/Initializer/``, so their
op names (``Const``, ``zeros``, ``random_uniform/...``) match TensorFlow's graphs.

They only build ops from other families (constants here, random ops from random_ops.py); no kernels here.
"""
import math

import numpy as np

from graphlab.framework import dtypes
from graphlab.framework.registry import constant


def _float_dtype(dtype, who):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError("Expected floating point type, got %s." % dtype)
    return dtype


class Initializer:
    """Base class: subclasses build the initial value for ``shape`` and ``dtype``."""

    def __call__(self, shape, dtype=None, partition_info=None):
        raise NotImplementedError

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class Zeros(Initializer):
    """All zeros (a Const named ``zeros``)."""

    def __init__(self, dtype=dtypes.float32):
        self.dtype = dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = dtypes.as_dtype(dtype or self.dtype)
        from graphlab.ops import array_ops
        if hasattr(array_ops, "zeros"):
            return array_ops.zeros(shape, dtype)
        return constant(np.zeros(shape, dtype.as_numpy_dtype), dtype=dtype, name="zeros")

    def get_config(self):
        return {"dtype": self.dtype.name}


class Ones(Initializer):
    """All ones (a Const named ``ones``)."""

    def __init__(self, dtype=dtypes.float32):
        self.dtype = dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = dtypes.as_dtype(dtype or self.dtype)
        from graphlab.ops import array_ops
        if hasattr(array_ops, "ones"):
            return array_ops.ones(shape, dtype)
        return constant(np.ones(shape, dtype.as_numpy_dtype), dtype=dtype, name="ones")

    def get_config(self):
        return {"dtype": self.dtype.name}


class Constant(Initializer):
    """A given value, filled or reshaped to the variable's shape (a Const named ``Const``)."""

    def __init__(self, value=0, dtype=dtypes.float32, verify_shape=False):
        if not np.isscalar(value) and not isinstance(value, (list, tuple, np.ndarray)):
            raise TypeError("Invalid type for initial value: %s (expected Python scalar, list or tuple of "
                            "values, or numpy.ndarray)." % type(value))
        self.value = value
        self.dtype = dtypes.as_dtype(dtype)
        self._verify_shape = verify_shape

    def __call__(self, shape, dtype=None, partition_info=None, verify_shape=None):
        dtype = dtype or self.dtype
        verify = self._verify_shape if verify_shape is None else verify_shape
        return constant(self.value, dtype=dtype, shape=shape, verify_shape=verify)

    def get_config(self):
        return {"value": self.value, "dtype": self.dtype.name}


def _random_ops():
    """The random op family; imported late because it is a separate module (and registers ops)."""
    from graphlab.ops import random_ops
    return random_ops


class RandomUniform(Initializer):
    """Uniform in [minval, maxval) (maxval None means 1 for floats)."""

    def __init__(self, minval=0.0, maxval=None, seed=None, dtype=dtypes.float32):
        self.minval, self.maxval, self.seed = minval, maxval, seed
        self.dtype = dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = dtypes.as_dtype(dtype or self.dtype)
        return _random_ops().random_uniform(shape, self.minval, self.maxval, dtype, seed=self.seed)

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed, "dtype": self.dtype.name}


class RandomNormal(Initializer):
    """Normal with ``mean`` and ``stddev``."""

    def __init__(self, mean=0.0, stddev=1.0, seed=None, dtype=dtypes.float32):
        self.mean, self.stddev, self.seed = mean, stddev, seed
        self.dtype = _float_dtype(dtype, "RandomNormal")

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = dtypes.as_dtype(dtype or self.dtype)
        return _random_ops().random_normal(shape, self.mean, self.stddev, dtype, seed=self.seed)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed, "dtype": self.dtype.name}


class TruncatedNormal(Initializer):
    """Normal with values beyond two standard deviations redrawn."""

    def __init__(self, mean=0.0, stddev=1.0, seed=None, dtype=dtypes.float32):
        self.mean, self.stddev, self.seed = mean, stddev, seed
        self.dtype = _float_dtype(dtype, "TruncatedNormal")

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = dtypes.as_dtype(dtype or self.dtype)
        return _random_ops().truncated_normal(shape, self.mean, self.stddev, dtype, seed=self.seed)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed, "dtype": self.dtype.name}


def _compute_fans(shape):
    """(fan_in, fan_out) as TF computes them: dense [in, out]; conv kernels [..., in, out] times the
    receptive field; scalars count as 1."""
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = 1
    for d in shape[:-2]:
        receptive *= d
    return shape[-2] * receptive, shape[-1] * receptive


class VarianceScaling(Initializer):
    """Scale the spread to the layer size: variance ``scale / n`` with n = fan_in, fan_out or their mean.
    ``distribution`` is "truncated_normal" (stddev corrected for the truncation), "untruncated_normal" or
    "uniform" (limit sqrt(3 * scale / n))."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None,
                 dtype=dtypes.float32):
        if scale <= 0.:
            raise ValueError("`scale` must be positive float.")
        if mode not in {"fan_in", "fan_out", "fan_avg"}:
            raise ValueError("Invalid `mode` argument:", mode)
        distribution = distribution.lower()
        if distribution == "normal":
            distribution = "truncated_normal"
        if distribution not in {"uniform", "truncated_normal", "untruncated_normal"}:
            raise ValueError("Invalid `distribution` argument:", distribution)
        self.scale, self.mode, self.distribution, self.seed = scale, mode, distribution, seed
        self.dtype = _float_dtype(dtype, "VarianceScaling")

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = dtypes.as_dtype(dtype or self.dtype)
        scale_shape = list(shape) if partition_info is None else list(partition_info.full_shape)
        fan_in, fan_out = _compute_fans(scale_shape)
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.}[self.mode]
        scale = self.scale / max(1., n)
        random = _random_ops()
        if self.distribution == "truncated_normal":
            stddev = math.sqrt(scale) / .87962566103423978  # stddev of a unit normal truncated at +-2
            return random.truncated_normal(shape, 0.0, stddev, dtype, seed=self.seed)
        if self.distribution == "untruncated_normal":
            return random.random_normal(shape, 0.0, math.sqrt(scale), dtype, seed=self.seed)
        limit = math.sqrt(3.0 * scale)
        return random.random_uniform(shape, -limit, limit, dtype, seed=self.seed)

    def get_config(self):
        return {"scale": self.scale, "mode": self.mode, "distribution": self.distribution,
                "seed": self.seed, "dtype": self.dtype.name}


class GlorotUniform(VarianceScaling):
    """Xavier uniform: limit sqrt(6 / (fan_in + fan_out)); ``get_variable``'s default for floats."""

    def __init__(self, seed=None, dtype=dtypes.float32):
        super().__init__(1.0, "fan_avg", "uniform", seed, dtype)

    def get_config(self):
        return {"seed": self.seed, "dtype": self.dtype.name}


class GlorotNormal(VarianceScaling):
    """Xavier normal (truncated): stddev sqrt(2 / (fan_in + fan_out))."""

    def __init__(self, seed=None, dtype=dtypes.float32):
        super().__init__(1.0, "fan_avg", "truncated_normal", seed, dtype)

    def get_config(self):
        return {"seed": self.seed, "dtype": self.dtype.name}


# TF1's public spellings
zeros_initializer = Zeros
ones_initializer = Ones
constant_initializer = Constant
random_uniform_initializer = RandomUniform
random_normal_initializer = RandomNormal
truncated_normal_initializer = TruncatedNormal
variance_scaling_initializer = VarianceScaling
glorot_uniform_initializer = GlorotUniform
glorot_normal_initializer = GlorotNormal


def he_normal(seed=None):
    return VarianceScaling(2., "fan_in", "truncated_normal", seed)


def he_uniform(seed=None):
    return VarianceScaling(2., "fan_in", "uniform", seed)


def lecun_normal(seed=None):
    return VarianceScaling(1., "fan_in", "truncated_normal", seed)


def lecun_uniform(seed=None):
    return VarianceScaling(1., "fan_in", "uniform", seed)


class Orthogonal(Initializer):
    """An orthogonal matrix (rows or columns orthonormal) times ``gain``, from the QR decomposition of a
    normal sample; shapes of rank > 2 are flattened to [prod(shape[:-1]), shape[-1]] first (TF's graph)."""

    def __init__(self, gain=1.0, seed=None, dtype=dtypes.float32):
        self.gain, self.seed = gain, seed
        self.dtype = _float_dtype(dtype, "Orthogonal")

    def __call__(self, shape, dtype=None, partition_info=None):
        from graphlab.ops import array_ops, math_ops
        from graphlab.ops.diag_ops import diag_part
        from graphlab.ops.linalg_impl import matrix_transpose
        from graphlab.ops.linalg_ops import qr
        dtype = dtypes.as_dtype(dtype or self.dtype)
        if len(shape) < 2:
            raise ValueError("The tensor to initialize, specified by argument `shape` must be at least "
                             "two-dimensional. Received shape=%s" % (list(shape),))
        num_rows = int(np.prod(shape[:-1]))
        num_cols = int(shape[-1])
        flat_shape = (num_cols, num_rows) if num_rows < num_cols else (num_rows, num_cols)
        a = _random_ops().random_normal(flat_shape, dtype=dtype, seed=self.seed)
        q, r = qr(a, full_matrices=False)
        d = diag_part(r)      # TF1's Orthogonal takes the DiagPart op of the square R
        q *= math_ops.sign(d)
        if num_rows < num_cols:
            q = matrix_transpose(q)
        return self.gain * array_ops.reshape(q, shape)

    def get_config(self):
        return {"gain": self.gain, "seed": self.seed, "dtype": self.dtype.name}


class UniformUnitScaling(Initializer):
    """TF1's deprecated uniform_unit_scaling_initializer: uniform in +-sqrt(3 / fan_in) * factor."""

    def __init__(self, factor=1.0, seed=None, dtype=dtypes.float32):
        self.factor, self.seed = factor, seed
        self.dtype = _float_dtype(dtype, "UniformUnitScaling")

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = dtypes.as_dtype(dtype or self.dtype)
        scale_shape = list(shape) if partition_info is None else list(partition_info.full_shape)
        input_size = 1.0
        for dim in scale_shape[:-1]:
            input_size *= float(dim)
        input_size = max(input_size, 1.0)
        max_val = math.sqrt(3 / input_size) * self.factor
        return _random_ops().random_uniform(shape, -max_val, max_val, dtype, seed=self.seed)

    def get_config(self):
        return {"factor": self.factor, "seed": self.seed, "dtype": self.dtype.name}


orthogonal_initializer = Orthogonal
uniform_unit_scaling_initializer = UniformUnitScaling
