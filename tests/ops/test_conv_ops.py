"""tf.nn.conv2d / max_pool / avg_pool: values against a naive loop reference and real TF, TF's op names for
the gradient graph, shapes and errors at build time. (Every gradient rule is also checked numerically by
tests/gradients/test_gradients.py.)"""
import json

import numpy as np
import pytest

import graphlab as tf
from tests import tfref

R = np.random.RandomState(7)
CASES = [((1, 1, 1, 1), "SAME"), ((1, 1, 1, 1), "VALID"), ((1, 2, 2, 1), "SAME"), ((1, 2, 3, 1), "VALID"),
         ((1, 3, 2, 1), "SAME")]


def _naive_conv(x, f, strides, padding):
    """Loop-by-loop cross-correlation with TF's SAME padding rule (extra pad goes after)."""
    n, h, w, c = x.shape
    kh, kw, _, o = f.shape
    sh, sw = strides[1], strides[2]
    if padding == "SAME":
        oh, ow = -(-h // sh), -(-w // sw)
        ph, pw = max((oh - 1) * sh + kh - h, 0), max((ow - 1) * sw + kw - w, 0)
        x = np.pad(x, ((0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0)))
    else:
        oh, ow = (h - kh) // sh + 1, (w - kw) // sw + 1
    out = np.zeros((n, oh, ow, o))
    for i in range(oh):
        for j in range(ow):
            patch = x[:, i * sh:i * sh + kh, j * sw:j * sw + kw, :]
            out[:, i, j, :] = np.tensordot(patch, f, axes=([1, 2, 3], [0, 1, 2]))
    return out


@pytest.mark.parametrize("strides,padding", CASES)
def test_conv2d_matches_naive_reference(strides, padding):
    x, f = R.randn(2, 7, 6, 3), R.randn(3, 2, 3, 4)
    y = tf.nn.conv2d(tf.constant(x), tf.constant(f), strides, padding)
    with tf.Session() as sess:
        got = sess.run(y)
    want = _naive_conv(x, f, strides, padding)
    assert y.shape.as_list() == list(want.shape)
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


def test_pooling_values_hand_checked():
    x = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)
    mp = tf.nn.max_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
    ap = tf.nn.avg_pool(x, [1, 3, 3, 1], [1, 2, 2, 1], "SAME")   # SAME averages over real elements only
    with tf.Session() as sess:
        m, a = sess.run([mp, ap])
    np.testing.assert_array_equal(m[0, :, :, 0], [[5, 7], [13, 15]])
    np.testing.assert_allclose(a[0, :, :, 0], [[5.0, 6.5], [11.0, 12.5]])   # TF gives the same


def test_gradient_graph_names_follow_tensorflow():
    # TensorFlow 2.21 (compat.v1) builds exactly these ops for this graph.
    x = tf.placeholder(tf.float32, [None, 6, 6, 2], name="x")
    w = tf.Variable(np.ones((3, 3, 2, 4), np.float32), name="w")
    c = tf.nn.conv2d(x, w, strides=[1, 1, 1, 1], padding="SAME")
    p = tf.nn.max_pool(c, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")
    a = tf.nn.avg_pool(p, ksize=[1, 2, 2, 1], strides=[1, 1, 1, 1], padding="SAME")
    gx, gw = tf.gradients(tf.reduce_sum(a), [x, w])
    ops = [(op.name, op.type) for op in tf.get_default_graph().get_operations()
           if op.name.startswith(("gradients/AvgPool", "gradients/MaxPool", "gradients/Conv2D"))]
    assert ops == [("gradients/AvgPool_grad/Shape", "Shape"), ("gradients/AvgPool_grad/AvgPoolGrad", "AvgPoolGrad"),
                   ("gradients/MaxPool_grad/MaxPoolGrad", "MaxPoolGrad"), ("gradients/Conv2D_grad/ShapeN", "ShapeN"),
                   ("gradients/Conv2D_grad/Conv2DBackpropInput", "Conv2DBackpropInput"),
                   ("gradients/Conv2D_grad/Conv2DBackpropFilter", "Conv2DBackpropFilter")]
    assert [i.name for i in gw.op.inputs] == ["x:0", "gradients/Conv2D_grad/ShapeN:1",
                                              "gradients/MaxPool_grad/MaxPoolGrad:0"]
    assert (c.shape.as_list(), p.shape.as_list(), gx.shape.as_list(), gw.shape.as_list()) == \
        ([None, 6, 6, 4], [None, 3, 3, 4], [None, 6, 6, 2], [3, 3, 2, 4])
    assert c.op.get_attr("padding") in ("SAME", b"SAME") and c.op.get_attr("strides") == [1, 1, 1, 1]


def test_shape_errors_at_build_time():
    x = tf.placeholder(tf.float32, [1, 5, 5, 3])
    with pytest.raises(ValueError, match="Depth of input"):
        tf.nn.conv2d(x, tf.zeros([3, 3, 2, 4]), [1, 1, 1, 1], "SAME")
    with pytest.raises(ValueError, match="negative"):
        tf.nn.conv2d(x, tf.zeros([7, 7, 3, 4]), [1, 1, 1, 1], "VALID")
    with pytest.raises(ValueError, match="padding"):
        tf.nn.max_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "FULL")


