"""The tf.assert_* family and tf.debugging against live TF: graphs op for op, errors raised while building
when values, ranks or dtypes are known (type and text), and run-time InvalidArgumentError messages."""
import pytest

from tests.tfcompare import Cases, install_tests

P = "x = tf.placeholder(tf.float32, [None]); y = tf.placeholder(tf.float32, [None])\n"
GRAPHS = {
    "positive": P + "a = tf.assert_positive(x)",
    "signs": P + "a = tf.assert_negative(x); b = tf.assert_non_negative(x); c = tf.assert_non_positive(x)",
    "comparisons": P + "a = tf.assert_less(x, y); b = tf.assert_greater(x, y); c = tf.assert_less_equal(x, y); "
                       "d = tf.assert_greater_equal(x, y); e = tf.assert_none_equal(x, y)",
    "near": P + "a = tf.assert_near(x, y)",
    "static_ranks_and_types": P + "a = tf.assert_rank(x, 1); b = tf.assert_rank_at_least(x, 1); "
                                  "c = tf.assert_rank_in(x, [1, 2]); d = tf.assert_type(x, tf.float32); "
                                  "e = tf.assert_integer(tf.placeholder(tf.int32))",
    "dynamic_ranks": "x = tf.placeholder(tf.float32); a = tf.assert_rank(x, 1); b = tf.assert_rank_at_least(x, 1);"
                     " c = tf.assert_rank_in(x, [1, 2])",
    "scalar_and_equal": "x = tf.placeholder(tf.float32, []); a = tf.assert_scalar(x); "
                        "b = tf.debugging.assert_equal(x, 1.0)",
    "numerics": P + "a = tf.check_numerics(x, 'bad'); b = tf.verify_tensor_all_finite(x, 'bad2'); "
                    "c = tf.debugging.assert_all_finite(x, 'm')",
    "named_with_message": P + "a = tf.assert_positive(x, message='msg', summarize=2, name='pos')",
    "debugging_namespace": P + "a = tf.debugging.assert_less(x, y, message='m'); "
                               "b = tf.debugging.assert_non_negative(x); c = tf.debugging.assert_rank(x, 1)",
}

BUILD_ERRORS = {
    "positive_static": "tf.assert_positive(tf.constant([1.0, -1.0]))",
    "less_static": "tf.assert_less(tf.constant([1, 5]), tf.constant([2, 3]), message='too big')",
    "greater_equal_static": "tf.assert_greater_equal(tf.constant(1), tf.constant(2))",
    "none_equal_static": "tf.assert_none_equal(tf.constant([1, 2]), tf.constant([3, 2]))",
    "rank": "tf.assert_rank(tf.placeholder(tf.float32, [2, 3]), 1)",
    "rank_message": "tf.assert_rank(tf.placeholder(tf.float32, [2, 3]), 3, message='wrong')",
    "rank_at_least": "tf.assert_rank_at_least(tf.placeholder(tf.float32, [2]), 2)",
    "rank_in": "tf.assert_rank_in(tf.placeholder(tf.float32, [2]), [0, 2])",
    "rank_not_scalar": "tf.assert_rank(tf.placeholder(tf.float32, [2]), [1])",
    "rank_type": "tf.assert_rank(tf.placeholder(tf.float32, [2]), tf.constant(1, tf.int64))",
    "type": "tf.assert_type(tf.placeholder(tf.float32, [2]), tf.int32)",
    "type_message": "tf.assert_type(tf.constant([1]), tf.float64, message='need doubles')",
    "integer": "tf.assert_integer(tf.placeholder(tf.float32, [2], name='f'))",
    "scalar": "tf.assert_scalar(tf.placeholder(tf.float32, [2], name='v'))",
    "proper_iterable": "tf.assert_proper_iterable('abc')",
    "same_float_dtype": "tf.assert_same_float_dtype([tf.constant(1.0), tf.constant(1.0, tf.float64)])",
    "same_float_dtype_int": "tf.assert_same_float_dtype([tf.constant(1)])",
}

