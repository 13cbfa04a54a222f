"""Special functions and the less common elementwise math of ``tf.math``: erf, erfc, lgamma, digamma and
polygamma; the inverse hyperbolic functions, atan2, rint, truncating division, the xlogy family and nextafter.

numpy has no erf, lgamma, digamma or polygamma and scipy is not a dependency: erf and lgamma come from Python's
math module element by element, digamma and polygamma from recurrences and asymptotic series, all in float64.
Their gradients chain into each other (lgamma -> digamma -> polygamma) as in TF. Each op's output rule, numpy
kernel and gradient rule (TF's ``math_grad.py`` formulas) sit together; binary ops broadcast and are
un-broadcast centrally (graphlab/ops/broadcast_ops.py BROADCASTING_OPS)."""
import math

import numpy as np

from graphlab.framework import dtypes
from graphlab.ops.math_ops import (_after, _bcast, _check_int_divisor, _conj_scope, _unary, cast,
                                   check_allowed_types, cosh, exp, not_equal, reciprocal, reduce_sum, sinh, square,
                                   subtract)
from graphlab.framework.registry import broadcast_outputs, build_op, constant, register_op

_REALS = (dtypes.bfloat16, dtypes.float16, dtypes.float32, dtypes.float64)
_FLOATS = _REALS + (dtypes.complex64, dtypes.complex128)
_INTS = (dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.uint16, dtypes.uint32,
         dtypes.uint64)


def _binary(op_type, kernel, grad, doc, allowed=None, out_dtype=None):
    """Register a broadcasting binary op (inputs x, y of one type) and return ``fn(x, y, name=None)``."""
    base = broadcast_outputs(out_dtype)

    def outputs(op):
        if allowed is not None:
            check_allowed_types(op, allowed)
        return base(op)
    register_op(op_type, inputs=["x: T", "y: T"], outputs=outputs, kernel=_bcast(kernel), grad=grad, doc=doc)

    def fn(x, y, name=None):
        return build_op(op_type, [x, y], name=name).outputs[0]
    fn.__doc__ = "``tf.%s``" % doc
    return fn


def _as(like, out):
    return np.asarray(out).astype(np.result_type(like), copy=False)


def _elementwise(scalar_fn):
    """A float64 numpy kernel from a Python function of one float (slow, but exact to float64)."""
    ufunc = np.frompyfunc(scalar_fn, 1, 1)
    return lambda x: np.asarray(ufunc(np.asarray(x, np.float64)), np.float64)


def _lgamma_scalar(v):
    """log|Gamma(v)|, +inf at the poles (0, -1, -2 ...) as TF gives."""
    if v != v:
        return v
    try:
        return math.lgamma(v)
    except (ValueError, OverflowError):
        return math.inf


_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510)   # B2, B4 ... B16


def _digamma64(x):
    """psi(x) = d/dx log Gamma(x): reflection below 1/2, recurrence up to 10, then the asymptotic series.
    nan at the poles 0, -1, -2 ... and at -inf (as TF)."""
    x = np.asarray(x, np.float64)
    pole = (x <= 0) & (x == np.floor(x))
    reflect = x < 0.5
    z = np.where(reflect, 1.0 - x, x)
    z = np.where(pole | np.isnan(z), 10.0, z)
    acc = np.zeros_like(z)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        for _ in range(10):
            low = z < 10
            if not low.any():
                break
            acc = np.where(low, acc - 1.0 / z, acc)
            z = np.where(low, z + 1.0, z)
        z2 = 1.0 / (z * z)
        series = 0.0
        for k in range(len(_BERNOULLI), 0, -1):
            series = series * z2 + _BERNOULLI[k - 1] / (2 * k)
        out = acc + np.log(z) - 0.5 / z - series * z2
        frac = x - np.floor(x)
        out = np.where(reflect, out - np.pi / np.tan(np.pi * frac), out)
    return np.where(pole | np.isnan(x) | (x == -np.inf), np.nan, out)


def _hurwitz_zeta(s, q):
    """zeta(s, q) = sum over k >= 0 of (q + k)^-s, for an integer s >= 2: direct terms until q + k >= 20 + s,
    then Euler-Maclaurin with B2 ... B16. +inf at q = 0, -1, -2 ..."""
    if q <= 0 and q == math.floor(q):
        return math.inf
    total = 0.0
    while q < 20 + s:
        total += q ** -s
        q += 1.0
    total += q ** (1 - s) / (s - 1) + 0.5 * q ** -s
    rising, power, fact = float(s), q ** (-s - 1), 2.0
    for k, b in enumerate(_BERNOULLI, start=1):
        total += b / fact * rising * power
        rising *= (s + 2 * k - 1) * (s + 2 * k)
        power /= q * q
        fact *= (2 * k + 1) * (2 * k + 2)
    return total


