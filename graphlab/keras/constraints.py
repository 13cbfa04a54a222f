"""``tf.keras.constraints``: functions applied to a weight after each optimizer step (the optimizer reads
``variable.constraint``)."""
from graphlab.keras import backend as K
from graphlab.ops import math_ops


class Constraint:
    def __call__(self, w):
        return w

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class MaxNorm(Constraint):
    """Rescale so the norm along ``axis`` is at most ``max_value``."""

    def __init__(self, max_value=2, axis=0):
        self.max_value, self.axis = max_value, axis

    def __call__(self, w):
        norms = K.sqrt(math_ops.reduce_sum(math_ops.square(w), axis=self.axis, keepdims=True))
        desired = K.clip(norms, 0, self.max_value)
        return w * (desired / (K.epsilon() + norms))

    def get_config(self):
        return {"max_value": self.max_value, "axis": self.axis}


class NonNeg(Constraint):
    """Zero the negative entries."""

    def __call__(self, w):
        return w * math_ops.cast(math_ops.greater_equal(w, 0.0), K.floatx())


class UnitNorm(Constraint):
    """Divide by the norm along ``axis``."""

    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, w):
        return w / (K.epsilon() + K.sqrt(math_ops.reduce_sum(math_ops.square(w), axis=self.axis, keepdims=True)))

    def get_config(self):
        return {"axis": self.axis}


class MinMaxNorm(Constraint):
    """Keep the norm along ``axis`` between min_value and max_value (moved there at ``rate``)."""

    def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
        self.min_value, self.max_value, self.rate, self.axis = min_value, max_value, rate, axis

    def __call__(self, w):
        norms = K.sqrt(math_ops.reduce_sum(math_ops.square(w), axis=self.axis, keepdims=True))
        desired = self.rate * K.clip(norms, self.min_value, self.max_value) + (1 - self.rate) * norms
        return w * (desired / (K.epsilon() + norms))

    def get_config(self):
        return {"min_value": self.min_value, "max_value": self.max_value, "rate": self.rate, "axis": self.axis}


max_norm = MaxNorm
non_neg = NonNeg
unit_norm = UnitNorm
min_max_norm = MinMaxNorm
_BY_NAME = {"max_norm": MaxNorm, "MaxNorm": MaxNorm, "non_neg": NonNeg, "NonNeg": NonNeg,
            "unit_norm": UnitNorm, "UnitNorm": UnitNorm, "min_max_norm": MinMaxNorm, "MinMaxNorm": MinMaxNorm}


def serialize(constraint):
    return {"class_name": type(constraint).__name__, "config": constraint.get_config()}


def get(identifier):
    if identifier is None:
        return None
    if isinstance(identifier, str):
        return _BY_NAME[identifier]()
    if isinstance(identifier, dict):
        return _BY_NAME[identifier["class_name"]](**identifier.get("config", {}))
    if callable(identifier):
        return identifier
    raise ValueError("Could not interpret constraint identifier: %s" % (identifier,))
