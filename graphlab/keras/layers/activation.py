"""Keras's activation layers: LeakyReLU (``leaky_re_lu/LeakyRelu``), ReLU (``re_lu/Relu``, or its
capped/thresholded forms), Softmax (``softmax/Softmax``) and ELU."""
from graphlab.keras import backend
from graphlab.keras.engine.base_layer import Layer
from graphlab.ops import nn_ops


class LeakyReLU(Layer):
    """x for x >= 0, alpha * x otherwise (alpha 0.3 by default)."""

    def __init__(self, alpha=0.3, **kwargs):
        super().__init__(**kwargs)
        if alpha is None:
            raise ValueError("The alpha value of a Leaky ReLU layer cannot be None. Expecting a float. Received: "
                             "alpha=%s" % alpha)
        self.supports_masking = True
        self.alpha = backend.cast_to_floatx(alpha)

    def call(self, inputs):
        return backend.relu(inputs, alpha=self.alpha)

    def get_config(self):
        config = super().get_config()
        config["alpha"] = float(self.alpha)
        return config


class ReLU(Layer):
    """max(x, 0), optionally capped at max_value, leaky below threshold."""

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kwargs):
        super().__init__(**kwargs)
        if max_value is not None and max_value < 0.0:
            raise ValueError("max_value of a ReLU layer cannot be a negative value. Received: %s" % max_value)
        if negative_slope is None or negative_slope < 0.0:
            raise ValueError("negative_slope of a ReLU layer cannot be a negative value. Received: %s"
                             % negative_slope)
        if threshold is None or threshold < 0.0:
            raise ValueError("threshold of a ReLU layer cannot be a negative value. Received: %s" % threshold)
        self.supports_masking = True
        if max_value is not None:
            max_value = backend.cast_to_floatx(max_value)
        self.max_value = max_value
        self.negative_slope = backend.cast_to_floatx(negative_slope)
        self.threshold = backend.cast_to_floatx(threshold)

    def call(self, inputs):
        return backend.relu(inputs, alpha=self.negative_slope, max_value=self.max_value, threshold=self.threshold)

    def get_config(self):
        config = super().get_config()
        config.update({"max_value": self.max_value, "negative_slope": float(self.negative_slope),
                       "threshold": float(self.threshold)})
        return config


class Softmax(Layer):
    """Softmax along ``axis``."""

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.axis = axis

    def call(self, inputs, mask=None):
        return nn_ops.softmax(inputs, axis=self.axis)

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config


class ELU(Layer):
    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.alpha = backend.cast_to_floatx(alpha)

    def call(self, inputs):
        return backend.elu(inputs, self.alpha)
