"""``tf.train.AdagradOptimizer``: an ``accumulator`` slot (``w/Adagrad``) starting at 0.1, ApplyAdagrad
(SparseApplyAdagrad for an IndexedSlices gradient)."""
from graphlab.ops import sparse_training_ops, training_ops
from graphlab.framework.registry import convert_to_tensor
from graphlab.train.optimizer import Optimizer


class AdagradOptimizer(Optimizer):
    def __init__(self, learning_rate, initial_accumulator_value=0.1, use_locking=False, name="Adagrad"):
        if initial_accumulator_value <= 0.0:
            raise ValueError("initial_accumulator_value must be positive: %s" % initial_accumulator_value)
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial_accumulator_value = initial_accumulator_value

    def _create_slots(self, var_list):
        from graphlab.ops import init_ops
        for v in var_list:
            dtype = v.dtype.base_dtype
            init = init_ops.constant_initializer(self._initial_accumulator_value, dtype=dtype)
            self._get_or_make_slot_with_initializer(v, init, v.get_shape(), dtype, "accumulator", self._name)

    def _prepare(self):
        self._learning_rate_tensor = convert_to_tensor(self._call_if_callable(self._learning_rate),
                                                       name="learning_rate")

    def _apply_dense(self, grad, var):
        acc = self.get_slot(var, "accumulator")
        return training_ops.apply_adagrad(var._ref(), acc._ref(), self._cast(self._learning_rate_tensor, var),
                                          grad, use_locking=self._use_locking).op

    def _apply_sparse(self, grad, var):
        acc = self.get_slot(var, "accumulator")
        return sparse_training_ops.sparse_apply_adagrad(
            var._ref(), acc._ref(), self._cast(self._learning_rate_tensor, var), grad.values, grad.indices,
            use_locking=self._use_locking).op

    def _resource_apply_dense(self, grad, var):
        return self._resource_apply("ResourceApplyAdagrad", var, ["accumulator"],
                                    self._cast_to(self._learning_rate_tensor, grad), grad)

    def _resource_apply_sparse(self, grad, var, indices):
        return self._resource_apply("ResourceSparseApplyAdagrad", var, ["accumulator"],
                                    self._cast_to(self._learning_rate_tensor, grad), grad, indices)
