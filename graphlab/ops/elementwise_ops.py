"""More of TF's elementwise math: inverse hyperbolic functions, Atan2, Erfc, Rint, truncating division,
the xlogy family, NextAfter and the bitwise ops (``tf.bitwise``). Each op's output rule, numpy kernel and
gradient rule (TF's ``math_grad.py`` formulas) sit together; binary ops broadcast and are un-broadcast
centrally (graphlab/ops/broadcast_ops.py BROADCASTING_OPS)."""
import math

import numpy as np

from graphlab.framework import dtypes
from graphlab.ops.math_ops import (_after, _bcast, _check_int_divisor, _conj_scope, _unary, cast, cosh, exp,
                                   not_equal, reciprocal, sinh, square, subtract)
from graphlab.framework.registry import (NOT_DIFFERENTIABLE, broadcast_outputs, build_op, constant, register_op,
                                   same_as_input)

_REALS = (dtypes.bfloat16, dtypes.float16, dtypes.float32, dtypes.float64)
_FLOATS = _REALS + (dtypes.complex64, dtypes.complex128)
_INTS = (dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.uint16, dtypes.uint32,
         dtypes.uint64)


def _binary(op_type, kernel, grad, doc, allowed=None, out_dtype=None):
    """Register a broadcasting binary op (inputs x, y of one type) and return ``fn(x, y, name=None)``."""
    base = broadcast_outputs(out_dtype)

    def outputs(op):
        if allowed is not None:
            for t, arg in zip(op._inputs, ("x", "y")):
                if t._dtype.base_dtype not in allowed:
                    raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: "
                                    "%s" % (arg, t._dtype.base_dtype.name, ", ".join(d.name for d in allowed)))
        return base(op)
    register_op(op_type, inputs=["x: T", "y: T"], outputs=outputs, kernel=_bcast(kernel), grad=grad, doc=doc)

    def fn(x, y, name=None):
        return build_op(op_type, [x, y], name=name).outputs[0]
    fn.__doc__ = "``tf.%s``" % doc
    return fn


def _as(like, out):
    return np.asarray(out).astype(np.result_type(like), copy=False)


# ============================================================================ inverse hyperbolic functions
def _atanh_grad(op, g, x):
    one = constant(1, dtype=g.dtype.base_dtype)
    return g * reciprocal(subtract(one, square(x)))


def _asinh_grad(op, g):
    with _conj_scope(op, g):
        return [g / cosh(op.outputs[0])]


def _acosh_grad(op, g):
    with _conj_scope(op, g):
        return [g / sinh(op.outputs[0])]


asinh = _unary("Asinh", np.arcsinh, _asinh_grad, "math.asinh: the inverse hyperbolic sine of x.", floats_only=True)
acosh = _unary("Acosh", np.arccosh, _acosh_grad, "math.acosh: the inverse hyperbolic cosine of x (nan below 1).",
               floats_only=True)
atanh = _unary("Atanh", np.arctanh, _after(_atanh_grad),
               "math.atanh: the inverse hyperbolic tangent of x (inf at +-1, nan beyond).", floats_only=True)


# ====================================================================================== Erfc, Rint
def _erfc_rule(op, g):
    """-grad * 2/sqrt(pi) * exp(-x^2), the constant made before control_dependencies([grad]) as in TF."""
    c = constant(-2 / np.sqrt(np.pi), dtype=g.dtype.base_dtype)
    with _conj_scope(op, g):
        return [g * c * exp(-square(op.inputs[0]))]


_erfc_scalar = np.frompyfunc(math.erfc, 1, 1)
erfc = _unary("Erfc", lambda x: np.asarray(_erfc_scalar(np.asarray(x, np.float64)), np.float64), _erfc_rule,
              "math.erfc: 1 - erf(x), accurate where erf(x) is near 1.", floats_only=_REALS)
rint = _unary("Rint", np.rint, lambda op, g: [None],
              "math.rint: x rounded to the nearest integer, halves to even (no gradient).", floats_only=_REALS)


