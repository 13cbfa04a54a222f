"""Keras's smart_cond: one branch when the predicate is known while building, a cond otherwise (the
learning-phase placeholder makes a cond; ``set_learning_phase(1)`` or ``training=True`` does not)."""
from graphlab.framework.registry import const_value
from graphlab.ops import control_flow_ops


def constant_value(pred):
    """True/False when known at build time, else None."""
    if isinstance(pred, bool):
        return pred
    if isinstance(pred, int):
        return bool(pred)
    if hasattr(pred, "op"):
        if pred.op.type == "PlaceholderWithDefault":
            return None
        value = const_value(pred)
        return None if value is None else bool(value)
    return bool(pred)


def smart_cond(pred, true_fn, false_fn, name=None):
    value = constant_value(pred)
    if value is None:
        return control_flow_ops.cond(pred, true_fn, false_fn, name=name)
    return true_fn() if value else false_fn()
