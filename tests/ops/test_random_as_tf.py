"""Seeded random ops draw TensorFlow's own numbers (Philox): the same graph gives the same initial weights,
dropout masks and samples in graphlab as in TF 2.21, run after run. float32 normals agree to a few units in
the last place (TF's float32 log/sin/cos); uniforms, integers, float64 samples, shuffles, categorical,
gamma and Poisson draws, the uniform and log-uniform candidate samplers' picks and a RandomShuffleQueue's
order are identical."""
import json

import numpy as np

import graphlab
from tests import tfref
from tests.tfcompare import Cases, install_tests

CASES = Cases(values={
    "uniform_float32": "tf.set_random_seed(1)\nfetch = [tf.random_uniform([7, 5]), tf.random_uniform([3], seed=9)]",
    "uniform_range_and_float64": "fetch = [tf.random_uniform([1001], -3.0, 5.0, dtype=tf.float64, seed=4)]",
    "uniform_float16": "fetch = [tf.random_uniform([9], dtype=tf.float16, seed=4)]",
    "normal": "tf.set_random_seed(3)\nfetch = [tf.random_normal([1000], mean=1.0, stddev=2.0), "
              "tf.random_normal([5], dtype=tf.float64)]",
    "truncated_normal": "fetch = [tf.truncated_normal([4097], seed=11), "
                        "tf.truncated_normal([7, 3], dtype=tf.float64, seed=2)]",
    "uniform_int": "tf.set_random_seed(5)\nfetch = [tf.random_uniform([1000], 0, 10, dtype=tf.int32), "
                   "tf.random_uniform([99], -7, 1 << 40, dtype=tf.int64)]",
    "initializers": (
        "tf.set_random_seed(0)\n"
        "x = tf.placeholder(tf.float32, [None, 4])\n"
        "h = tf.layers.dense(x, 8, activation=tf.nn.relu)\n"
        "w = tf.get_variable('w', [8, 3], initializer=tf.truncated_normal_initializer(stddev=0.1))\n"
        "v = tf.Variable(tf.random_normal([3]))\n"
        "fetch = [v.initial_value for v in tf.trainable_variables()]\n"),
    "dropout": "tf.set_random_seed(2)\nfetch = [tf.nn.dropout(tf.ones([10, 10]), keep_prob=0.5)]",
    # RandomShuffle: TF's Fisher-Yates order, rows of a matrix moved whole; one row or a scalar draws nothing
    "shuffle": ("tf.set_random_seed(4)\n"
                "fetch = [tf.random_shuffle(tf.range(50)), tf.random_shuffle(tf.reshape(tf.range(60), [12, 5]), seed=3),"
                " tf.random_shuffle([7]), tf.random_shuffle(tf.constant(2.0)), tf.random_shuffle(tf.zeros([0, 3]))]"),
    # Multinomial: TF's draws row after row; infinite and NaN logits add nothing to the running total, and a
    # row with no finite logit gives the index num_classes, as TF's does
    "categorical": (
        "tf.set_random_seed(6)\n"
        "logits = np.random.RandomState(0).randn(4, 10).astype(np.float32)\n"
        "fetch = [tf.multinomial(logits, 50), tf.random.categorical(logits.astype(np.float64), 3, dtype=tf.int32),"
        " tf.random.categorical([[0.0, -np.inf, 1.0, np.nan]], 9, seed=5),"
        " tf.random.categorical([[-np.inf, -np.inf]], 3, seed=5), tf.multinomial(tf.zeros([3, 2]), 0)]"),
    # RandomGamma and RandomPoissonV2: TF's rejection loops, each output in its own counter block; alpha 1,
    # alpha below 1, Poisson's two algorithms (rate below 10 and from 10 on) and a negative rate (0, no error)
    "gamma": ("tf.set_random_seed(3)\n"
              "fetch = [tf.random_gamma([5], [0.3, 1.0, 2.5, 7.0]), tf.random.gamma([2, 3], [[0.05, 1.5]], "
              "dtype=tf.float64, seed=4), tf.random.gamma([4000], [0.5, 3.0], beta=[1.0, 2.0]), "
              "tf.random_gamma([3], tf.zeros([0])), tf.random_gamma([0], [1.0])]"),
    "poisson": ("tf.set_random_seed(3)\n"
                "fetch = [tf.random_poisson([0.5, 3.0, 9.99, 10.0, 55.5, 1e4], [6]), "
                "tf.random.poisson([[-1.0, 0.0]], [2], dtype=tf.int32, seed=2), "
                "tf.random.poisson(tf.constant([2.5, 30.0], tf.float64), [3000], dtype=tf.float64, seed=9)]"),
    # the uniform and log-uniform candidate samplers (nce_loss's and sampled_softmax_loss's defaults): TF's
    # words two per draw, with and without repeats, a power-of-two range (low bits) and others
    "candidate_samplers": (
        "tf.set_random_seed(11)\n"
        "t = tf.constant([[1], [5], [7]], tf.int64)\n"
        "fetch = [x for s in [tf.nn.log_uniform_candidate_sampler(t, 1, 8, True, 50),"
        " tf.nn.log_uniform_candidate_sampler(t, 1, 6, False, 50000, seed=3),"
        " tf.nn.uniform_candidate_sampler(t, 1, 5, True, 10), tf.nn.uniform_candidate_sampler(t, 1, 6, False, 1000),"
        " tf.nn.uniform_candidate_sampler(t, 1, 4, True, 64, seed=1)] for x in s]"),
    # RandomShuffleQueue: one Philox word per element dequeued picks it (TF's swap with the last and pop)
    "random_shuffle_queue": (
        "q = tf.RandomShuffleQueue(50, 5, [tf.int32, tf.float32], shapes=[[], [2]], seed=3)\n"
        "enq = q.enqueue_many([tf.range(40), tf.reshape(tf.range(80, dtype=tf.float32), [40, 2])])\n"
        "with tf.control_dependencies([enq]):\n"
        "    fetch = list(q.dequeue_many(20))\n"
        "with tf.control_dependencies(fetch):\n"
        "    fetch += q.dequeue_many(15)\n"),
}, run_errors={
    "categorical_no_classes": "fetch = [tf.multinomial(tf.zeros([2, 0]), 0)]",
    "categorical_negative_fed_count": ("n = tf.placeholder(tf.int32, [])\n"
                                       "fetch = [tf.multinomial(tf.zeros([2, 3]), n)]\nfeed = {n: -2}"),
}, build_errors={
    "categorical_negative_count": "tf.multinomial(tf.zeros([2, 3]), tf.constant(-1))",
})
install_tests(globals(), CASES, rtol=1e-6, atol=1e-7)