_RUN = """
with tf.control_dependencies([CHECK]):
    out = tf.identity(x)
fetch = [out]
"""
RUN_ERRORS = {
    "positive": P + _RUN.replace("CHECK", "tf.assert_positive(x)") + "feed = {x: [1.0, -2.0, 3.0, 0.5]}",
    "negative_message": P + _RUN.replace("CHECK", "tf.assert_negative(x, message='want < 0', summarize=2)")
                        + "feed = {x: [-1.0, 2.0, 3.0]}",
    "non_positive": P + _RUN.replace("CHECK", "tf.assert_non_positive(x)") + "feed = {x: [1.0]}",
    "less": P + _RUN.replace("CHECK", "tf.assert_less(x, y)") + "feed = {x: [1.0, 5.0], y: [2.0, 3.0]}",
    "greater_equal_int": "x = tf.placeholder(tf.int32, [None])\n" + _RUN.replace(
        "CHECK", "tf.assert_greater_equal(x, 2)") + "feed = {x: [3, 1]}",
    "none_equal": P + _RUN.replace("CHECK", "tf.assert_none_equal(x, y)") + "feed = {x: [1.0, 2.0], y: [3.0, 2.0]}",
    "near": P + _RUN.replace("CHECK", "tf.assert_near(x, y, rtol=0.01)") + "feed = {x: [1.0, 2.0], y: [1.0, 2.5]}",
    "equal": P + _RUN.replace("CHECK", "tf.debugging.assert_equal(x, y)") + "feed = {x: [1.0, 2.0], y: [1.0, 2.5]}",
    "rank_dynamic": "x = tf.placeholder(tf.float32)\n" + _RUN.replace("CHECK", "tf.assert_rank(x, 2)")
                    + "feed = {x: [1.0, 2.0]}",
    "rank_at_least_dynamic": "x = tf.placeholder(tf.float32)\n" + _RUN.replace(
        "CHECK", "tf.assert_rank_at_least(x, 2)") + "feed = {x: 1.0}",
    "rank_in_dynamic": "x = tf.placeholder(tf.float32)\n" + _RUN.replace(
        "CHECK", "tf.assert_rank_in(x, [0, 2])") + "feed = {x: [1.0]}",
    "assert_string_escapes": "c = tf.placeholder(tf.bool, []); x = tf.constant([1.5])\n"
                             + _RUN.replace("CHECK", r"""tf.Assert(c, ['it\'s "x"\tcaf\u00e9\\', x])""")
                             + "feed = {c: False}",
    "check_numerics": P + "fetch = [tf.check_numerics(x * 0.0 / 0.0, 'found a NaN')]; feed = {x: [1.0]}",
    "verify_finite": P + "fetch = [tf.verify_tensor_all_finite(tf.log(x), 'log of zero')]; feed = {x: [0.0]}",
}

VALUES = {
    "passing_checks": P + """
checks = [tf.assert_positive(x), tf.assert_less(x, y), tf.assert_near(x, y - 1.0), tf.assert_rank(x, 1),
          tf.assert_none_equal(x, y), tf.assert_non_negative(x)]
with tf.control_dependencies(checks):
    out = tf.identity(x)
fetch = [out, tf.assert_scalar(tf.constant(2.0))]
feed = {x: [1.0, 2.0], y: [2.0, 3.0]}
""",
}

CASES = Cases(graphs=GRAPHS, build_errors=BUILD_ERRORS, run_errors=RUN_ERRORS, values=VALUES)
install_tests(globals(), CASES)


def test_assert_same_float_dtype_and_numeric():
    import graphlab as tf
    assert tf.assert_same_float_dtype([tf.constant(1.0), None]) == tf.float32
    assert tf.assert_same_float_dtype(None, tf.float64) == tf.float64
    assert tf.debugging.is_numeric_tensor(tf.constant(1)) and not tf.debugging.is_numeric_tensor(tf.constant("a"))
    assert tf.assert_proper_iterable([1, 2]) is None
    with pytest.raises(TypeError, match='Expected argument "values" to be a "proper" iterable'):
        tf.assert_proper_iterable(tf.constant([1]))
