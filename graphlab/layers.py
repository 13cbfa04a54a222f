"""``tf.layers``: the TF1 functional layers (dense, conv2d, max_pooling2d, average_pooling2d, flatten, dropout).

Each call opens ``variable_scope(name, default_name=<layer kind>)``, so variables get TF1's names
(``dense/kernel``, ``dense/bias``, then ``dense_1/...``) and ops land under the same scope
(``dense/MatMul``, ``dense/BiasAdd``, ``dense/Relu``). Variables come from ``get_variable``: kernels default to
glorot_uniform (get_variable's own default), biases to zeros, so ``reuse=True`` shares them as in TF.
"""
import numbers

from graphlab.framework import graph as graph_mod
from graphlab.ops import array_ops, conv_ops, math_ops, nn_ops
from graphlab.ops.init_ops import zeros_initializer
from graphlab.ops.registry import convert_to_tensor
from graphlab.variable_scope import get_variable, variable_scope


def _pair(value, name):
    if isinstance(value, numbers.Integral):
        return [int(value), int(value)]
    value = [int(v) for v in value]
    if len(value) != 2:
        raise ValueError("The `%s` argument must be a tuple of 2 integers. Received: %s" % (name, value))
    return value


def _padding(padding):
    padding = str(padding).lower()
    if padding not in ("valid", "same"):
        raise ValueError("The `padding` argument must be one of 'valid', 'same'. Received: %s" % padding)
    return padding.upper()


def _channels_last(data_format):
    if data_format not in (None, "channels_last"):
        raise ValueError("only data_format='channels_last' (NHWC) is supported, got %r" % data_format)


def _finish(outputs, bias, activation):
    if bias is not None:
        outputs = nn_ops.bias_add(outputs, bias)
    return activation(outputs) if activation is not None else outputs


def _bias(units, use_bias, bias_initializer, bias_regularizer, dtype, trainable):
    if not use_bias:
        return None
    return get_variable("bias", [units], dtype=dtype, initializer=bias_initializer or zeros_initializer(),
                        regularizer=bias_regularizer, trainable=trainable)


def dense(inputs, units, activation=None, use_bias=True, kernel_initializer=None,
          bias_initializer=None, kernel_regularizer=None, bias_regularizer=None,
          activity_regularizer=None, kernel_constraint=None, bias_constraint=None, trainable=True,
          name=None, reuse=None):
    """``tf.layers.dense``: activation(inputs @ kernel + bias); kernel [in, units], bias [units]."""
    with variable_scope(name, default_name="dense", values=[inputs], reuse=reuse):
        inputs = convert_to_tensor(inputs)
        last = inputs.shape.as_list()[-1] if inputs.shape.ndims else None
        if last is None:
            raise ValueError("The last dimension of the inputs to `Dense` should be defined. Found `None`.")
        dtype = inputs.dtype.base_dtype
        kernel = get_variable("kernel", [last, units], dtype=dtype, initializer=kernel_initializer,
                              regularizer=kernel_regularizer, trainable=trainable)
        bias = _bias(units, use_bias, bias_initializer, bias_regularizer, dtype, trainable)
        if inputs.shape.ndims == 2:
            outputs = math_ops.matmul(inputs, kernel)
        else:   # TF uses tensordot; flattening the leading axes gives the same values
            lead = array_ops.shape(inputs)[:-1]
            flat = math_ops.matmul(array_ops.reshape(inputs, [-1, last]), kernel)
            outputs = array_ops.reshape(flat, array_ops.concat([lead, [units]], 0))
        return _finish(outputs, bias, activation)


def conv2d(inputs, filters, kernel_size, strides=(1, 1), padding="valid", data_format="channels_last",
           dilation_rate=(1, 1), activation=None, use_bias=True, kernel_initializer=None,
           bias_initializer=None, kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
           kernel_constraint=None, bias_constraint=None, trainable=True, name=None, reuse=None):
    """``tf.layers.conv2d`` (NHWC): kernel [kh, kw, in_channels, filters], bias [filters]."""
    _channels_last(data_format)
    with variable_scope(name, default_name="conv2d", values=[inputs], reuse=reuse):
        inputs = convert_to_tensor(inputs)
        channels = inputs.shape.as_list()[-1] if inputs.shape.ndims else None
        if channels is None:
            raise ValueError("The channel dimension of the inputs should be defined. Found `None`.")
        dtype = inputs.dtype.base_dtype
        kernel = get_variable("kernel", _pair(kernel_size, "kernel_size") + [channels, filters], dtype=dtype,
                              initializer=kernel_initializer, regularizer=kernel_regularizer, trainable=trainable)
        bias = _bias(filters, use_bias, bias_initializer, bias_regularizer, dtype, trainable)
        outputs = conv_ops.conv2d(inputs, kernel, [1] + _pair(strides, "strides") + [1], _padding(padding),
                                  dilations=[1] + _pair(dilation_rate, "dilation_rate") + [1])
        return _finish(outputs, bias, activation)


def _pooling(kind, op, inputs, pool_size, strides, padding, data_format, name):
    _channels_last(data_format)
    with graph_mod.name_scope(name, kind, [inputs]):
        return op(inputs, [1] + _pair(pool_size, "pool_size") + [1], [1] + _pair(strides, "strides") + [1],
                  _padding(padding))


def max_pooling2d(inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None):
    """``tf.layers.max_pooling2d`` (op ``max_pooling2d/MaxPool``)."""
    return _pooling("max_pooling2d", conv_ops.max_pool, inputs, pool_size, strides, padding, data_format, name)


def average_pooling2d(inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None):
    """``tf.layers.average_pooling2d`` (op ``average_pooling2d/AvgPool``)."""
    return _pooling("average_pooling2d", conv_ops.avg_pool, inputs, pool_size, strides, padding, data_format,
                    name)


def flatten(inputs, name=None, data_format="channels_last"):
    """``tf.layers.flatten``: keep the batch axis, merge the rest (a Reshape to [batch, -1])."""
    with graph_mod.name_scope(name, "flatten", [inputs]):
        inputs = convert_to_tensor(inputs)
        batch = inputs.shape.as_list()[0] if inputs.shape.ndims else None
        if batch is None:
            batch = array_ops.shape(inputs)[0]
        outputs = array_ops.reshape(inputs, [batch, -1])
        rest = inputs.shape.as_list()[1:] if inputs.shape.ndims else [None]
        if None not in rest:    # TF sets the static shape the layer knows (batch, product of the rest)
            size = 1
            for d in rest:
                size *= d
            outputs.set_shape([batch if isinstance(batch, int) else None, size])
        return outputs


def dropout(inputs, rate=0.5, noise_shape=None, seed=None, training=False, name=None):
    """``tf.layers.dropout``: drop with probability ``rate`` only when ``training`` (a bool or a bool
    tensor, which builds a cond as TF does); otherwise the inputs pass through unchanged."""
    from graphlab.ops import control_flow_ops
    with graph_mod.name_scope(name, "dropout", [inputs]):
        inputs = convert_to_tensor(inputs)

        def drop():
            return nn_ops.dropout(inputs, noise_shape=noise_shape, seed=seed, rate=rate)

        if isinstance(training, bool):
            return drop() if training else array_ops.identity(inputs)
        return control_flow_ops.cond(convert_to_tensor(training), drop, lambda: array_ops.identity(inputs))


__all__ = ["dense", "conv2d", "max_pooling2d", "average_pooling2d", "flatten", "dropout"]
