"""``tf.keras.regularizers``: penalties on a weight, built (under ``<weight>/Regularizer/``) each time a
model's losses are collected. ``l2(0.01)`` is ``0.02 * nn.l2_loss(w)`` (TF's l2_loss halves the sum of
squares), so it equals contrib's ``l2_regularizer(0.01)`` sum of squares times 0.01 as tf_upgrade_v2 intends."""
from graphlab.keras import backend as K
from graphlab.keras.utils import generic_utils
from graphlab.ops import math_ops, nn_ops


class Regularizer:
    def __call__(self, x):
        return 0.0

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class L1L2(Regularizer):
    """l1 * sum(|x|) + 2 * l2 * l2_loss(x), starting from a 0.0 constant."""

    def __init__(self, l1=0.0, l2=0.0):
        self.l1, self.l2 = K.cast_to_floatx(l1 or 0.0), K.cast_to_floatx(l2 or 0.0)

    def __call__(self, x):
        regularization = K.constant(0.0, dtype=x.dtype.base_dtype)
        if self.l1:
            regularization += self.l1 * math_ops.reduce_sum(math_ops.abs(x))
        if self.l2:
            regularization += 2.0 * self.l2 * nn_ops.l2_loss(x)
        return regularization

    def get_config(self):
        return {"l1": float(self.l1), "l2": float(self.l2)}


class L1(Regularizer):
    """l1 * sum(|x|)."""

    def __init__(self, l1=0.01, **kwargs):
        l1 = kwargs.pop("l", l1)
        self.l1 = K.cast_to_floatx(0.01 if l1 is None else l1)

    def __call__(self, x):
        return self.l1 * math_ops.reduce_sum(math_ops.abs(x))

    def get_config(self):
        return {"l1": float(self.l1)}


class L2(Regularizer):
    """2 * l2 * l2_loss(x) = l2 * sum(x**2)."""

    def __init__(self, l2=0.01, **kwargs):
        l2 = kwargs.pop("l", l2)
        self.l2 = K.cast_to_floatx(0.01 if l2 is None else l2)

    def __call__(self, x):
        return 2.0 * self.l2 * nn_ops.l2_loss(x)

    def get_config(self):
        return {"l2": float(self.l2)}


def l1_l2(l1=0.01, l2=0.01):
    return L1L2(l1=l1, l2=l2)


l1 = L1
l2 = L2
_BY_NAME = {"l1": L1, "l2": L2, "l1_l2": l1_l2, "L1": L1, "L2": L2, "L1L2": L1L2}


def serialize(regularizer):
    return {"class_name": type(regularizer).__name__, "config": regularizer.get_config()}


def deserialize(config, custom_objects=None):
    return generic_utils.deserialize_from_table(config, _BY_NAME, custom_objects, "Unknown regularizer: '%s'.")


def get(identifier):
    return generic_utils.get_from_identifier(identifier, deserialize, "regularizer")
