"""tf.nn.fused_batch_norm (FusedBatchNormV3 / FusedBatchNormGradV3) against TensorFlow 2.21: graphs with
gradients, outputs in training and inference (running averages, unbiased variance, reserve spaces), channels
first (NCHW, which tf.keras's LayerNormalization uses), float16,
second derivatives, and errors."""
import numpy as np

import graphlab as tf
from tests.tfcompare import Cases, install_tests

R = np.random.RandomState(11)
X = R.uniform(-2, 2, (3, 2, 4, 2)).astype(np.float32)
X5 = R.uniform(-2, 2, (2, 2, 2, 3, 2)).astype(np.float32)
DY = R.uniform(-1, 1, (3, 2, 4, 2)).astype(np.float32)

GRAPHS = {
    "fused_batch_norm": """
x = tf.placeholder(tf.float32, [None, 2, 4, 2], name="x")
s = tf.placeholder(tf.float32, [2], name="s")
o = tf.placeholder(tf.float32, [2], name="o")
m = tf.placeholder(tf.float32, [2], name="m")
v = tf.placeholder(tf.float32, [2], name="v")
y, bm, bv = tf.nn.fused_batch_norm(x, s, o)
y2, _, _ = tf.nn.fused_batch_norm(x, s, o, mean=m, variance=v, is_training=False, name="infer")
y3, _, _ = tf.nn.fused_batch_norm(x, s, o, m, v, epsilon=1e-5, exponential_avg_factor=0.1)
y4, _, _ = tf.nn.fused_batch_norm(x, [1.0, 2.0], [0.0, 0.5])
g = tf.gradients([y * y, y2 * y2, y3], [x, s, o, m, v])
""",
}

VALUES = {
    "training_and_inference": """
x = tf.placeholder(tf.float32, [3, 2, 4, 2])
m = tf.placeholder(tf.float32, [2])
v = tf.placeholder(tf.float32, [2])
s = tf.constant([1.5, -0.5])
o = tf.constant([0.1, 0.2])
a = tf.nn.fused_batch_norm(x, s, o)
b = tf.nn.fused_batch_norm(x, s, o, mean=m, variance=v, is_training=False, epsilon=0.01)
c = tf.nn.fused_batch_norm(x, s, o, mean=m, variance=v, exponential_avg_factor=0.3)
dy = tf.constant(DY)
g = tf.gradients([a[0] * dy, b[0] * dy], [x, s, o, m, v])
fetch = list(a) + list(b) + list(c) + [t for t in g if t is not None] + a[0].op.outputs[3:5]
feed = {x: X, m: [0.5, -0.25], v: [2.0, 0.5]}
""",
    "second_order_and_5d": """
x = tf.constant(X)
s = tf.constant([1.5, -0.5])
y = tf.nn.fused_batch_norm(x, s, tf.constant([0.1, 0.2]))[0]
gx, gs = tf.gradients(tf.reduce_sum(y * y * tf.constant(DY)), [x, s])
gg = tf.gradients(tf.reduce_sum(gx * gx) + tf.reduce_sum(gs * gs), [x, s])
z = tf.nn.fused_batch_norm(tf.constant(X5), tf.ones([2]), tf.zeros([2]), data_format="NDHWC")
fetch = [gx, gs] + gg + list(z)
""",
    "channels_first": """
x = tf.constant(np.moveaxis(X, -1, 1))
s = tf.constant([1.5, -0.5])
o = tf.constant([0.1, 0.2])
a = tf.nn.fused_batch_norm(x, s, o, data_format="NCHW")
b = tf.nn.fused_batch_norm(x, s, o, mean=a[1], variance=a[2], is_training=False, data_format="NCHW")
g = tf.gradients(tf.reduce_sum(a[0] * a[0] * tf.constant(np.moveaxis(DY, -1, 1))) + tf.reduce_sum(b[0]), [x, s, o])
fetch = list(a) + list(b) + g
""",
    "float16": """
h = tf.constant(X.astype(np.float16))
y, bm, bv = tf.nn.fused_batch_norm(h, tf.ones([2]), tf.zeros([2]))
fetch = [y, bm, bv, tf.gradients(tf.reduce_sum(y), h)[0]]
""",
}

BUILD_ERRORS = {
    "rank": "tf.nn.fused_batch_norm(tf.zeros([2, 3]), tf.ones([3]), tf.zeros([3]))",
    "channels": "tf.nn.fused_batch_norm(tf.zeros([2, 2, 2, 3]), tf.ones([2]), tf.zeros([3]))",
    "no_stats": "tf.nn.fused_batch_norm(tf.zeros([2, 2, 2, 3]), tf.ones([3]), tf.zeros([3]), is_training=False)",
    "float64": "tf.nn.fused_batch_norm(tf.zeros([2, 2, 2, 3], tf.float64), tf.ones([3], tf.float64), "
               "tf.zeros([3], tf.float64))",
    "scale_rank": "tf.nn.fused_batch_norm(tf.zeros([2, 2, 2, 3]), tf.ones([3, 1]), tf.zeros([3]))",
}

CASES = Cases(graphs=GRAPHS, values=VALUES, build_errors=BUILD_ERRORS, data={"X": X, "X5": X5, "DY": DY})


install_tests(globals(), CASES, rtol=2e-4, atol=2e-4)


def test_the_gradient_reads_the_batch_statistics_the_op_kept():
    x = tf.placeholder(tf.float32, [2, 2, 2, 3], name="x")
    y = tf.nn.fused_batch_norm(x, tf.ones([3]), tf.zeros([3]))[0]
    grad = tf.gradients(y, x)[0].op
    assert grad.type == "FusedBatchNormGradV3"
    assert [t.name for t in grad.inputs[3:]] == ["FusedBatchNormV3:3", "FusedBatchNormV3:4", "FusedBatchNormV3:5"]
