"""variable_scope / get_variable / initializers, with names and error texts from TF 2.21 compat.v1."""
import os

import numpy as np
import pytest

import graphlab as tf


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


def test_seed_000_reuse_error_names_the_original_line():
    with tf.variable_scope("weight_def"):
        tf.get_variable("weights", [1]); line = __import__("inspect").currentframe().f_lineno  # noqa: E702
    with pytest.raises(ValueError) as e:
        with tf.variable_scope("weight_def"):
            tf.get_variable("weights", [1])
    text = str(e.value)
    assert text.startswith("Variable weight_def/weights already exists, disallowed. Did you mean to set "
                           "reuse=True or reuse=tf.AUTO_REUSE in VarScope? Originally defined at:\n\n")
    assert 'File "%s", line %d, in test_seed_000' % (__file__, line) in text
    assert 'tf.get_variable("weights", [1])' in text


def test_missing_variable_with_reuse():
    with pytest.raises(ValueError) as e:
        with tf.variable_scope("foo", reuse=True):
            tf.get_variable("v", [1])
    assert str(e.value) == ("Variable foo/v does not exist, or was not created with tf.get_variable(). Did you "
                            "mean to set reuse=tf.AUTO_REUSE in VarScope?")


def test_shape_and_dtype_mismatch_on_reuse():
    with tf.variable_scope("a"):
        tf.get_variable("v", [2])
    with pytest.raises(ValueError) as e:
        with tf.variable_scope("a", reuse=True):
            tf.get_variable("v", [3])
    assert str(e.value) == "Trying to share variable a/v, but specified shape (3,) and found shape (2,)."
    with pytest.raises(ValueError) as e:
        with tf.variable_scope("a", reuse=True):
            tf.get_variable("v", [2], dtype=tf.float64)
    assert str(e.value) == ("Trying to share variable a/v, but specified dtype float64 and found dtype "
                            "float32_ref.")


def test_reuse_true_auto_reuse_and_reuse_variables():
    with tf.variable_scope("s"):
        v = tf.get_variable("v", [1])
    with tf.variable_scope("s", reuse=True):
        assert tf.get_variable("v", [1]) is v
        assert tf.get_variable("v") is v
        with tf.variable_scope("inner", reuse=False) as inner:
            assert inner.reuse is True          # reuse is inherited and cannot be switched off
    with tf.variable_scope("au", reuse=tf.AUTO_REUSE) as au:
        a1 = tf.get_variable("a", [2])
        assert tf.get_variable("a", [2]) is a1
        assert au.reuse is tf.AUTO_REUSE
    with tf.variable_scope("rv") as rv:
        b = tf.get_variable("b", [1])
        rv.reuse_variables()
        assert tf.get_variable("b", [1]) is b
    assert tf.get_variable_scope().name == "" and tf.get_variable_scope().reuse is False


def test_captured_scope_reentry_reuses_variable_names_not_op_names():
    with tf.variable_scope("s") as s:
        assert (s.name, s.original_name_scope) == ("s", "s/")
        tf.get_variable("v", [1])
    with tf.variable_scope(s):
        assert tf.get_variable_scope().name == "s"
        assert tf.get_variable_scope().original_name_scope == "s/"
        assert tf.constant(1., name="x").name == "s_1/x:0"
        assert tf.get_variable("w", [1]).name == "s/w:0"
    with tf.variable_scope("s"):
        assert tf.constant(1., name="x").name == "s_2/x:0"
    with tf.variable_scope("outer"):
        with tf.variable_scope(s):
            assert tf.get_variable_scope().name == "s"
            assert tf.constant(1., name="x").name == "outer/s/x:0"


def test_name_scope_affects_ops_not_variables():
    with tf.name_scope("ns"):
        with tf.variable_scope("vs") as vs:
            assert tf.get_variable("v", [1]).name == "vs/v:0"
            assert tf.constant(1., name="x").name == "ns/vs/x:0"
            assert vs.original_name_scope == "ns/vs/"
        assert tf.get_variable("u", [1]).name == "u:0"


def test_default_name_scopes_are_made_unique():
    with tf.variable_scope(None, default_name="d"):
        assert tf.get_variable_scope().name == "d"
        assert tf.constant(1., name="x").name == "d/x:0"
    with tf.variable_scope(None, default_name="d"):
        assert tf.get_variable_scope().name == "d_1"
        assert tf.constant(1., name="x").name == "d_1/x:0"
    with pytest.raises(TypeError, match="If default_name is None then name_or_scope is required"):
        with tf.variable_scope(None):
            pass
    with pytest.raises(ValueError, match="reuse=True cannot be used without a name_or_scope"):
        with tf.variable_scope(None, default_name="q", reuse=True):
            pass