def test_values_and_gradients_match_tensorflow(tmp_path):
    """Forward values and both gradients for each stride/padding case, against real TF."""
    x, f = R.randn(2, 7, 6, 3).astype(np.float32), R.randn(3, 2, 3, 4).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "f.npy", f)
    ours = []
    for strides, padding in CASES:
        tf.reset_default_graph()
        xt, ft = tf.constant(x), tf.constant(f)
        y = tf.nn.max_pool(tf.nn.conv2d(xt, ft, strides, padding), [1, 2, 2, 1], [1, 1, 2, 1], padding)
        loss = tf.reduce_sum(tf.square(y))
        with tf.Session() as sess:
            ours.append(sess.run([loss] + tf.gradients(loss, [xt, ft])))
    theirs = tfref.run_tf("""
        d = sys.argv[1]
        x, f = np.load(d + "/x.npy"), np.load(d + "/f.npy")
        for strides, padding in json.loads(sys.argv[2]):
            tf.reset_default_graph()
            xt, ft = tf.constant(x), tf.constant(f)
            y = tf.nn.max_pool(tf.nn.conv2d(xt, ft, strides, padding), [1, 2, 2, 1], [1, 1, 2, 1], padding)
            loss = tf.reduce_sum(tf.square(y))
            with tf.Session() as sess:
                l, gx, gf = sess.run([loss] + tf.gradients(loss, [xt, ft]))
            np.save(d + "/tf_%d_%s.npy" % (strides[1] * 10 + strides[2], padding), np.concatenate(
                [[l], gx.ravel(), gf.ravel()]))
        """, tmp_path, json.dumps(CASES))
    assert theirs is not None
    for (strides, padding), (l, gx, gf) in zip(CASES, ours):
        ref = np.load(tmp_path / ("tf_%d_%s.npy" % (strides[1] * 10 + strides[2], padding)))
        np.testing.assert_allclose(np.concatenate([[l], gx.ravel(), gf.ravel()]), ref, rtol=2e-4, atol=2e-4,
                                   err_msg=str((strides, padding)))


def test_tensorflow_runs_our_exported_gradient_graph(tmp_path):
    """The GraphDef carries TF's attrs (strides, padding, explicit_paddings, ...): TF imports and runs it."""
    x = tf.placeholder(tf.float32, [None, 6, 6, 2], name="x")
    w = tf.Variable(np.linspace(-1, 1, 72, dtype=np.float32).reshape(3, 3, 2, 4), name="w")
    p = tf.nn.max_pool(tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME"), [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
    loss = tf.reduce_sum(tf.nn.avg_pool(p, [1, 2, 2, 1], [1, 1, 1, 1], "SAME") ** 2)
    gx, gw = tf.gradients(loss, [x, w])
    feed = np.random.RandomState(1).rand(2, 6, 6, 2).astype(np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        ours = sess.run([loss, gx, gw], {x: feed})
    (tmp_path / "g.pb").write_bytes(tf.get_default_graph().as_graph_def().SerializeToString())
    np.save(tmp_path / "x.npy", feed)
    names = json.dumps([loss.name, gx.name, gw.name])
    tfref.run_tf("""
        d = sys.argv[1]
        tf.import_graph_def(tf.GraphDef.FromString(open(d + "/g.pb", "rb").read()), name="")
        with tf.Session() as sess:
            sess.run("w/Assign")
            out = sess.run(json.loads(sys.argv[2]), {"x:0": np.load(d + "/x.npy")})
        for i, v in enumerate(out):
            np.save(d + "/out%d.npy" % i, v)
        """, tmp_path, names)
    for i, v in enumerate(ours):
        np.testing.assert_allclose(v, np.load(tmp_path / ("out%d.npy" % i)), rtol=1e-4, atol=1e-4)
