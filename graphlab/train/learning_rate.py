"""Learning-rate schedules as graph ops of the global step (TF1's ``tf.train.exponential_decay`` ...)."""
from graphlab.framework import graph as graph_mod
from graphlab.ops.registry import convert_to_tensor


def exponential_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None):
    """learning_rate * decay_rate ^ (global_step / decay_steps), floored exponent with ``staircase``."""
    if global_step is None:
        raise ValueError("global_step is required for exponential_decay.")
    from graphlab.ops import math_ops
    graph = graph_mod.get_default_graph()
    with graph.name_scope(name or "ExponentialDecay") as scope:
        lr = convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = lr.dtype.base_dtype
        decay_steps = math_ops.cast(decay_steps, dtype)
        decay_rate = math_ops.cast(decay_rate, dtype)
        step = math_ops.cast(global_step, dtype)
        p = math_ops.truediv(step, decay_steps)
        if staircase:
            p = math_ops.floor(p)
        return math_ops.multiply(lr, math_ops.pow(decay_rate, p), name=scope)
