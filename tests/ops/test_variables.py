"""tf.Variable, initializers of collections and report_uninitialized_variables, against TF 2.21 compat.v1."""
import numpy as np
import pytest

import graphlab as tf


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


def op_names():
    return [op.name + ":" + op.type for op in tf.get_default_graph().get_operations()]


def test_variable_builds_tf_ops():
    v = tf.Variable([1.0, 2.0], name="v")
    assert op_names() == ["v/initial_value:Const", "v:VariableV2", "v/Assign:Assign", "v/read:Identity"]
    assert v.name == "v:0"
    assert v.dtype == tf.float32._as_ref and str(v.dtype) == "<dtype: 'float32_ref'>"
    assert repr(v) == "<tf.Variable 'v:0' shape=(2,) dtype=float32_ref>"
    assert v.initializer.name == "v/Assign"
    assert v.initial_value.name == "v/initial_value:0"
    assert v.value().name == "v/read:0"
    assert v.read_value().name == "read:0"


def test_assign_family_and_values():
    v = tf.Variable([1.0, 2.0], name="v")
    a, b, c = v.assign([3., 4.]), v.assign_add([1., 1.]), v.assign_sub([2., 2.])
    assert (a.name, b.name, c.name) == ("Assign:0", "AssignAdd:0", "AssignSub:0")
    assert (tf.assign(v, [0., 0.]).name) == "Assign_1:0"
    with tf.Session() as sess:
        sess.run(v.initializer)
        np.testing.assert_array_equal(sess.run(a), [3., 4.])
        np.testing.assert_array_equal(sess.run(b), [4., 5.])
        np.testing.assert_array_equal(sess.run(c), [2., 3.])
        np.testing.assert_array_equal(v.eval(), [2., 3.])


def test_global_variables_initializer_makes_a_new_init_each_call():
    v = tf.Variable(1.0, name="v")
    i1 = tf.global_variables_initializer()
    i2 = tf.global_variables_initializer()
    assert (i1.name, i2.name, i1.type) == ("init", "init_1", "NoOp")
    assert [op.name for op in i1.control_inputs] == ["v/Assign"]
    empty = tf.variables_initializer([])
    assert (empty.name, empty.type) == ("init_2", "NoOp")
    assert tf.variables_initializer([v], name="vi").name == "vi"


def test_collections_trainable_and_local():
    v = tf.Variable(1.0, name="v")
    w = tf.Variable(5, name="w", trainable=False)
    loc = tf.Variable(1.0, name="l", collections=[tf.GraphKeys.LOCAL_VARIABLES])
    assert tf.trainable_variables() == [v, loc]   # TF adds trainable even with explicit collections
    assert tf.global_variables() == [v, w]
    assert tf.local_variables() == [loc]
    li = tf.local_variables_initializer()
    assert li.name == "init" and [op.name for op in li.control_inputs] == ["l/Assign"]


def test_uninitialized_value_error():
    v = tf.Variable(1.0, name="v")
    with tf.Session() as sess:
        with pytest.raises(tf.errors.FailedPreconditionError) as e:
            sess.run(v)
    # TF 2.21 finds it when it hands the variable's buffer back, at the fetch's _retval node (no op of the
    # graph); tests/framework/test_error_messages_as_tf.py compares this with live TF
    assert e.value.message == ("Graph execution error:\n\nAttempting to use uninitialized value v\n"
                               "\t [[{{node _retval_v_0_0}}]]")
    assert e.value.op is None


def test_report_uninitialized_variables():
    v = tf.Variable([1.0, 2.0], name="v")
    w = tf.Variable(5, name="w", trainable=False)
    tf.Variable(1.0, name="l", collections=[tf.GraphKeys.LOCAL_VARIABLES])
    report = tf.report_uninitialized_variables()
    names = [op.name + ":" + op.type for op in tf.get_default_graph().get_operations()
             if op.name.startswith("report")]
    assert names[:5] == ["report_uninitialized_variables/IsVariableInitialized:IsVariableInitialized",
                         "report_uninitialized_variables/IsVariableInitialized_1:IsVariableInitialized",
                         "report_uninitialized_variables/IsVariableInitialized_2:IsVariableInitialized",
                         "report_uninitialized_variables/stack:Pack",
                         "report_uninitialized_variables/LogicalNot:LogicalNot"]
    assert report.name == "report_uninitialized_variables/boolean_mask/GatherV2:0"
    assert report.dtype == tf.string and report.shape.as_list() == [None]
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(report), [b"v", b"w", b"l"])
        sess.run(v.initializer)
        np.testing.assert_array_equal(sess.run(report), [b"w", b"l"])
        only = tf.report_uninitialized_variables([v, w])
        assert only.name.startswith("report_uninitialized_variables_1/")
        np.testing.assert_array_equal(sess.run(only), [b"w"])


def test_report_with_no_variables_is_an_empty_const():
    report = tf.report_uninitialized_variables()
    assert (report.name, report.op.type) == ("report_uninitialized_variables/Const:0", "Const")
    with tf.Session() as sess:
        out = sess.run(report)
    assert out.shape == (0,) and out.dtype == object


def test_two_sessions_have_separate_values():
    v = tf.Variable(1.0, name="v")
    inc = v.assign_add(1.0)
    s1, s2 = tf.Session(), tf.Session()
    s1.run(v.initializer)
    s2.run(v.initializer)
    s1.run(inc)
    s1.run(inc)
    assert s1.run(v) == 3.0
    assert s2.run(v) == 1.0
    s1.close()
    s2.close()
