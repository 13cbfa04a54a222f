"""Learning-rate schedules as graph ops of the global step (TF1's ``tf.train.exponential_decay`` ...).

Each function builds the ops TF1's graph mode builds, in the same order and under the same names, so a
script's graph (and the names a checkpoint or TensorBoard shows) match TensorFlow's. TF computes most of
them with Python operators on tensors (``p / decay_steps``, ``1 - p``), which name their ops ``truediv``,
``sub_1``, ``mul``...; the code below uses the same operators wherever TF does, for the same names.
A missing global step (None) fails where TF 2's graph mode fails: casting it ("None values not supported.")."""
import math

from graphlab.framework import dtypes, graph as graph_mod
from graphlab.framework.registry import constant, convert_to_tensor


def _scope(name, default):
    return graph_mod.get_default_graph().name_scope(name or default)


def exponential_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None):
    """learning_rate * decay_rate ^ (global_step / decay_steps), floored exponent with ``staircase``."""
    from graphlab.ops import math_ops
    with _scope(name, "ExponentialDecay") as scope:
        lr = convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = lr.dtype.base_dtype
        decay_steps = math_ops.cast(decay_steps, dtype)
        decay_rate = math_ops.cast(decay_rate, dtype)
        step = math_ops.cast(global_step, dtype)
        p = math_ops.truediv(step, decay_steps)
        if staircase:
            p = math_ops.floor(p)
        return math_ops.multiply(lr, math_ops.pow(decay_rate, p), name=scope)


def natural_exp_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None):
    """learning_rate * exp(-decay_rate * global_step / decay_steps). TF builds it as an exponential decay
    whose rate is exp(-decay_rate), computed *before* (and outside) the "ExponentialDecay" scope, so the
    ops are named ``Neg``, ``Exp`` and then ``ExponentialDecay/...``; ``name`` names that scope."""
    from graphlab.ops import math_ops
    rate = math_ops.exp(math_ops.negative(decay_rate))
    return exponential_decay(learning_rate, global_step, decay_steps, rate, staircase=staircase, name=name)


def inverse_time_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None):
    """learning_rate / (1 + decay_rate * global_step / decay_steps), floored quotient with ``staircase``."""
    from graphlab.ops import math_ops
    with _scope(name, "InverseTimeDecay") as scope:
        lr = convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = lr.dtype.base_dtype
        decay_steps = math_ops.cast(decay_steps, dtype)
        decay_rate = math_ops.cast(decay_rate, dtype)
        p = math_ops.cast(global_step, dtype) / decay_steps
        if staircase:
            p = math_ops.floor(p)
        one = math_ops.cast(constant(1), dtype)
        denominator = math_ops.add(one, math_ops.multiply(decay_rate, p))
        return math_ops.divide(lr, denominator, name=scope)


def polynomial_decay(learning_rate, global_step, decay_steps, end_learning_rate=0.0001, power=1.0,
                     cycle=False, name=None):
    """(learning_rate - end) * (1 - step / decay_steps) ^ power + end, with step held at decay_steps;
    with ``cycle`` the horizon grows instead to the next multiple of decay_steps past the step."""
    from graphlab.ops import array_ops, math_ops
    with _scope(name, "PolynomialDecay") as scope:
        lr = convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = lr.dtype.base_dtype
        end = math_ops.cast(end_learning_rate, dtype)
        power = math_ops.cast(power, dtype)
        step = math_ops.cast(global_step, dtype)
        horizon = math_ops.cast(decay_steps, dtype)
        if cycle:
            # TF divides by the raw decay_steps here (a Python number converted against the float step)
            multiplier = array_ops.where_v2(math_ops.equal(step, 0), 1.0, math_ops.ceil(step / decay_steps))
            horizon = math_ops.multiply(horizon, multiplier)
        else:
            step = math_ops.minimum(step, horizon)
        p = math_ops.divide(step, horizon)
        return math_ops.add(math_ops.multiply(lr - end, math_ops.pow(1 - p, power)), end, name=scope)


