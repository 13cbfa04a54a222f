"""Keras's regularization layers beyond Dropout: SpatialDropout1D/2D (whole feature maps dropped), the
Gaussian noise layers (active only while training: a cond on the learning phase) and ActivityRegularization."""
import numpy as np

from graphlab.keras import backend, regularizers
from graphlab.keras.engine.base_layer import Layer
from graphlab.keras.engine.input_spec import InputSpec
from graphlab.keras.layers.core import Dropout
from graphlab.ops import array_ops, random_ops


class SpatialDropout1D(Dropout):
    """Drop whole channels of [batch, steps, channels]: one draw per example and channel."""

    def __init__(self, rate, **kwargs):
        super().__init__(rate, **kwargs)
        self.input_spec = InputSpec(ndim=3)

    def _get_noise_shape(self, inputs):
        shape = array_ops.shape(inputs)
        return (shape[0], 1, shape[2])


class SpatialDropout2D(Dropout):
    """Drop whole feature maps of [batch, rows, cols, channels]."""

    def __init__(self, rate, data_format=None, **kwargs):
        super().__init__(rate, **kwargs)
        self.data_format = backend.normalize_data_format(data_format)
        self.input_spec = InputSpec(ndim=4)

    def _get_noise_shape(self, inputs):
        shape = array_ops.shape(inputs)
        if self.data_format == "channels_first":
            return (shape[0], shape[1], 1, 1)
        return (shape[0], 1, 1, shape[3])


class GaussianNoise(Layer):
    """Add zero-mean normal noise of ``stddev`` while training."""

    def __init__(self, stddev, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.stddev, self.seed = stddev, seed

    def call(self, inputs, training=None):
        def noised():
            return inputs + random_ops.random_normal(array_ops.shape(inputs), mean=0.0, stddev=self.stddev,
                                                     dtype=inputs.dtype, seed=self.seed)
        return backend.in_train_phase(noised, inputs, training=training)

    def get_config(self):
        config = super().get_config()
        config.update({"stddev": self.stddev, "seed": self.seed})
        return config


class GaussianDropout(Layer):
    """Multiply by normal noise of mean 1 and variance rate / (1 - rate) while training."""

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.rate, self.seed = rate, seed

    def call(self, inputs, training=None):
        if 0 < self.rate < 1:
            def noised():
                stddev = np.sqrt(self.rate / (1.0 - self.rate))
                return inputs * random_ops.random_normal(array_ops.shape(inputs), mean=1.0, stddev=stddev,
                                                         dtype=inputs.dtype, seed=self.seed)
            return backend.in_train_phase(noised, inputs, training=training)
        return inputs

    def get_config(self):
        config = super().get_config()
        config.update({"rate": self.rate, "seed": self.seed})
        return config


class ActivityRegularization(Layer):
    """Identity that adds l1/l2 penalties of its input to the model's losses."""

    def __init__(self, l1=0.0, l2=0.0, **kwargs):
        super().__init__(activity_regularizer=regularizers.L1L2(l1=l1, l2=l2), **kwargs)
        self.supports_masking = True
        self.l1, self.l2 = l1, l2

    def get_config(self):
        config = super().get_config()
        config.update({"l1": self.l1, "l2": self.l2})
        return config
