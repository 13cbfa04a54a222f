"""Math ops: elementwise arithmetic, comparisons, logical ops, casts, matmul, reductions.

Also wires Tensor's Python operators (``a + b`` builds an ``AddV2`` op named ``add``), with the lowercase
op names TF gives overloaded operators.

Gradient rules build ops through the public functions below, so gradients are ordinary graph ops. Rules of
broadcasting binary ops return gradients shaped like the (broadcast) output: graphlab.gradients sums them
back to each input's shape centrally, so no rule here repeats that work.
"""

import numpy as np

from graphlab.framework import dtypes, graph as graph_mod, tensor as tensor_mod, tensor_shape
from graphlab.formats.errors import InvalidArgumentError
from graphlab.framework.indexed_slices import IndexedSlices
from graphlab.framework.tensor import Tensor
from graphlab.framework.registry import (NOT_DIFFERENTIABLE, broadcast_outputs, build_op, const_value, constant,
                                         ShapeError, convert_to_tensor, register_op, same_as_input)
from graphlab.runtime import numpy_errors

_FLOATS = (dtypes.bfloat16, dtypes.float16, dtypes.float32, dtypes.float64, dtypes.complex64,
           dtypes.complex128)


def _scope(name, default_name, values):
    """The graph of ``values`` and its name scope for a composite function (TF's ``name_scope(name,
    default_name, values)``); a name ending in "/" re-enters an operator's scope exactly."""
    graph = graph_mod.graph_of([v for v in values if isinstance(v, Tensor) or hasattr(v, "_to_tensor")])
    return graph, graph.name_scope(name or default_name)


def _float_only(op_type, allowed=_FLOATS):
    """Output rule of unary ops TF defines for floating types only (TypeError naming the dtype)."""
    def outputs(op):
        t = op._inputs[0]
        if t._dtype.base_dtype not in allowed:
            raise TypeError("Value passed to parameter 'x' has DataType %s not in list of allowed values: %s"
                            % (t._dtype.base_dtype.name, ", ".join(d.name for d in allowed)))
        return [(t._dtype.base_dtype, t._shape)]
    return outputs


def _typed(fn):
    """Wrap a numpy kernel so it returns the dtype of its first input (numpy promotes int8+int8, float16
    math, Python scalars ... differently from TF)."""
    def kernel(ctx, x, *rest):
        out = fn(x, *rest)
        dt = getattr(x, "dtype", None)
        return out if getattr(out, "dtype", None) == dt else np.asarray(out).astype(dt)
    return kernel


def _incompatible(ctx, x, y):
    """Called when a broadcasting kernel failed: raise TF's run-time InvalidArgumentError "Incompatible
    shapes: [2,4] vs. [3]" (x's shape first) if the shapes are the cause; return otherwise."""
    xs, ys = np.shape(x), np.shape(y)
    try:
        np.broadcast_shapes(xs, ys)
    except ValueError:
        raise InvalidArgumentError(None, ctx.op, "Incompatible shapes: [%s] vs. [%s]" % (
            ",".join(map(str, xs)), ",".join(map(str, ys)))) from None


def _bcast(fn, ufunc=False):
    """Wrap a broadcasting kernel so numpy's "could not be broadcast" ValueError becomes TF's error. The
    shapes are looked at only on failure: the fast path is one try block."""
    if ufunc:   # a numpy ufunc called directly: no extra frame on the fast path
        def kernel(ctx, x, y):
            try:
                return fn(x, y)
            except ValueError:
                _incompatible(ctx, x, y)
                raise
    else:
        def kernel(ctx, x, y):
            try:
                return fn(ctx, x, y)
            except ValueError:
                _incompatible(ctx, x, y)
                raise
    return kernel


def _is_int(x):
    return np.asarray(x).dtype.kind in "iu"


def _check_int_divisor(ctx, x, y):
    """TF checks each divisor as it computes an element: an empty result (e.g. ``(axes + rank) % rank`` for
    the no axes of a scalar, in a reduction's gradient) divides nothing and raises nothing."""
    if _is_int(x) and not np.all(y) and np.broadcast(x, y).size:
        raise InvalidArgumentError(None, ctx.op, "Integer division by zero")


def check_allowed_types(op, allowed, names=("x", "y")):
    """TF's op-def check of a type attr: each input's dtype must be one the op is registered for (listed
    in the registration's order, as TF's TypeError lists them)."""
    for t, arg in zip(op._inputs, names):
        if t._dtype.base_dtype not in allowed:
            raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: %s"
                            % (arg, t._dtype.base_dtype.name, ", ".join(d.name for d in allowed)))


# ============================================================================ elementwise binary arithmetic
# --------------------------------------------------------------------------------------------- AddV2


def _add_grad(op, grad):
    return [grad, grad]   # broadcasting is undone centrally by graphlab.gradients


def _add_kernel(ctx, x, y):
    try:
        out = np.add(x, y)
    except ValueError:
        _incompatible(ctx, x, y)
        raise
    # strings: numpy joins two 0-d object arrays into a bare bytes; keep it a 0-d object array, as a
    # fetched TF string scalar is b'ab'
    return out if type(out) is not bytes else np.array(out, dtype=object)


register_op(
    "AddV2",
    inputs=["x: T", "y: T"],
    outputs=broadcast_outputs(),
    kernel=_add_kernel,
    grad=_add_grad,
    doc="x + y, elementwise with broadcasting.")


def add(x, y, name=None):
    """``tf.add``: an AddV2 op (named "Add" unless given a name)."""
    return build_op("AddV2", [x, y], name=name, default_name="Add")._outputs[0]


# ------------------------------------------------------------------------------------------------ Sub
register_op(
    "Sub",
    inputs=["x: T", "y: T"],
    outputs=broadcast_outputs(),
    kernel=_bcast(np.subtract, ufunc=True),
    grad=lambda op, grad: [grad, negative(grad)],
    doc="x - y, elementwise with broadcasting.")


def subtract(x, y, name=None):
    """``tf.subtract`` (``x - y`` names it "sub")."""
    return build_op("Sub", [x, y], name=name)._outputs[0]


# ------------------------------------------------------------------------------------------------ Mul
def _fully_equal(*tensors):
    """TF's _ShapesFullySpecifiedAndEqual: every static shape fully known and the same."""
    first = tensors[0].shape
    if not first.is_fully_defined():
        return False
    for t in tensors[1:]:
        shape = t.shape
        # equal shapes are mostly one shared object (tensor_shape.TensorShape); else compare the sizes
        if shape is not first and not (shape.is_fully_defined() and shape.as_list() == first.as_list()):
            return False
    return True


def _mul_grad(op, grad):
    """TF's _MulGrad: (grad * y, grad * x) in its same-shape shortcut (float32/int32 only), else
    (grad * y, x * grad); the order of the operands shows in the graph."""
    x, y = op.inputs
    if isinstance(grad, Tensor) and _fully_equal(x, y, grad) and grad.dtype.base_dtype in (dtypes.int32,
                                                                                          dtypes.float32):
        return [multiply(grad, y), multiply(grad, x)]
    return [multiply(grad, conj(y)), multiply(conj(x), grad)]   # conj: a no-op (no op) for real tensors


register_op(
    "Mul",
    inputs=["x: T", "y: T"],
    outputs=broadcast_outputs(),
    kernel=_bcast(np.multiply, ufunc=True),
    grad=_mul_grad,
    doc="x * y, elementwise with broadcasting.")


def multiply(x, y, name=None):
    """``tf.multiply``."""
    return build_op("Mul", [x, y], name=name)._outputs[0]


def scalar_mul(scalar, x, name=None):
    """``tf.scalar_mul``: a scalar (converted first, named "scalar") times x, one Mul op named "Mul"."""
    x = convert_to_tensor(x)
    scalar = convert_to_tensor(scalar, dtype=x.dtype.base_dtype, name="scalar")
    if scalar.shape.ndims != 0:
        raise ValueError("Only scalar multiply works, got shape %s" % scalar.shape)
    return build_op("Mul", [scalar, x], name=name)._outputs[0]


# -------------------------------------------------------------------------------------------- RealDiv
def _realdiv_kernel(ctx, x, y):
    if _is_int(x):  # TF defines RealDiv on integers (XLA only); C division truncates toward zero
        _check_int_divisor(ctx, x, y)
        q = np.abs(x) // np.abs(y)
        return (np.sign(x) * np.sign(y) * q).astype(x.dtype)
    return np.true_divide(x, y)


def _realdiv_grad(op, grad):
    x, y = conj(op.inputs[0]), conj(op.inputs[1])   # no ops for real tensors
    return [realdiv(grad, y), grad * realdiv(realdiv(negative(x), y), y)]   # "mul", as TF writes it


register_op(
    "RealDiv",
    inputs=["x: T", "y: T"],
    outputs=broadcast_outputs(),
    kernel=_bcast(_realdiv_kernel),
    grad=_realdiv_grad,
    doc="x / y for real numbers (what Python's `/` builds), with broadcasting.")


def realdiv(x, y, name=None):
    """``tf.realdiv``: a RealDiv op, no casting."""
    return build_op("RealDiv", [x, y], name=name)._outputs[0]


