"""Keras's Conv1D and Conv2D: ``tf.nn.convolution`` named after the class (``conv2d/Conv2D``), then
``BiasAdd`` and the activation; kernel ``kernel_size + (input channels, filters)``."""
from graphlab.framework import tensor_shape
from graphlab.keras import activations, backend, constraints, initializers, regularizers
from graphlab.keras.engine.base_layer import Layer
from graphlab.keras.engine.input_spec import InputSpec
from graphlab.keras.layers.core import _serialize, kernel_and_bias_config
from graphlab.keras.utils.generic_utils import dimension_value, normalize_tuple
from graphlab.ops import array_ops, convolution as convolution_ops, nn_ops


def conv_output_length(input_length, filter_size, padding, stride, dilation=1):
    if input_length is None:
        return None
    dilated = filter_size + (filter_size - 1) * (dilation - 1)
    if padding in ("same", "causal"):
        length = input_length
    elif padding == "valid":
        length = input_length - dilated + 1
    else:
        length = input_length + dilated - 1
    return (length + stride - 1) // stride


class Conv(Layer):
    """N-D convolution with ``filters`` outputs per position (N = ``rank``)."""

    def __init__(self, rank, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, groups=1, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.rank = rank
        if isinstance(filters, float):
            filters = int(filters)
        if filters is not None and filters <= 0:
            raise ValueError("Invalid value for argument `filters`. Expected a strictly positive value. Received "
                             "filters=%s." % filters)
        self.filters, self.groups = filters, groups or 1
        self.kernel_size = normalize_tuple(kernel_size, rank, "kernel_size")
        self.strides = normalize_tuple(strides, rank, "strides")
        self.padding = padding.lower() if isinstance(padding, str) else padding
        if self.padding not in ("valid", "same", "causal"):
            raise ValueError("The `padding` argument must be a list/tuple or one of \"valid\", \"same\" (or "
                             "\"causal\", only for `Conv1D). Received: %s" % (padding,))
        self.data_format = backend.normalize_data_format(data_format)
        self.dilation_rate = normalize_tuple(dilation_rate, rank, "dilation_rate")
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.input_spec = InputSpec(min_ndim=rank + 2)
        self._channels_first = self.data_format == "channels_first"
        self._tf_data_format = ("NC" if self._channels_first else "N") + "DHW"[3 - rank:] + \
            ("" if self._channels_first else "C")
        if rank == 1:
            self._tf_data_format = "NCW" if self._channels_first else "NWC"

    def _channel_axis(self):
        return 1 if self._channels_first else -1

    def build(self, input_shape):
        input_shape = tensor_shape.as_shape(input_shape)
        channels = dimension_value(input_shape[self._channel_axis()])
        if channels is None:
            raise ValueError("The channel dimension of the inputs should be defined. The input_shape received is "
                             "%s, where axis %d (0-based) is the channel dimension, which found to be `None`."
                             % (input_shape, self._channel_axis()))
        kernel_shape = self.kernel_size + (channels // self.groups, self.filters)
        self.kernel = self.add_weight(name="kernel", shape=kernel_shape, initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer, constraint=self.kernel_constraint,
                                      trainable=True, dtype=self.dtype)
        self._add_bias()
        axis = self._channel_axis() % input_shape.ndims
        self.input_spec = InputSpec(min_ndim=self.rank + 2, axes={axis: channels})
        self.built = True

    def _add_bias(self):
        """The ``bias`` weight [filters] when use_bias (the convolution and its transpose), else None."""
        if self.use_bias:
            self.bias = self.add_weight(name="bias", shape=(self.filters,), initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint,
                                        trainable=True, dtype=self.dtype)
        else:
            self.bias = None

    def call(self, inputs):
        input_shape = inputs.shape
        if self.padding == "causal":
            left = self.dilation_rate[0] * (self.kernel_size[0] - 1)
            pad = [[0, 0], [left, 0], [0, 0]] if not self._channels_first else [[0, 0], [0, 0], [left, 0]]
            inputs = array_ops.pad(inputs, pad)
        padding = "VALID" if self.padding == "causal" else self.padding.upper()
        outputs = convolution_ops.convolution(inputs, self.kernel, strides=list(self.strides), padding=padding,
                                              dilations=list(self.dilation_rate),
                                              data_format=self._tf_data_format, name=type(self).__name__)
        if self.use_bias:
            if self.rank == 1 and self._channels_first:
                outputs += array_ops.reshape(self.bias, (1, self.filters, 1))
            else:
                outputs = nn_ops.bias_add(outputs, self.bias, data_format=self._tf_data_format
                                          if self.rank != 1 else ("NCHW" if self._channels_first else "NHWC"))
        if input_shape.ndims:
            outputs.set_shape(self.compute_output_shape(input_shape))
        if self.activation is not None:
            return self.activation(outputs)
        return outputs

    def compute_output_shape(self, input_shape):
        dims = tensor_shape.as_shape(input_shape).as_list()
        spatial = dims[2:] if self._channels_first else dims[1:-1]
        new = [conv_output_length(length, self.kernel_size[i], self.padding, self.strides[i],
                                  self.dilation_rate[i]) for i, length in enumerate(spatial)]
        if self._channels_first:
            return tensor_shape.TensorShape([dims[0], self.filters] + new)
        return tensor_shape.TensorShape([dims[0]] + new + [self.filters])

    def get_config(self):
        config = super().get_config()
        config.update({
            "filters": self.filters, "kernel_size": self.kernel_size, "strides": self.strides,
            "padding": self.padding, "data_format": self.data_format, "dilation_rate": self.dilation_rate,
            "groups": self.groups, "activation": _serialize(self.activation, activations),
            "use_bias": self.use_bias})
        config.update(kernel_and_bias_config(self))
        return config


class Conv1D(Conv):
    """1-D convolution over [batch, steps, channels] (``padding="causal"`` pads the past only)."""

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format="channels_last",
                 dilation_rate=1, groups=1, activation=None, use_bias=True, **kwargs):
        super().__init__(1, filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                         dilation_rate=dilation_rate, groups=groups, activation=activation, use_bias=use_bias,
                         **kwargs)


class Conv2D(Conv):
    """2-D convolution over [batch, rows, cols, channels]."""

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1), groups=1, activation=None, use_bias=True, **kwargs):
        super().__init__(2, filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                         dilation_rate=dilation_rate, groups=groups, activation=activation, use_bias=use_bias,
                         **kwargs)


