"""Keras's BatchNormalization (v1 graph mode).

On 4-D inputs normalized over the channel axis it is one FusedBatchNormV3 per branch of a cond on the
learning phase (``batch_normalization/cond``), and the moving mean and variance move by
``(moving - batch) * (1 - momentum)`` where momentum is itself a cond (``cond_1``: momentum when training,
1.0 otherwise, so inference leaves them unchanged); the two AssignMovingAvg ops are the layer's updates,
which ``fit`` runs. Other ranks use ``nn.moments`` and ``nn.batch_normalization``.
"""
from graphlab.framework import dtypes, graph as graph_mod, tensor_shape
from graphlab.framework.registry import convert_to_tensor
from graphlab.keras import backend, constraints, initializers, regularizers
from graphlab.keras.engine.base_layer import Layer
from graphlab.keras.engine.input_spec import InputSpec
from graphlab.keras.layers.core import _serialize
from graphlab.keras.utils import control_flow
from graphlab.ops import array_ops, batch_norm_ops, math_ops, nn_impl, state_ops


class BatchNormalization(Layer):
    """Normalize each feature by the batch's statistics while training and by moving averages otherwise."""

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones", moving_mean_initializer="zeros",
                 moving_variance_initializer="ones", beta_regularizer=None, gamma_regularizer=None,
                 beta_constraint=None, gamma_constraint=None, renorm=False, renorm_clipping=None,
                 renorm_momentum=0.99, fused=None, trainable=True, virtual_batch_size=None, adjustment=None,
                 name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        if renorm or virtual_batch_size is not None or adjustment is not None:
            raise ValueError("graphlab's BatchNormalization does not implement renorm, virtual_batch_size or "
                             "adjustment")
        self.axis = list(axis) if isinstance(axis, (list, tuple)) else axis
        self.momentum, self.epsilon, self.center, self.scale = momentum, epsilon, center, scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.moving_mean_initializer = initializers.get(moving_mean_initializer)
        self.moving_variance_initializer = initializers.get(moving_variance_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)
        self.renorm = False
        self.fused = fused
        self.supports_masking = True
        self.trainable = trainable

    def build(self, input_shape):
        input_shape = tensor_shape.as_shape(input_shape)
        rank = input_shape.ndims
        if rank is None:
            raise ValueError("Input has undefined rank. Received: input_shape=%s." % (input_shape,))
        axes = self.axis if isinstance(self.axis, list) else [self.axis]
        axes = [a + rank if a < 0 else a for a in axes]
        for a in axes:
            if a < 0 or a >= rank:
                raise ValueError("Invalid axis. Expected 0 <= axis < inputs.rank (with inputs.rank=%d). Received: "
                                 "layer.axis=%s" % (rank, self.axis))
        self.axis = axes
        if self.fused in (None, True):
            self.fused = rank == 4 and self.axis in ([1], [3])
        if self.fused:
            self._data_format = "NCHW" if self.axis == [1] else "NHWC"
        axis_to_dim = {a: input_shape.as_list()[a] for a in self.axis}
        for a, dim in axis_to_dim.items():
            if dim is None:
                raise ValueError("Input has undefined `axis` dimension. Received input with shape %s and axis=%s"
                                 % (tuple(input_shape.as_list()), tuple(self.axis)))
        self.input_spec = InputSpec(ndim=rank, axes=axis_to_dim)
        if len(axis_to_dim) == 1:
            param_shape = (list(axis_to_dim.values())[0],)
        else:
            param_shape = [axis_to_dim.get(i, 1) for i in range(rank)]
        dtype = dtypes.as_dtype(self.dtype or backend.floatx())
        self._param_dtype = dtypes.float32 if dtype in (dtypes.float16, dtypes.bfloat16) else dtype
        self.gamma = self.add_weight(name="gamma", shape=param_shape, dtype=self._param_dtype,
                                     initializer=self.gamma_initializer, regularizer=self.gamma_regularizer,
                                     constraint=self.gamma_constraint, trainable=True) if self.scale else None
        self.beta = self.add_weight(name="beta", shape=param_shape, dtype=self._param_dtype,
                                    initializer=self.beta_initializer, regularizer=self.beta_regularizer,
                                    constraint=self.beta_constraint, trainable=True) if self.center else None
        self.moving_mean = self.add_weight(name="moving_mean", shape=param_shape, dtype=self._param_dtype,
                                           initializer=self.moving_mean_initializer, trainable=False)
        self.moving_variance = self.add_weight(name="moving_variance", shape=param_shape, dtype=self._param_dtype,
                                               initializer=self.moving_variance_initializer, trainable=False)
        self.built = True

    def _assign_moving_average(self, variable, value, momentum):
        """variable -= (variable - value) * (1 - momentum), under ``AssignMovingAvg``."""
        with graph_mod.name_scope("AssignMovingAvg") as scope:
            with graph_mod.get_default_graph().colocate_with(variable.op):
                decay = convert_to_tensor(1.0 - momentum, name="decay")
                if decay.dtype != variable.dtype.base_dtype:
                    decay = math_ops.cast(decay, variable.dtype.base_dtype)
                delta = (variable - math_ops.cast(value, variable.dtype.base_dtype)) * decay
                return state_ops.assign_sub(variable, delta, name=scope)

    def _fused_batch_norm(self, inputs, training):
        beta = self.beta if self.center else backend.constant(0.0, dtype=self._param_dtype,
                                                               shape=self.moving_mean.shape)
        gamma = self.gamma if self.scale else backend.constant(1.0, dtype=self._param_dtype,
                                                               shape=self.moving_mean.shape)

        def training_branch():
            return batch_norm_ops.fused_batch_norm(inputs, gamma, beta, mean=self.moving_mean,
                                                   variance=self.moving_variance, epsilon=self.epsilon,
                                                   is_training=True, data_format=self._data_format)

        def inference_branch():
            return batch_norm_ops.fused_batch_norm(inputs, gamma, beta, mean=self.moving_mean,
                                                   variance=self.moving_variance, epsilon=self.epsilon,
                                                   is_training=False, data_format=self._data_format)
        output, mean, variance = control_flow.smart_cond(training, training_branch, inference_branch)
        training_value = control_flow.constant_value(training)
        if training_value or training_value is None:
            if training_value is None:
                momentum = control_flow.smart_cond(training, lambda: self.momentum, lambda: 1.0)
            else:
                momentum = convert_to_tensor(self.momentum)
            self.add_update(self._assign_moving_average(self.moving_mean, mean, momentum))
            self.add_update(self._assign_moving_average(self.moving_variance, variance, momentum))
        return output

    def call(self, inputs, training=None):
        if training is None:
            training = backend.learning_phase()
        if self.fused:
            outputs = self._fused_batch_norm(inputs, training)
            return outputs
        input_shape = inputs.shape
        ndims = input_shape.ndims
        reduction_axes = [i for i in range(ndims) if i not in self.axis]
        broadcast_shape = [1] * ndims
        broadcast_shape[self.axis[0]] = input_shape.as_list()[self.axis[0]]

        def broadcast(v):
            if v is not None and len(v.shape) != ndims and reduction_axes != list(range(ndims - 1)):
                return array_ops.reshape(v, broadcast_shape)
            return v
        scale, offset = broadcast(self.gamma), broadcast(self.beta)
        training_value = control_flow.constant_value(training)
        if training_value is False:
            mean, variance = self.moving_mean, self.moving_variance
        else:
            keep_dims = len(self.axis) > 1
            mean, variance = nn_impl.moments(math_ops.cast(inputs, self._param_dtype), reduction_axes,
                                             keepdims=keep_dims)
            moving_mean, moving_variance = self.moving_mean, self.moving_variance
            batch_mean, batch_variance = mean, variance
            mean = control_flow.smart_cond(training, lambda: batch_mean,
                                           lambda: convert_to_tensor(moving_mean))
            variance = control_flow.smart_cond(training, lambda: batch_variance,
                                               lambda: convert_to_tensor(moving_variance))
            new_mean, new_variance = mean, variance

            def update(variable, value):
                return control_flow.smart_cond(
                    training, lambda: self._assign_moving_average(variable, value, self.momentum),
                    lambda: variable)
            self.add_update(update(self.moving_mean, new_mean))
            self.add_update(update(self.moving_variance, new_variance))
        mean = math_ops.cast(mean, inputs.dtype)
        variance = math_ops.cast(variance, inputs.dtype)
        if offset is not None:
            offset = math_ops.cast(offset, inputs.dtype)
        if scale is not None:
            scale = math_ops.cast(scale, inputs.dtype)
        outputs = nn_impl.batch_normalization(inputs, broadcast(mean), broadcast(variance), offset, scale,
                                              self.epsilon)
        outputs.set_shape(input_shape)
        return outputs

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({
            "axis": self.axis, "momentum": self.momentum, "epsilon": self.epsilon, "center": self.center,
            "scale": self.scale, "beta_initializer": _serialize(self.beta_initializer, initializers),
            "gamma_initializer": _serialize(self.gamma_initializer, initializers),
            "moving_mean_initializer": _serialize(self.moving_mean_initializer, initializers),
            "moving_variance_initializer": _serialize(self.moving_variance_initializer, initializers),
            "beta_regularizer": _serialize(self.beta_regularizer, regularizers),
            "gamma_regularizer": _serialize(self.gamma_regularizer, regularizers),
            "beta_constraint": _serialize(self.beta_constraint, constraints),
            "gamma_constraint": _serialize(self.gamma_constraint, constraints)})
        return config


