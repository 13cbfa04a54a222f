"""``tf.layers.BatchNormalization`` / ``tf.layers.batch_normalization`` as TF 1.15 built them.

Variables ``gamma``, ``beta`` (trainable), ``moving_mean``, ``moving_variance`` (not trainable). On 4-D
inputs normalized over the last axis the layer uses one ``FusedBatchNormV3`` (TF's ``fused=None`` choice);
otherwise ``moments`` and ``batchnorm/...`` ops. ``training`` picks batch statistics (True), the moving
averages (False, the default) or, given a bool tensor, a cond between them. When training can be true the
moving averages are updated by ``AssignMovingAvg`` / ``AssignMovingAvg_1`` (``var -= (var - batch) *
(1 - momentum)``), which the layer puts in ``tf.GraphKeys.UPDATE_OPS``: run them with the train op, e.g.
under ``tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS))``.
"""
from graphlab.framework import graph as graph_mod
from graphlab.framework import tensor_shape
from graphlab.layers.base import Layer, constant_value, smart_cond
from graphlab.layers.core import _initializer
from graphlab.ops import array_ops, math_ops, state_ops
from graphlab.ops.init_ops import ones_initializer, zeros_initializer
from graphlab.framework.registry import convert_to_tensor


class BatchNormalization(Layer):
    """``tf.layers.BatchNormalization``."""

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 beta_initializer=zeros_initializer(), gamma_initializer=ones_initializer(),
                 moving_mean_initializer=zeros_initializer(), moving_variance_initializer=ones_initializer(),
                 beta_regularizer=None, gamma_regularizer=None, beta_constraint=None, gamma_constraint=None,
                 renorm=False, renorm_clipping=None, renorm_momentum=0.99, fused=None, trainable=True,
                 virtual_batch_size=None, adjustment=None, name=None, **kwargs):
        super().__init__(name=name, trainable=trainable, **kwargs)
        if renorm or virtual_batch_size is not None or adjustment is not None:
            raise NotImplementedError("graphlab's BatchNormalization has no renorm, virtual_batch_size or "
                                      "adjustment")
        self.axis = list(axis) if isinstance(axis, (list, tuple)) else [axis]
        self.momentum, self.epsilon, self.center, self.scale = momentum, epsilon, center, scale
        self.beta_initializer = _initializer(beta_initializer)
        self.gamma_initializer = _initializer(gamma_initializer)
        self.moving_mean_initializer = _initializer(moving_mean_initializer)
        self.moving_variance_initializer = _initializer(moving_variance_initializer)
        self.beta_regularizer, self.gamma_regularizer = beta_regularizer, gamma_regularizer
        self.beta_constraint, self.gamma_constraint = beta_constraint, gamma_constraint
        self.fused = fused

    def build(self, input_shape):
        shape = tensor_shape.as_shape(input_shape)
        if shape.ndims is None:
            raise ValueError("Input has undefined rank. Received: input_shape=%s." % (input_shape,))
        ndims = shape.ndims
        self.axis = [a + ndims if a < 0 else a for a in self.axis]
        for a in self.axis:
            if not 0 <= a < ndims:
                raise ValueError("Invalid axis: %s" % a)
        if self.fused is None:
            self.fused = ndims == 4 and self.axis in ([3], [1])
        elif self.fused and not (ndims == 4 and self.axis in ([3], [1])):
            raise ValueError("Passing `fused=True` is only supported when axis is 1 or 3 for input rank 4. "
                             "Got axis=%s, rank=%d" % (self.axis, ndims))
        if self.fused and self.axis == [1]:
            raise ValueError("graphlab's fused batch normalization (TF's choice for 4-D inputs with axis=1) takes "
                             "channels-last inputs only: use axis=3 (NHWC), or fused=False")
        param_shape = [shape[a].value for a in self.axis]
        if None in param_shape:
            raise ValueError("Input has undefined `axis` dimension. Received input with shape %s and axis=%s"
                             % (tuple(shape.as_list()), self.axis))
        if len(param_shape) == 1:
            param_shape = param_shape[0:1]
        else:
            param_shape = [shape[i].value if i in self.axis else 1 for i in range(ndims)]
        self.gamma = self.add_weight("gamma", param_shape, initializer=self.gamma_initializer,
                                     regularizer=self.gamma_regularizer,
                                     constraint=self.gamma_constraint) if self.scale else None
        self.beta = self.add_weight("beta", param_shape, initializer=self.beta_initializer,
                                    regularizer=self.beta_regularizer,
                                    constraint=self.beta_constraint) if self.center else None
        self.moving_mean = self.add_weight("moving_mean", param_shape, initializer=self.moving_mean_initializer,
                                           trainable=False)
        self.moving_variance = self.add_weight("moving_variance", param_shape,
                                               initializer=self.moving_variance_initializer, trainable=False)
        self.built = True

    def _assign_moving_average(self, variable, value, momentum):
        with graph_mod.name_scope(None, "AssignMovingAvg", []) as scope, \
                graph_mod.get_default_graph().colocate_with(variable):     # TF: _class loc:@<variable>
            decay = convert_to_tensor(1.0 - momentum, name="decay")
            if decay.dtype != variable.dtype.base_dtype:
                decay = math_ops.cast(decay, variable.dtype.base_dtype)
            delta = (variable - value) * decay
            return state_ops.assign_sub(variable, delta, name=scope)

    def _fused(self, inputs, training):
        from graphlab.ops.batch_norm_ops import fused_batch_norm
        beta = self.beta if self.center else array_ops.zeros_like(self.moving_mean)
        gamma = self.gamma if self.scale else array_ops.ones_like(self.moving_mean)

        def train():
            return fused_batch_norm(inputs, gamma, beta, mean=self.moving_mean, variance=self.moving_variance,
                                    epsilon=self.epsilon, is_training=True, data_format="NHWC")

        def infer():
            return fused_batch_norm(inputs, gamma, beta, mean=self.moving_mean, variance=self.moving_variance,
                                    epsilon=self.epsilon, is_training=False, data_format="NHWC")
        output, mean, variance = smart_cond(training, train, infer)
        value = constant_value(training)
        if value or value is None:
            if value is None:
                momentum = smart_cond(training, lambda: self.momentum, lambda: 1.0)
            else:
                momentum = convert_to_tensor(self.momentum)
            self.add_update(self._assign_moving_average(self.moving_mean, mean, momentum))
            self.add_update(self._assign_moving_average(self.moving_variance, variance, momentum))
        return output

    def call(self, inputs, training=False):
        if not self.trainable:
            training = False
        if self.fused:
            return self._fused(inputs, training)
        from graphlab.ops.nn_impl import batch_normalization, moments
        ndims = inputs.shape.ndims
        reduction_axes = [i for i in range(ndims) if i not in self.axis]
        broadcast_shape = [1] * ndims
        broadcast_shape[self.axis[0]] = inputs.shape.as_list()[self.axis[0]]

        def broadcast(v):
            if v is not None and v.shape.ndims != ndims and reduction_axes != list(range(ndims - 1)):
                return array_ops.reshape(v, broadcast_shape)
            return v
        scale, offset = broadcast(self.gamma), broadcast(self.beta)
        value = constant_value(training)
        if value is False:
            mean, variance = self.moving_mean, self.moving_variance
        else:
            mean, variance = moments(inputs, reduction_axes, keep_dims=len(self.axis) > 1)
            moving_mean, moving_variance = self.moving_mean, self.moving_variance
            mean = smart_cond(training, lambda: mean, lambda: convert_to_tensor(moving_mean))
            variance = smart_cond(training, lambda: variance, lambda: convert_to_tensor(moving_variance))
            new_mean, new_variance = mean, variance
            self.add_update(smart_cond(training,
                                       lambda: self._assign_moving_average(self.moving_mean, new_mean, self.momentum),
                                       lambda: self.moving_mean))
            self.add_update(smart_cond(training,
                                       lambda: self._assign_moving_average(self.moving_variance, new_variance,
                                                                           self.momentum),
                                       lambda: self.moving_variance))
        outputs = batch_normalization(inputs, broadcast(mean), broadcast(variance), offset, scale, self.epsilon)
        outputs.set_shape(inputs.shape)
        return outputs

    def compute_output_shape(self, input_shape):
        return input_shape