def cosine_decay(learning_rate, global_step, decay_steps, alpha=0.0, name=None):
    """learning_rate * ((1 - alpha) * 0.5 * (1 + cos(pi * min(step, decay_steps) / decay_steps)) + alpha).
    As in TF, ``name`` only names the scope: the result is the scope's ``Mul_N`` op."""
    from graphlab.ops import math_ops
    with _scope(name, "CosineDecay"):
        lr = convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = lr.dtype.base_dtype
        decay_steps = math_ops.cast(decay_steps, dtype)
        step = math_ops.minimum(math_ops.cast(global_step, dtype), decay_steps)
        fraction = step / decay_steps
        cosine = 0.5 * (1.0 + math_ops.cos(constant(math.pi) * fraction))
        decayed = (1 - alpha) * cosine + alpha
        return math_ops.multiply(lr, decayed)


def cosine_decay_restarts(learning_rate, global_step, first_decay_steps, t_mul=2.0, m_mul=1.0, alpha=0.0,
                          name=None):
    """Cosine decay with warm restarts (SGDR): period i lasts first_decay_steps * t_mul^i steps and starts
    at learning_rate * m_mul^i. Which restart a step falls in is chosen in the graph by a tf.cond on
    ``t_mul == 1`` (plain floor) versus the geometric-series formula, as TF does."""
    from graphlab.ops import control_flow_ops, math_ops
    with _scope(name, "SGDRDecay") as scope:
        lr = convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = lr.dtype.base_dtype
        first_decay_steps = math_ops.cast(first_decay_steps, dtype)
        alpha = math_ops.cast(alpha, dtype)
        t_mul = math_ops.cast(t_mul, dtype)
        m_mul = math_ops.cast(m_mul, dtype)
        fraction = math_ops.cast(global_step, dtype) / first_decay_steps

        def periods_of_equal_length():
            i_restart = math_ops.floor(fraction)
            return i_restart, fraction - i_restart

        def geometric_periods():
            i_restart = math_ops.floor(math_ops.log(1.0 - fraction * (1.0 - t_mul)) / math_ops.log(t_mul))
            done = (1.0 - t_mul ** i_restart) / (1.0 - t_mul)
            return i_restart, (fraction - done) / t_mul ** i_restart

        i_restart, fraction = control_flow_ops.cond(math_ops.equal(t_mul, 1.0), periods_of_equal_length,
                                                    geometric_periods)
        m_fac = m_mul ** i_restart
        cosine = 0.5 * m_fac * (1.0 + math_ops.cos(constant(math.pi) * fraction))
        decayed = (1 - alpha) * cosine + alpha
        return math_ops.multiply(lr, decayed, name=scope)


def linear_cosine_decay(learning_rate, global_step, decay_steps, num_periods=0.5, alpha=0.0, beta=0.001,
                        name=None):
    """learning_rate * ((alpha + linear) * cosine + beta): a linear ramp to 0 times a cosine of
    ``num_periods`` periods over decay_steps (Bello et al., Neural Optimizer Search)."""
    from graphlab.ops import math_ops
    with _scope(name, "LinearCosineDecay") as scope:
        lr = convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = lr.dtype.base_dtype
        decay_steps = math_ops.cast(decay_steps, dtype)
        num_periods = math_ops.cast(num_periods, dtype)
        alpha = math_ops.cast(alpha, dtype)
        beta = math_ops.cast(beta, dtype)
        step = math_ops.minimum(math_ops.cast(global_step, dtype), decay_steps)
        linear = (decay_steps - step) / decay_steps
        fraction = step / decay_steps
        fraction = 2.0 * num_periods * fraction
        cosine = 0.5 * (1.0 + math_ops.cos(constant(math.pi) * fraction))
        return math_ops.multiply(lr, (alpha + linear) * cosine + beta, name=scope)


# --------------------------------------------------------------------------------------- piecewise_constant
def _flat(items):
    if isinstance(items, (list, tuple)):
        return [leaf for item in items for leaf in _flat(item)]
    return [items]