class LayerNormalization(Layer):
    """Normalize each example over ``axis`` (the last by default), then scale by gamma and shift by beta.
    Over trailing axes in float32 it is one FusedBatchNormV3 on the input reshaped to [1, examples, features,
    1] (NCHW), as tf-keras builds it; otherwise nn.moments and batch_normalization."""

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, **kwargs):
        super().__init__(**kwargs)
        self.axis = list(axis) if isinstance(axis, (list, tuple)) else [axis] if isinstance(axis, int) else axis
        self.epsilon, self.center, self.scale = epsilon, center, scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)
        self.supports_masking = True

    def build(self, input_shape):
        dims = tensor_shape.as_shape(input_shape).as_list()
        ndims = len(dims)
        self.axis = [a + ndims if a < 0 else a for a in self.axis]
        for a in self.axis:
            if a < 0 or a >= ndims:
                raise ValueError("Invalid value for `axis` argument. Expected 0 <= axis < inputs.rank (with "
                                 "inputs.rank=%d). Received: axis=%s" % (ndims, tuple(self.axis)))
        param_shape = [dims[a] for a in self.axis]
        self.gamma = self.add_weight(name="gamma", shape=param_shape, initializer=self.gamma_initializer,
                                     regularizer=self.gamma_regularizer, constraint=self.gamma_constraint,
                                     trainable=True) if self.scale else None
        self.beta = self.add_weight(name="beta", shape=param_shape, initializer=self.beta_initializer,
                                    regularizer=self.beta_regularizer, constraint=self.beta_constraint,
                                    trainable=True) if self.center else None
        axis = sorted(self.axis)
        self._fused = (axis[-1] == ndims - 1 and axis[-1] - axis[0] == len(axis) - 1
                       and self.epsilon >= 1.001e-5 and self.dtype == "float32")
        self.built = True

    def call(self, inputs):
        input_shape = inputs.shape
        ndims = input_shape.ndims
        broadcast_shape = [1] * ndims
        for dim in self.axis:
            broadcast_shape[dim] = input_shape.as_list()[dim]

        def broadcast(v):
            if v is not None and len(v.shape) != ndims and self.axis != [ndims - 1]:
                return array_ops.reshape(v, broadcast_shape)
            return v
        if not self._fused:
            mean, variance = nn_impl.moments(inputs, self.axis, keepdims=True)
            scale, offset = broadcast(self.gamma), broadcast(self.beta)
            outputs = nn_impl.batch_normalization(inputs, mean, variance, offset=offset, scale=scale,
                                                  variance_epsilon=self.epsilon)
        else:
            axis = sorted(self.axis)
            shape = array_ops.shape(inputs)
            pre_dim = math_ops.reduce_prod(shape[:axis[0]])
            in_dim = math_ops.reduce_prod(shape[axis[0]:])
            squeezed = array_ops.reshape(inputs, [1, pre_dim, in_dim, 1])
            ones = array_ops.ones([pre_dim], dtype=self.dtype)
            zeros = array_ops.zeros([pre_dim], dtype=self.dtype)
            outputs, _, _ = batch_norm_ops.fused_batch_norm(squeezed, scale=ones, offset=zeros, epsilon=self.epsilon,
                                                            data_format="NCHW")
            outputs = array_ops.reshape(outputs, shape)
            scale, offset = broadcast(self.gamma), broadcast(self.beta)
            if scale is not None:
                outputs = outputs * math_ops.cast(scale, outputs.dtype)
            if offset is not None:
                outputs = outputs + math_ops.cast(offset, outputs.dtype)
        outputs.set_shape(input_shape)
        return outputs

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({
            "axis": self.axis, "epsilon": self.epsilon, "center": self.center, "scale": self.scale,
            "beta_initializer": _serialize(self.beta_initializer, initializers),
            "gamma_initializer": _serialize(self.gamma_initializer, initializers),
            "beta_regularizer": _serialize(self.beta_regularizer, regularizers),
            "gamma_regularizer": _serialize(self.gamma_regularizer, regularizers),
            "beta_constraint": _serialize(self.beta_constraint, constraints),
            "gamma_constraint": _serialize(self.gamma_constraint, constraints)})
        return config