_RUNS = """
import json, sys
import numpy as np
import tensorflow.compat.v1 as tf
tf.disable_v2_behavior()
tf.set_random_seed(42)
u = tf.random_uniform([6])
n = tf.truncated_normal([5])
k = tf.random_uniform([4], 0, 100, dtype=tf.int32)
out = []
p = tf.random_shuffle(tf.range(8))
c = tf.multinomial([[0.1, 0.5, 0.2]], 6)
g = [tf.random_gamma([3], [0.5, 2.0]), tf.random_poisson([4.0, 40.0], [3]),
     tf.nn.log_uniform_candidate_sampler([[3]], 1, 4, True, 20).sampled_candidates]
for _ in range(2):                      # a fresh session starts every generator again
    with tf.Session() as sess:
        out.append([sess.run([u, n, k, p, c] + g) for _ in range(3)])
print(json.dumps([[[v.tolist() for v in run] for run in session] for session in out]))
"""


def test_each_run_draws_new_numbers_and_a_new_session_repeats_them():
    theirs = tfref.run_tf_json(_RUNS)
    scope = {}
    exec(_RUNS.replace("import tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()", "import graphlab as tf")
         .replace("print(json.dumps(", "result = json.loads(json.dumps("), scope)
    ours = scope["result"]
    assert len(ours) == len(theirs) == 2
    for session_ours, session_theirs in zip(ours, theirs):
        for run_ours, run_theirs in zip(session_ours, session_theirs):
            for mine, tfs in zip(run_ours, run_theirs):
                np.testing.assert_allclose(mine, tfs, rtol=1e-6)
    assert ours[0][0][0] != ours[0][1][0]            # the second run of an op gives new numbers


def test_unseeded_ops_differ_between_sessions():
    u = graphlab.random_uniform([8])
    with graphlab.Session() as a, graphlab.Session() as b:
        assert not np.array_equal(a.run(u), b.run(u))