def piecewise_constant(x, boundaries, values, name=None):
    """values[0] while x <= boundaries[0], values[i] while boundaries[i-1] < x <= boundaries[i], and
    values[-1] past the last boundary. int32 boundaries are cast to an int64 ``x`` (the global step), any
    other dtype mismatch is a ValueError, as in TF. The choice is TF's exclusive ``tf.case``: a run-time
    check that at most one interval matches, then nested conds returning the value."""
    from graphlab.ops import math_ops
    boundaries = [convert_to_tensor(b) for b in _flat(boundaries)]
    values = [convert_to_tensor(v) for v in _flat(values)]
    x = convert_to_tensor(x)
    x_dtype = x.dtype.base_dtype
    for i, b in enumerate(boundaries):
        if b.dtype.base_dtype != x_dtype:
            if b.dtype.base_dtype == dtypes.int32 and x_dtype == dtypes.int64:
                boundaries[i] = math_ops.cast(b, x_dtype)
            else:
                raise ValueError("Boundaries (%s) must have the same dtype as x (%s)." %
                                 (b.dtype.base_dtype, x_dtype))
    for v in values[1:]:
        if v.dtype.base_dtype != values[0].dtype.base_dtype:
            raise ValueError("Values must have elements all with the same dtype (%s vs %s)." %
                             (values[0].dtype.base_dtype, v.dtype.base_dtype))
    if len(boundaries) != len(values) - 1:
        raise ValueError("The length of boundaries should be 1 less than the length of values")
    with _scope(name, "PiecewiseConstant"):
        pairs = [(x <= boundaries[0], lambda: values[0]), (x > boundaries[-1], lambda: values[-1])]
        for low, high, v in zip(boundaries[:-1], boundaries[1:], values[1:-1]):
            pairs.append(((x > low) & (x <= high), lambda v=v: v))
        from graphlab.ops import control_flow_ops
        return control_flow_ops.case(pairs, lambda: values[0], exclusive=True)


def noisy_linear_cosine_decay(learning_rate, global_step, decay_steps, initial_variance=1.0, variance_decay=0.55,
                              num_periods=0.5, alpha=0.0, beta=0.001, name=None):
    """``tf.train.noisy_linear_cosine_decay``: linear_cosine_decay whose linear term gets Gaussian noise of
    variance initial_variance / (1 + step) ** variance_decay."""
    import math
    from graphlab.framework.graph import name_scope
    from graphlab.ops import math_ops, random_ops
    from graphlab.framework.registry import constant, convert_to_tensor
    if global_step is None:
        raise ValueError("global_step is required for noisy_linear_cosine_decay.")
    with name_scope(name, "NoisyLinearCosineDecay", [learning_rate, global_step]) as scope:
        lr = convert_to_tensor(learning_rate, name="learning_rate")
        dtype = lr.dtype.base_dtype
        decay_steps = math_ops.cast(decay_steps, dtype)
        initial_variance = math_ops.cast(initial_variance, dtype)
        variance_decay = math_ops.cast(variance_decay, dtype)
        num_periods = math_ops.cast(num_periods, dtype)
        alpha = math_ops.cast(alpha, dtype)
        beta = math_ops.cast(beta, dtype)
        step = math_ops.minimum(math_ops.cast(global_step, dtype), decay_steps)
        linear_decayed = (decay_steps - step) / decay_steps
        variance = initial_variance / (math_ops.pow(1.0 + step, variance_decay))
        std = math_ops.sqrt(variance)
        noisy_linear_decayed = linear_decayed + random_ops.random_normal(linear_decayed.shape, stddev=std)
        completed_fraction = step / decay_steps
        fraction = 2.0 * num_periods * completed_fraction
        cosine_decayed = 0.5 * (1.0 + math_ops.cos(constant(math.pi, dtype=dtype) * fraction))
        noisy_linear_cosine_decayed = (alpha + noisy_linear_decayed) * cosine_decayed + beta
        return math_ops.multiply(lr, noisy_linear_cosine_decayed, name=scope)
