"""The ``tf.assert_*`` family (``tf.debugging``) as TF builds it in graph mode.

Each check is a scope (``assert_positive/``) holding the comparison, ``All`` and an ``Assert`` (guarded by
``AssertGuard`` unless its data are strings and int32). When every value is known while building, a failed
check raises ``InvalidArgumentError`` at once, as TF does; otherwise the run fails with TF's message. Rank
and type checks are decided statically when the rank or dtype is known (``static_checks_determined_all_ok``,
``statically_determined_correct_type`` no-ops), raising ``ValueError`` / ``TypeError`` with TF's words.
"""
import numpy as np

from graphlab.framework import dtypes
from graphlab.framework import graph as graph_mod
from graphlab.formats.errors import InvalidArgumentError
from graphlab.framework.tensor import Tensor
from graphlab.ops import array_ops, control_flow_ops, math_ops
from graphlab.ops.logging_ops import Assert, assert_equal
from graphlab.framework.registry import const_value, convert_to_tensor


def _message_prefix(message):
    return "%s.  " % message if message else ""


def _maybe_constant_value_string(t):
    if not isinstance(t, Tensor):
        return str(t)
    value = const_value(t)
    return str(value) if value is not None else t


def _assert_static(condition, data):
    if not condition:
        raise InvalidArgumentError(None, None, "\n".join(str(_maybe_constant_value_string(d)) for d in data))


def _binary_assert(sym, opname, op_func, static_func, x, y, data, summarize, message, name):
    with graph_mod.name_scope(name, opname, [x, y, data]):
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, name="y")
        if data is None:
            data = ["Condition x %s y did not hold element-wise:" % sym, "x (%s) = " % x.name, x,
                    "y (%s) = " % y.name, y]
        if message is not None:
            data = [message] + list(data)
        condition = math_ops.reduce_all(op_func(x, y))
        x_static, y_static = const_value(x), const_value(y)
        if x_static is not None and y_static is not None:
            _assert_static(np.all(static_func(x_static, y_static)), data)
        return Assert(condition, data, summarize=summarize)


def assert_none_equal(x, y, data=None, summarize=None, message=None, name=None):
    """``tf.assert_none_equal``: x != y everywhere."""
    return _binary_assert("!=", "assert_none_equal", math_ops.not_equal, np.not_equal, x, y, data, summarize,
                          message, name)


def assert_less(x, y, data=None, summarize=None, message=None, name=None):
    """``tf.assert_less``: x < y everywhere."""
    return _binary_assert("<", "assert_less", math_ops.less, np.less, x, y, data, summarize, message, name)


def assert_less_equal(x, y, data=None, summarize=None, message=None, name=None):
    """``tf.assert_less_equal``: x <= y everywhere."""
    return _binary_assert("<=", "assert_less_equal", math_ops.less_equal, np.less_equal, x, y, data, summarize,
                          message, name)


def assert_greater(x, y, data=None, summarize=None, message=None, name=None):
    """``tf.assert_greater``: x > y everywhere."""
    return _binary_assert(">", "assert_greater", math_ops.greater, np.greater, x, y, data, summarize, message,
                          name)


def assert_greater_equal(x, y, data=None, summarize=None, message=None, name=None):
    """``tf.assert_greater_equal``: x >= y everywhere."""
    return _binary_assert(">=", "assert_greater_equal", math_ops.greater_equal, np.greater_equal, x, y, data,
                          summarize, message, name)


def _sign_assert(opname, text, zero_first, compare, x, data, summarize, message, name):
    message = _message_prefix(message)
    with graph_mod.name_scope(name, opname, [x, data]):
        x = convert_to_tensor(x, name="x")
        if data is None:
            data = _sign_data(message, text, x)
        zero = convert_to_tensor(0, dtype=x.dtype)
        return compare(zero, x, data=data, summarize=summarize) if zero_first else \
            compare(x, zero, data=data, summarize=summarize)


def _sign_data(message, text, x):
    if isinstance(text, tuple):        # TF's two data strings
        return [message, text[0], text[1] % x.name, x]
    return [message, text % x.name, x]  # assert_non_positive: one string (TF joins them)


def assert_positive(x, data=None, summarize=None, message=None, name=None):
    """``tf.assert_positive``: an ``assert_positive/assert_less`` check of 0 < x."""
    return _sign_assert("assert_positive", ("Condition x > 0 did not hold element-wise:", "x (%s) = "), True,
                        assert_less, x, data, summarize, message, name)


def assert_negative(x, data=None, summarize=None, message=None, name=None):
    """``tf.assert_negative``: x < 0."""
    return _sign_assert("assert_negative", ("Condition x < 0 did not hold element-wise:", "x (%s) = "), False,
                        assert_less, x, data, summarize, message, name)


