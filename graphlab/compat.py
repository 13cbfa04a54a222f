"""``tf.compat.v1`` and the TF2 switches TF1 code calls: graphlab *is* TF1 graph mode, so ``tf.compat.v1``
is graphlab itself and ``disable_v2_behavior()`` has nothing to switch off."""
import sys


def disable_v2_behavior():
    """Accepted so ``tf.compat.v1.disable_v2_behavior()`` scripts run unchanged; graphlab is always TF1."""


def disable_eager_execution():
    """Accepted for the same reason: graphlab always builds graphs."""


def executing_eagerly():
    return False


class _Compat:
    """``tf.compat``: only ``v1``, which is the graphlab module."""

    @property
    def v1(self):
        return sys.modules["graphlab"]


compat = _Compat()
