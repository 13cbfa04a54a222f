"""tf.layers: TF1's variable and op names (dense/kernel, dense_1/..., conv2d/Conv2D), initializers, reuse,
values, and dropout's training flag."""
import numpy as np
import pytest

import graphlab as tf


def _cnn(x):
    h = tf.layers.conv2d(x, 4, 5, padding="same", activation=tf.nn.relu)
    h = tf.layers.max_pooling2d(h, 2, 2)
    h = tf.layers.conv2d(h, 4, [3, 3])
    h = tf.layers.flatten(h)
    h = tf.layers.dense(h, 10, activation=tf.nn.relu)
    h = tf.layers.dropout(h, 0.5, training=True)
    return tf.layers.dense(h, 3, name="logits")


def test_variable_and_op_names_follow_tf1():
    x = tf.placeholder(tf.float32, [None, 28, 28, 1], name="x")
    logits = _cnn(x)
    assert [(v.name, v.shape.as_list()) for v in tf.global_variables()] == [
        ("conv2d/kernel:0", [5, 5, 1, 4]), ("conv2d/bias:0", [4]), ("conv2d_1/kernel:0", [3, 3, 4, 4]),
        ("conv2d_1/bias:0", [4]), ("dense/kernel:0", [576, 10]), ("dense/bias:0", [10]),
        ("logits/kernel:0", [10, 3]), ("logits/bias:0", [3])]
    assert tf.trainable_variables() == tf.global_variables()
    g = tf.get_default_graph()
    for name, op_type in [("conv2d/Conv2D", "Conv2D"), ("conv2d/BiasAdd", "BiasAdd"), ("conv2d/Relu", "Relu"),
                          ("max_pooling2d/MaxPool", "MaxPool"), ("flatten/Reshape", "Reshape"),
                          ("dense/MatMul", "MatMul"), ("dense/Relu", "Relu"),
                          ("conv2d/kernel/Initializer/random_uniform", "AddV2"),
                          ("conv2d/bias/Initializer/zeros", "Const")]:
        assert g.get_operation_by_name(name).type == op_type, name
    assert logits.name == "logits/BiasAdd:0" and logits.shape.as_list() == [None, 3]
    assert [op.name for op in g.get_operations() if op.name.startswith("dropout/")][-1] == "dropout/dropout/SelectV2"


def test_glorot_uniform_bounds_and_zero_bias():
    tf.layers.dense(tf.zeros([2, 30]), 20)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        k, b = sess.run(tf.global_variables())
    limit = np.sqrt(6.0 / (30 + 20))
    assert np.all(np.abs(k) <= limit) and k.std() > limit / 3
    np.testing.assert_array_equal(b, np.zeros(20, np.float32))


def test_dense_values_and_reuse():
    x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    kernel = np.array([[1, -1], [0.5, 2], [-2, 0]], np.float32)
    y = tf.layers.dense(x, 2, activation=tf.nn.relu, kernel_initializer=tf.constant_initializer(kernel),
                        bias_initializer=tf.constant_initializer([0.5, -1]), name="fc")
    y2 = tf.layers.dense(x, 2, name="fc", reuse=True)
    with pytest.raises(ValueError, match="fc/kernel already exists"):
        tf.layers.dense(x, 2, name="fc")
    assert len(tf.global_variables()) == 2 and y2.name == "fc_1/BiasAdd:0"
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        got, got2 = sess.run([y, y2])
    want = np.arange(6).reshape(2, 3) @ kernel + [0.5, -1]
    np.testing.assert_allclose(got, np.maximum(want, 0))
    np.testing.assert_allclose(got2, want)


def test_conv2d_layer_is_nn_conv2d_plus_bias():
    x = np.random.RandomState(0).randn(2, 6, 5, 3).astype(np.float32)
    y = tf.layers.conv2d(x, 2, (3, 2), strides=2, padding="same", bias_initializer=tf.ones_initializer())
    k = tf.global_variables()[0]
    ref = tf.nn.conv2d(x, k, [1, 2, 2, 1], "SAME") + 1.0
    assert y.shape.as_list() == [2, 3, 3, 2]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        a, b = sess.run([y, ref])
    np.testing.assert_allclose(a, b, rtol=1e-6)


def test_dropout_training_flag():
    x = tf.ones([200, 50])
    off = tf.layers.dropout(x, 0.5)                      # training defaults to False: unchanged
    on = tf.layers.dropout(x, 0.5, training=True, seed=1)
    flag = tf.placeholder(tf.bool, [])
    switched = tf.layers.dropout(x, 0.5, training=flag)
    with tf.Session() as sess:
        v_off, v_on = sess.run([off, on])
        np.testing.assert_array_equal(v_off, 1.0)
        assert set(np.unique(v_on)) <= {0.0, 2.0} and 0.4 < (v_on == 0).mean() < 0.6
        np.testing.assert_array_equal(sess.run(switched, {flag: False}), 1.0)
        assert (sess.run(switched, {flag: True}) == 0).any()