def assert_non_negative(x, data=None, summarize=None, message=None, name=None):
    """``tf.assert_non_negative``: 0 <= x."""
    return _sign_assert("assert_non_negative", ("Condition x >= 0 did not hold element-wise:", "x (%s) = "),
                        True, assert_less_equal, x, data, summarize, message, name)


def assert_non_positive(x, data=None, summarize=None, message=None, name=None):
    """``tf.assert_non_positive``: x <= 0."""
    return _sign_assert("assert_non_positive", "Condition x <= 0 did not hold element-wise:x (%s) = ", False,
                        assert_less_equal, x, data, summarize, message, name)


def assert_near(x, y, rtol=None, atol=None, data=None, summarize=None, message=None, name=None):
    """``tf.assert_near``: |x - y| < atol + rtol * |y| everywhere (default tolerances 10 eps)."""
    message = _message_prefix(message)
    with graph_mod.name_scope(name, "assert_near", [x, y, rtol, atol, data]):
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, name="y", dtype=x.dtype)
        dtype = x.dtype.base_dtype
        if dtype.is_complex:
            dtype = dtype.real_dtype
        eps = np.finfo(dtype.as_numpy_dtype).eps
        rtol = convert_to_tensor(10 * eps if rtol is None else rtol, name="rtol", dtype=dtype)
        atol = convert_to_tensor(10 * eps if atol is None else atol, name="atol", dtype=dtype)
        if data is None:
            data = [message, "x and y not equal to tolerance rtol = %s, atol = %s" % (rtol, atol),
                    "x (%s) = " % x.name, x, "y (%s) = " % y.name, y]
        tol = atol + rtol * math_ops.abs(y)
        diff = math_ops.abs(x - y)
        condition = math_ops.reduce_all(math_ops.less(diff, tol))
        return Assert(condition, data, summarize=summarize)


# ------------------------------------------------------------------------------------------------ ranks
def _assert_rank_condition(x, rank, static_condition, dynamic_condition, data, summarize):
    assert_type(rank, dtypes.int32)
    rank_static = const_value(rank)
    if rank_static is not None:
        if np.ndim(rank_static) != 0:
            raise ValueError("Rank must be a scalar.")
        if x.shape.ndims is not None:
            if not static_condition(x.shape.ndims, rank_static):
                raise ValueError("Static rank condition failed", x.shape.ndims, rank_static)
            return control_flow_ops.no_op(name="static_checks_determined_all_ok")
    condition = dynamic_condition(array_ops.rank(x), rank)
    if rank_static is None:
        rank_check = assert_rank(rank, 0, data=["Rank must be a scalar. Received rank: ", rank])
        condition = control_flow_ops.with_dependencies([rank_check], condition)
    return Assert(condition, data, summarize=summarize)


def assert_rank(x, rank, data=None, summarize=None, message=None, name=None):
    """``tf.assert_rank``: ValueError at once when the rank is known, else a run-time check."""
    with graph_mod.name_scope(name, "assert_rank", [x, rank] + list(data or [])):
        x = convert_to_tensor(x, name="x")
        rank = convert_to_tensor(rank, name="rank")
        message = _message_prefix(message)
        if data is None:
            data = [message, "Tensor %s must have rank" % x.name, rank, "Received shape: ", array_ops.shape(x)]
        try:
            return _assert_rank_condition(x, rank, lambda a, g: a == g, math_ops.equal, data, summarize)
        except ValueError as e:
            if e.args[0] == "Static rank condition failed":
                raise ValueError("%sTensor %s must have rank %d.  Received rank %d, shape %s"
                                 % (message, x.name, e.args[2], e.args[1], x.shape)) from None
            raise ValueError(e.args[0]) from None


def assert_rank_at_least(x, rank, data=None, summarize=None, message=None, name=None):
    """``tf.assert_rank_at_least``."""
    with graph_mod.name_scope(name, "assert_rank_at_least", [x, rank] + list(data or [])):
        x = convert_to_tensor(x, name="x")
        rank = convert_to_tensor(rank, name="rank")
        message = _message_prefix(message)
        if data is None:
            data = [message, "Tensor %s must have rank at least" % x.name, rank, "Received shape: ",
                    array_ops.shape(x)]
        try:
            return _assert_rank_condition(x, rank, lambda a, g: a >= g, math_ops.greater_equal, data, summarize)
        except ValueError as e:
            if e.args[0] == "Static rank condition failed":
                raise ValueError("%sTensor %s must have rank at least %d.  Received rank %d, shape %s"
                                 % (message, x.name, e.args[2], e.args[1], x.shape)) from None
            raise


def _dynamic_rank_in(actual_rank, given_ranks):
    result = math_ops.equal(given_ranks[0], actual_rank)
    for given in given_ranks[1:]:
        result = math_ops.logical_or(result, math_ops.equal(given, actual_rank))
    return result


