"""``tf.bitwise``: bit operations on integer tensors (graphlab/ops/bitwise_ops.py)."""
from graphlab.ops.bitwise_ops import (bitwise_and, bitwise_or, bitwise_xor, invert, left_shift,  # noqa: F401
                                          right_shift)