# ------------------------------------------------------------------------------------------- DivNoNan
def _div_no_nan_kernel(ctx, x, y):
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.true_divide(x, y)
    return np.where(np.equal(y, 0), np.zeros((), out.dtype), out).astype(np.result_type(x, y), copy=False)


def _div_no_nan_grad(op, grad):
    x, y = op.inputs
    return [div_no_nan(grad, y), grad * div_no_nan(div_no_nan(negative(x), y), y)]   # "mul", as TF


_DIV_NO_NAN_TYPES = (dtypes.float16, dtypes.float32, dtypes.bfloat16, dtypes.float64, dtypes.complex64,
                     dtypes.complex128)


def _div_no_nan_outputs(op, _base=broadcast_outputs()):
    check_allowed_types(op, _DIV_NO_NAN_TYPES)
    return _base(op)


register_op(
    "DivNoNan",
    inputs=["x: T", "y: T"],
    outputs=_div_no_nan_outputs,
    kernel=_bcast(_div_no_nan_kernel),
    grad=_div_no_nan_grad,
    doc="x / y, but 0 where y is 0 (how tf.losses and tf.metrics average without dividing by zero).")


def div_no_nan(x, y, name=None):
    """``tf.div_no_nan``: x / y, and 0 where y == 0; integers are first cast to a float type as truediv's."""
    graph, scope = _scope(name, "div_no_nan", [x, y])
    with scope as s:
        if not isinstance(x, Tensor) and isinstance(y, Tensor):
            y = convert_to_tensor(y, name="y")
            x = convert_to_tensor(x, dtype=y.dtype.base_dtype, name="x")
        else:
            x = convert_to_tensor(x, name="x")
            y = convert_to_tensor(y, preferred_dtype=x.dtype.base_dtype, name="y")
        x, y = _true_division_inputs(x, y, "tf.math.divide_no_nan")
        return build_op("DivNoNan", [x, y], name=s)._outputs[0]


# the float type Python 3 division computes each type in (None: as it is); other types cannot be divided
_TRUEDIV_TARGET = {dtypes.uint8: dtypes.float32, dtypes.int8: dtypes.float32, dtypes.uint16: dtypes.float32,
                   dtypes.int16: dtypes.float32, dtypes.uint32: dtypes.float64, dtypes.int32: dtypes.float64,
                   dtypes.uint64: dtypes.float64, dtypes.int64: dtypes.float64, dtypes.bfloat16: None,
                   dtypes.float16: None, dtypes.float32: None, dtypes.float64: None, dtypes.complex64: None,
                   dtypes.complex128: None}


def _true_division_inputs(x, y, what):
    """x and y cast as TF's true division casts them, with TF's TypeErrors for other dtypes."""
    xd, yd = x.dtype.base_dtype, y.dtype.base_dtype
    if xd != yd:
        raise TypeError("`x` and `y` must have the same dtype, got %r != %r." % (xd, yd))
    if xd not in _TRUEDIV_TARGET:
        raise TypeError("Invalid dtype %r in %s. Expected one of {%s}." % (
            xd, what, ", ".join(repr(d) for d in _TRUEDIV_TARGET)))
    target = _TRUEDIV_TARGET[xd]
    if target is not None:
        x, y = cast(x, target), cast(y, target)
    return x, y


def truediv(x, y, name=None):
    """``tf.truediv`` / ``tf.divide`` / ``x / y``: integers are first cast to a float type (32-bit and
    64-bit ones to float64, smaller ones to float32), as Python 3 division does; the op is named "truediv"."""
    graph, scope = _scope(name, "truediv", [x, y])
    with scope as s:
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, preferred_dtype=x.dtype.base_dtype, name="y")
        x, y = _true_division_inputs(x, y, "__truediv__")
        return build_op("RealDiv", [x, y], name=s)._outputs[0]


def divide(x, y, name=None):
    """``tf.divide``: Python 3 division (see truediv); a resource variable divided without a name goes
    through its ``/`` (read outside the op's scope), as in TF."""
    if name is None and getattr(x, "_is_resource_variable", False):
        return x / y
    return truediv(x, y, name=name)


def div(x, y, name=None):
    """``tf.div`` (TF1): Python 2 division, named "div": RealDiv for floats, FloorDiv for integers."""
    graph, scope = _scope(name, "div", [x, y])
    with scope as s:
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, preferred_dtype=x.dtype.base_dtype, name="y")
        op_type = "RealDiv" if x.dtype.base_dtype in _FLOATS else "FloorDiv"
        return build_op(op_type, [x, y], name=s)._outputs[0]


# ------------------------------------------------------------------------------------------- FloorDiv
def _floordiv_kernel(ctx, x, y):
    _check_int_divisor(ctx, x, y)
    return np.floor_divide(x, y)


register_op(
    "FloorDiv",
    inputs=["x: T", "y: T"],
    outputs=broadcast_outputs(),
    kernel=_bcast(_floordiv_kernel),
    grad=lambda op, grad: [None, None],  # piecewise constant: TF gives no gradient
    doc="x // y, rounding toward minus infinity (Python's `//`).")


def floordiv(x, y, name=None):
    """``tf.floordiv`` (named "floordiv", as the operator)."""
    return build_op("FloorDiv", [x, y], name=name, default_name="floordiv")._outputs[0]


floor_div = floordiv


# ------------------------------------------------------------------------------------------- FloorMod
def _floormod_kernel(ctx, x, y):
    _check_int_divisor(ctx, x, y)
    return np.mod(x, y)


def _floormod_grad(op, grad):
    x, y = op.inputs
    return [grad, multiply(grad, negative(floordiv(x, y)))]


_FLOOR_MOD_TYPES = (dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.uint16,
                    dtypes.uint32, dtypes.uint64, dtypes.bfloat16, dtypes.float16, dtypes.float32, dtypes.float64)


def _floormod_outputs(op, _base=broadcast_outputs()):
    check_allowed_types(op, _FLOOR_MOD_TYPES)      # no complex numbers, unlike FloorDiv
    return _base(op)


register_op(
    "FloorMod",
    inputs=["x: T", "y: T"],
    outputs=_floormod_outputs,
    kernel=_bcast(_floormod_kernel),
    grad=_floormod_grad,
    doc="x % y with the sign of y (Python's `%`).")


def floormod(x, y, name=None):
    """``tf.floormod`` / ``tf.mod`` (``x % y`` names it "mod")."""
    return build_op("FloorMod", [x, y], name=name)._outputs[0]


mod = floormod


# ------------------------------------------------------------------------------------------------ Pow
def _pow_kernel(ctx, x, y):
    if _is_int(x) and np.any(y < 0):
        raise InvalidArgumentError(None, ctx.op, "Integers to negative integer powers are not allowed")
    return np.power(x, y)


def _pow_grad(op, grad):
    """d/dx = y x^(y-1); d/dy = x^y log x, taken as 0 where x <= 0. Written with Python's operators and
    tf.where as TF writes it, so the ops get TF's names (mul, sub, Greater, Select ...)."""
    from graphlab.ops import array_ops
    x, y = op.inputs
    gx = grad * y * pow(x, y - 1)
    mask = x > 0
    safe_x = array_ops.where(mask, x, array_ops.ones_like(x))
    log_x = array_ops.where(mask, log(safe_x), array_ops.zeros_like(x))
    gy = grad * op.outputs[0] * log_x
    return [gx, gy]


register_op(
    "Pow",
    inputs=["x: T", "y: T"],
    outputs=broadcast_outputs(),
    kernel=_bcast(_pow_kernel),
    grad=_pow_grad,
    doc="x ** y, elementwise with broadcasting.")


def pow(x, y, name=None):  # noqa: A001  (TF's public name)
    """``tf.pow`` (``x ** y`` names it "pow")."""
    return build_op("Pow", [x, y], name=name)._outputs[0]


# ------------------------------------------------------------------------------------ Maximum, Minimum
def _select_grad(compare):
    """Gradient of max/min: it flows to x where ``compare(x, y)`` holds, to y elsewhere (as TF builds it:
    zeros_like(grad) and two SelectV2; summed back to each input's shape centrally)."""
    def grad_fn(op, grad):
        from graphlab.ops import array_ops
        x, y = op.inputs
        zeros = array_ops.zeros_like(grad)
        to_x = compare(x, y)
        return [array_ops.where_v2(to_x, grad, zeros), array_ops.where_v2(to_x, zeros, grad)]
    return grad_fn


register_op(
    "Maximum",
    inputs=["x: T", "y: T"],
    outputs=broadcast_outputs(),
    kernel=_bcast(np.maximum, ufunc=True),
    grad=_select_grad(lambda x, y: greater_equal(x, y)),
    doc="The larger of x and y, elementwise with broadcasting.")


def maximum(x, y, name=None):
    """``tf.maximum``."""
    return build_op("Maximum", [x, y], name=name)._outputs[0]


register_op(
    "Minimum",
    inputs=["x: T", "y: T"],
    outputs=broadcast_outputs(),
    kernel=_bcast(np.minimum, ufunc=True),
    grad=_select_grad(lambda x, y: less_equal(x, y)),
    doc="The smaller of x and y, elementwise with broadcasting.")


def minimum(x, y, name=None):
    """``tf.minimum``."""
    return build_op("Minimum", [x, y], name=name)._outputs[0]


