"""A small MNIST-style CNN, one gradient-descent step, same initial weights: the same losses and updated
weights in graphlab and in real TensorFlow. The TF1 code below runs unchanged under both; a second graphlab
version builds the same model with tf.layers (kernels fed as initial values)."""

import numpy as np

import graphlab
from tests import tfref

MODEL = """
d = np.load(DATA)
x = tf.placeholder(tf.float32, [None, 8, 8, 1], name="x")
y = tf.placeholder(tf.int64, [None], name="y")
k1, b1 = tf.Variable(d["k1"], name="k1"), tf.Variable(d["b1"], name="b1")
k2, b2 = tf.Variable(d["k2"], name="k2"), tf.Variable(d["b2"], name="b2")
w3, b3 = tf.Variable(d["w3"], name="w3"), tf.Variable(d["b3"], name="b3")
h = tf.nn.relu(tf.nn.conv2d(x, k1, [1, 1, 1, 1], "SAME") + b1)
h = tf.nn.max_pool(h, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
h = tf.nn.relu(tf.nn.conv2d(h, k2, [1, 2, 2, 1], "SAME") + b2)
h = tf.nn.avg_pool(h, [1, 2, 2, 1], [1, 1, 1, 1], "SAME")
logits = tf.matmul(tf.reshape(h, [-1, 2 * 2 * 4]), w3) + b3
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
step = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {x: d["x"], y: d["y"]}
    before, _ = sess.run([loss, step], feed)
    after, k1v, w3v = sess.run([loss, k1, w3], feed)
RESULT = {"before": float(before), "after": float(after), "k1": k1v.ravel().tolist(), "w3": w3v.ravel().tolist()}
"""


def _data(path):
    r = np.random.RandomState(3)
    np.savez(path, x=r.rand(6, 8, 8, 1).astype(np.float32), y=r.randint(0, 3, 6).astype(np.int64),
             k1=(r.randn(3, 3, 1, 2) * 0.5).astype(np.float32), b1=np.full(2, 0.1, np.float32),
             k2=(r.randn(3, 3, 2, 4) * 0.5).astype(np.float32), b2=np.full(4, 0.1, np.float32),
             w3=(r.randn(16, 3) * 0.5).astype(np.float32), b3=np.zeros(3, np.float32))
    return str(path)


def _ours(data):
    graphlab.reset_default_graph()
    scope = {"tf": graphlab, "np": np, "DATA": data}
    exec(MODEL, scope)
    return scope["RESULT"]


def test_one_training_step_matches_tensorflow(tmp_path):
    data = _data(tmp_path / "cnn.npz")
    ours = _ours(data)
    theirs = tfref.run_tf_json("DATA = sys.argv[1]\n" + MODEL + "print(json.dumps(RESULT))\n", data)
    assert ours["after"] < ours["before"]
    np.testing.assert_allclose([ours["before"], ours["after"]], [theirs["before"], theirs["after"]], rtol=1e-5)
    np.testing.assert_allclose(ours["k1"], theirs["k1"], rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(ours["w3"], theirs["w3"], rtol=1e-4, atol=1e-6)


def test_same_model_with_layers_gives_the_same_step(tmp_path):
    data = _data(tmp_path / "cnn.npz")
    ours = _ours(data)
    tf, d = graphlab, np.load(data)
    tf.reset_default_graph()
    init = tf.constant_initializer
    x = tf.placeholder(tf.float32, [None, 8, 8, 1])
    y = tf.placeholder(tf.int64, [None])
    h = tf.layers.conv2d(x, 2, 3, padding="same", activation=tf.nn.relu, kernel_initializer=init(d["k1"]),
                         bias_initializer=init(0.1))
    h = tf.layers.max_pooling2d(h, 2, 2)
    h = tf.layers.conv2d(h, 4, 3, strides=2, padding="same", activation=tf.nn.relu,
                         kernel_initializer=init(d["k2"]), bias_initializer=init(0.1))
    h = tf.layers.average_pooling2d(h, 2, 1, padding="same")
    logits = tf.layers.dense(tf.layers.flatten(h), 3, kernel_initializer=init(d["w3"]))
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    step = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        before, _ = sess.run([loss, step], {x: d["x"], y: d["y"]})
        after, k1 = sess.run([loss, tf.global_variables()[0]], {x: d["x"], y: d["y"]})
    assert tf.global_variables()[0].name == "conv2d/kernel:0"
    np.testing.assert_allclose([before, after], [ours["before"], ours["after"]], rtol=1e-6)
    np.testing.assert_allclose(k1.ravel(), ours["k1"], rtol=1e-5, atol=1e-7)
