"""Print and Assert act only when run, as in TF; messages and structure as TF 2.21 (compat.v1) shows."""
import numpy as np
import pytest

import graphlab as tf


def test_print_passes_value_through_and_prints_when_run(capfd):
    x = tf.placeholder(tf.float32, [None], name="x")
    p = tf.Print(x, [x, tf.shape(x)], message="x is ")
    assert (p.op.type, p.op.name, [t.name for t in p.op.inputs]) == ("Print", "Print", ["x:0", "x:0", "Shape:0"])
    assert capfd.readouterr().err == ""           # building printed nothing
    np.testing.assert_array_equal(tf.Session().run(p, {x: [1, 2]}), [1, 2])
    assert capfd.readouterr().err == "x is [1 2][2]\n"


def test_assert_guard_only_fails_the_run_when_the_condition_is_false():
    x = tf.placeholder(tf.float32, [None], name="x")
    check = tf.Assert(tf.reduce_all(x > 0), [x], name="positive")
    assert (check.type, check.name) == ("Merge", "positive/AssertGuard/Merge")
    with tf.control_dependencies([check]):
        y = tf.identity(x)
    sess = tf.Session()
    np.testing.assert_array_equal(sess.run(y, {x: [1, 2]}), [1, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"assertion failed: \[-1 2\]") as e:
        sess.run(y, {x: [-1, 2]})
    assert e.value.op.name == "positive/AssertGuard/Assert"


def test_assert_equal_checks_at_build_time_when_both_values_are_known():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x == y did not hold element-wise"):
        tf.assert_equal(tf.constant(1), tf.constant(2))


def test_assert_equal_checks_at_run_time_otherwise():
    x = tf.placeholder(tf.float32, [None], name="x")
    check = tf.assert_equal(tf.shape(x)[0], 2)
    sess = tf.Session()
    sess.run(check, {x: [1, 2]})
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"did not hold element-wise:\] .* \[3\]"):
        sess.run(check, {x: [1, 2, 3]})


@pytest.mark.parametrize("value, summarize, shown", [
    ([[1, 2], [3, 4]], None, "[[1 2][3...]...]"),
    ([[1, 2], [3, 4]], 2, "[[1 2]...]"),
    ([[1, 2], [3, 4]], -1, "[[1 2][3 4]]"),
    ([[1, 2, 3], [4, 5, 6], [7, 8, 9]], 2, "[[1 2...]...]"),
    (np.ones([2, 2, 2], np.float32), 3, "[[[1 1][1...]]...]"),
    ([1, 2, 3, 4, 5], 2, "[1 2...]"),
    (np.array([1.5, 1e10, 1e-7, 0.1, 2.0 / 3], np.float32), 10, "[1.5 1e+10 1e-07 0.1 0.666666687]"),
    (7, None, "[7]"),
    ("hi", None, "[hi]"),
    ([True, False], None, "[1 0]"),
    (np.zeros([2, 0], np.float32), None, "[]"),
])
def test_print_formats_values_as_tf(capfd, value, summarize, shown):
    """Expected texts copied from TF 2.21's tf.Print (compat.v1) output."""
    p = tf.Print(tf.constant(0), [tf.constant(value)], message="| ", summarize=summarize)
    capfd.readouterr()
    tf.Session().run(p)
    assert capfd.readouterr().err == "| %s\n" % shown