# ---------------------------------------------------------------------------------- SquaredDifference
def _squared_difference_grad(op, grad):
    """TF's rule: scalar_mul(2.0, grad) * (x - y) after the incoming gradient; -that for y."""
    x, y = op.inputs
    with op.graph.control_dependencies([grad]):
        x_grad = scalar_mul(2.0, grad) * (x - y)
    return [x_grad, -x_grad]


register_op(
    "SquaredDifference",
    inputs=["x: T", "y: T"],
    outputs=broadcast_outputs(),
    kernel=_bcast(lambda ctx, x, y: np.square(np.subtract(x, y))),
    grad=_squared_difference_grad,
    doc="(x - y)^2, elementwise with broadcasting.")


def squared_difference(x, y, name=None):
    """``tf.squared_difference``."""
    return build_op("SquaredDifference", [x, y], name=name)._outputs[0]


# ------------------------------------------------------------------------------------------------ AddN
def _add_n_outputs(op):
    shape = op._inputs[0]._shape
    for t in op._inputs[1:]:
        if not shape.is_compatible_with(t._shape):
            raise ValueError("Shapes must be equal rank, but are %s and %s" % (shape.ndims, t._shape.ndims)
                             if shape.ndims != t._shape.ndims else
                             "Dimension mismatch: shapes %s and %s" % (shape, t._shape))
        shape = shape.merge_with(t._shape)
    return [(op._inputs[0]._dtype.base_dtype, shape)]


def _add_n_kernel(ctx, *values):
    first = values[0]
    if len(values) > 1 and type(first) is np.ndarray and type(values[1]) is np.ndarray and first.ndim and \
            first.shape == values[1].shape and first.dtype == values[1].dtype:
        total = np.add(first, values[1])    # the same sum as a copy of the first plus the second, one pass less
        rest = values[2:]
    else:
        total = np.array(first, copy=True)
        rest = values[1:]
    for v in rest:
        total += v
    return total


register_op(
    "AddN",
    inputs=["inputs: N*T"],
    outputs=_add_n_outputs,
    kernel=_add_n_kernel,
    grad=lambda op, grad: [grad] * op._attrs["N"],
    doc="The sum of N tensors of one shape (no broadcasting); how gradients of several paths are summed.")


def add_n(inputs, name=None):
    """``tf.add_n``: one input is returned as is (or through an Identity when named), as TF does."""
    inputs = [_read_resource(x) for x in inputs]   # TF converts them before its scope
    if not inputs:
        raise ValueError("inputs must be a list of at least one Tensor with the same dtype and shape")
    if len(inputs) == 1:
        from graphlab.ops import array_ops
        value = convert_to_tensor(inputs[0])
        return array_ops.identity(value, name=name) if name else value
    return build_op("AddN", [inputs], name=name)._outputs[0]


# ================================================================================== comparisons, logic
def _comparison(op_type, ufunc, doc):
    """Register one comparison op (bool output, no gradient) and return its public function."""
    register_op(
        op_type,
        inputs=["x: T", "y: T"],
        outputs=broadcast_outputs(dtypes.bool),
        kernel=_bcast(lambda ctx, x, y: np.asarray(ufunc(x, y))),
        grad=NOT_DIFFERENTIABLE,
        doc=doc)

    def compare(x, y, name=None):
        return build_op(op_type, [x, y], name=name)._outputs[0]
    compare.__doc__ = "``tf.%s``: %s" % (doc.split(":")[0], doc)
    return compare


equal = _comparison("Equal", np.equal, "equal: x == y elementwise, as bools.")
not_equal = _comparison("NotEqual", np.not_equal, "not_equal: x != y elementwise, as bools.")
less = _comparison("Less", np.less, "less: x < y elementwise, as bools.")
less_equal = _comparison("LessEqual", np.less_equal, "less_equal: x <= y elementwise, as bools.")
greater = _comparison("Greater", np.greater, "greater: x > y elementwise, as bools.")
greater_equal = _comparison("GreaterEqual", np.greater_equal, "greater_equal: x >= y elementwise, as bools.")

# ------------------------------------------------------------------------------ LogicalAnd, Or, Not
register_op(
    "LogicalAnd",
    inputs=["x: bool", "y: bool"],
    outputs=broadcast_outputs(dtypes.bool),
    kernel=_bcast(lambda ctx, x, y: np.asarray(np.logical_and(x, y))),
    grad=NOT_DIFFERENTIABLE,
    doc="x AND y on bools, with broadcasting (Python's `&` on bool tensors).")


def logical_and(x, y, name=None):
    """``tf.logical_and``."""
    return build_op("LogicalAnd", [x, y], name=name)._outputs[0]


register_op(
    "LogicalOr",
    inputs=["x: bool", "y: bool"],
    outputs=broadcast_outputs(dtypes.bool),
    kernel=_bcast(lambda ctx, x, y: np.asarray(np.logical_or(x, y))),
    grad=NOT_DIFFERENTIABLE,
    doc="x OR y on bools, with broadcasting (Python's `|` on bool tensors).")


def logical_or(x, y, name=None):
    """``tf.logical_or``."""
    return build_op("LogicalOr", [x, y], name=name)._outputs[0]


register_op(
    "LogicalNot",
    inputs=["x: bool"],
    outputs=same_as_input(0),
    kernel=lambda ctx, x: np.asarray(np.logical_not(x)),
    grad=NOT_DIFFERENTIABLE,
    doc="NOT x on bools (Python's `~` on a bool tensor).")


def logical_not(x, name=None):
    """``tf.logical_not``."""
    return build_op("LogicalNot", [x], name=name)._outputs[0]


def logical_xor(x, y, name="LogicalXor"):
    """``tf.logical_xor``: TF has no XOR op; it builds (x OR y) AND NOT (x AND y), the last op named
    ``name``."""
    if not name.endswith("/"):
        return logical_and(logical_or(x, y), logical_not(logical_and(x, y)), name=name)
    graph = graph_mod.graph_of([x, y])
    with graph.name_scope(name):  # the ^ operator's scope ("xor/"): the helper ops go inside it
        return logical_and(logical_or(x, y), logical_not(logical_and(x, y)), name=name)


# ===================================================================================== elementwise unary
def _unary(op_type, kernel, grad, doc, floats_only=False, default_name=None):
    """Register one elementwise unary op and return its public function (named ``default_name`` or the
    op type by default). ``floats_only``: True for TF's float and complex types, or a tuple of dtypes."""
    register_op(
        op_type,
        inputs=["x: T"],
        outputs=(_float_only(op_type, *([floats_only] if isinstance(floats_only, tuple) else []))
                 if floats_only else same_as_input(0)),
        kernel=_typed(kernel),
        grad=grad,
        doc=doc)

    def fn(x, name=None):
        return build_op(op_type, [x], name=name, default_name=default_name)._outputs[0]
    fn.__doc__ = "``tf.%s``" % doc
    return fn


def _y(op):
    return op.outputs[0]


def _scalar(value, like):
    """A scalar constant of ``like``'s dtype, for gradient rules whose first operand is a number."""
    return constant(value, dtype=like.dtype.base_dtype)


negative = _unary("Neg", np.negative, lambda op, g: [-g], "negative: -x (Python's unary minus).")
neg = negative


def _conj_scope(op, g):
    """``with ops.control_dependencies([grad])``: TF's unary rules build their helper ops after the incoming
    gradient (an op that takes the gradient as an input gets no extra control input)."""
    return op.graph.control_dependencies([g])


_abs = _unary("Abs", np.abs, lambda op, g: [g * sign(op.inputs[0])],
              "abs: |x| (Python's abs()).")


def abs(x, name=None):  # noqa: A001
    """``tf.abs``: |x|; for complex x a ComplexAbs op giving a real tensor (as TF)."""
    if getattr(x, "_is_resource_variable", False):      # read inside the scope, as TF: Abs/ReadVariableOp
        graph, scope = _scope(name, "Abs", [x])
        with scope as s:
            return abs(convert_to_tensor(x, name="x"), name=s)
    x = convert_to_tensor(x, name="x") if not isinstance(x, Tensor) else x
    if x.dtype.is_complex:
        from graphlab.ops.complex_ops import complex_abs
        return complex_abs(x, name=name)
    return _abs(x, name=name)


def _square_grad(op, g):
    # as TF builds it: the 2 is a Const made after the incoming gradient (so "Square_grad/Const")
    with _conj_scope(op, g):
        two = constant(2, dtype=op.inputs[0].dtype.base_dtype)
        return [multiply(g, multiply(op.inputs[0], two))]


def _with_grad(op_type):
    """Gradient rule of a unary op whose derivative TF computes with a dedicated op ``<Op>Grad(y, dy)``."""
    def rule(op, g):
        return [build_op(op_type, [op.outputs[0], g])._outputs[0]]
    return rule


def _with_grad_after(op_type):
    """As _with_grad, inside ``control_dependencies([grad])`` (TF's Sigmoid and Tanh rules)."""
    def rule(op, g):
        with _conj_scope(op, g):
            return [build_op(op_type, [op.outputs[0], g])._outputs[0]]
    return rule


