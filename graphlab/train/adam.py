"""``tf.train.AdamOptimizer``: slots ``m`` and ``v`` (``w/Adam``, ``w/Adam_1``), accumulators
``beta1_power`` and ``beta2_power`` (multiplied by beta1, beta2 after every step), ApplyAdam. An
IndexedSlices gradient gets TF's sparse step instead: m and v decay as a whole (Assign), the looked-up rows'
share is added with ScatterAdd, and var moves by AssignSub."""
from graphlab.ops import control_flow_ops, indexed_ops, math_ops, state_ops, training_ops
from graphlab.framework.registry import convert_to_tensor
from graphlab.train.optimizer import Optimizer


class AdamOptimizer(Optimizer):
    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False,
                 name="Adam"):
        super().__init__(use_locking, name)
        self._lr = learning_rate
        self._beta1 = beta1
        self._beta2 = beta2
        self._epsilon = epsilon

    def _get_beta_accumulators(self, graph=None):
        return (self._get_non_slot_variable("beta1_power", graph),
                self._get_non_slot_variable("beta2_power", graph))

    def _create_slots(self, var_list):
        first_var = min(var_list, key=lambda x: x.name)
        self._create_non_slot_variable(self._beta1, "beta1_power", first_var)
        self._create_non_slot_variable(self._beta2, "beta2_power", first_var)
        for v in var_list:
            self._zeros_slot(v, "m", self._name)
            self._zeros_slot(v, "v", self._name)

    def _prepare(self):
        c = self._call_if_callable
        self._lr_t = convert_to_tensor(c(self._lr), name="learning_rate")
        self._beta1_t = convert_to_tensor(c(self._beta1), name="beta1")
        self._beta2_t = convert_to_tensor(c(self._beta2), name="beta2")
        self._epsilon_t = convert_to_tensor(c(self._epsilon), name="epsilon")

    def _apply_dense(self, grad, var):
        m = self.get_slot(var, "m")
        v = self.get_slot(var, "v")
        beta1_power, beta2_power = self._get_beta_accumulators(var.graph)
        cast = self._cast
        return training_ops.apply_adam(
            var._ref(), m._ref(), v._ref(), cast(beta1_power.value(), var), cast(beta2_power.value(), var),
            cast(self._lr_t, var), cast(self._beta1_t, var), cast(self._beta2_t, var),
            cast(self._epsilon_t, var), grad, use_locking=self._use_locking).op

    def _apply_sparse(self, grad, var):
        return self._apply_sparse_shared(grad.values, var, grad.indices, lambda x, i, v: indexed_ops.scatter_add(
            x, i, v, use_locking=self._use_locking))

    def _apply_sparse_shared(self, grad, var, indices, scatter_add):
        """TF's op-by-op sparse Adam (its order and names: sub, Sqrt, mul, truediv, Assign, ScatterAdd ...)."""
        dtype = var.dtype.base_dtype
        beta1_power, beta2_power = self._get_beta_accumulators(var.graph)
        beta1_power = math_ops.cast(beta1_power, dtype)
        beta2_power = math_ops.cast(beta2_power, dtype)
        lr_t, beta1_t, beta2_t, epsilon_t = (math_ops.cast(t, dtype) for t in (
            self._lr_t, self._beta1_t, self._beta2_t, self._epsilon_t))
        lr = lr_t * math_ops.sqrt(1 - beta2_power) / (1 - beta1_power)
        graph = var.graph
        m = self.get_slot(var, "m")
        m_scaled_g_values = grad * (1 - beta1_t)
        m_t = state_ops.assign(m, m * beta1_t, use_locking=self._use_locking)
        with graph.control_dependencies([m_t]):
            m_t = scatter_add(m, indices, m_scaled_g_values)
        v = self.get_slot(var, "v")
        v_scaled_g_values = grad * grad * (1 - beta2_t)
        v_t = state_ops.assign(v, v * beta2_t, use_locking=self._use_locking)
        with graph.control_dependencies([v_t]):
            v_t = scatter_add(v, indices, v_scaled_g_values)
        v_sqrt = math_ops.sqrt(v_t)
        var_update = state_ops.assign_sub(var, lr * m_t / (v_sqrt + epsilon_t), use_locking=self._use_locking)
        return control_flow_ops.group(*[var_update, m_t, v_t])

    def _finish(self, update_ops, name_scope):
        graph = update_ops[0].graph if update_ops else None
        with graph.control_dependencies(update_ops):
            beta1_power, beta2_power = self._get_beta_accumulators(graph)
        with graph.control_dependencies(update_ops), graph.colocate_with(beta1_power):
            update_beta1 = beta1_power.assign(beta1_power * self._beta1_t, use_locking=self._use_locking)
            update_beta2 = beta2_power.assign(beta2_power * self._beta2_t, use_locking=self._use_locking)
        return control_flow_ops.group(*(list(update_ops) + [update_beta1, update_beta2]), name=name_scope)

    def _resource_apply_dense(self, grad, var):
        beta1_power, beta2_power = self._get_beta_accumulators(var.graph)
        c = self._cast_to
        return self._resource_apply("ResourceApplyAdam", var, ["m", "v"], c(beta1_power, grad), c(beta2_power, grad),
                                    c(self._lr_t, grad), c(self._beta1_t, grad), c(self._beta2_t, grad),
                                    c(self._epsilon_t, grad), grad)

    def _resource_scatter_add(self, x, i, v):
        from graphlab.ops import resource_variable_ops
        graph = x.graph
        with graph.control_dependencies([resource_variable_ops.resource_scatter("Add", x.handle, i, v)]):
            return x.value()

    def _resource_apply_sparse(self, grad, var, indices):
        return self._apply_sparse_shared(grad, var, indices, self._resource_scatter_add)
