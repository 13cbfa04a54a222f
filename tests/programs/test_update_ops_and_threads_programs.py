"""TF1 programs on issue 25's themes, in the forms public collections use them, run on both sides (one TF
subprocess) with what they print compared:

* OneChance/ml test.py: ``ema.apply`` inside a ``tf.cond`` branch under ``control_dependencies``, and
  ``ema.average(...) or 99.0`` in the other branch;
* the hands-on-ml / timodenk.com batch norm: ``tf.layers.batch_normalization(training=...)`` with the
  ``UPDATE_OPS`` as the train op's control dependencies;
* pix2pix / cifar10_train: the moving averages of a loss and of variables applied after the optimizer
  (``num_updates`` from the global step), the loss read under ``control_dependencies([train])``;
* stackoverflow 34634291's ``batch_norm``: moments and an EMA applied in ``tf.cond(phase_train, ...)``;
* the web-server bug: a model built in the main thread, run from a worker thread (a new thread gets an empty
  default graph; ``graph.as_default()`` repairs it);
* a RandomShuffleQueue's ``dequeue_many`` waiting while elements come one by one, as a ``shuffle_batch`` fed
  by its runner thread sees them: TF picks each element when it arrives, among the ``min_after_dequeue + 1``
  there (graphlab waited for the whole batch and picked among more, so a seeded shuffle_batch gave other
  batches than TF).
"""
import pytest

from tests import tfsnippets

CAPTURE = """
import numpy as np
printed = []
def print(*args):
    printed.append(" ".join(str(a) for a in args))
"""

