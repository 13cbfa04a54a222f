"""Classic TF1 tutorial programs run whole in graphlab and in TensorFlow 2.21 side by side, from one TF
subprocess: the same graph op for op, and the same numbers.

* the canonical linear-regression tutorial (aymericdamien/TensorFlow-Examples, 2_BasicModels), trained with
  GradientDescent and with Adam: one scalar sample is fed per step, so every step differentiates reduce_sum
  over a rank-0 value, whose gradient divides by the rank (0) of nothing (TF: an empty result, no error);
* every reduction differentiated over values whose rank is only known at run time (a scalar, a vector, an
  empty matrix);
* (synthetic data in place of MNIST downloads) the nearest-neighbour classifier of the same collection
  (tf.arg_min), a convolutional autoencoder trained with tf.nn.conv2d_transpose, and PCA by
  tf.self_adjoint_eig / tf.svd with per-class means by tf.unsorted_segment_mean.
"""
import numpy as np

from tests.tfcompare import Cases, install_tests

LINEAR_REGRESSION = """
import numpy
rng = numpy.random.RandomState(1)
learning_rate, training_epochs, display_step = 0.01, 60, 10
train_X = numpy.asarray([3.3,4.4,5.5,6.71,6.93,4.168,9.779,6.182,7.59,2.167,
                         7.042,10.791,5.313,7.997,5.654,9.27,3.1])
train_Y = numpy.asarray([1.7,2.76,2.09,3.19,1.694,1.573,3.366,2.596,2.53,1.221,
                         2.827,3.465,1.65,2.904,2.42,2.94,1.3])
n_samples = train_X.shape[0]
X = tf.placeholder("float")
Y = tf.placeholder("float")
W = tf.Variable(rng.randn(), name="weight")
b = tf.Variable(rng.randn(), name="bias")
pred = tf.add(tf.multiply(X, W), b)
cost = tf.reduce_sum(tf.pow(pred-Y, 2))/(2*n_samples)
optimizer = OPTIMIZER(learning_rate=learning_rate).minimize(cost)
init = tf.global_variables_initializer()
log = []
with tf.Session() as sess:
    sess.run(init)
    for epoch in range(training_epochs):
        for (x, y) in zip(train_X, train_Y):
            sess.run(optimizer, feed_dict={X: x, Y: y})
        if (epoch+1) % display_step == 0:
            c = sess.run(cost, feed_dict={X: train_X, Y:train_Y})
            log.append([float(c), float(sess.run(W)), float(sess.run(b))])
    training_cost = sess.run(cost, feed_dict={X: train_X, Y: train_Y})
    test_X = numpy.asarray([6.83, 4.668, 8.9, 7.91, 5.7, 8.7, 3.1, 2.1])
    test_Y = numpy.asarray([1.84, 2.273, 3.2, 2.831, 2.92, 3.24, 1.35, 1.03])
    testing_cost = sess.run(tf.reduce_sum(tf.pow(pred - Y, 2)) / (2 * test_X.shape[0]),
                            feed_dict={X: test_X, Y: test_Y})
fetch = [tf.constant(numpy.array(log)), tf.constant(numpy.array([training_cost, testing_cost]))]
"""

RANK_0_REDUCTIONS = """
x = tf.placeholder(tf.float32)
outs = [tf.reduce_sum(x), tf.reduce_mean(x), tf.reduce_max(x), tf.reduce_min(x), tf.reduce_prod(x),
        tf.reduce_logsumexp(x), tf.reduce_sum(x, keepdims=True), tf.reduce_mean(x, keepdims=True)]
grads = [tf.gradients(o, x)[0] for o in outs]
fetch = []
with tf.Session() as sess:
    for v in [np.float32(3.0), np.array([1.0, 2.0, 2.0], np.float32), np.ones([2, 0], np.float32)]:
        fetch += [tf.constant(r) for r in sess.run(grads + outs, {x: v})]
"""

