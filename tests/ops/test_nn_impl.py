"""tf.nn.moments, weighted_moments, batch_normalization, l2_normalize and embedding_lookup: values,
gradients, names and errors. Every expected number below was printed by tensorflow.compat.v1 2.21 in
graph mode on the same inputs (their graphs are compared op for op in tests/programs/test_same_graph_as_tf.py)."""
import numpy as np
import pytest

import graphlab as tf

X = np.array([[1., 2., 4.], [3., 5., 9.], [2., 0., -1.], [6., 1., 3.]], np.float32)
G = np.array([[1., -1., 2.], [0., 3., 1.], [2., 1., 0.], [-1., 0., 1.]], np.float32)


def run(*fetches):
    with tf.Session() as sess:
        return sess.run(list(fetches))


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()


def test_moments_over_rows_and_over_everything():
    x = tf.constant(X)
    m0, v0 = tf.nn.moments(x, [0])
    m01, v01 = tf.nn.moments(x, [0, 1], keep_dims=True)
    grad = tf.gradients(v0, x)[0]
    assert (m0.shape.as_list(), m01.shape.as_list()) == ([3], [1, 1])
    got = run(m0, v0, m01, v01, grad)
    np.testing.assert_allclose(got[0], [3., 2., 3.75])
    np.testing.assert_allclose(got[1], [3.5, 3.5, 12.6875])
    np.testing.assert_allclose(got[2], [[2.9166667]], rtol=1e-6)
    np.testing.assert_allclose(got[3], [[7.076389]], rtol=1e-6)
    # StopGradient on the mean: d var / dx = 2 (x - mean) / n, no term through the mean
    np.testing.assert_allclose(got[4], [[-1., 0., 0.125], [0., 1.5, 2.625], [-0.5, -1., -2.375],
                                        [1.5, -0.5, -0.375]])


def test_moments_names_keepdims_alias_and_float16():
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    m, v = tf.nn.moments(x, [0], keepdims=True, name="stats")
    assert (m.name, v.name, m.shape.as_list()) == ("stats/mean:0", "stats/variance:0", [1, 4])
    m, v = tf.nn.moments(x, [0])
    assert (m.name, v.name) == ("moments/Squeeze:0", "moments/Squeeze_1:0")
    with pytest.raises(ValueError, match="Cannot specify both 'keep_dims' and 'keepdims'."):
        tf.nn.moments(x, [0], keep_dims=True, keepdims=True)
    h = tf.placeholder(tf.float16, [2, 2], name="h")
    hm, hv = tf.nn.moments(h, [1])
    assert (hm.dtype, hv.dtype) == (tf.float16, tf.float16)
    with tf.Session() as sess:
        got = sess.run([hm, hv], {h: [[1., 3.], [2., 2.]]})
    np.testing.assert_allclose(got[0], [2., 2.])
    np.testing.assert_allclose(got[1], [1., 0.])


def test_weighted_moments():
    wm, wv = tf.nn.weighted_moments(tf.constant(X), [0], tf.constant([[1.], [0.], [2.], [1.]]))
    got = run(wm, wv)
    np.testing.assert_allclose(got[0], [2.75, 0.75, 1.25])
    np.testing.assert_allclose(got[1], [3.6875, 0.6875, 5.1875])
    zm, zv = tf.nn.weighted_moments(tf.constant(X), [0], tf.zeros([4, 1]))   # DivNoNan: zeros, not NaN
    np.testing.assert_array_equal(run(zm, zv), [[0., 0., 0.], [0., 0., 0.]])


def test_batch_normalization_values_and_gradient():
    x = tf.constant(X)
    mean, var = tf.nn.moments(x, [0])
    y = tf.nn.batch_normalization(x, mean, var, tf.constant([0.5, -1., 0.]), tf.constant([2., 1., 0.5]), 1e-3)
    assert y.name == "batchnorm/add_1:0"
    grad = tf.gradients(tf.reduce_sum(y * G), x)[0]
    got = run(y, grad)
    np.testing.assert_allclose(got[0], [[-1.6377846, -1.0000001, 0.035091758],
                                        [0.5, 0.6033385, 0.7369265],
                                        [-0.56889224, -2.0688925, -0.66674304],
                                        [3.706677, -1.5344462, -0.10527521]], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got[1], [[-5.3414100e-01, -9.3528080e-01, 1.3690992e-01],
                                        [-5.3444618e-01, 4.0106350e-01, -7.2597884e-02],
                                        [1.0690448e+00, 6.6790515e-01, -7.4683160e-02],
                                        [-4.5782328e-04, -1.3368782e-01, 1.0371134e-02]], rtol=1e-4, atol=1e-5)