PROGRAMS = {
    "onechance_ema": """
x = tf.placeholder(tf.float32, [None, 3])
is_test = tf.placeholder(tf.bool)


def batch_run(_x, _is_test):
    ema = tf.train.ExponentialMovingAverage(decay=0.5)
    _mean, _var = tf.nn.moments(x, axes=[0, 1])

    def mean_update():
        ema_apply_oper = ema.apply([_mean, _var])
        with tf.control_dependencies([ema_apply_oper]):
            return tf.identity(_mean)

    def m_mean():
        return ema.average(_mean) or 99.0

    return tf.cond(_is_test, m_mean, mean_update)

mean = batch_run(x, is_test)

init = tf.global_variables_initializer()
session = tf.Session()
session.run(init)
for i in range(1, 3):
    bx = np.array([[i * 1, i * 2, i * 3]])
    print(session.run(mean, feed_dict={x: bx, is_test: False}))
print(session.run(mean, feed_dict={x: [[10, 20, 30]], is_test: True}))
""",
    "bn_update_ops": """
# the timodenk.com / hands-on-ml idiom: tf.layers.batch_normalization, UPDATE_OPS as train_op's dependencies
tf.set_random_seed(1)
rng = np.random.RandomState(0)
X = tf.placeholder(tf.float32, [None, 4], name="X")
y = tf.placeholder(tf.int32, [None], name="y")
training = tf.placeholder_with_default(False, shape=(), name="training")
h = tf.layers.dense(X, 8, name="hidden1")
h = tf.nn.elu(tf.layers.batch_normalization(h, training=training, momentum=0.9))
logits = tf.layers.batch_normalization(tf.layers.dense(h, 3, name="out"), training=training, momentum=0.9)
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
print([op.name for op in update_ops])
with tf.control_dependencies(update_ops):
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
mm = [v for v in tf.global_variables() if "moving_mean" in v.name]
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    xb = rng.randn(16, 4).astype(np.float32); yb = rng.randint(0, 3, 16)
    for step in range(5):
        _, l = sess.run([train_op, loss], {X: xb, y: yb, training: True})
        print(step, round(float(l), 4))
    print(np.round(sess.run(mm[0]), 4))
    print(round(float(sess.run(loss, {X: xb, y: yb})), 4))
""",
    "ema_loss": """
# pix2pix / cifar10 idiom: the moving averages of losses and variables updated under the train op
x = tf.constant(np.linspace(-1, 1, 8).reshape(8, 1).astype(np.float32))
y_true = 3 * x + 1
w = tf.Variable(0.0, name="w"); b = tf.Variable(0.0, name="b")
loss = tf.reduce_mean(tf.square(w * x + b - y_true))
global_step = tf.train.get_or_create_global_step()
opt = tf.train.GradientDescentOptimizer(0.2).minimize(loss, global_step=global_step)
ema = tf.train.ExponentialMovingAverage(decay=0.9, num_updates=global_step)
with tf.control_dependencies([opt]):
    update_losses = ema.apply([loss])
    ema_vars = ema.apply([w, b])
train = tf.group(update_losses, ema_vars)
with tf.control_dependencies([train]):
    reported = tf.identity(ema.average(loss))
print(ema.average_name(loss), ema.average(w).name, [v.name for v in tf.moving_average_variables()])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(4):
        print(np.round(sess.run([reported, ema.average(w), w, global_step]), 4).tolist())
    saver_vars = ema.variables_to_restore()
    print(sorted(saver_vars))
""",
    "so_batch_norm_cond": """
# stackoverflow 34634291's batch_norm: moments, an EMA applied inside tf.cond(phase_train, ...)
def batch_norm(x, n_out, phase_train):
    with tf.variable_scope('bn'):
        beta = tf.Variable(tf.constant(0.0, shape=[n_out]), name='beta', trainable=True)
        gamma = tf.Variable(tf.constant(1.0, shape=[n_out]), name='gamma', trainable=True)
        batch_mean, batch_var = tf.nn.moments(x, [0, 1, 2], name='moments')
        ema = tf.train.ExponentialMovingAverage(decay=0.5)
        def mean_var_with_update():
            ema_apply_op = ema.apply([batch_mean, batch_var])
            with tf.control_dependencies([ema_apply_op]):
                return tf.identity(batch_mean), tf.identity(batch_var)
        mean, var = tf.cond(phase_train, mean_var_with_update,
                            lambda: (ema.average(batch_mean), ema.average(batch_var)))
        normed = tf.nn.batch_normalization(x, mean, var, beta, gamma, 1e-3)
    return normed, ema, batch_mean
x = tf.placeholder(tf.float32, [2, 2, 2, 3])
phase = tf.placeholder(tf.bool, [])
normed, ema, bm = batch_norm(x, 3, phase)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    rng = np.random.RandomState(3)
    for i in range(3):
        xb = rng.randn(2, 2, 2, 3).astype(np.float32) + i
        print(np.round(sess.run(normed, {x: xb, phase: True})[0, 0, 0], 4))
        print(np.round(sess.run(ema.average(bm)), 4))
    print(np.round(sess.run(normed, {x: xb, phase: False})[0, 0, 0], 4))
    print([v.name for v in tf.global_variables()])
""",
    "threads_graph": """
import threading
# the web-server / Keras bug: a model built in the main thread, run from a worker thread
x = tf.placeholder(tf.float32, [None, 2], name="x")
w = tf.Variable([[1.0], [2.0]], name="w")
y = tf.matmul(x, w)
graph = tf.get_default_graph()
sess = tf.Session()
sess.run(tf.global_variables_initializer())
out = {}
def worker():
    out["same_graph"] = tf.get_default_graph() is graph
    out["ops_in_new"] = len(tf.get_default_graph().get_operations())
    try:
        with tf.Session() as s2:
            s2.run(y, {x: [[1, 1]]})
        out["new_session"] = "ok"
    except Exception as e:
        out["new_session"] = "%s: %s" % (type(e).__name__, e)
    out["shared_session"] = sess.run(y, {x: [[1, 1]]}).tolist()
    with graph.as_default():
        out["as_default"] = tf.get_default_graph() is graph
        c = tf.constant(1.0, name="made_in_worker")
    out["c_graph"] = c.graph is graph
t = threading.Thread(target=worker); t.start(); t.join()
for k in sorted(out):
    print(k, out[k])
print([op.name for op in graph.get_operations()][-2:])
""",
    "queue_served": """
import threading, time
q = tf.RandomShuffleQueue(10, 2, [tf.int32], shapes=[[]], seed=4, name="q")
x = tf.placeholder(tf.int32, [])
enq = q.enqueue([x])
deq = q.dequeue_many(3)
sess = tf.Session()
for i in range(2):
    sess.run(enq, {x: i})
got = {}
t = threading.Thread(target=lambda: got.setdefault("batch", sess.run(deq)))
t.start()
time.sleep(1.0)
for i in range(2, 7):
    sess.run(enq, {x: i})
t.join()
print(got["batch"].tolist(), sess.run(q.size()))
print(sess.run(q.dequeue_many(2)).tolist())
""",
}


@pytest.fixture(scope="module")
def tf_printed():
    snippets = {k: CAPTURE + v + "\nresult = printed\n" for k, v in PROGRAMS.items()}
    return tfsnippets.reference(results=snippets)["results"]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_prints_what_tf_prints(name, tf_printed):
    ours = tfsnippets.run_result(CAPTURE + PROGRAMS[name] + "\nresult = printed\n")["result"]
    assert ours == tf_printed[name]["result"]
