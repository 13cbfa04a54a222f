"""The code of seed 002 ("the confusing parts"), run as written: names, Saver's files, partial restore,
var_list dicts, and list_variables. Expected names and errors were checked against TF 2.21 (compat.v1)."""
import os

import numpy as np
import pytest

import graphlab as tf


def test_unique_names_and_scopes():
    a = tf.constant(0.)
    b = tf.constant(1.)
    c = tf.constant(2., name="cool_const")
    d = tf.constant(3., name="cool_const")
    assert [a.name, b.name, c.name, d.name] == ["Const:0", "Const_1:0", "cool_const:0", "cool_const_1:0"]
    with tf.variable_scope("first_scope"):
        c = a + b
        d = tf.constant(2., name="cool_const")
        coef1 = tf.get_variable("coef", [], initializer=tf.constant_initializer(2.))
        with tf.variable_scope("second_scope"):
            e = coef1 * d
            coef2 = tf.get_variable("coef", [], initializer=tf.constant_initializer(3.))
            f = tf.constant(1.)
            g = coef2 * f
    assert [c.name, d.name] == ["first_scope/add:0", "first_scope/cool_const:0"]
    assert [e.name, f.name, g.name] == ["first_scope/second_scope/mul:0", "first_scope/second_scope/Const:0",
                                        "first_scope/second_scope/mul_1:0"]
    assert coef1.name == "first_scope/coef:0" and coef2.name == "first_scope/second_scope/coef:0"


def _save_model(path, names, shapes=None):
    with tf.Graph().as_default():
        variables = [tf.get_variable(n, (shapes or {}).get(n, [])) for n in names]
        init = tf.global_variables_initializer()
        saver = tf.train.Saver()
        sess = tf.Session()
        sess.run(init)
        saver.save(sess, path)
        return dict(zip(names, sess.run(variables)))


def test_saver_writes_four_files_and_restores_without_init(tmp_path):
    path = str(tmp_path / "tftcp.model")
    saved = _save_model(path, ["a", "b"])
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "tftcp.model.data-00000-of-00001",
                                            "tftcp.model.index", "tftcp.model.meta"]
    with tf.Graph().as_default():
        a = tf.get_variable("a", [])
        b = tf.get_variable("b", [])
        saver = tf.train.Saver()
        sess = tf.Session()
        saver.restore(sess, path)
        assert sess.run([a, b]) == [saved["a"], saved["b"]]


def test_var_list_is_fixed_when_the_saver_is_made():
    a = tf.get_variable("a", [])
    b = tf.get_variable("b", [])
    saver = tf.train.Saver()
    tf.get_variable("c", [])
    assert repr(saver._var_list) == ("[<tf.Variable 'a:0' shape=() dtype=float32_ref>, "
                                     "<tf.Variable 'b:0' shape=() dtype=float32_ref>]")
    assert tf.train.Saver(var_list=[a, b])._var_list == [a, b]


def test_partial_restore_into_smaller_model_works(tmp_path):
    path = str(tmp_path / "tftcp.model")
    saved = _save_model(path, ["a", "b"])
    with tf.Graph().as_default():
        a = tf.get_variable("a", [])
        init = tf.global_variables_initializer()
        saver = tf.train.Saver()
        sess = tf.Session()
        sess.run(init)
        saver.restore(sess, path)
        assert sess.run(a) == saved["a"]


def test_restoring_into_larger_model_names_the_missing_key(tmp_path):
    path = str(tmp_path / "tftcp.model")
    _save_model(path, ["a"])
    with tf.Graph().as_default():
        tf.get_variable("a", [])
        tf.get_variable("d", [])
        init = tf.global_variables_initializer()
        saver = tf.train.Saver()
        sess = tf.Session()
        sess.run(init)
        with pytest.raises(tf.errors.NotFoundError, match="Key d not found in checkpoint"):
            saver.restore(sess, path)


def test_var_list_dict_maps_checkpoint_names_to_variables(tmp_path):
    path = str(tmp_path / "tftcp.model")
    saved = _save_model(path, ["a"])
    with tf.Graph().as_default():
        d = tf.get_variable("d", [])
        init = tf.global_variables_initializer()
        saver = tf.train.Saver(var_list={"a": d})
        sess = tf.Session()
        sess.run(init)
        saver.restore(sess, path)
        assert sess.run(d) == saved["a"]


def test_list_variables_of_a_checkpoint(tmp_path):
    path = str(tmp_path / "tftcp.model")
    _save_model(path, ["a", "b", "c"], shapes={"b": [10, 20]})
    assert tf.train.list_variables(path) == [("a", []), ("b", [10, 20]), ("c", [])]


def test_restore_shape_mismatch_names_both_shapes(tmp_path):
    path = str(tmp_path / "m")
    _save_model(path, ["a"], shapes={"a": [3]})
    with tf.Graph().as_default():
        tf.get_variable("a", [2])
        saver = tf.train.Saver()
        sess = tf.Session()
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"lhs shape= \[2\] rhs shape= \[3\]"):
            saver.restore(sess, path)


def test_running_init_after_restore_overwrites_restored_values(tmp_path):
    path = str(tmp_path / "m")
    saved = _save_model(path, ["a"], shapes={"a": [5]})
    with tf.Graph().as_default():
        a = tf.get_variable("a", [5])
        init = tf.global_variables_initializer()
        saver = tf.train.Saver()
        sess = tf.Session()
        saver.restore(sess, path)
        np.testing.assert_array_equal(sess.run(a), saved["a"])
        sess.run(init)
        assert not np.array_equal(sess.run(a), saved["a"])
