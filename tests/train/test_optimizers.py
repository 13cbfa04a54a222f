"""Optimizers: TF1's variable names after minimize, update math of the training kernels, convergence."""
import numpy as np
import pytest

import graphlab as tf


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield


def test_adam_variable_names_match_tensorflow():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    with tf.variable_scope("weight_def"):
        w = tf.get_variable("weights", [3, 2])
        b = tf.Variable(tf.zeros([2]), name="b")
    loss = tf.reduce_sum(tf.matmul(x, w) + b)
    gs = tf.train.get_or_create_global_step()
    opt = tf.train.AdamOptimizer(0.1)
    train = opt.minimize(loss, global_step=gs)
    # printed by TensorFlow 2.21 (compat.v1) for the same code
    assert [v.name for v in tf.global_variables()] == [
        "weight_def/weights:0", "weight_def/b:0", "global_step:0", "beta1_power:0", "beta2_power:0",
        "weight_def/weights/Adam:0", "weight_def/weights/Adam_1:0", "weight_def/b/Adam:0",
        "weight_def/b/Adam_1:0"]
    assert opt.get_slot_names() == ["m", "v"]
    assert opt.get_slot(w, "m").name == "weight_def/weights/Adam:0"
    assert (train.name, train.type) == ("Adam", "AssignAdd")
    g = tf.get_default_graph()
    assert g.get_operation_by_name("Adam/update_weight_def/weights/ApplyAdam").type == "ApplyAdam"
    assert [t.name for t in g.get_operation_by_name("Adam/update_weight_def/b/ApplyAdam").inputs][-1] == \
        "gradients/add_grad/tuple/control_dependency_1:0"
    assert [c.name for c in g.get_operation_by_name("Adam/update").control_inputs] == [
        "Adam/update_weight_def/weights/ApplyAdam", "Adam/update_weight_def/b/ApplyAdam", "Adam/Assign",
        "Adam/Assign_1"]
    with tf.Session() as sess:
        with pytest.raises(tf.errors.FailedPreconditionError, match="uninitialized value"):
            sess.run(train, {x: np.ones((1, 3))})
        sess.run(tf.global_variables_initializer())
        sess.run(train, {x: np.ones((1, 3))})
        assert sess.run(gs) == 1


def test_slot_names_of_other_optimizers():
    w = tf.Variable(tf.ones([3, 2]), name="w")
    loss = tf.reduce_sum(w * w)
    tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    m = tf.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True)
    m.minimize(loss)
    tf.train.AdagradOptimizer(0.1).minimize(loss)
    r = tf.train.RMSPropOptimizer(0.1, momentum=0.5)
    r.minimize(loss)
    assert [v.name for v in tf.global_variables()] == [
        "w:0", "w/Momentum:0", "w/Adagrad:0", "w/RMSProp:0", "w/RMSProp_1:0"]
    assert m.get_slot_names() == ["momentum"] and r.get_slot_names() == ["momentum", "rms"]
    g = tf.get_default_graph()
    assert g.get_operation_by_name("w/Adagrad/Initializer/Const").type == "Const"
    assert g.get_operation_by_name("w/RMSProp/Initializer/ones").type == "Const"


def _reference_step(kind, w, g, s, t):
    """TF's kernel arithmetic, written out in numpy."""
    if kind == "sgd":
        return w - 0.1 * g
    if kind == "momentum":
        s["a"] = s["a"] * 0.9 + g
        return w - (g * 0.1 + s["a"] * 0.9 * 0.1)
    if kind == "adagrad":
        s["a"] = s["a"] + g * g
        return w - 0.1 * g / np.sqrt(s["a"])
    if kind == "rmsprop":
        s["ms"] += (g * g - s["ms"]) * (1 - 0.9)
        s["mom"] = s["mom"] * 0.5 + 0.1 * g / np.sqrt(s["ms"] + 1e-10)
        return w - s["mom"]
    alpha = 0.1 * np.sqrt(1 - 0.999 ** t) / (1 - 0.9 ** t)
    s["m"] += (g - s["m"]) * 0.1
    s["v"] += (g * g - s["v"]) * 0.001
    return w - s["m"] * alpha / (np.sqrt(s["v"]) + 1e-8)


