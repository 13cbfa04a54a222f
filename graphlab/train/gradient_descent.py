"""``tf.train.GradientDescentOptimizer``: var -= learning_rate * grad (ApplyGradientDescent; for an
IndexedSlices gradient, ScatterSub of the looked-up rows times learning_rate)."""
from graphlab.framework.indexed_slices import IndexedSlices
from graphlab.ops import training_ops
from graphlab.framework.registry import convert_to_tensor
from graphlab.train.optimizer import Optimizer


class GradientDescentOptimizer(Optimizer):
    def __init__(self, learning_rate, use_locking=False, name="GradientDescent"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._learning_rate_tensor = None

    def _prepare(self):
        self._learning_rate_tensor = convert_to_tensor(self._call_if_callable(self._learning_rate),
                                                       name="learning_rate")

    def _apply_dense(self, grad, var):
        return training_ops.apply_gradient_descent(
            var._ref(), self._cast(self._learning_rate_tensor, var), grad, use_locking=self._use_locking).op

    def _apply_sparse_duplicate_indices(self, grad, var):
        """TF's sparse step: rows scaled by the learning rate, subtracted by one ScatterSub (repeated rows
        add up there, so no Unique first)."""
        delta = IndexedSlices(grad.values * self._cast(self._learning_rate_tensor, var), grad.indices,
                              grad.dense_shape)
        return var.scatter_sub(delta, use_locking=self._use_locking)

    def _resource_apply_dense(self, grad, handle):
        return self._resource_apply("ResourceApplyGradientDescent", handle, (),
                                    self._cast_to(self._learning_rate_tensor, grad), grad)

    def _resource_apply_sparse_duplicate_indices(self, grad, handle, indices):
        """TF's sparse step on a resource variable: ResourceScatterAdd of -grad * learning_rate."""
        from graphlab.ops import resource_variable_ops
        return resource_variable_ops.resource_scatter("Add", handle.handle, indices,
                                                      -grad * self._cast_to(self._learning_rate_tensor, grad))
