"""Keras's pooling layers: MaxPooling1D/2D and AveragePooling1D/2D (``max_pooling2d/MaxPool``; the 1-D
forms pool a 2-D view: ExpandDims, MaxPool, Squeeze) and the global poolings (a Mean or Max over the
steps or rows and columns)."""
from graphlab.framework import tensor_shape
from graphlab.keras import backend
from graphlab.keras.engine.base_layer import Layer
from graphlab.keras.engine.input_spec import InputSpec
from graphlab.keras.layers.convolutional import conv_output_length
from graphlab.keras.utils.generic_utils import normalize_tuple
from graphlab.ops import array_ops, conv_ops, math_ops


class _Pooling(Layer):
    _rank = 2
    _op = None

    def __init__(self, pool_size, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(**kwargs)
        if data_format is None:
            data_format = backend.image_data_format()
        if strides is None:
            strides = pool_size
        self.pool_size = normalize_tuple(pool_size, self._rank, "pool_size")
        self.strides = normalize_tuple(strides, self._rank, "strides")
        self.padding = padding.lower()
        self.data_format = backend.normalize_data_format(data_format)
        self.input_spec = InputSpec(ndim=self._rank + 2)

    def _pool(self, inputs, pool_size, strides):
        fn = conv_ops.max_pool if self._op == "max" else conv_ops.avg_pool
        if self.data_format == "channels_last":
            return fn(inputs, ksize=(1,) + pool_size + (1,), strides=(1,) + strides + (1,),
                      padding=self.padding.upper(), data_format="NHWC")
        return fn(inputs, ksize=(1, 1) + pool_size, strides=(1, 1) + strides, padding=self.padding.upper(),
                  data_format="NCHW")

    def compute_output_shape(self, input_shape):
        dims = tensor_shape.as_shape(input_shape).as_list()
        first = self.data_format == "channels_first"
        spatial = dims[2:] if first else dims[1:-1]
        new = [conv_output_length(n, self.pool_size[i], self.padding, self.strides[i]) for i, n in enumerate(spatial)]
        return tensor_shape.TensorShape([dims[0], dims[1]] + new if first else [dims[0]] + new + [dims[-1]])

    def get_config(self):
        config = super().get_config()
        config.update({"pool_size": self.pool_size, "padding": self.padding, "strides": self.strides,
                       "data_format": self.data_format})
        return config


class _Pooling2D(_Pooling):
    _rank = 2

    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(pool_size, strides, padding, data_format, **kwargs)

    def call(self, inputs):
        return self._pool(inputs, self.pool_size, self.strides)


class _Pooling1D(_Pooling):
    _rank = 1

    def get_config(self):
        config = Layer.get_config(self)
        config.update({"strides": self.strides, "pool_size": self.pool_size, "padding": self.padding,
                       "data_format": self.data_format})
        return config

    def __init__(self, pool_size=2, strides=None, padding="valid", data_format="channels_last", **kwargs):
        super().__init__(pool_size, strides, padding, data_format, **kwargs)

    def call(self, inputs):
        pad_axis = 2 if self.data_format == "channels_last" else 3
        inputs = array_ops.expand_dims(inputs, pad_axis)
        outputs = self._pool(inputs, self.pool_size + (1,), self.strides + (1,))
        return array_ops.squeeze(outputs, [pad_axis])


class MaxPooling2D(_Pooling2D):
    """The largest value in each window."""
    _op = "max"


class AveragePooling2D(_Pooling2D):
    """The mean of each window."""
    _op = "avg"


class MaxPooling1D(_Pooling1D):
    _op = "max"


class AveragePooling1D(_Pooling1D):
    _op = "avg"


class _GlobalPooling(Layer):
    _rank = 2
    _op = None

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        self.data_format = backend.normalize_data_format(data_format)
        self.input_spec = InputSpec(ndim=self._rank + 2)
        self.keepdims = keepdims

    def call(self, inputs):
        if self._rank == 1:
            axis = 1 if self.data_format == "channels_last" else 2
        else:
            axis = [1, 2] if self.data_format == "channels_last" else [2, 3]
        if self._op == "max":
            return math_ops.reduce_max(inputs, axis, self.keepdims)
        return math_ops.reduce_mean(inputs, axis, self.keepdims)

    def get_config(self):
        config = super().get_config()
        config.update({"data_format": self.data_format, "keepdims": self.keepdims})
        return config


class GlobalAveragePooling2D(_GlobalPooling):
    _rank, _op = 2, "avg"


class GlobalMaxPooling2D(_GlobalPooling):
    _rank, _op = 2, "max"


class GlobalAveragePooling1D(_GlobalPooling):
    """The mean over the steps; with a mask, over the unmasked steps only."""
    _rank, _op = 1, "avg"

    def __init__(self, data_format="channels_last", **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.supports_masking = True

    def call(self, inputs, mask=None):
        steps_axis = 1 if self.data_format == "channels_last" else 2
        if mask is None:
            return math_ops.reduce_mean(inputs, steps_axis, self.keepdims)
        mask = math_ops.cast(mask, inputs[0].dtype)      # inputs[0]: a StridedSlice, as in tf-keras's graph
        mask = array_ops.expand_dims(mask, 2 if self.data_format == "channels_last" else 1)
        inputs *= mask
        return (math_ops.reduce_sum(inputs, steps_axis, self.keepdims)
                / math_ops.reduce_sum(mask, axis=steps_axis, keepdims=self.keepdims))

    def compute_mask(self, inputs, mask=None):
        return None


class GlobalMaxPooling1D(_GlobalPooling):
    _rank, _op = 1, "max"

    def __init__(self, data_format="channels_last", **kwargs):
        super().__init__(data_format=data_format, **kwargs)


MaxPool1D, MaxPool2D, AvgPool1D, AvgPool2D = MaxPooling1D, MaxPooling2D, AveragePooling1D, AveragePooling2D
GlobalAvgPool1D, GlobalAvgPool2D = GlobalAveragePooling1D, GlobalAveragePooling2D
GlobalMaxPool1D, GlobalMaxPool2D = GlobalMaxPooling1D, GlobalMaxPooling2D