def assert_rank_in(x, ranks, data=None, summarize=None, message=None, name=None):
    """``tf.assert_rank_in``: the rank is one of ``ranks``."""
    with graph_mod.name_scope(name, "assert_rank_in", [x] + list(ranks) + list(data or [])):
        x = convert_to_tensor(x, name="x")
        ranks = tuple(convert_to_tensor(r, name="rank") for r in ranks)
        message = _message_prefix(message)
        if data is None:
            data = [message, "Tensor %s must have rank in" % x.name] + list(ranks) + [
                "Received shape: ", array_ops.shape(x)]
        for r in ranks:
            assert_type(r, dtypes.int32)
        statics = tuple(const_value(r) for r in ranks)
        if not any(s is None for s in statics):
            if any(np.ndim(s) != 0 for s in statics):
                raise ValueError("Rank must be a scalar.")
            if x.shape.ndims is not None:
                if x.shape.ndims not in statics:
                    raise ValueError("%sTensor %s must have rank in %s.  Received rank %d, shape %s"
                                     % (message, x.name, tuple(int(s) for s in statics), x.shape.ndims, x.shape))
                return control_flow_ops.no_op(name="static_checks_determined_all_ok")
        condition = _dynamic_rank_in(array_ops.rank(x), ranks)
        for r, s in zip(ranks, statics):
            if s is None:
                check = assert_rank(r, 0, data=["Rank must be a scalar. Received rank: ", r])
                condition = control_flow_ops.with_dependencies([check], condition)
        return Assert(condition, data, summarize=summarize)


# --------------------------------------------------------------------------------------- types, shapes
def assert_integer(x, message=None, name=None):
    """``tf.assert_integer``: TypeError at once unless x has an integer dtype."""
    with graph_mod.name_scope(name, "assert_integer", [x]):
        x = convert_to_tensor(x, name="x")
        if not x.dtype.is_integer:
            raise TypeError('%sExpected "x" to be integer type.  Found: %s of dtype %s'
                            % (_message_prefix(message), x.name, x.dtype))
        return control_flow_ops.no_op("statically_determined_was_integer")


def assert_type(tensor, tf_type, message=None, name=None):
    """``tf.assert_type``: TypeError at once unless ``tensor`` has dtype ``tf_type``."""
    tf_type = dtypes.as_dtype(tf_type)
    with graph_mod.name_scope(name, "assert_type", [tensor]):
        tensor = convert_to_tensor(tensor, name="tensor")
        if tensor.dtype != tf_type:
            raise TypeError("%s%s must be of type %r; got %r" % (_message_prefix(message), tensor.name, tf_type,
                                                               tensor.dtype))
        return control_flow_ops.no_op("statically_determined_correct_type")


def assert_scalar(tensor, name=None, message=None):
    """``tf.assert_scalar``: the tensor itself when its static shape is [], else ValueError."""
    with graph_mod.name_scope(name, "assert_scalar", [tensor]) as scope:
        tensor = convert_to_tensor(tensor, name=scope)
        if tensor.shape.ndims != 0:
            raise ValueError("%sExpected scalar shape for %s, saw shape: %s."
                             % (_message_prefix(message), tensor.name, tensor.shape))
        return tensor


def assert_proper_iterable(values):
    """``tf.assert_proper_iterable``: TypeError for a tensor, array or string (iterable by accident)."""
    if isinstance(values, (Tensor, np.ndarray, bytes, str)):
        raise TypeError('Expected argument "values" to be a "proper" iterable.  Found: %s' % type(values))
    if not hasattr(values, "__iter__"):
        raise TypeError('Expected argument "values" to be iterable.  Found: %s' % type(values))


def assert_same_float_dtype(tensors=None, dtype=None):
    """``tf.assert_same_float_dtype``: the one floating dtype of ``tensors`` (and ``dtype``), else ValueError."""
    if tensors:
        expected, first = dtype, None
        for item in tensors:
            if item is None:
                continue
            item_type = item.dtype.base_dtype
            if not expected:
                expected, first = item_type, item.name
            elif expected != item_type:
                raise ValueError("%s, type=%s, must be of the same type (%s)%s." % (
                    item.name, item_type, expected, " as %s" % first if first else ""))
        dtype = expected
    if not dtype:
        dtype = dtypes.float32
    elif not dtype.is_floating:
        raise ValueError("Expected floating point type, got %s." % dtype)
    return dtype


def is_numeric_tensor(tensor):
    """``tf.is_numeric_tensor``."""
    return isinstance(tensor, Tensor) and (tensor.dtype.is_floating or tensor.dtype.is_integer
                                           or tensor.dtype.is_complex)


__all__ = ["assert_equal", "assert_none_equal", "assert_less", "assert_less_equal", "assert_greater",
           "assert_greater_equal", "assert_positive", "assert_negative", "assert_non_negative",
           "assert_non_positive", "assert_near", "assert_rank", "assert_rank_at_least", "assert_rank_in",
           "assert_integer", "assert_type", "assert_scalar", "assert_proper_iterable", "assert_same_float_dtype",
           "is_numeric_tensor"]