# ============================================================================================== Atan2
def _atan2_grad(op, grad):
    y, x = op.inputs
    with _conj_scope(op, grad):
        grad_inv = grad / (square(y) + square(x))
        return [x * grad_inv, -y * grad_inv]


atan2 = _binary("Atan2", lambda ctx, y, x: _as(y, np.arctan2(y, x)), _atan2_grad,
                "math.atan2: the angle of the point (x, y), elementwise arctan(y / x) in (-pi, pi].",
                allowed=_REALS)


# ================================================================================ truncating division
def _truncate_div(ctx, x, y):
    _check_int_divisor(ctx, x, y)
    if np.asarray(x).dtype.kind in "iu":
        q = np.floor_divide(x, y)
        return (q + ((q < 0) & (q * y != x))).astype(np.result_type(x, y), copy=False)
    with np.errstate(divide="ignore", invalid="ignore"):
        return _as(x, np.trunc(np.true_divide(x, y)))


def _truncate_mod(ctx, x, y):
    _check_int_divisor(ctx, x, y)
    with np.errstate(divide="ignore", invalid="ignore"):
        return _as(x, np.fmod(x, y))


truncatediv = _binary("TruncateDiv", _truncate_div, lambda op, g: [None, None],
                      "truncatediv: x / y rounded toward zero (C's integer division; no gradient).")
truncatemod = _binary("TruncateMod", _truncate_mod, None,
                      "truncatemod: the remainder of truncatediv, with the sign of x (C's %; TF defines no "
                      "gradient).")


# ========================================================================== Xlogy, Xlog1py, Xdivy
def _x_is_not_zero(x):
    return cast(not_equal(x, cast(0., x.dtype.base_dtype)), x.dtype.base_dtype)


def _xlogy_grad(op, grad):
    x, y = op.inputs
    with _conj_scope(op, grad):
        return [xlogy(_x_is_not_zero(x), y) * grad, xdivy(x, y) * grad]


def _xlog1py_grad(op, grad):
    x, y = op.inputs
    with _conj_scope(op, grad):
        return [xlog1py(_x_is_not_zero(x), y) * grad, xdivy(x, y + 1.) * grad]


def _xdivy_grad(op, grad):
    x, y = op.inputs
    with _conj_scope(op, grad):
        return [xdivy(_x_is_not_zero(x), y) * grad, xdivy(-x, y ** 2) * grad]


def _where_x_zero(fn):
    def kernel(ctx, x, y):
        with np.errstate(divide="ignore", invalid="ignore"):
            out = fn(x, y)
        return _as(x, np.where(np.equal(x, 0), np.zeros((), np.result_type(out)), out))
    return kernel


xlogy = _binary("Xlogy", _where_x_zero(lambda x, y: x * np.log(y)), _xlogy_grad,
                "math.xlogy: x * log(y), and 0 where x is 0 (even where log(y) is not finite).", allowed=_FLOATS)
xlog1py = _binary("Xlog1py", _where_x_zero(lambda x, y: x * np.log1p(y)), _xlog1py_grad,
                  "math.xlog1py: x * log1p(y), and 0 where x is 0.", allowed=_FLOATS)
xdivy = _binary("Xdivy", _where_x_zero(np.true_divide), _xdivy_grad,
                "math.xdivy: x / y, and 0 where x is 0.", allowed=_FLOATS)


# ========================================================================================== NextAfter
def _nextafter_grad(op, grad):
    from graphlab.ops import array_ops
    with _conj_scope(op, grad):
        return [grad, array_ops.zeros_like(grad)]


nextafter = _binary("NextAfter", lambda ctx, x1, x2: np.nextafter(x1, x2), _nextafter_grad,
                    "math.nextafter: the next representable float after x1 toward x2.",
                    allowed=(dtypes.float32, dtypes.float64))


# ================================================================================== tf.bitwise ops
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


del same_as_input