R = np.random.RandomState(21)
XTR = R.uniform(0, 1, (200, 16)).astype(np.float32)
YTR = R.randint(0, 4, 200).astype(np.int32)
XTE = (XTR[R.randint(0, 200, 20)] + R.normal(0, 0.05, (20, 16))).astype(np.float32)
IMAGES = R.uniform(0, 1, (8, 8, 8, 1)).astype(np.float32)
W1 = R.normal(0, 0.3, (3, 3, 1, 4)).astype(np.float32)
W2 = R.normal(0, 0.3, (3, 3, 1, 4)).astype(np.float32)

PROGRAMS = {
    "linear_regression_gradient_descent": LINEAR_REGRESSION.replace("OPTIMIZER", "tf.train.GradientDescentOptimizer"),
    "linear_regression_adam": LINEAR_REGRESSION.replace("OPTIMIZER", "tf.train.AdamOptimizer"),
    "rank_0_reductions": RANK_0_REDUCTIONS,
    # aymericdamien/TensorFlow-Examples examples/2_BasicModels/nearest_neighbor.py, on synthetic data
    "nearest_neighbor": """
xtr = tf.placeholder("float", [None, 16])
xte = tf.placeholder("float", [16])
distance = tf.reduce_sum(tf.abs(tf.add(xtr, tf.negative(xte))), reduction_indices=1)
pred = tf.arg_min(distance, 0)
init = tf.global_variables_initializer()
predictions = []
with tf.Session() as sess:
    sess.run(init)
    for i in range(len(XTE)):
        nn_index = sess.run(pred, feed_dict={xtr: XTR, xte: XTE[i, :]})
        predictions.append(int(YTR[nn_index]))
fetch = [tf.constant(np.array(predictions))]
""",
    # a convolutional autoencoder: conv2d + max_pool down, conv2d_transpose up, Adam on the squared error
    "conv_autoencoder": """
x = tf.placeholder(tf.float32, [None, 8, 8, 1], name="x")
w1 = tf.Variable(W1, name="enc_w")
w2 = tf.Variable(W2, name="dec_w")
h = tf.nn.relu(tf.nn.conv2d(x, w1, strides=[1, 1, 1, 1], padding="SAME"))
h = tf.nn.max_pool(h, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME")
batch = tf.shape(x)[0]
out = tf.nn.sigmoid(tf.nn.conv2d_transpose(h, w2, tf.stack([batch, 8, 8, 1]), [1, 2, 2, 1], "SAME"))
loss = tf.reduce_mean(tf.pow(x - out, 2))
train = tf.train.AdamOptimizer(0.05).minimize(loss)
losses = []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(6):
        _, value = sess.run([train, loss], {x: IMAGES})
        losses.append(value)
    final = sess.run(w2)
fetch = [tf.constant(np.array(losses)), tf.constant(final)]
""",
    # PCA of the training points: covariance, eigen-decomposition, projections; class means by segment ops
    "pca_and_class_means": """
data = tf.constant(XTR)
centered = data - tf.reduce_mean(data, axis=0)
cov = tf.matmul(centered, centered, transpose_a=True) / tf.cast(tf.shape(data)[0] - 1, tf.float32)
evals, evecs = tf.self_adjoint_eig(cov)
top = tf.reverse(evecs, [1])[:, :2]
signs = tf.sign(top[0:1, :])
projected = tf.tensordot(centered, top * signs, axes=1)
s = tf.svd(centered, compute_uv=False)
class_means = tf.unsorted_segment_mean(projected, tf.constant(YTR), 4)
explained = tf.reverse(evals, [0])[:2] / tf.reduce_sum(evals)
fetch = [projected, class_means, explained, s * s / (200.0 - 1.0) - tf.reverse(evals, [0])]
""",
}

CASES = Cases(graphs=PROGRAMS, values=PROGRAMS,
              data={"XTR": XTR, "YTR": YTR, "XTE": XTE, "IMAGES": IMAGES, "W1": W1, "W2": W2})
install_tests(globals(), CASES, rtol=2e-4, atol=2e-5)


def test_linear_regression_learns():
    """The cost falls from the first display to the last (graphlab's own run; TF's is compared above)."""
    log = CASES.run("linear_regression_adam")[0]
    assert log[-1, 0] < log[0, 0] / 2