def _after(fn):
    """A rule ``grad * fn(x)`` (or whatever ``fn(op, g, x)`` returns) built inside
    ``control_dependencies([grad])``, with Python's operators, so the ops get TF's names (mul, Neg ...)."""
    def rule(op, g):
        with _conj_scope(op, g):
            return [fn(op, g, op.inputs[0])]
    return rule


square = _unary("Square", np.square, _square_grad, "square: x * x.")
sqrt = _unary("Sqrt", np.sqrt, _with_grad("SqrtGrad"), "sqrt: the square root of x.", floats_only=True)
rsqrt = _unary("Rsqrt", lambda x: np.reciprocal(np.sqrt(x)), _with_grad("RsqrtGrad"),
               "rsqrt: 1 / sqrt(x).", floats_only=True)
exp = _unary("Exp", np.exp, _after(lambda op, g, x: g * op.outputs[0]), "exp: e ** x.", floats_only=True)
expm1 = _unary("Expm1", np.expm1, _after(lambda op, g, x: g * exp(x)), "expm1: exp(x) - 1, accurate for small x.",
               floats_only=True)
log = _unary("Log", np.log, _after(lambda op, g, x: g * reciprocal(x)),
             "log: the natural logarithm of x.", floats_only=True)
log1p = _unary("Log1p", np.log1p, _after(lambda op, g, x: g * reciprocal(1 + x)),
               "log1p: log(1 + x), accurate for small x.", floats_only=True)
sin = _unary("Sin", np.sin, _after(lambda op, g, x: g * cos(x)), "sin: the sine of x.", floats_only=True)
cos = _unary("Cos", np.cos, _after(lambda op, g, x: -g * sin(x)), "cos: the cosine of x.", floats_only=True)


def _tan_grad(op, g, x):
    secx = reciprocal(cos(x))
    return square(secx) * g


tan = _unary("Tan", np.tan, _after(_tan_grad), "tan: the tangent of x.", floats_only=True)


def _atan_grad(op, g, x):
    x2 = square(x)
    one = constant(1, dtype=g.dtype.base_dtype)
    return g * reciprocal(add(one, x2))


def _asin_acos_grad(sign_):
    def grad(op, g, x):
        x2 = square(x)
        one = constant(1, dtype=g.dtype.base_dtype)
        inv = reciprocal(sqrt(subtract(one, x2)))
        return (g if sign_ > 0 else -g) * inv
    return grad


atan = _unary("Atan", np.arctan, _after(_atan_grad), "atan: the arctangent of x.", floats_only=True)
asin = _unary("Asin", np.arcsin, _after(_asin_acos_grad(1)), "asin: the arcsine of x (nan outside [-1, 1]).",
              floats_only=True)
acos = _unary("Acos", np.arccos, _after(_asin_acos_grad(-1)), "acos: the arccosine of x (nan outside [-1, 1]).",
              floats_only=True)
sinh = _unary("Sinh", np.sinh, _after(lambda op, g, x: g * cosh(x)), "sinh: the hyperbolic sine of x.",
              floats_only=True)
cosh = _unary("Cosh", np.cosh, _after(lambda op, g, x: g * sinh(x)), "cosh: the hyperbolic cosine of x.",
              floats_only=True)
tanh = _unary("Tanh", np.tanh, _with_grad_after("TanhGrad"), "tanh: the hyperbolic tangent of x.", floats_only=True)


def _sigmoid(x):
    """1 / (1 + e^-x), computed in place in one buffer: the fastest exact form in numpy (an LSTM step calls it
    three times per cell). For x below about -88 (float32) e^-x overflows to inf and the result is 0, as TF
    gives there (TF flushes those tiny values to zero), so the overflow is expected and silenced."""
    x = np.asarray(x)
    quiet = numpy_errors.silence()      # a context variable's set and reset: cheaper than np.errstate
    try:
        out = np.negative(x)
        np.exp(out, out=out)
        out += out.dtype.type(1)
        np.reciprocal(out, out=out)
    finally:
        numpy_errors.restore(quiet)
    return out


sigmoid = _unary("Sigmoid", _sigmoid, _with_grad_after("SigmoidGrad"),
                 "sigmoid: 1 / (1 + exp(-x)) (also tf.nn.sigmoid).", floats_only=True)


def _sign_grad(op, g):
    from graphlab.ops import array_ops
    return [array_ops.zeros_like(op.inputs[0])]


def _read_resource(x):
    """A resource variable read where TF's function converts its argument, before the op's name scope."""
    return convert_to_tensor(x) if getattr(x, "_is_resource_variable", False) else x


def _reading_first(fn):
    def read_first(x, name=None):
        return fn(_read_resource(x), name=name)
    read_first.__name__, read_first.__doc__ = fn.__name__, fn.__doc__
    return read_first


sign = _reading_first(_unary("Sign", np.sign, _sign_grad,
                             "sign: -1, 0 or 1 by the sign of x (its gradient is zero)."))
reciprocal = _unary("Reciprocal", np.reciprocal, _with_grad("ReciprocalGrad"), "reciprocal: 1 / x.")
inv = reciprocal
floor = _unary("Floor", np.floor, lambda op, g: [None], "floor: x rounded down (no gradient, as TF).",
               floats_only=True)
ceil = _unary("Ceil", np.ceil, lambda op, g: [None], "ceil: x rounded up (no gradient, as TF).",
              floats_only=True)
round = _reading_first(_unary("Round", np.round, lambda op, g: [None],  # noqa: A001
                              "round: x rounded half to even, as numpy and TF do (no gradient)."))


# ------------------------------------------------------------- *Grad ops of the unary functions
# TF's rules for Sigmoid, Tanh, Sqrt, Rsqrt and Reciprocal use one op each, taking (y, dy) with y the
# forward op's output; their own gradients (for second derivatives) are TF's _<Op>GradGrad rules.
def _sigmoid_grad_grad(op, grad):
    with op.graph.control_dependencies([grad]):
        a, b = op.inputs
        gb = grad * b
        return [gb - 2.0 * gb * a, build_op("SigmoidGrad", [a, grad])._outputs[0]]


def _tanh_grad_grad(op, grad):
    with op.graph.control_dependencies([grad]):
        a, b = op.inputs
        return [grad * -2.0 * b * a, build_op("TanhGrad", [a, grad])._outputs[0]]


def _sqrt_grad_grad(op, grad):
    a, y = op.inputs[0], op.outputs[0]
    with op.graph.control_dependencies([grad]):
        ga = grad / a
        return [-ga * y, 0.5 * ga]


def _rsqrt_grad_grad(op, grad):
    a, b = op.inputs
    with op.graph.control_dependencies([grad]):
        return [-1.5 * grad * b * square(a), build_op("RsqrtGrad", [a, grad])._outputs[0]]


def _reciprocal_grad_grad(op, grad):
    a, b = op.inputs
    with op.graph.control_dependencies([grad]):
        return [grad * -2.0 * b * a, build_op("ReciprocalGrad", [a, grad])._outputs[0]]


_UNARY_GRADS = {
    "SigmoidGrad": (lambda y, dy: dy * (y * (1 - y)), _sigmoid_grad_grad, "dy * y * (1 - y)"),
    "TanhGrad": (lambda y, dy: dy * (1 - y * y), _tanh_grad_grad, "dy * (1 - y * y)"),
    "SqrtGrad": (lambda y, dy: dy * 0.5 / y, _sqrt_grad_grad, "dy * 0.5 / y"),
    "RsqrtGrad": (lambda y, dy: dy * (-0.5 * y * y * y), _rsqrt_grad_grad, "dy * -0.5 * y ** 3"),
    "ReciprocalGrad": (lambda y, dy: -dy * (y * y), _reciprocal_grad_grad, "-dy * y * y"),
}
for _type, (_fn, _rule, _formula) in _UNARY_GRADS.items():
    register_op(
        _type,
        inputs=["y: T", "dy: T"],
        outputs=same_as_input(0),
        kernel=_typed(_fn),
        grad=_rule,
        doc="%s (the gradient of %s given its output y)." % (_formula, _type[:-4]))


# ------------------------------------------------------------------------------------------------ Cast
def _cast_grad(op, grad):
    """Gradients flow back through casts between float (or complex) types only, cast to the source type."""
    src, dst = op._attrs["SrcT"], op._attrs["DstT"]
    if src in _FLOATS and dst in _FLOATS:
        return [cast(grad, src)]
    return [None]


def _cast_kernel(ctx, x):
    dst = ctx.attrs["DstT"]
    if dst == dtypes.string or ctx.attrs["SrcT"] == dtypes.string:
        raise ctx.error(InvalidArgumentError, "Cast string to %s is not supported" % dst.name)
    return np.asarray(x).astype(dst.as_numpy_dtype)


register_op(
    "Cast",
    inputs=["x: SrcT"],
    outputs=lambda op: [(op._attrs["DstT"], op._inputs[0]._shape)],
    kernel=_cast_kernel,
    grad=_cast_grad,
    doc="x converted to DstT (floats to ints truncate toward zero).")


