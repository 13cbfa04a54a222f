"""Pooling in the NCHW layout builds as in TF 2.21 (avg_pool / max_pool and their gradients, one or two ints
read as the window's H and W, the shapes TF infers), and in NHWC windows across the batch or across depth
and space build, then fail when run with TF's error class and words (depthwise max pooling runs). Compared
with TF run beside us."""
import pytest

from tests import tfsnippets

PROGRAM = """
import numpy as np
data = np.arange(2 * 4 * 4 * 4, dtype=np.float32).reshape(2, 4, 4, 4)
result = []
cases = [("avg", fmt, k) for fmt in ("NCHW", "NHWC")
         for k in ([1, 1, 2, 2], [1, 2, 2, 1], [2, 1, 1, 1], [1, 1, 1, 2], [1, 2, 1, 1])
         if not (fmt, k) in (("NCHW", [1, 2, 1, 1]), ("NHWC", [1, 1, 1, 2]))]    # TF's own odd results
cases += [("max", fmt, k) for fmt in ("NCHW", "NHWC")
          for k in ([1, 1, 2, 2], [1, 2, 2, 1], [2, 1, 1, 1], [1, 1, 1, 2], [1, 2, 1, 1])]
cases += [("avg2d", "NCHW", 2), ("avg2d", "NHWC", 2), ("max_same", "NCHW", [2, 2]), ("max_same", "NHWC", [2, 2])]
for kind, fmt, k in cases:      # each in a graph of its own (TF's CPU layout rewrite depends on the graph)
    with tf.Graph().as_default(), tf.Session() as sess:
        x = tf.constant(data)
        if kind == "avg2d":
            y = tf.nn.avg_pool2d(x, k, k, "VALID", data_format=fmt)
        elif kind == "max_same":
            y = tf.nn.max_pool(x, k, k, "SAME", data_format=fmt)
        else:
            y = (tf.nn.avg_pool if kind == "avg" else tf.nn.max_pool)(x, ksize=k, strides=k, padding="VALID",
                                                                       data_format=fmt)
        grad = tf.gradients(tf.reduce_sum(y * y), x)[0]
        row = [kind, fmt, k, y.op.type, y.shape.as_list(), grad.op.type, grad.shape.as_list()]
        if fmt == "NCHW":
            # whether TF runs an NCHW pool on a CPU depends on its graph optimizer rewriting the layout, which
            # it does in some graphs and not others ("Default AvgPoolingOp only supports NHWC on device type
            # CPU"); graphlab always computes it, in NHWC, as TF does when rewritten
            result.append(row)
            continue
        try:
            row.append(np.round(sess.run(y), 3).ravel().tolist())
            row += [grad.op.type, np.round(sess.run(grad), 3).ravel().tolist()]
        except tf.errors.OpError as e:
            lines = e.message.split("\\n")
            at = [i + 1 for i, l in enumerate(lines) if l.startswith("Node: ")] or [2]
            row += [type(e).__name__, lines[at[0]]]
        result.append(row)
"""


@pytest.fixture(scope="module")
def tf_result():
    return tfsnippets.reference(results={"program": PROGRAM})["results"]["program"]["result"]


def test_pooling_layouts_as_tf(tf_result):
    ours = tfsnippets.run_result(PROGRAM)["result"]
    assert len(ours) == len(tf_result)
    for mine, theirs in zip(ours, tf_result):
        assert mine == theirs


def test_nchw_pool_values_are_nhwc_transposed():
    """graphlab computes an NCHW pool and its gradients as the NHWC pool of the transposed input."""
    import numpy as np
    import graphlab as tf
    data = np.random.RandomState(0).randn(2, 3, 5, 6).astype(np.float32)
    with tf.Graph().as_default(), tf.Session() as sess:
        x = tf.constant(data)
        xt = tf.transpose(x, [0, 2, 3, 1])
        for pool in (tf.nn.avg_pool, tf.nn.max_pool):
            for padding in ("VALID", "SAME"):
                y = pool(x, [1, 1, 2, 3], [1, 1, 2, 2], padding, data_format="NCHW")
                yt = tf.transpose(pool(xt, [1, 2, 3, 1], [1, 2, 2, 1], padding), [0, 3, 1, 2])
                g, gt = tf.gradients(tf.reduce_sum(y * y), x)[0], tf.gradients(tf.reduce_sum(yt * yt), x)[0]
                a, b, c, d = sess.run([y, yt, g, gt])
                assert y.shape.as_list() == list(a.shape) == list(b.shape)
                np.testing.assert_allclose(a, b, rtol=1e-6)
                np.testing.assert_allclose(c, d, rtol=1e-5)
