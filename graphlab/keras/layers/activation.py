"""Keras's activation layers: LeakyReLU (``leaky_re_lu/LeakyRelu``), ReLU (``re_lu/Relu``, or its
capped/thresholded forms), Softmax (``softmax/Softmax``) and ELU."""
from graphlab.framework import tensor_shape
from graphlab.keras import backend, constraints, initializers, regularizers
from graphlab.keras.engine.input_spec import InputSpec
from graphlab.keras.engine.base_layer import Layer
from graphlab.ops import math_ops, nn_ops


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
        config.update({"max_value": self.max_value, "negative_slope": self.negative_slope,
                       "threshold": self.threshold})
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


class PReLU(Layer):
    """relu(x) - alpha * relu(-x) with a learned ``alpha`` per input entry (shared along ``shared_axes``)."""

    def __init__(self, alpha_initializer="zeros", alpha_regularizer=None, alpha_constraint=None, shared_axes=None,
                 **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.alpha_initializer = initializers.get(alpha_initializer)
        self.alpha_regularizer = regularizers.get(alpha_regularizer)
        self.alpha_constraint = constraints.get(alpha_constraint)
        if shared_axes is None or isinstance(shared_axes, (list, tuple)):
            self.shared_axes = shared_axes
        else:
            self.shared_axes = [shared_axes]

    def build(self, input_shape):
        dims = tensor_shape.as_shape(input_shape).as_list()
        param_shape = list(dims[1:])
        for i in self.shared_axes or []:
            param_shape[i - 1] = 1
        self.alpha = self.add_weight(shape=param_shape, name="alpha", initializer=self.alpha_initializer,
                                     regularizer=self.alpha_regularizer, constraint=self.alpha_constraint)
        axes = {i: dims[i] for i in range(1, len(dims)) if self.shared_axes and i not in self.shared_axes}
        self.input_spec = InputSpec(ndim=len(dims), axes=axes)
        self.built = True

    def call(self, inputs):
        pos = backend.relu(inputs)
        neg = -self.alpha * backend.relu(-inputs)
        return pos + neg


class ThresholdedReLU(Layer):
    """x where x > theta, else 0."""

    def __init__(self, theta=1.0, **kwargs):
        super().__init__(**kwargs)
        if theta is None:
            raise ValueError("Theta of a Thresholded ReLU layer cannot be None, expecting a float. Received: %s"
                             % theta)
        if theta < 0:
            raise ValueError("The theta value of a Thresholded ReLU layer should be >=0. Received: %s" % theta)
        self.supports_masking = True
        self.theta = backend.cast_to_floatx(theta)

    def call(self, inputs):
        return inputs * math_ops.cast(math_ops.greater(inputs, self.theta), self.dtype or inputs.dtype)

    def get_config(self):
        config = super().get_config()
        config["theta"] = float(self.theta)
        return config