Convolution1D = Conv1D
Convolution2D = Conv2D


def deconv_output_length(input_length, filter_size, padding, output_padding=None, stride=0, dilation=1):
    """The length a transposed convolution produces along one axis (None when the input's is unknown)."""
    if input_length is None:
        return None
    filter_size = filter_size + (filter_size - 1) * (dilation - 1)
    if output_padding is None:
        if padding == "valid":
            return input_length * stride + max(filter_size - stride, 0)
        if padding == "full":
            return input_length * stride - (stride + filter_size - 2)
        return input_length * stride
    pad = filter_size // 2 if padding == "same" else 0 if padding == "valid" else filter_size - 1
    return (input_length - 1) * stride + filter_size - 2 * pad + output_padding


class Conv2DTranspose(Conv2D):
    """The transpose (gradient) of a 2-D convolution: Conv2DBackpropInput to an output shape computed from
    the batch size and the spatial sizes; kernel ``kernel_size + (filters, input channels)``."""

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", output_padding=None,
                 data_format=None, dilation_rate=(1, 1), activation=None, use_bias=True, **kwargs):
        super().__init__(filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                         dilation_rate=dilation_rate, activation=activation, use_bias=use_bias, **kwargs)
        self.output_padding = None if output_padding is None else normalize_tuple(output_padding, 2,
                                                                                  "output_padding")
        if self.dilation_rate != (1, 1):
            raise NotImplementedError("graphlab's Conv2DTranspose implements dilation_rate=(1, 1) only")

    def build(self, input_shape):
        input_shape = tensor_shape.as_shape(input_shape)
        if input_shape.ndims != 4:
            raise ValueError("Inputs should have rank 4. Received input_shape=%s." % (input_shape,))
        channels = dimension_value(input_shape[self._channel_axis()])
        if channels is None:
            raise ValueError("The channel dimension of the inputs to `Conv2DTranspose` should be defined. The "
                             "input_shape received is %s, where axis %d (0-based) is the channel dimension, which "
                             "found to be `None`." % (input_shape, self._channel_axis()))
        self.input_spec = InputSpec(ndim=4, axes={self._channel_axis() % 4: channels})
        self.kernel = self.add_weight(name="kernel", shape=self.kernel_size + (self.filters, channels),
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint, trainable=True, dtype=self.dtype)
        self._add_bias()
        self.built = True

    def _output_size(self, dims, i, axis, shape_tensor):
        size = dims[axis] if dims is not None else None
        length = deconv_output_length(size, self.kernel_size[i], self.padding,
                                      None if self.output_padding is None else self.output_padding[i],
                                      self.strides[i], self.dilation_rate[i])
        if length is not None:
            return length
        size = shape_tensor[axis]
        return deconv_output_length(size, self.kernel_size[i], self.padding,
                                    None if self.output_padding is None else self.output_padding[i],
                                    self.strides[i], self.dilation_rate[i])

    def call(self, inputs):
        shape = array_ops.shape(inputs)
        batch_size = shape[0]
        h_axis, w_axis = (2, 3) if self._channels_first else (1, 2)
        dims = inputs.shape.as_list() if inputs.shape.ndims is not None else None
        out_h = self._output_size(dims, 0, h_axis, shape)
        out_w = self._output_size(dims, 1, w_axis, shape)
        if self._channels_first:
            output_shape = (batch_size, self.filters, out_h, out_w)
        else:
            output_shape = (batch_size, out_h, out_w, self.filters)
        output_shape = array_ops.stack(output_shape)
        output_shape[0]   # Keras's backend looks at the batch entry: TF's graph has that StridedSlice
        strides = (1, 1) + self.strides if self._channels_first else (1,) + self.strides + (1,)
        outputs = convolution_ops.conv2d_transpose(inputs, self.kernel, output_shape, strides,
                                                   padding=self.padding.upper(),
                                                   data_format="NCHW" if self._channels_first else "NHWC")
        outputs.set_shape(self.compute_output_shape(inputs.shape))
        if self.use_bias:
            outputs = nn_ops.bias_add(outputs, self.bias, data_format="NCHW" if self._channels_first else "NHWC")
        if self.activation is not None:
            return self.activation(outputs)
        return outputs

    def compute_output_shape(self, input_shape):
        dims = tensor_shape.as_shape(input_shape).as_list()
        h_axis, w_axis = (2, 3) if self._channels_first else (1, 2)
        out = list(dims)
        out[1 if self._channels_first else 3] = self.filters
        for i, axis in enumerate((h_axis, w_axis)):
            out[axis] = deconv_output_length(dims[axis], self.kernel_size[i], self.padding,
                                             None if self.output_padding is None else self.output_padding[i],
                                             self.strides[i], self.dilation_rate[i])
        return tensor_shape.TensorShape(out)

    def get_config(self):
        config = super().get_config()
        config.pop("groups")
        config["output_padding"] = self.output_padding
        return config


Convolution2DTranspose = Conv2DTranspose
