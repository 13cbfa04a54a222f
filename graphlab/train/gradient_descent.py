"""``tf.train.GradientDescentOptimizer``: var -= learning_rate * grad (ApplyGradientDescent)."""
from graphlab.ops import training_ops
from graphlab.ops.registry import convert_to_tensor
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
