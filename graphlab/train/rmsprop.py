"""``tf.train.RMSPropOptimizer``: slots ``rms`` (ones, ``w/RMSProp``) and ``momentum`` (zeros,
``w/RMSProp_1``), ApplyRMSProp; with ``centered=True`` also ``mg`` (zeros, made before ``momentum``, so
``w/RMSProp_1`` is mg and ``w/RMSProp_2`` momentum, as in TF) and ApplyCenteredRMSProp. An IndexedSlices
gradient gets SparseApplyRMSProp (SparseApplyCenteredRMSProp)."""
from graphlab.ops import sparse_training_ops, training_ops
from graphlab.framework.registry import convert_to_tensor
from graphlab.train.optimizer import Optimizer


class RMSPropOptimizer(Optimizer):
    def __init__(self, learning_rate, decay=0.9, momentum=0.0, epsilon=1e-10, use_locking=False,
                 centered=False, name="RMSProp"):
        super().__init__(use_locking, name)
        self._centered = centered
        self._learning_rate = learning_rate
        self._decay = decay
        self._momentum = momentum
        self._epsilon = epsilon

    def _create_slots(self, var_list):
        from graphlab.ops import init_ops
        for v in var_list:
            dtype = v.dtype.base_dtype
            self._get_or_make_slot_with_initializer(v, init_ops.ones_initializer(dtype=dtype), v.get_shape(),
                                                    dtype, "rms", self._name)
            if self._centered:
                self._zeros_slot(v, "mg", self._name)
            self._zeros_slot(v, "momentum", self._name)

    def _prepare(self):
        c = self._call_if_callable
        self._learning_rate_tensor = convert_to_tensor(c(self._learning_rate), name="learning_rate")
        self._decay_tensor = convert_to_tensor(c(self._decay), name="decay")
        self._momentum_tensor = convert_to_tensor(c(self._momentum), name="momentum")
        self._epsilon_tensor = convert_to_tensor(c(self._epsilon), name="epsilon")

    def _apply_dense(self, grad, var):
        rms = self.get_slot(var, "rms")
        mom = self.get_slot(var, "momentum")
        if self._centered:
            return training_ops.apply_centered_rms_prop(
                var._ref(), self.get_slot(var, "mg")._ref(), rms._ref(), mom._ref(),
                self._cast(self._learning_rate_tensor, var), self._cast(self._decay_tensor, var),
                self._cast(self._momentum_tensor, var), self._cast(self._epsilon_tensor, var), grad,
                use_locking=self._use_locking).op
        return training_ops.apply_rms_prop(
            var._ref(), rms._ref(), mom._ref(), self._cast(self._learning_rate_tensor, var),
            self._cast(self._decay_tensor, var), self._cast(self._momentum_tensor, var),
            self._cast(self._epsilon_tensor, var), grad, use_locking=self._use_locking).op

    def _apply_sparse(self, grad, var):
        slots = [self.get_slot(var, "rms")._ref(), self.get_slot(var, "momentum")._ref()]
        hyper = [self._cast(t, var) for t in (self._learning_rate_tensor, self._decay_tensor, self._momentum_tensor,
                                             self._epsilon_tensor)]
        if self._centered:
            return sparse_training_ops.sparse_apply_centered_rms_prop(
                var._ref(), self.get_slot(var, "mg")._ref(), *slots, *hyper, grad.values, grad.indices,
                use_locking=self._use_locking)
        return sparse_training_ops.sparse_apply_rms_prop(var._ref(), *slots, *hyper, grad.values, grad.indices,
                                                         use_locking=self._use_locking)

    def _resource_step(self, kind, grad, var, *indices):
        slots = ["mg", "rms", "momentum"] if self._centered else ["rms", "momentum"]
        hyper = [self._cast_to(t, grad) for t in (self._learning_rate_tensor, self._decay_tensor,
                                                  self._momentum_tensor, self._epsilon_tensor)]
        op_type = kind + ("ApplyCenteredRMSProp" if self._centered else "ApplyRMSProp")
        return self._resource_apply(op_type, var, slots, *hyper, grad, *indices)

    def _resource_apply_dense(self, grad, var):
        return self._resource_step("Resource", grad, var)

    def _resource_apply_sparse(self, grad, var, indices):
        return self._resource_step("ResourceSparse", grad, var, indices)