def test_batch_normalization_without_offset_and_scale():
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    y = tf.nn.batch_normalization(x, tf.constant([1., 2.]), tf.constant([4., 1.]), None, None, 0.0, name="bn")
    assert y.name == "bn/add_1:0"
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(y, {x: [[3., 2.], [1., 0.]]}), [[1., 0.], [0., -2.]])


def test_l2_normalize_along_an_axis_and_its_gradient():
    x = tf.constant(X)
    y = tf.nn.l2_normalize(x, axis=1)
    zero_column = tf.nn.l2_normalize(tf.constant([[0., 0.], [3., 4.]]), dim=0)   # epsilon: 0 stays 0
    assert (y.name, y.op.type) == ("l2_normalize:0", "Mul")
    grad = tf.gradients(tf.reduce_sum(y * G), x)[0]
    got = run(y, zero_column, grad)
    np.testing.assert_allclose(got[0], [[0.21821788, 0.43643576, 0.8728715],
                                        [0.27975145, 0.46625242, 0.8392544],
                                        [0.8944272, 0., -0.4472136],
                                        [0.8846517, 0.14744195, 0.44232586]], rtol=1e-6)
    np.testing.assert_array_equal(got[1], [[0., 0.], [1., 1.]])
    np.testing.assert_allclose(got[2], [[0.14547859, -0.36369646, 0.1454786],
                                        [-0.058382917, 0.18244658, -0.08189827],
                                        [0.17888546, 0.4472136, 0.35777086],
                                        [-0.08974728, 0.009615779, 0.17628929]], rtol=1e-5, atol=1e-7)
    with pytest.raises(ValueError, match="Cannot specify both 'dim' and 'axis'."):
        tf.nn.l2_normalize(x, axis=0, dim=0)


def test_embedding_lookup_of_2d_ids_and_its_gradient():
    params = tf.constant(np.arange(12.0, dtype=np.float32).reshape(4, 3))
    ids = tf.constant([[0, 2], [2, 3]])
    e = tf.nn.embedding_lookup(params, ids)
    assert (e.name, e.op.type, e.op.inputs[0].op.type) == ("embedding_lookup/Identity:0", "Identity", "GatherV2")
    assert e.shape.as_list() == [2, 2, 3]
    grad = tf.gradients(tf.reduce_sum(e * tf.constant([[[1., 2., 3.]]])), params)[0]
    assert isinstance(grad, tf.IndexedSlices)    # as TF: the rows looked up, not a dense table
    clipped = tf.nn.embedding_lookup([params], ids, max_norm=5.0)
    got = run(e, tf.convert_to_tensor(grad), clipped)
    np.testing.assert_array_equal(got[0], [[[0., 1., 2.], [6., 7., 8.]], [[6., 7., 8.], [9., 10., 11.]]])
    # densified, row 2 (looked up twice) gets both contributions
    np.testing.assert_array_equal(got[1], [[1., 2., 3.], [0., 0., 0.], [2., 4., 6.], [1., 2., 3.]])
    np.testing.assert_allclose(got[2], [[[0., 1., 2.], [2.4576957, 2.8673117, 3.2769277]],
                                        [[2.4576957, 2.8673117, 3.2769277], [2.589459, 2.8771768, 3.1648943]]],
                               rtol=1e-6)


def test_embedding_lookup_of_a_variable_and_errors():
    table = tf.Variable([[1., 2.], [3., 4.], [5., 6.]], name="table")
    ids = tf.placeholder(tf.int32, [None], name="ids")
    e = tf.nn.embedding_lookup(table, ids, name="lookup")
    assert [i.name for i in e.op.inputs[0].op.inputs[:2]] == ["table/read:0", "ids:0"]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_array_equal(sess.run(e, {ids: [2, 0]}), [[5., 6.], [1., 2.]])
    with pytest.raises(ValueError, match="params must be specified"):
        tf.nn.embedding_lookup(None, ids)
    with pytest.raises(ValueError, match="Length of params is currently 0"):
        tf.nn.embedding_lookup([], ids)
    with pytest.raises(NotImplementedError, match="2 sharded params .* single tensor or variable"):
        tf.nn.embedding_lookup([table, table], ids)
