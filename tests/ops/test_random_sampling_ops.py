"""tf.random.categorical / tf.multinomial, tf.random.gamma (with its gradient), tf.random.poisson,
tf.random.shuffle, tf.random_crop and the tf.random namespace against TensorFlow 2.21: graphs op for op,
TF's implicit gradient of Gamma samples (RandomGammaGrad) value for value, seeding, and the distributions'
statistics (the draws themselves are TF's own: tests/ops/test_random_as_tf.py)."""
import numpy as np

import graphlab as tf
from graphlab.framework.registry import build_op
from tests.tfcompare import Cases, install_tests

GRAPHS = {
    "categorical": """
l = tf.placeholder(tf.float32, [2, 3], name="l")
y = [tf.random.categorical(l, 4), tf.multinomial(l, 5, seed=3, output_dtype=tf.int32),
     tf.random.categorical(l, tf.constant(2), dtype=tf.int32, name="cat"), tf.random.multinomial(l, 1)]
""",
    "gamma_and_gradient": """
a = tf.placeholder(tf.float32, [3], name="a")
b = tf.placeholder(tf.float32, [3], name="b")
y = [tf.random.gamma([4], a, b), tf.random_gamma([2, 5], 2.0), tf.random.gamma([2], a, dtype=tf.float32, seed=7)]
g = tf.gradients([tf.reduce_sum(t) for t in y], [a, b])
""",
    "poisson_shuffle_crop": """
lam = tf.placeholder(tf.float32, [3], name="lam")
y = [tf.random.poisson(lam, [4]), tf.random_poisson(2.0, [2, 5], dtype=tf.int32), tf.random.shuffle(lam),
     tf.random_crop(tf.zeros([5, 4, 3]), [2, 2, 3]), tf.random.uniform([2]), tf.random.normal([2]),
     tf.random.truncated_normal([2])]
""",
}

VALUES = {
    # d sample / d alpha of Gamma(alpha, 1) at fixed samples: TF's RandomGammaGrad kernel, value for value
    "random_gamma_grad": """
rgg = tf.raw_ops.RandomGammaGrad if hasattr(tf, "raw_ops") else rgg
alpha = tf.constant([[0.3], [1.0], [2.5], [7.0]])
sample = tf.constant([[0.05, 0.3, 1.2], [0.2, 1.0, 3.0], [0.5, 2.4, 6.0], [3.0, 7.0, 12.0]])
fetch = [rgg(alpha=alpha, sample=sample), rgg(alpha=tf.constant([1.5, 4.0], tf.float64),
                                              sample=tf.constant([1.0, 4.5], tf.float64))]
""",
}

BUILD_ERRORS = {
    "categorical_dtype": "tf.random.categorical(tf.zeros([2, 3]), 2, dtype=tf.float32)",
    "categorical_rank": "tf.random.categorical(tf.zeros([3]), 2)",
}

CASES = Cases(graphs=GRAPHS, values=VALUES, build_errors=BUILD_ERRORS,
              graphlab_names={"rgg": lambda alpha, sample: build_op("RandomGammaGrad", [alpha, sample]).outputs[0]})


install_tests(globals(), CASES, rtol=1e-4, atol=1e-6)


def _run(fetches, seed=1):
    tf.reset_default_graph()
    tf.set_random_seed(seed)
    with tf.Session() as sess:
        return sess.run(fetches())


def test_samples_follow_their_distributions():
    logits = np.log(np.array([[0.2, 0.3, 0.5], [0.9, 0.05, 0.05]], np.float32))
    cats, gammas, poissons = _run(lambda: (tf.random.categorical(logits, 20000),
                                           tf.random.gamma([20000], [0.5, 3.0], beta=[1.0, 2.0]),
                                           tf.random.poisson([1.5, 9.0], [20000])))
    freq = np.stack([np.bincount(row, minlength=3) / 20000.0 for row in cats])
    np.testing.assert_allclose(freq, np.exp(logits), atol=0.015)
    np.testing.assert_allclose(gammas.mean(0), [0.5, 1.5], rtol=0.05)
    np.testing.assert_allclose(poissons.mean(0), [1.5, 9.0], rtol=0.05)


def test_gamma_gradient_is_the_derivative_of_the_mean():
    """E[x] = alpha / beta, so d mean(samples) / d alpha ~ 1 / beta and d / d beta ~ -alpha / beta^2."""
    def build():
        alpha = tf.constant([0.7, 2.0, 5.0])
        beta = tf.constant([1.0, 2.0, 0.5])
        samples = tf.random.gamma([20000], alpha, beta)
        return tf.gradients(tf.reduce_sum(tf.reduce_mean(samples, 0)), [alpha, beta])
    d_alpha, d_beta = _run(build)
    np.testing.assert_allclose(d_alpha, [1.0, 0.5, 2.0], rtol=0.04)
    np.testing.assert_allclose(d_beta, [-0.7, -0.5, -20.0], rtol=0.04)


def test_a_seeded_graph_repeats_its_samples_in_a_new_session():
    first = _run(lambda: [tf.random.categorical([[0.0, 1.0, 2.0]], 8), tf.random.gamma([4], 2.0),
                          tf.random.poisson(3.0, [4]), tf.random_crop(tf.reshape(tf.range(20), [5, 4]), [2, 2])],
                 seed=5)
    again = _run(lambda: [tf.random.categorical([[0.0, 1.0, 2.0]], 8), tf.random.gamma([4], 2.0),
                          tf.random.poisson(3.0, [4]), tf.random_crop(tf.reshape(tf.range(20), [5, 4]), [2, 2])],
                 seed=5)
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
