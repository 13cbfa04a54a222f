"""``tf.layers`` core layers: Dense, Dropout, Flatten, and their functional forms, built op for op as
TF 1.15's layers (tf_keras's legacy_tf_layers) build them."""
import functools
import numbers
import operator

from graphlab.framework import tensor_shape
from graphlab.layers.base import Layer, smart_cond
from graphlab.ops import array_ops, math_ops, nn_ops
from graphlab.ops.init_ops import zeros_initializer
from graphlab.framework.registry import constant, convert_to_tensor


def _initializer(value, default=None):
    """Keras's initializers.get for the names TF1 layers use ("zeros", "ones", "glorot_uniform")."""
    from graphlab.ops import init_ops
    if value is None:
        return default
    if isinstance(value, str):
        return {"zeros": init_ops.zeros_initializer, "ones": init_ops.ones_initializer,
                "glorot_uniform": init_ops.glorot_uniform_initializer,
                "glorot_normal": init_ops.glorot_normal_initializer}[value]()
    return value


class Dense(Layer):
    """``tf.layers.Dense``: activation(inputs @ kernel + bias); kernel [in, units], bias [units]."""

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer=None,
                 bias_initializer=zeros_initializer(), kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None, trainable=True,
                 name=None, **kwargs):
        super().__init__(trainable=trainable, name=name, activity_regularizer=activity_regularizer, **kwargs)
        self.units = int(units)
        if self.units < 0:
            raise ValueError("Received an invalid value for `units`, expected a positive integer. Received: "
                             "units=%s" % units)
        self.activation, self.use_bias = activation, use_bias
        self.kernel_initializer, self.bias_initializer = kernel_initializer, _initializer(bias_initializer)
        self.kernel_regularizer, self.bias_regularizer = kernel_regularizer, bias_regularizer
        self.kernel_constraint, self.bias_constraint = kernel_constraint, bias_constraint

    def build(self, input_shape):
        last = tensor_shape.as_shape(input_shape)[-1].value if input_shape.ndims else None
        if last is None:
            raise ValueError("The last dimension of the inputs to a Dense layer should be defined. Found None. "
                             "Full input shape received: %s" % (input_shape,))
        self.kernel = self.add_weight("kernel", [last, self.units], initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.bias = self.add_weight("bias", [self.units], initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer,
                                    constraint=self.bias_constraint) if self.use_bias else None
        self.built = True

    def call(self, inputs):
        rank = inputs.shape.ndims
        if rank == 2 or rank is None:
            outputs = math_ops.matmul(inputs, self.kernel)
        else:
            from graphlab.ops.linalg_impl import tensordot
            outputs = tensordot(inputs, self.kernel, [[rank - 1], [0]])
            outputs.set_shape(inputs.shape.as_list()[:-1] + [self.units])
        if self.use_bias:
            outputs = nn_ops.bias_add(outputs, self.bias)
        return self.activation(outputs) if self.activation is not None else outputs

    def compute_output_shape(self, input_shape):
        return tensor_shape.as_shape(input_shape)[:-1].concatenate([self.units])


def dense(inputs, units, activation=None, use_bias=True, kernel_initializer=None,
          bias_initializer=zeros_initializer(), kernel_regularizer=None, bias_regularizer=None,
          activity_regularizer=None, kernel_constraint=None, bias_constraint=None, trainable=True,
          name=None, reuse=None):
    """``tf.layers.dense``: ops ``dense/MatMul``, ``dense/BiasAdd``; variables ``dense/kernel``, ``dense/bias``."""
    layer = Dense(units, activation=activation, use_bias=use_bias, kernel_initializer=kernel_initializer,
                  bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
                  bias_regularizer=bias_regularizer, activity_regularizer=activity_regularizer,
                  kernel_constraint=kernel_constraint, bias_constraint=bias_constraint, trainable=trainable,
                  name=name, _scope=name, _reuse=reuse)
    return layer(inputs)


class Dropout(Layer):
    """``tf.layers.Dropout``: tf.nn.dropout when ``training`` (a bool, or a bool tensor: a cond), else an
    Identity."""

    def __init__(self, rate=0.5, noise_shape=None, seed=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        if isinstance(rate, (int, float)) and not 0 <= rate <= 1:
            raise ValueError("Invalid value %s received for `rate`, expected a value between 0 and 1." % rate)
        self.rate, self.noise_shape, self.seed = rate, noise_shape, seed

    def call(self, inputs, training=False):
        if isinstance(self.rate, numbers.Real) and self.rate == 0:
            return array_ops.identity(inputs)
        noise_shape = self.noise_shape
        if noise_shape is not None:    # keras: None entries take the input's size
            shape = array_ops.shape(inputs)
            noise_shape = convert_to_tensor([shape[i] if d is None else d for i, d in enumerate(noise_shape)])

        def dropped():
            return nn_ops.dropout(inputs, noise_shape=noise_shape, seed=self.seed, rate=self.rate)
        return smart_cond(training, dropped, lambda: array_ops.identity(inputs))

    def compute_output_shape(self, input_shape):
        return input_shape


def dropout(inputs, rate=0.5, noise_shape=None, seed=None, training=False, name=None):
    """``tf.layers.dropout``: ops under ``dropout/`` (``dropout/dropout/SelectV2`` when training)."""
    return Dropout(rate, noise_shape=noise_shape, seed=seed, name=name)(inputs, training=training)


class Flatten(Layer):
    """``tf.layers.Flatten``: keep the batch axis, merge the others (one Reshape)."""

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        if data_format not in (None, "channels_last", "channels_first"):
            raise ValueError('The `data_format` argument must be one of "channels_first", "channels_last". '
                             'Received: %s' % data_format)
        self.data_format = data_format or "channels_last"

    def call(self, inputs):
        return flatten_batch(inputs, self.data_format)

    def compute_output_shape(self, input_shape):
        return flattened_shape(input_shape)


def flatten_batch(inputs, data_format):
    """Flatten's ops, shared by tf.layers.Flatten and tf.keras.layers.Flatten (TF's first subclasses the second):
    channels-first input is moved channels-last first; a known non-batch size gives one Reshape to a constant
    [-1, product], a known batch size [batch, -1], else the shape is read at run time."""
    if data_format == "channels_first" and inputs.shape.ndims and inputs.shape.ndims > 1:
        perm = [0] + list(range(2, inputs.shape.ndims)) + [1]
        inputs = array_ops.transpose(inputs, perm=perm)
    if inputs.shape.ndims == 1:
        return array_ops.expand_dims(inputs, axis=1)
    dims = inputs.shape.as_list()
    batch, rest = dims[0], dims[1:]
    if None not in rest:
        shape = constant([-1, int(functools.reduce(operator.mul, rest, 1))])
    elif batch is not None:
        shape = constant([int(batch), -1])
    else:
        shape = [array_ops.shape(inputs)[0], -1]
    return array_ops.reshape(inputs, shape)


def flattened_shape(input_shape):
    """The static shape Flatten gives: the batch axis, then the product of the others (None if one is unknown)."""
    dims = tensor_shape.as_shape(input_shape).as_list()
    rest = None if None in dims[1:] else functools.reduce(operator.mul, dims[1:], 1)
    return tensor_shape.TensorShape([dims[0], rest])


def flatten(inputs, name=None, data_format="channels_last"):
    """``tf.layers.flatten``: ``flatten/Reshape`` to [-1, product of the other axes] when they are known."""
    return Flatten(name=name, data_format=data_format)(inputs)


__all__ = ["Dense", "dense", "Dropout", "dropout", "Flatten", "flatten"]
