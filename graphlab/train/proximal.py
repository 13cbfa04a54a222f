"""``tf.train.ProximalGradientDescentOptimizer``, ``ProximalAdagradOptimizer``, ``FtrlOptimizer`` and
``AdagradDAOptimizer``: TF1's optimizers for sparse linear models, with TF's slot names (``accumulator``,
``accum``/``linear``, ``gradient_accumulator``/``gradient_squared_accumulator``). Dense gradients only."""
from graphlab.framework import dtypes
from graphlab.ops import array_ops, math_ops, proximal_training_ops as ops
from graphlab.framework.registry import constant, convert_to_tensor
from graphlab.train.optimizer import Optimizer


class _DenseOnly(Optimizer):
    def _resource_apply_sparse(self, grad, var, indices):
        return self._apply_sparse(None, var)

    def _apply_sparse(self, grad, var):
        raise NotImplementedError("graphlab's %s updates dense gradients only; %s got an IndexedSlices gradient "
                                  "(e.g. from tf.gather or an embedding)" % (type(self).__name__, var.name))


class ProximalGradientDescentOptimizer(_DenseOnly):
    def __init__(self, learning_rate, l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 use_locking=False, name="ProximalGradientDescent"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._l1, self._l2 = l1_regularization_strength, l2_regularization_strength

    def _prepare(self):
        self._learning_rate_tensor = convert_to_tensor(self._call_if_callable(self._learning_rate),
                                                       name="learning_rate")
        self._l1_tensor = convert_to_tensor(self._l1, name="l1_regularization_strength")
        self._l2_tensor = convert_to_tensor(self._l2, name="l2_regularization_strength")

    def _apply_dense(self, grad, var):
        return ops.apply_proximal_gradient_descent(var._ref(), self._learning_rate_tensor, self._l1_tensor,
                                                   self._l2_tensor, grad, use_locking=self._use_locking).op

    def _resource_apply_dense(self, grad, var):
        return self._resource_apply("ResourceApplyProximalGradientDescent", var, (), self._learning_rate_tensor,
                                    self._l1_tensor, self._l2_tensor, grad)


class ProximalAdagradOptimizer(_DenseOnly):
    def __init__(self, learning_rate, initial_accumulator_value=0.1, l1_regularization_strength=0.0,
                 l2_regularization_strength=0.0, use_locking=False, name="ProximalAdagrad"):
        if initial_accumulator_value <= 0.0:
            raise ValueError("initial_accumulator_value must be positive: %s" % initial_accumulator_value)
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial_accumulator_value = initial_accumulator_value
        self._l1, self._l2 = l1_regularization_strength, l2_regularization_strength

    def _create_slots(self, var_list):
        for v in var_list:      # as TF: a Const of the variable's shape, made beside it, is the initial value
            with v.graph.colocate_with(v):
                val = constant(self._initial_accumulator_value, shape=v.get_shape(), dtype=v.dtype.base_dtype)
            self._get_or_make_slot(v, val, "accumulator", self._name)

    _prepare = ProximalGradientDescentOptimizer._prepare

    def _apply_dense(self, grad, var):
        acc = self.get_slot(var, "accumulator")
        return ops.apply_proximal_adagrad(var._ref(), acc._ref(), self._learning_rate_tensor, self._l1_tensor,
                                          self._l2_tensor, grad, use_locking=self._use_locking).op

    def _resource_apply_dense(self, grad, var):
        return self._resource_apply("ResourceApplyProximalAdagrad", var, ["accumulator"], self._learning_rate_tensor,
                                    self._l1_tensor, self._l2_tensor, grad)


class FtrlOptimizer(_DenseOnly):
    def __init__(self, learning_rate, learning_rate_power=-0.5, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0, use_locking=False, name="Ftrl",
                 accum_name=None, linear_name=None, l2_shrinkage_regularization_strength=0.0, beta=None):
        super().__init__(use_locking, name)
        for what, value in (("initial_accumulator_value", initial_accumulator_value),
                            ("l1_regularization_strength", l1_regularization_strength),
                            ("l2_regularization_strength", l2_regularization_strength)):
            if value < 0.0:
                raise ValueError("%s %f needs to be positive or zero" % (what, value))
        if learning_rate_power > 0.0:
            raise ValueError("learning_rate_power %f needs to be negative or zero" % learning_rate_power)
        if l2_shrinkage_regularization_strength < 0.0:
            raise ValueError("l2_shrinkage_regularization_strength %f needs to be positive or zero"
                             % l2_shrinkage_regularization_strength)
        self._learning_rate, self._learning_rate_power = learning_rate, learning_rate_power
        self._initial_accumulator_value = initial_accumulator_value
        self._l1, self._l2 = l1_regularization_strength, l2_regularization_strength
        self._beta = 0.0 if beta is None else beta
        self._l2_shrinkage = l2_shrinkage_regularization_strength
        self._accum_name, self._linear_name = accum_name, linear_name

    def _create_slots(self, var_list):
        def accum_initializer(shape, dtype=dtypes.float32, partition_info=None):
            return array_ops.ones(shape=shape, dtype=dtype) * self._initial_accumulator_value
        for v in var_list:
            self._get_or_make_slot_with_initializer(v, accum_initializer, v.shape, v.dtype.base_dtype, "accum",
                                                    self._accum_name or self._name)
            self._zeros_slot(v, "linear", self._linear_name or self._name)

    def _prepare(self):
        self._learning_rate_tensor = convert_to_tensor(self._call_if_callable(self._learning_rate),
                                                       name="learning_rate")
        self._l1_tensor = convert_to_tensor(self._l1, name="l1_regularization_strength")
        self._adjusted_l2_tensor = convert_to_tensor(
            self._l2 + self._beta / (2. * math_ops.maximum(self._learning_rate, 1e-36)),
            name="adjusted_l2_regularization_strength")
        self._beta_tensor = convert_to_tensor(self._beta, name="beta")
        self._l2_shrinkage_tensor = convert_to_tensor(self._l2_shrinkage, name="l2_shrinkage_regularization_strength")
        self._learning_rate_power_tensor = convert_to_tensor(self._learning_rate_power, name="learning_rate_power")

    def _apply_dense(self, grad, var):
        accum, linear = self.get_slot(var, "accum"), self.get_slot(var, "linear")
        dtype = var.dtype.base_dtype
        args = [var._ref(), accum._ref(), linear._ref(), grad, math_ops.cast(self._learning_rate_tensor, dtype),
                math_ops.cast(self._l1_tensor, dtype), math_ops.cast(self._adjusted_l2_tensor, dtype)]
        if self._l2_shrinkage <= 0.0:
            return ops.apply_ftrl(*args, math_ops.cast(self._learning_rate_power_tensor, dtype),
                                  use_locking=self._use_locking).op
        return ops.apply_ftrl_v2(*args, math_ops.cast(self._l2_shrinkage_tensor, dtype),
                                 math_ops.cast(self._learning_rate_power_tensor, dtype),
                                 use_locking=self._use_locking).op

    def _resource_apply_dense(self, grad, var):
        c = self._cast_to
        args = [grad, c(self._learning_rate_tensor, grad), c(self._l1_tensor, grad), c(self._adjusted_l2_tensor, grad)]
        if self._l2_shrinkage <= 0.0:
            return self._resource_apply("ResourceApplyFtrl", var, ["accum", "linear"], *args,
                                        c(self._learning_rate_power_tensor, grad))
        return self._resource_apply("ResourceApplyFtrlV2", var, ["accum", "linear"], *args,
                                    c(self._l2_shrinkage_tensor, grad), c(self._learning_rate_power_tensor, grad))


class AdagradDAOptimizer(_DenseOnly):
    """Adagrad dual averaging; ``global_step`` must be incremented by the training op (minimize(...,
    global_step=global_step))."""

    def __init__(self, learning_rate, global_step, initial_gradient_squared_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0, use_locking=False, name="AdagradDA"):
        if initial_gradient_squared_accumulator_value <= 0.0:
            raise ValueError("initial_gradient_squared_accumulator_value must be positive: %s"
                             % initial_gradient_squared_accumulator_value)
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial_gg = initial_gradient_squared_accumulator_value
        self._l1, self._l2 = l1_regularization_strength, l2_regularization_strength
        self._global_step = global_step

    def _create_slots(self, var_list):
        for v in var_list:      # as TF: Consts of the variable's shape, made beside it, are the initial values
            with v.graph.colocate_with(v):
                values = [constant(value, shape=v.get_shape(), dtype=v.dtype.base_dtype)
                          for value in (0.0, self._initial_gg)]
            for slot, val in zip(("gradient_accumulator", "gradient_squared_accumulator"), values):
                self._get_or_make_slot(v, val, slot, self._name)

    def _prepare(self):
        self._learning_rate_tensor = convert_to_tensor(self._call_if_callable(self._learning_rate),
                                                       name="learning_rate")
        self._global_step_on_worker = array_ops.identity(self._global_step) + 1

    def _apply_dense(self, grad, var):
        g_acc = self.get_slot(var, "gradient_accumulator")
        gg_acc = self.get_slot(var, "gradient_squared_accumulator")
        dtype = var.dtype.base_dtype
        global_step = array_ops.identity(self._global_step_on_worker)
        return ops.apply_adagrad_da(var._ref(), g_acc._ref(), gg_acc._ref(), grad,
                                    math_ops.cast(self._learning_rate_tensor, dtype), math_ops.cast(self._l1, dtype),
                                    math_ops.cast(self._l2, dtype), global_step, use_locking=self._use_locking).op

    def _resource_apply_dense(self, grad, var):
        global_step = array_ops.identity(self._global_step_on_worker)
        c = self._cast_to
        return self._resource_apply("ResourceApplyAdagradDA", var,
                                    ["gradient_accumulator", "gradient_squared_accumulator"], grad,
                                    c(self._learning_rate_tensor, grad), c(self._l1, grad), c(self._l2, grad),
                                    global_step)