def cast(x, dtype, name=None):
    """``tf.cast``: a Cast op named "Cast"; when x already has ``dtype`` it is returned unchanged."""
    dtype = dtypes.as_dtype(dtype).base_dtype
    if (isinstance(x, Tensor) or getattr(x, "_is_resource_variable", False)) and x.dtype.base_dtype == dtype:
        return x              # as TF, a resource variable too (its consumers read it)
    graph, scope = _scope(name, "Cast", [x])
    with scope as s:
        if isinstance(x, IndexedSlices):     # as TF: only the values change type, the slices stay sparse
            return IndexedSlices(cast(x.values, dtype, name=s), x.indices, x.dense_shape)
        x = convert_to_tensor(x, name="x")
        if x.dtype.base_dtype == dtype:
            return x
        return build_op("Cast", [x], attrs={"DstT": dtype, "Truncate": False}, name=s)._outputs[0]


def to_float(x, name="ToFloat"):
    return cast(x, dtypes.float32, name=name)


def to_double(x, name="ToDouble"):
    return cast(x, dtypes.float64, name=name)


def to_int32(x, name="ToInt32"):
    return cast(x, dtypes.int32, name=name)


def to_int64(x, name="ToInt64"):
    return cast(x, dtypes.int64, name=name)


# ============================================================================================== matmul
def _matmul_outputs(op):
    a, b = op._inputs
    ta, tb = op._attrs["transpose_a"], op._attrs["transpose_b"]
    for t in (a, b):
        if t._shape.ndims is not None and t._shape.ndims != 2:
            raise ValueError("Shape must be rank 2 but is rank %d" % t._shape.ndims)
    da = a._shape.as_list() if a._shape.ndims is not None else [None, None]
    db = b._shape.as_list() if b._shape.ndims is not None else [None, None]
    if ta:
        da = da[::-1]
    if tb:
        db = db[::-1]
    if da[1] is not None and db[0] is not None and da[1] != db[0]:
        raise ValueError("Dimensions must be equal, but are %d and %d" % (da[1], db[0]))
    return [(a._dtype.base_dtype, tensor_shape.TensorShape([da[0], db[1]]))]


def _matmul_kernel(ctx, a, b):
    ta, tb = a, b
    if ctx.attrs["transpose_a"]:
        ta = a.T
    if ctx.attrs["transpose_b"]:
        tb = b.T
    try:
        return np.matmul(ta, tb)
    except ValueError:   # only on failure; TF shows the inputs as given (before transposing)
        raise InvalidArgumentError(None, ctx.op, "Matrix size-incompatible: In[0]: [%s], In[1]: [%s]" % (
            ",".join(map(str, np.shape(a))), ",".join(map(str, np.shape(b))))) from None


def _matmul_grad(op, grad):
    """TF's rule: each input's gradient is grad times the other input, transposed to match (the MatMuls
    marked grad_a / grad_b, as TF 2.21 marks them)."""
    a, b = op.inputs
    ta, tb = op._attrs["transpose_a"], op._attrs["transpose_b"]
    if not ta and not tb:
        return [matmul(grad, b, transpose_b=True, grad_a=True), matmul(a, grad, transpose_a=True, grad_b=True)]
    if not ta and tb:
        return [matmul(grad, b, grad_a=True), matmul(grad, a, transpose_a=True, grad_b=True)]
    if ta and not tb:
        return [matmul(b, grad, transpose_b=True, grad_a=True), matmul(a, grad, grad_b=True)]
    return [matmul(b, grad, transpose_a=True, transpose_b=True, grad_a=True),
            matmul(grad, a, transpose_a=True, transpose_b=True, grad_b=True)]


register_op(
    "MatMul",
    inputs=["a: T", "b: T"],
    outputs=_matmul_outputs,
    kernel=_matmul_kernel,
    grad=_matmul_grad,
    doc="The matrix product of two rank-2 tensors (optionally transposed first).")


# --------------------------------------------------------------------------------------- BatchMatMulV2
def _batch_matmul_outputs(op):
    a, b = op._inputs
    if a._shape.ndims is None or b._shape.ndims is None:
        return [(a._dtype.base_dtype, tensor_shape.UNKNOWN)]
    da, db = a._shape.as_list(), b._shape.as_list()
    for d in (da, db):
        if len(d) < 2:
            raise ValueError("Shape must be at least rank 2 but is rank %d" % len(d))
    if op._attrs["adj_x"]:
        da[-2:] = da[-1:-3:-1]
    if op._attrs["adj_y"]:
        db[-2:] = db[-1:-3:-1]
    if da[-1] is not None and db[-2] is not None and da[-1] != db[-2]:
        raise ValueError("Dimensions must be equal, but are %d and %d" % (da[-1], db[-2]))
    from graphlab.framework.registry import broadcast_shape
    batch = broadcast_shape(tensor_shape.TensorShape(da[:-2]), tensor_shape.TensorShape(db[:-2]))
    return [(a._dtype.base_dtype, tensor_shape.TensorShape(batch.as_list() + [da[-2], db[-1]]))]


def _batch_matmul_kernel(ctx, a, b):
    _check_batch_matmul(ctx, np.shape(a), np.shape(b))
    if ctx.attrs["adj_x"]:
        a = np.conj(np.swapaxes(a, -1, -2))
    if ctx.attrs["adj_y"]:
        b = np.conj(np.swapaxes(b, -1, -2))
    return np.matmul(a, b)


def _check_batch_matmul(ctx, sa, sb):
    """TF's BatchMatMulV2 checks, in its order: ranks, broadcastable batch axes, the inner sizes."""
    for i, shape in enumerate((sa, sb)):
        if len(shape) < 2:
            raise InvalidArgumentError(None, ctx.op, "In[%d] ndims must be >= 2: %d" % (i, len(shape)))
    dims = "[%s] vs. [%s]" % (",".join(map(str, sa)), ",".join(map(str, sb)))
    try:
        np.broadcast_shapes(sa[:-2], sb[:-2])
    except ValueError:
        raise InvalidArgumentError(None, ctx.op, "In[0] and In[1] must have compatible batch dimensions: "
                                   + dims) from None
    inner_a = sa[-2] if ctx.attrs["adj_x"] else sa[-1]
    inner_b = sb[-1] if ctx.attrs["adj_y"] else sb[-2]
    if inner_a != inner_b:
        raise InvalidArgumentError(None, ctx.op, "Matrix size-incompatible: In[0]: [%s], In[1]: [%s]" % (
            ",".join(map(str, sa)), ",".join(map(str, sb))))


def _batch_matmul_grad(op, grad):
    """TF's rule: as MatMul's (marked grad_a / grad_b), then, when the batch axes may have been broadcast,
    each gradient summed over the axes its input was broadcast along (BroadcastGradientArgs of the batch
    parts of the two shapes) and reshaped to the input's shape, with the ops TF builds for it."""
    a, b = op.inputs
    ax, ay = op._attrs["adj_x"], op._attrs["adj_y"]
    if not ax and not ay:
        ga, gb = matmul(grad, b, adjoint_b=True, grad_a=True), matmul(a, grad, adjoint_a=True, grad_b=True)
    elif not ax and ay:
        ga, gb = matmul(grad, b, grad_a=True), matmul(grad, a, adjoint_a=True, grad_b=True)
    elif ax and not ay:
        ga, gb = matmul(b, grad, adjoint_b=True, grad_a=True), matmul(a, grad, grad_b=True)
    else:
        ga = matmul(b, grad, adjoint_a=True, adjoint_b=True, grad_a=True)
        gb = matmul(grad, a, adjoint_a=True, adjoint_b=True, grad_b=True)
    sa, sb = a.shape, b.shape
    may_have_batch = sa.ndims is None or sa.ndims > 2 or sb.ndims is None or sb.ndims > 2
    same_batch = (sa.ndims is not None and sb.ndims is not None and sa[:-2].is_fully_defined()
                  and sb[:-2].is_fully_defined() and sa[:-2] == sb[:-2])
    if not may_have_batch or same_batch:
        return [ga, gb]
    from graphlab.ops import array_ops
    shape_a, shape_b = array_ops.shape(a), array_ops.shape(b)
    axes_a, axes_b = build_op("BroadcastGradientArgs", [shape_a[:-2], shape_b[:-2]]).outputs
    return [array_ops.reshape(reduce_sum(ga, axes_a), shape_a), array_ops.reshape(reduce_sum(gb, axes_b), shape_b)]


register_op(
    "BatchMatMulV2",
    inputs=["x: T", "y: T"],
    outputs=_batch_matmul_outputs,
    kernel=_batch_matmul_kernel,
    grad=_batch_matmul_grad,
    doc="Matrix products over the last two axes, with broadcasting over the leading (batch) axes.")


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, grad_a=False, grad_b=False, name=None):
    """``tf.matmul``: MatMul for rank-2 inputs, BatchMatMulV2 above that; both named "MatMul"."""
    if (transpose_a and adjoint_a) or (transpose_b and adjoint_b):
        raise ValueError("Only one of transpose_a and adjoint_a can be True." if transpose_a and adjoint_a
                         else "Only one of transpose_b and adjoint_b can be True.")
    graph, scope = _scope(name, "MatMul", [a, b])
    with scope as s:
        a = convert_to_tensor(a, name="a")
        b = convert_to_tensor(b, preferred_dtype=a.dtype.base_dtype, name="b")
        ra, rb = a.shape.ndims, b.shape.ndims
        if (ra is None or ra > 2) or (rb is None or rb > 2):
            return build_op("BatchMatMulV2", [a, b], attrs={"adj_x": bool(adjoint_a or transpose_a),
                                                            "adj_y": bool(adjoint_b or transpose_b),
                                                            "grad_x": bool(grad_a), "grad_y": bool(grad_b)},
                            name=s).outputs[0]
        if a.dtype.is_complex:
            if adjoint_a:
                a = conj(a)
            if adjoint_b:
                b = conj(b)
        # grad_a/grad_b: TF 2.21's attrs marking the MatMuls of a gradient (which input's gradient it is)
        return build_op("MatMul", [a, b], attrs={"transpose_a": bool(transpose_a or adjoint_a),
                                                 "transpose_b": bool(transpose_b or adjoint_b),
                                                 "grad_a": bool(grad_a), "grad_b": bool(grad_b)},
                        name=s).outputs[0]


