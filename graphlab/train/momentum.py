"""``tf.train.MomentumOptimizer``: one ``momentum`` slot per variable (``w/Momentum``), ApplyMomentum
(SparseApplyMomentum for an IndexedSlices gradient)."""
from graphlab.ops import sparse_training_ops, training_ops
from graphlab.framework.registry import convert_to_tensor
from graphlab.train.optimizer import Optimizer


class MomentumOptimizer(Optimizer):
    def __init__(self, learning_rate, momentum, use_locking=False, name="Momentum", use_nesterov=False):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._momentum = momentum
        self._use_nesterov = use_nesterov

    def _create_slots(self, var_list):
        for v in var_list:
            self._zeros_slot(v, "momentum", self._name)

    def _prepare(self):
        self._learning_rate_tensor = convert_to_tensor(self._call_if_callable(self._learning_rate),
                                                       name="learning_rate")
        self._momentum_tensor = convert_to_tensor(self._call_if_callable(self._momentum), name="momentum")

    def _apply_dense(self, grad, var):
        mom = self.get_slot(var, "momentum")
        return training_ops.apply_momentum(
            var._ref(), mom._ref(), self._cast(self._learning_rate_tensor, var), grad,
            self._cast(self._momentum_tensor, var), use_locking=self._use_locking,
            use_nesterov=self._use_nesterov).op

    def _apply_sparse(self, grad, var):
        mom = self.get_slot(var, "momentum")
        return sparse_training_ops.sparse_apply_momentum(
            var._ref(), mom._ref(), self._cast(self._learning_rate_tensor, var), grad.values, grad.indices,
            self._cast(self._momentum_tensor, var), use_locking=self._use_locking,
            use_nesterov=self._use_nesterov).op

    def _resource_apply_dense(self, grad, var):
        return self._resource_apply("ResourceApplyMomentum", var, ["momentum"],
                                    self._cast_to(self._learning_rate_tensor, grad), grad,
                                    self._cast_to(self._momentum_tensor, grad), use_nesterov=self._use_nesterov)

    def _resource_apply_sparse(self, grad, var, indices):
        return self._resource_apply("ResourceSparseApplyMomentum", var, ["momentum"],
                                    self._cast_to(self._learning_rate_tensor, grad), grad, indices,
                                    self._cast_to(self._momentum_tensor, grad), use_nesterov=self._use_nesterov)