def _polygamma_scalar(n, x):
    """psi^(n)(x), the n-th derivative of digamma: (-1)^(n+1) n! zeta(n + 1, x); nan unless n is a whole
    number >= 0 (TF)."""
    if n != n or x != x or n < 0 or n != math.floor(n):
        return math.nan
    if n == 0:
        return float(_digamma64(x))
    if math.isinf(x):
        return 0.0 if x > 0 else math.nan
    n = int(n)
    if x <= 0 and x == math.floor(x):
        return math.inf if n % 2 else math.nan   # the poles: TF gives inf for odd n, nan for even n
    return (1.0 if n % 2 else -1.0) * math.factorial(n) * _hurwitz_zeta(n + 1, x)


def _erf_rule(op, g):
    """grad * 2/sqrt(pi) * exp(-x^2); TF makes the constant before entering control_dependencies([grad])."""
    two_over_root_pi = constant(2 / np.sqrt(np.pi), dtype=g.dtype.base_dtype)
    with _conj_scope(op, g):
        return [g * two_over_root_pi * exp(-square(op.inputs[0]))]


def _digamma_grad(op, g, x):
    return g * polygamma(constant(1, dtype=x.dtype.base_dtype), x)


def _erf(x):
    """erf, and nan at +-inf in float64 as TF's float64 kernel gives (float32 gives +-1)."""
    out = _elementwise(math.erf)(x)
    if np.asarray(x).dtype == np.float64:
        out[np.isinf(out) | np.isinf(np.asarray(x))] = np.nan
    return out


erf = _unary("Erf", _erf, _erf_rule, "erf: the Gauss error function of x.", floats_only=_REALS)
lgamma = _unary("Lgamma", _elementwise(_lgamma_scalar), _after(lambda op, g, x: g * digamma(x)),
                "lgamma: log |Gamma(x)| (inf at 0, -1, -2 ...).", floats_only=_REALS)
digamma = _unary("Digamma", _digamma64, _after(_digamma_grad),
                 "digamma: psi(x), the derivative of lgamma (nan at 0, -1, -2 ...).", floats_only=_REALS)


def _polygamma_grad(op, grad):
    """TF's _PolygammaGrad: no gradient for n; psi^(n+1)(x) * grad for x, summed back to x's shape here
    (Polygamma is not one of the centrally un-broadcast ops, as TF's rule does it itself)."""
    from graphlab.ops.broadcast_ops import broadcast_gradient_args
    from graphlab.ops import array_ops
    n, x = op.inputs
    sn, sx = array_ops.shape(n), array_ops.shape(x)
    _, rx = broadcast_gradient_args(sn, sx)
    with op.graph.control_dependencies([grad]):
        partial_x = polygamma(n + 1, x)
        return [None, array_ops.reshape(reduce_sum(partial_x * grad, rx), sx)]


def _polygamma_outputs(op):
    for t, arg in zip(op._inputs, ("a", "x")):
        if t._dtype.base_dtype not in (dtypes.float32, dtypes.float64):
            raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: "
                            "float32, float64" % (arg, t._dtype.base_dtype.name))
    return broadcast_outputs()(op)


register_op(
    "Polygamma",
    inputs=["a: T", "x: T"],
    outputs=_polygamma_outputs,
    kernel=_bcast(lambda ctx, a, x: np.asarray(np.frompyfunc(_polygamma_scalar, 2, 1)(
        np.asarray(a, np.float64), np.asarray(x, np.float64)), np.float64).astype(np.result_type(a, x))),
    grad=_polygamma_grad,
    doc="psi^(a)(x), the a-th derivative of digamma (a a whole number; digamma for a = 0).")


def polygamma(a, x, name=None):
    """``tf.math.polygamma``: the a-th derivative of digamma at x (broadcasting)."""
    return build_op("Polygamma", [a, x], name=name).outputs[0]


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
                      "gradient).",
                      allowed=(dtypes.int32, dtypes.int64) + _REALS)   # TF registers no int8/16 or unsigned


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