def conj(x, name=None):
    """``tf.conj``: the complex conjugate (graphlab/ops/complex_ops.py); real tensors are returned unchanged."""
    from graphlab.ops.complex_ops import conj as complex_conj
    return complex_conj(x, name=name)


# ========================================================================================== reductions
def _reduced_axes(op):
    """The reduction axes as a sorted list of non-negative ints, or None when unknown at build time."""
    value = const_value(op._inputs[1])
    rank = op._inputs[0]._shape.ndims
    if value is None or rank is None:
        return None
    axes = []
    for a in np.asarray(value).reshape(-1).tolist():
        if not -rank <= a < max(rank, 1) or (rank == 0 and a not in (0, -1)):
            raise ShapeError("Invalid reduction dimension %d for input with %d dimensions." % (a, rank),
                             read_inputs=(1,))
        axes.append(a % rank if rank else 0)
    return sorted(set(axes))


def _reduction_outputs(dtype=None):
    def outputs(op):
        x = op._inputs[0]
        out_dtype = dtype or x._dtype.base_dtype
        keep = op._attrs["keep_dims"]
        axes = _reduced_axes(op)
        if axes is None:
            if keep and x._shape.ndims is not None:
                return [(out_dtype, tensor_shape.TensorShape([None] * x._shape.ndims))]
            return [(out_dtype, tensor_shape.UNKNOWN)]
        dims = x._shape.as_list()
        if keep:
            dims = [1 if i in axes else d for i, d in enumerate(dims)]
        else:
            dims = [d for i, d in enumerate(dims) if i not in axes]
        return [(out_dtype, tensor_shape.TensorShape(dims))]
    return outputs


def _np_axes(axis):
    return tuple(np.asarray(axis).reshape(-1).tolist())


# --------------------------------------------------------------- reduction gradients, built as TF builds them
# TF's _SumGrad/_MeanGrad/_MinOrMaxGrad/_ProdGrad: a Reshape + Tile fast path when shapes are static, and
# reduced_shape (Size, add, mod, range, ones, DynamicStitch) + BroadcastTo when the rank or axes are only
# known at run time. The op names match TF's, including the constant-folded helpers TF leaves behind.


def _array_ops():
    from graphlab.ops import array_ops      # array_ops builds on this module (lazy, as elsewhere in this file)
    return array_ops


def _size(t):
    """``tf.size`` (a Const named Size when the element count is known statically, as TF builds it)."""
    return _array_ops().size(t)


def _shape(x, out_type=dtypes.int32):
    """``tf.shape`` (a Const named Shape when the static shape is fully known, as TF builds it)."""
    return _array_ops().shape(x, out_type=out_type)


def reduced_shape(input_shape, axes):
    """TF's ``reduced_shape``: the reduction's output shape with reduced axes kept as 1 (numpy
    when both are known at build time, else a DynamicStitch of the input's shape and ones)."""
    known_shape, known_axes = const_value(input_shape), const_value(axes)
    if known_shape is not None and known_axes is not None:
        out = np.array(known_shape, dtype=np.int32)
        out[np.asarray(known_axes, dtype=np.int32)] = 1
        return out
    axes = convert_to_tensor(axes)
    rank = _size(input_shape)
    axes = (axes + rank) % rank
    axes_shape = _shape(axes)
    from graphlab.ops.segment_ops import dynamic_stitch
    array_ops = _array_ops()
    return dynamic_stitch([array_ops.range(rank), axes],
                          [input_shape, array_ops.ones(axes_shape, dtype=dtypes.int32)])


def _static_reduced(graph, in_shape, axes):
    """TF's fully-static branch of _SumGrad: kept-dims shape and tile multiples, cached per graph. On a
    cache miss TF builds (and constant-folds) Maximum and floordiv ops that stay in the graph unused; the
    same ops are built here so the names that follow agree."""
    cache = getattr(graph, "_reduced_shape_cache", None)
    if cache is None:
        cache = {}
        graph._reduced_shape_cache = cache
    key = (tuple(in_shape), tuple(int(a) for a in np.asarray(axes).reshape(-1)))
    if key not in cache:
        kept = np.array(in_shape, dtype=np.int32)
        kept[np.asarray(key[1], dtype=np.int64)] = 1
        m = maximum(kept, np.int32(1))
        floordiv(np.array(in_shape, dtype=np.int32), m)
        scaling = np.array(in_shape, dtype=np.int64) // np.maximum(kept, 1)
        cache[key] = (tuple(int(d) for d in kept), tuple(int(d) for d in scaling))
    return cache[key]


def _sum_grad(op, grad):
    """Gradient of Sum (and the first step of Mean's)."""
    array_ops = _array_ops()
    x = op.inputs[0]
    dims = x._shape.as_list() if x._shape.ndims is not None else None
    axes = const_value(op.inputs[1])
    if dims is not None and axes is not None:
        rank = len(dims)
        if np.array_equal(axes, np.arange(rank)):   # all axes
            g = array_ops.reshape(grad, [1] * rank)   # a list, as TF passes it (see registry._convert_one)
            if None not in dims:
                multiples = constant(np.array(dims, np.int32), name="Const")
            else:
                multiples = array_ops.shape(x)
            return [array_ops.tile(g, multiples), None]
        if None not in dims:
            kept, scaling = _static_reduced(op.graph, dims, axes)
            g = array_ops.reshape(grad, np.array(kept, np.int32))
            return [array_ops.tile(g, np.array(scaling, np.int32)), None]
    input_shape = _shape(x)
    if not op._attrs["keep_dims"]:
        with op.graph.colocate_with(input_shape):     # as TF's _SumGrad
            kept = reduced_shape(input_shape, op.inputs[1])
        grad = array_ops.reshape(grad, kept)
    from graphlab.ops.broadcast_ops import broadcast_to
    return [broadcast_to(grad, input_shape), None]


def _mean_grad(op, grad):
    """Gradient of Mean: Sum's gradient divided by the number of elements averaged."""
    array_ops = _array_ops()
    g = _sum_grad(op, grad)[0]
    xs, ys = op.inputs[0]._shape, op.outputs[0]._shape
    if xs.is_fully_defined() and ys.is_fully_defined():
        factor = int(np.prod(xs.as_list())) // max(int(np.prod(ys.as_list())), 1)
        factor = constant(np.asarray(factor, g.dtype.base_dtype.as_numpy_dtype), name="Const")
    else:
        input_shape = array_ops.shape(op.inputs[0])
        rank = _size(input_shape)
        axes = cast(op.inputs[1], rank.dtype)
        axes = (axes + rank) % rank
        factor = reduce_prod(array_ops.gather(input_shape, axes))
    return [truediv(g, cast(factor, g.dtype)), None]


def _extremum_grad(op, grad):
    """Gradient of Max/Min: split evenly between the elements equal to the extremum."""
    array_ops = _array_ops()
    input_shape = _shape(op.inputs[0])
    y = op.outputs[0]
    if not op._attrs["keep_dims"]:
        kept = reduced_shape(input_shape, op.inputs[1])
        y = array_ops.reshape(y, kept)
        grad = array_ops.reshape(grad, kept)
    else:
        kept = _shape(y)
    indicators = cast(equal(y, op.inputs[0]), grad.dtype)
    num_selected = array_ops.reshape(reduce_sum(indicators, op.inputs[1]), kept)
    return [truediv(indicators, num_selected) * grad, None]


def _prod_grad(op, grad):
    """Gradient of Prod, built as TF's _ProdGrad: d prod / d x_i is the product of all the other elements,
    computed as an exclusive cumprod from the left times one from the right over the reduced axes (moved
    to the front and flattened by a Transpose and Reshape), so it is exact where x holds zeros (grad *
    prod / x would give NaN there)."""
    from graphlab.ops import scan_ops
    from graphlab.ops.broadcast_ops import broadcast_to
    array_ops = _array_ops()
    x = op.inputs[0]
    input_shape = _shape(x)
    reduction_indices = array_ops.reshape(op.inputs[1], [-1])
    if not op._attrs["keep_dims"]:
        grad = array_ops.reshape(grad, reduced_shape(input_shape, op.inputs[1]))
    grad = broadcast_to(grad, input_shape)
    rank = array_ops.rank(x)
    reduction_indices = cast(reduction_indices, rank.dtype)
    reduced = (reduction_indices + rank) % rank
    idx = array_ops.range(0, rank)
    other, _ = array_ops.setdiff1d(idx, reduced, reduced.dtype)
    perm = array_ops.concat([reduced, other], 0)
    reduced_num = reduce_prod(array_ops.gather(input_shape, reduced))
    other_num = reduce_prod(array_ops.gather(input_shape, other))
    permuted = array_ops.transpose(x, perm)
    _set_permuted_shape(permuted, x, op.inputs[1])
    permuted_shape = _shape(permuted)
    reshaped = array_ops.reshape(permuted, (reduced_num, other_num))
    left = scan_ops.cumprod(reshaped, axis=0, exclusive=True)
    right = scan_ops.cumprod(reshaped, axis=0, exclusive=True, reverse=True)
    y = array_ops.reshape(conj(left) * conj(right), permuted_shape)
    out = grad * array_ops.transpose(y, array_ops.invert_permutation(perm))
    return [array_ops.reshape(out, input_shape), None]