def batch_normalization(inputs, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                        beta_initializer=zeros_initializer(), gamma_initializer=ones_initializer(),
                        moving_mean_initializer=zeros_initializer(), moving_variance_initializer=ones_initializer(),
                        beta_regularizer=None, gamma_regularizer=None, beta_constraint=None, gamma_constraint=None,
                        training=False, trainable=True, name=None, reuse=None, renorm=False, renorm_clipping=None,
                        renorm_momentum=0.99, fused=None, virtual_batch_size=None, adjustment=None):
    """``tf.layers.batch_normalization``: variables ``batch_normalization/gamma``, ``.../moving_mean``, ...;
    when ``training`` can be true, the moving-average updates go to ``tf.GraphKeys.UPDATE_OPS``."""
    layer = BatchNormalization(axis=axis, momentum=momentum, epsilon=epsilon, center=center, scale=scale,
                               beta_initializer=beta_initializer, gamma_initializer=gamma_initializer,
                               moving_mean_initializer=moving_mean_initializer,
                               moving_variance_initializer=moving_variance_initializer,
                               beta_regularizer=beta_regularizer, gamma_regularizer=gamma_regularizer,
                               beta_constraint=beta_constraint, gamma_constraint=gamma_constraint, renorm=renorm,
                               renorm_clipping=renorm_clipping, renorm_momentum=renorm_momentum, fused=fused,
                               trainable=trainable, virtual_batch_size=virtual_batch_size, adjustment=adjustment,
                               name=name, _reuse=reuse, _scope=name)
    return layer(inputs, training=training)


BatchNorm = BatchNormalization