@pytest.mark.parametrize("kind", ["sgd", "momentum", "adagrad", "rmsprop", "adam"])
def test_update_math_matches_tensorflow_kernels(kind):
    w0 = np.array([1.0, -2.0, 3.0])
    w = tf.Variable(w0, name="w")
    loss = tf.reduce_sum(w * w * w)
    opt = {"sgd": lambda: tf.train.GradientDescentOptimizer(0.1),
           "momentum": lambda: tf.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True),
           "adagrad": lambda: tf.train.AdagradOptimizer(0.1),
           "rmsprop": lambda: tf.train.RMSPropOptimizer(0.1, momentum=0.5),
           "adam": lambda: tf.train.AdamOptimizer(0.1)}[kind]()
    step = opt.minimize(loss)
    state = {"a": np.full(3, 0.1 if kind == "adagrad" else 0.0), "ms": np.ones(3), "mom": np.zeros(3),
             "m": np.zeros(3), "v": np.zeros(3)}
    expected = w0.copy()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for t in range(1, 4):
            sess.run(step)
            expected = _reference_step(kind, expected, 3 * expected ** 2, state, t)
            np.testing.assert_allclose(sess.run(w), expected, rtol=1e-5)  # hyper-parameters are float32 consts, as in TF


def test_linear_regression_converges():
    rng = np.random.RandomState(0)
    X = rng.randn(100, 2).astype(np.float32)
    Y = X @ np.array([[2.0], [-3.0]], np.float32) + 1.0
    x = tf.placeholder(tf.float32, [None, 2])
    y = tf.placeholder(tf.float32, [None, 1])
    w = tf.Variable(tf.zeros([2, 1]))
    b = tf.Variable(0.0)
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
    step = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(300):
            sess.run(step, {x: X, y: Y})
        np.testing.assert_allclose(sess.run(w), [[2.0], [-3.0]], atol=1e-4)
        np.testing.assert_allclose(sess.run(b), 1.0, atol=1e-4)


def _blobs(n_per, classes, dim, seed):
    rng = np.random.RandomState(seed)
    centers = rng.randn(classes, dim) * 3
    X = np.concatenate([centers[c] + rng.randn(n_per, dim) for c in range(classes)]).astype(np.float32)
    Y = np.repeat(np.arange(classes), n_per)
    order = rng.permutation(len(Y))
    return X[order], Y[order]


def test_mlp_with_adam_learns_generated_classes():
    X, Y = _blobs(60, 4, 8, seed=1)
    tf.set_random_seed(0)
    x = tf.placeholder(tf.float32, [None, 8])
    y = tf.placeholder(tf.int32, [None])
    h = tf.nn.relu(tf.matmul(x, tf.Variable(tf.random_normal([8, 16], stddev=0.3))) + tf.Variable(tf.zeros([16])))
    logits = tf.matmul(h, tf.Variable(tf.random_normal([16, 4], stddev=0.3))) + tf.Variable(tf.zeros([4]))
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=tf.one_hot(y, 4), logits=logits))
    step = tf.train.AdamOptimizer(0.01).minimize(loss)
    acc = tf.reduce_mean(tf.cast(tf.equal(tf.cast(tf.argmax(logits, 1), tf.int32), y), tf.float32))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(200):
            sess.run(step, {x: X, y: Y})
        assert sess.run(acc, {x: X, y: Y}) > 0.95


def test_exponential_decay():
    gs = tf.train.get_or_create_global_step()
    lr = tf.train.exponential_decay(0.1, gs, 10, 0.5, staircase=True)
    assert lr.name == "ExponentialDecay:0"
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert np.isclose(sess.run(lr), 0.1)
        sess.run(tf.assign(gs, 25))
        assert np.isclose(sess.run(lr), 0.025)
    with pytest.raises(ValueError, match="already exists"):
        tf.train.create_global_step()


OPTIMIZERS = {
    "sgd": lambda: tf.train.GradientDescentOptimizer(0.1),
    "momentum": lambda: tf.train.MomentumOptimizer(0.1, 0.9),
    "nesterov": lambda: tf.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True),
    "adagrad": lambda: tf.train.AdagradOptimizer(0.1),
    "rmsprop": lambda: tf.train.RMSPropOptimizer(0.1, momentum=0.5),
    "adam": lambda: tf.train.AdamOptimizer(0.1),
}


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_values_fetched_before_later_steps_never_change(name):
    """The update kernels write slots in place, and a variable's new value must not land in an array the
    user kept (a fetched array, a view of one, the value fetched together with the step)."""
    w = tf.Variable(np.arange(6, dtype=np.float32).reshape(2, 3), name="w")
    step = OPTIMIZERS[name]().minimize(tf.reduce_sum(w * w))
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    kept = []
    for i in range(6):
        fetched = sess.run(w)
        kept.append((fetched, fetched.copy()))
        row = sess.run(w)[1]                                 # only a view of the fetched array survives
        kept.append((row, row.copy()))
        _, with_step = sess.run([step, w])
        kept.append((with_step, with_step.copy()))
    for held, copy in kept:
        np.testing.assert_array_equal(held, copy)
    assert not np.array_equal(sess.run(w), kept[0][1])     # training did move the variable
