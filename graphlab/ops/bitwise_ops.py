"""``tf.bitwise``: BitwiseAnd, BitwiseOr, BitwiseXor, LeftShift, RightShift and Invert on integer tensors.
They broadcast as the arithmetic ops do and have no gradient."""
import numpy as np

from graphlab.framework import dtypes
from graphlab.framework.registry import NOT_DIFFERENTIABLE, broadcast_outputs, build_op, register_op
from graphlab.ops.math_ops import _bcast

_INTS = (dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.uint16, dtypes.uint32,
         dtypes.uint64)


def _as(like, out):
    return np.asarray(out).astype(np.result_type(like), copy=False)


def _int_only(param):
    def outputs(op):
        for t in op._inputs:
            if t._dtype.base_dtype not in _INTS:
                raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: %s"
                                % (param, t._dtype.base_dtype.name, ", ".join(d.name for d in _INTS)))
        return broadcast_outputs()(op)
    return outputs


def _shift(np_fn):
    def kernel(ctx, x, y):
        bits = np.asarray(x).dtype.itemsize * 8
        y = np.asarray(y)
        out = np_fn(x, np.clip(y, 0, bits - 1).astype(np.asarray(x).dtype))
        return _as(x, out)   # TF: shifting by a negative amount or the width or more is undefined; clamp
    return kernel


for _type, _kernel, _doc in (
        ("BitwiseAnd", lambda ctx, x, y: np.bitwise_and(x, y), "x & y, bit by bit."),
        ("BitwiseOr", lambda ctx, x, y: np.bitwise_or(x, y), "x | y, bit by bit."),
        ("BitwiseXor", lambda ctx, x, y: np.bitwise_xor(x, y), "x ^ y, bit by bit."),
        ("LeftShift", _shift(np.left_shift), "x << y."),
        ("RightShift", _shift(np.right_shift), "x >> y (arithmetic for signed types).")):
    register_op(_type, inputs=["x: T", "y: T"], outputs=_int_only("x"), kernel=_bcast(_kernel),
                grad=NOT_DIFFERENTIABLE, doc=_doc)


def _bitwise(op_type, default_name=None):
    def fn(x, y, name=None):
        return build_op(op_type, [x, y], name=name, default_name=default_name).outputs[0]
    return fn


bitwise_and, bitwise_or, bitwise_xor = (_bitwise(t) for t in ("BitwiseAnd", "BitwiseOr", "BitwiseXor"))
left_shift, right_shift = _bitwise("LeftShift"), _bitwise("RightShift")

register_op("Invert", inputs=["x: T"], outputs=_int_only("x"), kernel=lambda ctx, x: np.invert(x),
            grad=NOT_DIFFERENTIABLE, doc="~x: every bit flipped.")


def invert(x, name=None):
    """``tf.bitwise.invert``: ~x."""
    return build_op("Invert", [x], name=name).outputs[0]


__all__ = ["bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "invert"]
