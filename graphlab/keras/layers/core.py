"""Keras's core layers: Dense, Activation, Dropout, Flatten, Reshape, Permute, RepeatVector and Lambda,
each building the ops tf-keras builds (``dense/MatMul``, ``dense/BiasAdd``, ``dense/Relu``;
``dropout/cond/...`` on the learning phase; ``flatten/Reshape``)."""
import functools
import numbers
import operator

from graphlab.framework import dtypes, tensor_shape
from graphlab.keras import activations, backend, constraints, initializers, regularizers
from graphlab.keras.engine.base_layer import Layer
from graphlab.keras.engine.input_spec import InputSpec
from graphlab.keras.engine.node import set_keras_mask
from graphlab.keras.utils.control_flow import smart_cond
from graphlab.keras.utils.generic_utils import dimension_value
from graphlab.layers.core import flatten_batch, flattened_shape
from graphlab.ops import array_ops, math_ops, nn_ops


def _serialize(value, module):
    if value is None:
        return None
    if module is activations:
        return activations.serialize(value)
    if hasattr(value, "get_config"):
        return {"class_name": type(value).__name__, "config": value.get_config()}
    return value


def kernel_and_bias_config(layer):
    """The config entries of a layer with a kernel and a bias (Dense, the convolutions), in Keras's order:
    their initializers, regularizers (and the activity regularizer) and constraints."""
    return {
        "kernel_initializer": _serialize(layer.kernel_initializer, initializers),
        "bias_initializer": _serialize(layer.bias_initializer, initializers),
        "kernel_regularizer": _serialize(layer.kernel_regularizer, regularizers),
        "bias_regularizer": _serialize(layer.bias_regularizer, regularizers),
        "activity_regularizer": _serialize(layer.activity_regularizer, regularizers),
        "kernel_constraint": _serialize(layer.kernel_constraint, constraints),
        "bias_constraint": _serialize(layer.bias_constraint, constraints)}


class Dense(Layer):
    """activation(inputs @ kernel + bias): kernel [last input axis, units], bias [units]; inputs of rank
    above 2 are contracted on their last axis (tensordot)."""

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.units = int(units) if not isinstance(units, int) else units
        if self.units < 0:
            raise ValueError("Received an invalid value for `units`, expected a positive integer. Received: "
                             "units=%s" % units)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.input_spec = InputSpec(min_ndim=2)
        self.supports_masking = True

    def build(self, input_shape):
        dtype = dtypes.as_dtype(self.dtype or backend.floatx())
        if not (dtype.is_floating or dtype.is_complex):
            raise TypeError("A Dense layer can only be built with a floating-point dtype. Received: dtype=%s"
                            % (dtype,))
        input_shape = tensor_shape.as_shape(input_shape)
        last_dim = dimension_value(input_shape[-1]) if input_shape.ndims else None
        if last_dim is None:
            raise ValueError("The last dimension of the inputs to a Dense layer should be defined. Found None. "
                             "Full input shape received: %s" % (input_shape,))
        self.input_spec = InputSpec(min_ndim=2, axes={-1: last_dim})
        self.kernel = self.add_weight("kernel", shape=[last_dim, self.units], initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer, constraint=self.kernel_constraint,
                                      dtype=self.dtype, trainable=True)
        if self.use_bias:
            self.bias = self.add_weight("bias", shape=[self.units], initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint,
                                        dtype=self.dtype, trainable=True)
        else:
            self.bias = None
        self.built = True

    def call(self, inputs):
        if self.dtype and inputs.dtype.base_dtype != dtypes.as_dtype(self.dtype):
            inputs = math_ops.cast(inputs, self.dtype)
        rank = inputs.shape.ndims
        if rank == 2 or rank is None:
            outputs = math_ops.matmul(inputs, self.kernel)
        else:
            from graphlab.ops.linalg_impl import tensordot
            outputs = tensordot(inputs, self.kernel, [[rank - 1], [0]])
            outputs.set_shape(inputs.shape.as_list()[:-1] + [self.units])
        if self.use_bias:
            outputs = nn_ops.bias_add(outputs, self.bias)
        if self.activation is not None:
            outputs = self.activation(outputs)
        return outputs

    def compute_output_shape(self, input_shape):
        return tensor_shape.as_shape(input_shape)[:-1].concatenate([self.units])

    def get_config(self):
        config = super().get_config()
        config.update({
            "units": self.units, "activation": _serialize(self.activation, activations), "use_bias": self.use_bias})
        config.update(kernel_and_bias_config(self))
        return config


class Activation(Layer):
    """Apply an activation function (``activation/Relu``)."""

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.activation = activations.get(activation)

    def call(self, inputs):
        return self.activation(inputs)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config["activation"] = activations.serialize(self.activation)
        return config


class Dropout(Layer):
    """While training, zero a fraction ``rate`` of the inputs and scale the rest by 1/(1-rate); a cond on
    the learning phase when the phase is not known while building."""

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        if isinstance(rate, (int, float)) and not 0 <= rate <= 1:
            raise ValueError("Invalid value %s received for `rate`, expected a value between 0 and 1." % rate)
        self.rate, self.noise_shape, self.seed = rate, noise_shape, seed
        self.supports_masking = True

    def _get_noise_shape(self, inputs):
        if self.noise_shape is None:
            return None
        concrete = array_ops.shape(inputs)
        return [concrete[i] if value is None else value for i, value in enumerate(self.noise_shape)]

    def call(self, inputs, training=None):
        if isinstance(self.rate, numbers.Real) and self.rate == 0:
            return array_ops.identity(inputs)
        if training is None:
            training = backend.learning_phase()

        def dropped():
            return nn_ops.dropout(inputs, noise_shape=self._get_noise_shape(inputs), seed=self.seed, rate=self.rate)
        return smart_cond(training, dropped, lambda: array_ops.identity(inputs))

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({"rate": self.rate, "noise_shape": self.noise_shape, "seed": self.seed})
        return config


