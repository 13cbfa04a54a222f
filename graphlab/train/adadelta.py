"""``tf.train.AdadeltaOptimizer``: zero slots ``accum`` (``w/Adadelta``) and ``accum_update``
(``w/Adadelta_1``), ApplyAdadelta. Hyper-parameter tensors are named ``lr``, ``rho`` and ``epsilon``
(TF's names for this optimizer, unlike the ``learning_rate`` of the others)."""
from graphlab.ops import sparse_training_ops, training_ops
from graphlab.framework.registry import convert_to_tensor
from graphlab.train.optimizer import Optimizer


class AdadeltaOptimizer(Optimizer):
    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-8, use_locking=False, name="Adadelta"):
        super().__init__(use_locking, name)
        self._lr = learning_rate
        self._rho = rho
        self._epsilon = epsilon

    def _create_slots(self, var_list):
        for v in var_list:
            self._zeros_slot(v, "accum", self._name)
            self._zeros_slot(v, "accum_update", self._name)

    def _prepare(self):
        c = self._call_if_callable
        self._lr_t = convert_to_tensor(c(self._lr), name="lr")
        self._rho_t = convert_to_tensor(c(self._rho), name="rho")
        self._epsilon_t = convert_to_tensor(c(self._epsilon), name="epsilon")

    def _apply_dense(self, grad, var):
        return training_ops.apply_adadelta(
            var._ref(), self.get_slot(var, "accum")._ref(), self.get_slot(var, "accum_update")._ref(),
            self._cast(self._lr_t, var), self._cast(self._rho_t, var), self._cast(self._epsilon_t, var), grad,
            use_locking=self._use_locking).op

    def _apply_sparse(self, grad, var):
        return sparse_training_ops.sparse_apply_adadelta(
            var._ref(), self.get_slot(var, "accum")._ref(), self.get_slot(var, "accum_update")._ref(),
            self._cast(self._lr_t, var), self._cast(self._rho_t, var), self._cast(self._epsilon_t, var),
            grad.values, grad.indices, use_locking=self._use_locking)

    def _resource_apply_dense(self, grad, var):
        c = self._cast_to
        return self._resource_apply("ResourceApplyAdadelta", var, ["accum", "accum_update"], c(self._lr_t, grad),
                                    c(self._rho_t, grad), c(self._epsilon_t, grad), grad)

    def _resource_apply_sparse(self, grad, var, indices):
        c = self._cast_to
        return self._resource_apply("ResourceSparseApplyAdadelta", var, ["accum", "accum_update"],
                                    c(self._lr_t, grad), c(self._rho_t, grad), c(self._epsilon_t, grad), grad,
                                    indices)