def test_default_initializers_and_argument_errors():
    v = tf.get_variable("v", [2, 3])
    assert [op.name for op in tf.get_default_graph().get_operations()][:7] == [
        "v/Initializer/random_uniform/shape", "v/Initializer/random_uniform/min",
        "v/Initializer/random_uniform/max", "v/Initializer/random_uniform/RandomUniform",
        "v/Initializer/random_uniform/sub", "v/Initializer/random_uniform/mul", "v/Initializer/random_uniform"]
    assert v.initializer.inputs[1].name == "v/Initializer/random_uniform:0"
    i = tf.get_variable("i", [2], dtype=tf.int32)
    assert i.initial_value.name == "i/Initializer/zeros:0"
    with pytest.raises(ValueError, match=r"^An initializer for variable c of <dtype: 'complex64'> is required$"):
        tf.get_variable("c", [2], dtype=tf.complex64)
    with pytest.raises(ValueError, match=r"^If initializer is a constant, do not specify shape\.$"):
        tf.get_variable("k", [2], initializer=tf.constant([1., 2.]))
    k = tf.get_variable("k", initializer=tf.constant([1., 2.]))
    assert k.name == "k:0" and k.shape.as_list() == [2]
    with pytest.raises(ValueError, match="The initializer passed is not valid"):
        tf.get_variable("u", [None, 2])
    with pytest.raises(ValueError, match=r"^Variable u2 did not get an initializer, so its `shape` argument "
                                         r"must be specified\.$"):
        tf.get_variable("u2")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        value = sess.run(v)
    limit = np.sqrt(6.0 / (2 + 3))
    assert value.shape == (2, 3) and np.all(np.abs(value) <= limit)


def test_regularizer_collections_and_scope_initializer():
    tf.get_variable("rg", [2], regularizer=lambda t: tf.identity(t, name="Sum"))
    assert [t.name for t in tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)] == ["rg/Regularizer/Sum:0"]
    nt = tf.get_variable("nt", [1], trainable=False, collections=["mine"])
    assert nt not in tf.global_variables() and tf.get_collection("mine") == [nt]
    assert nt not in tf.trainable_variables()
    with tf.variable_scope("ini", initializer=tf.constant_initializer(5.)):
        z = tf.get_variable("z", [2])
    assert [op.name for op in tf.get_default_graph().get_operations() if op.name.startswith("ini")] == [
        "ini/z/Initializer/Const", "ini/z", "ini/z/Assign", "ini/z/read"]
    with tf.Session() as sess:
        sess.run(z.initializer)
        np.testing.assert_array_equal(sess.run(z), [5., 5.])


@pytest.mark.parametrize("make, prefix", [
    (lambda: tf.constant_initializer(2.), "v/Initializer/Const"),
    (lambda: tf.zeros_initializer(), "v/Initializer/zeros"),
    (lambda: tf.ones_initializer(), "v/Initializer/ones"),
    (lambda: tf.random_normal_initializer(), "v/Initializer/random_normal"),
    (lambda: tf.random_uniform_initializer(), "v/Initializer/random_uniform"),
    (lambda: tf.truncated_normal_initializer(), "v/Initializer/truncated_normal"),
    (lambda: tf.glorot_normal_initializer(), "v/Initializer/truncated_normal"),
    (lambda: tf.glorot_uniform_initializer(), "v/Initializer/random_uniform"),
    (lambda: tf.variance_scaling_initializer(), "v/Initializer/truncated_normal"),
])
def test_initializer_op_names(make, prefix):
    v = tf.get_variable("v", [2, 3], initializer=make())
    assert v.initializer.inputs[1].name == prefix + ":0"
    with tf.Session() as sess:
        sess.run(v.initializer)
        assert sess.run(v).shape == (2, 3)


def test_initializer_values():
    cases = {
        "c": (tf.constant_initializer([1., 2., 3.]), [1., 2., 3.]),
        "z": (tf.zeros_initializer(), [0., 0., 0.]),
        "o": (tf.ones_initializer(), [1., 1., 1.]),
    }
    made = {k: tf.get_variable(k, [3], initializer=init) for k, (init, _) in cases.items()}
    big = tf.get_variable("big", [200, 300], initializer=tf.glorot_normal_initializer(seed=1))
    tn = tf.get_variable("tn", [10000], initializer=tf.truncated_normal_initializer(stddev=2.0, seed=3))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for k, (_, expected) in cases.items():
            np.testing.assert_array_equal(sess.run(made[k]), expected)
        b = sess.run(big)
        t = sess.run(tn)
    assert abs(b.std() - np.sqrt(2.0 / 500)) < 0.1 * np.sqrt(2.0 / 500)
    assert np.all(np.abs(t) <= 4.0)


def test_get_variable_source_file_is_callers():
    v = tf.get_variable("v", [1])
    assert os.path.samefile(v.op.source_line.filename, __file__)