class Flatten(Layer):
    """Keep the batch axis, merge the others: one Reshape to [-1, product] when they are known."""

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = backend.normalize_data_format(data_format)
        self.input_spec = InputSpec(min_ndim=1)

    def call(self, inputs):
        return flatten_batch(inputs, self.data_format)

    def compute_output_shape(self, input_shape):
        return flattened_shape(input_shape)

    def get_config(self):
        config = super().get_config()
        config["data_format"] = self.data_format
        return config


class Reshape(Layer):
    """Reshape every example to ``target_shape`` (one entry may be -1)."""

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(target_shape)

    def _fix_unknown_dimension(self, input_shape, output_shape):
        output_shape = list(output_shape)
        msg = ("total size of new array must be unchanged, input_shape = %s, output_shape = %s"
               % (input_shape, output_shape))
        known, unknown = 1, None
        for index, dim in enumerate(output_shape):
            if dim < 0:
                if unknown is None:
                    unknown = index
                else:
                    raise ValueError("There must be at most one unknown dimension in output_shape. Received: "
                                     "output_shape=%s." % (output_shape,))
            else:
                known *= dim
        original = functools.reduce(operator.mul, input_shape, 1)
        if unknown is not None:
            if known == 0 or original % known != 0:
                raise ValueError(msg)
            output_shape[unknown] = original // known
        elif original != known:
            raise ValueError(msg)
        return output_shape

    def call(self, inputs):
        result = array_ops.reshape(inputs, (array_ops.shape(inputs)[0],) + self.target_shape)
        dims = inputs.shape.as_list() if inputs.shape.ndims is not None else None
        if dims is not None and None not in dims[1:]:
            result.set_shape([dims[0]] + self._fix_unknown_dimension(dims[1:], self.target_shape))
        return result

    def get_config(self):
        config = super().get_config()
        config["target_shape"] = self.target_shape
        return config


class Permute(Layer):
    """Transpose the non-batch axes by ``dims`` (1-based, as Keras counts them)."""

    def __init__(self, dims, **kwargs):
        super().__init__(**kwargs)
        self.dims = tuple(dims)
        if sorted(dims) != list(range(1, len(dims) + 1)):
            raise ValueError("Invalid permutation argument `dims` for Permute Layer. The set of indices in `dims` "
                             "must be consecutive and start from 1. Received dims=%s" % (dims,))
        self.input_spec = InputSpec(ndim=len(self.dims) + 1)

    def call(self, inputs):
        return array_ops.transpose(inputs, perm=(0,) + self.dims)

    def get_config(self):
        config = super().get_config()
        config["dims"] = self.dims
        return config


class RepeatVector(Layer):
    """[batch, features] -> [batch, n, features]."""

    def __init__(self, n, **kwargs):
        super().__init__(**kwargs)
        self.n = n
        if not isinstance(n, int):
            raise TypeError("Expected an integer value for `n`, got %s." % type(n))
        self.input_spec = InputSpec(ndim=2)

    def call(self, inputs):
        return backend.repeat(inputs, self.n)

    def get_config(self):
        config = super().get_config()
        config["n"] = self.n
        return config


class Identity(Layer):
    """Its input, through an Identity op."""

    def call(self, inputs):
        return array_ops.identity(inputs)


class Masking(Layer):
    """Mask the steps whose features all equal ``mask_value`` (and zero them), for the layers after it."""

    def __init__(self, mask_value=0.0, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.mask_value = mask_value

    def compute_mask(self, inputs, mask=None):
        return math_ops.reduce_any(math_ops.not_equal(inputs, self.mask_value), axis=-1)

    def call(self, inputs):
        boolean_mask = math_ops.reduce_any(math_ops.not_equal(inputs, self.mask_value), axis=-1, keepdims=True)
        outputs = inputs * math_ops.cast(boolean_mask, inputs.dtype)
        set_keras_mask(outputs, array_ops.squeeze(boolean_mask, axis=[-1]))   # the mask comes with the output
        return outputs

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config["mask_value"] = self.mask_value
        return config


class Lambda(Layer):
    """Wrap an expression: ``Lambda(lambda x: x ** 2)``; its ops go under the layer's name scope."""

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        self.function = function
        self.arguments = arguments or {}
        self._output_shape = output_shape
        self.mask = mask
        import inspect
        try:
            params = inspect.signature(function).parameters
        except (TypeError, ValueError):
            params = {}
        self._fn_expects_training_arg = "training" in params
        self._fn_expects_mask_arg = "mask" in params

    def call(self, inputs, mask=None, training=None):
        kwargs = dict(self.arguments)
        if self._fn_expects_mask_arg:
            kwargs["mask"] = mask
        if self._fn_expects_training_arg:
            kwargs["training"] = training
        return self.function(inputs, **kwargs)

    def get_config(self):
        config = super().get_config()
        config.update({"function": getattr(self.function, "__name__", "lambda"), "arguments": self.arguments})
        return config