def _set_permuted_shape(permuted, x, axes):
    """The static shape of Prod's gradient Transpose when the rank and axes are known at build time. TF's
    shape inference evaluates the small perm subgraph (range, ListDiff, concat) to get it, which makes the
    next tf.shape a Const there; graphlab computes the same permutation here."""
    value = const_value(axes)
    rank = x._shape.ndims
    if value is None or not rank:
        return
    reduced = [int(a) % rank for a in np.asarray(value).reshape(-1)]
    perm = reduced + [i for i in range(rank) if i not in reduced]
    if sorted(perm) == list(range(rank)):
        dims = x._shape.as_list()
        permuted.set_shape([dims[i] for i in perm])


def _int_mean(x, axis, keepdims):
    """Integer mean truncating toward zero, as TF's kernel divides in the input type."""
    total = np.sum(x, axis=axis, keepdims=keepdims, dtype=x.dtype)
    count = max(x.size // max(np.size(total), 1), 1) if x.size else 1
    return (np.sign(total) * (np.abs(total) // count)).astype(x.dtype)


_REDUCTIONS = {}


def _reduction(op_type, np_fn, grad, doc, default_name=None, dtype=None):
    """Register one reduction op (input, reduction_indices; attr keep_dims) and return its function."""
    def kernel(ctx, x, axis):
        out = np_fn(np.asarray(x), _np_axes(axis), ctx.attrs["keep_dims"])
        return np.asarray(out).astype(x.dtype if dtype is None else dtype.as_numpy_dtype, copy=False)

    register_op(
        op_type,
        inputs=["input: T", "reduction_indices: Tidx=int32"],
        outputs=_reduction_outputs(dtype),
        kernel=kernel,
        grad=grad,
        doc=doc)

    def reduce(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None, keep_dims=None):
        keep = bool(keepdims if keepdims is not None else keep_dims)
        if axis is None:
            axis = reduction_indices
        # A tensor's rank is known when the graph is built; a numpy array or list has none yet (TF asks for
        # x.shape.rank), and TF then converts it twice: in Rank's scope and as the op's input ("Mean/input").
        rank = getattr(getattr(input_tensor, "shape", None), "ndims", None)   # tensors, variables; not numpy
        everything = axis is None
        if everything:
            if not rank:    # unknown rank, a scalar, or not a tensor yet: TF leaves it to Range(0, Rank(x))
                from graphlab.ops import array_ops
                axis = array_ops.range(0, array_ops.rank(input_tensor))
            else:
                axis = constant(np.arange(rank, dtype=np.int32), name="Const")
        out = build_op(op_type, [input_tensor, axis], attrs={"keep_dims": keep}, name=name)._outputs[0]
        if everything and not keep and not out.shape.is_fully_defined():
            out.set_shape([])      # reducing over every axis gives a scalar, whatever the input's rank (TF)
        return out
    reduce.__doc__ = "``tf.%s``: axis None (all), an int or a list; keepdims (alias keep_dims)." % (
        doc.split(":")[0])
    return reduce


def _mean(x, axes, keep):
    if x.dtype.kind in "iu":
        return _int_mean(x, axes, keep)
    if x.size == 0:      # a mean over nothing is 0/0 = nan, as TF computes it (np.mean would warn first)
        return np.sum(x, axis=axes, keepdims=keep, dtype=x.dtype) / x.dtype.type(0)
    return np.mean(x, axis=axes, keepdims=keep, dtype=x.dtype)


def _lowest(x):
    """The identity of Max: what TF's kernel gives for an empty reduction (-inf, or the type's minimum)."""
    return -np.inf if x.dtype.kind in "fc" else np.iinfo(x.dtype).min


def _highest(x):
    return np.inf if x.dtype.kind in "fc" else np.iinfo(x.dtype).max


reduce_sum = _reduction("Sum", lambda x, a, k: np.sum(x, axis=a, keepdims=k, dtype=x.dtype), _sum_grad,
                        "reduce_sum: the sum over the axes.")
reduce_mean = _reduction("Mean", _mean, _mean_grad, "reduce_mean: the mean over the axes (integers truncate).")
reduce_max = _reduction("Max", lambda x, a, k: np.max(x, axis=a, keepdims=k, initial=_lowest(x)), _extremum_grad,
                        "reduce_max: the largest element over the axes.")
reduce_min = _reduction("Min", lambda x, a, k: np.min(x, axis=a, keepdims=k, initial=_highest(x)), _extremum_grad,
                        "reduce_min: the smallest element over the axes.")
reduce_prod = _reduction("Prod", lambda x, a, k: np.prod(x, axis=a, keepdims=k, dtype=x.dtype), _prod_grad,
                         "reduce_prod: the product over the axes.")
reduce_any = _reduction("Any", lambda x, a, k: np.any(x, axis=a, keepdims=k), NOT_DIFFERENTIABLE,
                        "reduce_any: logical OR over the axes.")
reduce_all = _reduction("All", lambda x, a, k: np.all(x, axis=a, keepdims=k), NOT_DIFFERENTIABLE,
                        "reduce_all: logical AND over the axes.")


def count_nonzero(input_tensor=None, axis=None, keepdims=None, dtype=dtypes.int64, name=None,
                  reduction_indices=None, keep_dims=None, input=None):  # noqa: A002
    """``tf.count_nonzero``: NotEqual to zero, Cast, Sum, in a "count_nonzero" scope as TF builds it."""
    input_tensor = input if input_tensor is None else input_tensor
    graph, scope = _scope(name, "count_nonzero", [input_tensor])
    with scope:
        x = convert_to_tensor(input_tensor, name="input")
        zero = constant(np.zeros((), x.dtype.as_numpy_dtype), name="zeros")
        flags = cast(not_equal(x, zero), dtype)
        return reduce_sum(flags, axis=axis, keepdims=keepdims, reduction_indices=reduction_indices,
                          keep_dims=keep_dims)


# ------------------------------------------------------------------------------------- ArgMax, ArgMin
def _arg_outputs(op):
    x = op._inputs[0]
    out = op._attrs["output_type"]
    value = const_value(op._inputs[1])
    rank = x._shape.ndims
    if rank is None or value is None:
        return [(out, tensor_shape.UNKNOWN if rank is None else tensor_shape.TensorShape([None] * (rank - 1)))]
    a = int(np.asarray(value).reshape(-1)[0])
    if not -rank <= a < rank:
        raise ValueError("Dimension (%d) must be in the range [%d, %d), where %d is the number of dimensions "
                         "in the input" % (a, -rank, rank, rank))
    dims = x._shape.as_list()
    del dims[a % rank]
    return [(out, tensor_shape.TensorShape(dims))]


def _arg_op(op_type, np_fn, doc):
    register_op(
        op_type,
        inputs=["input: T", "dimension: Tidx=int32"],
        outputs=_arg_outputs,
        kernel=lambda ctx, x, a: np.asarray(np_fn(x, axis=int(np.asarray(a).reshape(-1)[0]))).astype(
            ctx.attrs["output_type"].as_numpy_dtype),
        grad=NOT_DIFFERENTIABLE,
        doc=doc)

    def arg(input, axis=None, name=None, dimension=None, output_type=dtypes.int64):  # noqa: A002
        if axis is not None and dimension is not None:
            raise ValueError("Cannot specify both 'axis' and 'dimension'")
        axis = dimension if axis is None else axis
        axis = 0 if axis is None else axis
        return build_op(op_type, [input, axis], attrs={"output_type": dtypes.as_dtype(output_type)},
                        name=name).outputs[0]
    arg.__doc__ = "``tf.%s``: output_type int64 by default; axis (alias dimension) 0 by default." % (
        doc.split(":")[0])
    return arg


argmax = _arg_op("ArgMax", np.argmax, "argmax: the index of the largest element along an axis.")
argmin = _arg_op("ArgMin", np.argmin, "argmin: the index of the smallest element along an axis.")


# ------------------------------------------------------------------------- Python operator overloading

def binary_overload(op_fn, op_name, reverse=False):
    """``x <op> y`` on a Tensor: open scope ``op_name`` (e.g. "add"), convert the other operand inside it
    under the name "y" (or "x" when reversed), preferring x's dtype, and build the op named by that scope.
    A value that does not fit x's dtype (``int_tensor + 1.5``) reaches the op, which reports TF's
    "Input 'y' of 'AddV2' Op has type float32 that does not match type int32 of argument 'x'."."""
    other_name = "x" if reverse else "y"

    def method(x, y):
        graph = x._op._graph
        saved = graph._name_stack
        scope = graph._name_stack = graph.unique_name(op_name)   # a `with name_scope`, minus its cost
        try:
            if isinstance(y, tensor_mod.Tensor):
                other = y
            elif graph is graph_mod.get_default_graph():
                other = convert_to_tensor(y, preferred_dtype=x._dtype.base_dtype, name=other_name)
            else:               # x lives in another graph than the default one: TF builds there (x's graph)
                with graph.as_default():
                    other = convert_to_tensor(y, preferred_dtype=x._dtype.base_dtype, name=other_name)
        finally:
            graph._name_stack = saved
        if reverse:
            return op_fn(other, x, name=scope + "/")
        return op_fn(x, other, name=scope + "/")
    return method


def _install_overloads():
    table = {
        "__add__": binary_overload(add, "add"),
        "__radd__": binary_overload(add, "add", reverse=True),
        "__sub__": binary_overload(subtract, "sub"),
        "__rsub__": binary_overload(subtract, "sub", reverse=True),
        "__mul__": binary_overload(multiply, "mul"),
        "__rmul__": binary_overload(multiply, "mul", reverse=True),
        "__truediv__": binary_overload(truediv, "truediv"),
        "__rtruediv__": binary_overload(truediv, "truediv", reverse=True),
        "__floordiv__": binary_overload(floordiv, "floordiv"),
        "__rfloordiv__": binary_overload(floordiv, "floordiv", reverse=True),
        "__mod__": binary_overload(floormod, "mod"),
        "__rmod__": binary_overload(floormod, "mod", reverse=True),
        "__pow__": binary_overload(pow, "pow"),
        "__rpow__": binary_overload(pow, "pow", reverse=True),
        "__matmul__": binary_overload(matmul, "matmul"),
        "__rmatmul__": binary_overload(matmul, "matmul", reverse=True),
        "__and__": binary_overload(logical_and, "and"),
        "__rand__": binary_overload(logical_and, "and", reverse=True),
        "__or__": binary_overload(logical_or, "or"),
        "__ror__": binary_overload(logical_or, "or", reverse=True),
        "__xor__": binary_overload(logical_xor, "xor"),
        "__rxor__": binary_overload(logical_xor, "xor", reverse=True),
        # comparisons use the op's own default name ("Less", const "Less/y"), as TF does
        "__lt__": lambda x, y: less(x, y),
        "__le__": lambda x, y: less_equal(x, y),
        "__gt__": lambda x, y: greater(x, y),
        "__ge__": lambda x, y: greater_equal(x, y),
        "__neg__": lambda x: negative(x),
        "__abs__": lambda x: abs(x),
        "__invert__": lambda x: logical_not(x),
    }
    existing = tensor_mod._OVERLOADS or {}
    table.update({k: v for k, v in existing.items() if k not in table})  # e.g. __getitem__ from array_ops
    tensor_mod._OVERLOADS = _OverloadTable(table)


class _OverloadTable(dict):
    """Operator name -> function; other op families add entries (array_ops adds ``__getitem__``).
    Operators not implemented yet raise a clear error instead of a KeyError."""

    def __missing__(self, key):
        def unsupported(x, *args):
            raise TypeError("graphlab does not support the operator %s on Tensor %s yet." % (key, x.name))
        return unsupported


_install_overloads()


# ==================================================================== IsNan, IsInf, IsFinite, CheckNumerics
# TF defines these for the real float types only, and lists them in this order in its dtype error.
_REAL_FLOATS = (dtypes.bfloat16, dtypes.float16, dtypes.float32, dtypes.float64)


def _real_float_rule(param, out_dtype=None):
    """Output rule: input 0's shape, with dtype ``out_dtype`` (default input 0's); TypeError naming
    ``param`` for a non-float input, as TF's op builder words it."""
    def outputs(op):
        t = op._inputs[0]
        if t._dtype.base_dtype not in _REAL_FLOATS:
            raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: %s"
                            % (param, t._dtype.base_dtype.name, ", ".join(d.name for d in _REAL_FLOATS)))
        return [(out_dtype or t._dtype.base_dtype, t._shape)]
    return outputs


def _float_test(op_type, ufunc, doc):
    """Register one elementwise float -> bool test (no gradient: its output is bool) and return its
    public function."""
    register_op(op_type, inputs=["x: T"], outputs=_real_float_rule("x", dtypes.bool),
                kernel=lambda ctx, x: np.asarray(ufunc(x)), grad=NOT_DIFFERENTIABLE, doc=doc)

    def test(x, name=None):
        return build_op(op_type, [x], name=name)._outputs[0]
    test.__doc__ = "``tf.math.%s``: %s" % (doc.split(":")[0], doc)
    return test


is_nan = _float_test("IsNan", np.isnan, "is_nan: True where x is NaN.")
is_inf = _float_test("IsInf", np.isinf, "is_inf: True where x is +inf or -inf.")
is_finite = _float_test("IsFinite", np.isfinite, "is_finite: True where x is neither NaN nor infinite.")


def _check_numerics_kernel(ctx, x):
    """Pass x through, or fail the run naming what was found, in TF's words ("<message> : Tensor had Inf
    and NaN values")."""
    if x.size:
        nan, inf = bool(np.isnan(x).any()), bool(np.isinf(x).any())
        if nan or inf:
            found = "Inf and NaN" if nan and inf else ("NaN" if nan else "Inf")
            raise InvalidArgumentError(None, ctx.op, "%s : Tensor had %s values" % (ctx.attrs["message"], found))
    return x


def _check_numerics_grad(op, grad):
    """TF checks the gradient too. Its rule formats the message attr as Python bytes, so the gradient's
    message reads "... detected in gradient. b'<message>'"; graphlab keeps that wording."""
    message = op._attrs["message"]
    if isinstance(message, str):
        message = message.encode("utf-8")
    return [check_numerics(grad, "Not a number (NaN) or infinity (Inf) values detected in gradient. %s"
                           % (message,))]


register_op(
    "CheckNumerics",
    inputs=["tensor: T"],
    outputs=_real_float_rule("tensor"),
    kernel=_check_numerics_kernel,
    grad=_check_numerics_grad,
    stateful=True,   # as in TF: its effect is the failure, so it is never folded or skipped
    doc="Passes tensor through; fails the run with InvalidArgumentError if it holds NaN or Inf.")


def check_numerics(tensor, message, name=None):
    """``tf.check_numerics`` / ``tf.debugging.check_numerics``: one CheckNumerics op."""
    if isinstance(message, bytes):
        message = message.decode("utf-8")
    return build_op("CheckNumerics", [tensor], attrs={"message": message}, name=name)._outputs[0]


def verify_tensor_all_finite(t=None, msg=None, name=None, x=None, message=None):
    """``tf.verify_tensor_all_finite``: ``t`` again (an Identity "control_dependency"), available only
    after a CheckNumerics of it passed, all in the scope "VerifyFinite". ``x``/``message`` are TF's newer
    spellings of ``t``/``msg``; giving both spellings is an error, as in TF."""
    from graphlab.ops import control_flow_ops
    t = _one_of("x", x, "t", t)
    msg = _one_of("message", message, "msg", msg)
    graph, scope = _scope(name, "VerifyFinite", [t])
    with graph.as_default(), scope:
        t = convert_to_tensor(t, name="x")
        check = check_numerics(t, message=msg)
        return control_flow_ops.with_dependencies([check], t)


def _one_of(new_name, new_value, old_name, old_value):
    """TF's deprecated_argument_lookup."""
    if new_value is not None:
        if old_value is not None:
            raise ValueError("Cannot specify both '%s' and '%s'." % (old_name, new_name))
        return new_value
    return old_value


# ------------------------------------------------------------------------------------ reduce_logsumexp
def reduce_logsumexp(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None,
                     keep_dims=None):
    """``tf.reduce_logsumexp``: log(sum(exp(x))) over the axes, computed as TF does: the max m over the
    axes (0 where it is not finite, and with its gradient stopped) is taken out first, so
    log(sum(exp(x - m))) + m cannot overflow. ``reduction_indices``/``keep_dims`` are TF1's aliases."""
    axis = _one_of("axis", axis, "reduction_indices", reduction_indices)
    keep = bool(_one_of("keepdims", keepdims, "keep_dims", keep_dims))
    graph, scope = _scope(name, "ReduceLogSumExp", [input_tensor])
    with graph.as_default(), scope as scope_name:
        x = convert_to_tensor(input_tensor)
        raw_max = reduce_max(x, axis=axis, keepdims=True)
        finite_max = build_op("SelectV2", [build_op("IsFinite", [raw_max])._outputs[0], raw_max, 0]).outputs[0]
        my_max = build_op("StopGradient", [finite_max])._outputs[0]
        result = build_op("Log", [reduce_sum(exp(subtract(x, my_max)), axis=axis, keepdims=keep)])._outputs[0]
        if not keep:   # TF reshapes the kept-dims max with a Shape op, even when the shape is known
            my_max = build_op("Reshape", [my_max, build_op("Shape", [result], attrs={
                "out_type": dtypes.int32}).outputs[0]]).outputs[0]
        result = add(result, my_max, name=scope_name)
    if not keep and axis is None and not result.shape.is_fully_defined():
        result.set_shape([])
    return result
