"""Objects ops share while a graph is built (attrs, a number's Const value, shapes): one op getting an attr
of its own, or a user copying a shape, never shows in another op."""
import copy
import pickle

import numpy as np
import pytest

import graphlab as tf


def test_an_attr_given_to_one_op_stays_with_that_op():
    a = tf.constant(1.0, name="a")
    first = tf.add(a, a, name="first")
    second = tf.add(a, a, name="second")
    with tf.control_dependencies([first]):
        tf.identity(a, name="after_first")
    with tf.colocate_with(second.op):
        third = tf.add(a, a, name="third")
    with tf.get_default_graph().gradient_override_map({"AddV2": "Identity"}):
        fourth = tf.add(a, a, name="fourth")
    assert first.op.get_attr("_has_manual_control_dependencies") is True
    assert "_has_manual_control_dependencies" not in second.op.attrs
    assert third.op.get_attr("_class") == ["loc:@second"]
    assert fourth.op.get_attr("_gradient_op_type") == "Identity"
    plain = tf.add(a, a, name="plain").op
    assert sorted(plain.attrs) == ["T"] and sorted(second.op.attrs) == ["T"]
    assert plain.node_def.attr["T"].type == second.op.node_def.attr["T"].type == 1


def test_a_numbers_constant_value_cannot_be_changed():
    x = tf.placeholder(tf.float32, [])
    y = (x + 1) + 1
    value = y.op.inputs[1].op.get_attr("value")
    assert value == 1.0 and value.dtype == np.float32
    with pytest.raises(ValueError):
        value[()] = 5.0
    with pytest.raises(ValueError):
        value.setflags(write=True)
    zero, minus_zero = tf.constant(0.0), tf.constant(-0.0)
    assert not np.signbit(zero.op.get_attr("value")) and np.signbit(minus_zero.op.get_attr("value"))
    assert tf.constant(1).dtype == tf.int32 and tf.constant(1, tf.float32).dtype == tf.float32
    assert tf.constant(float("nan")).op.get_attr("value") != tf.constant(float("nan")).op.get_attr("value")
    with tf.Session() as sess:
        assert sess.run(y, {x: 2.0}) == 4.0


def test_shapes_copy_and_pickle_as_values():
    shape = tf.TensorShape([None, 3])
    for other in (copy.copy(shape), copy.deepcopy(shape), pickle.loads(pickle.dumps(shape))):
        assert other.as_list() == [None, 3]
    assert pickle.loads(pickle.dumps(tf.TensorShape(None))).ndims is None
    p = tf.placeholder(tf.float32, [None, 3])
    q = tf.placeholder(tf.float32, [None, 3])
    p.set_shape([2, 3])
    assert p.shape.as_list() == [2, 3] and q.shape.as_list() == [None, 3]
