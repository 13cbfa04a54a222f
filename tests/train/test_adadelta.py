"""tf.train.AdadeltaOptimizer and its ApplyAdadelta kernel against real TensorFlow (run once per module in
a subprocess, tests/tfref.py): the same graph op for op, the variable and both slots after each step on
float32 (``accum`` bit for bit; the others within TF's rsqrt estimate), and TF's run-time errors."""
import json

import numpy as np
import pytest

import graphlab as tf
import tfref
from tests.programs.test_same_graph_as_tf import DUMP, graphlab_ops

GRAPH = """
x = tf.placeholder(tf.float32, [None, 3], name="x")
w = tf.Variable(tf.ones([3, 2]), name="w")
b = tf.Variable(tf.zeros([2]), name="b")
loss = tf.reduce_sum(tf.square(tf.matmul(x, w) + b))
gs = tf.train.get_or_create_global_step()
train = tf.train.AdadeltaOptimizer(0.5, rho=0.9, epsilon=1e-6).minimize(loss, global_step=gs)
train2 = tf.train.AdadeltaOptimizer(tf.constant(1.0), name="Ada2").minimize(loss, var_list=[w])
init = tf.global_variables_initializer()
"""

UPDATES = """
def run_updates(tf, initial, grads, **kwargs):
    # w, w/Adadelta (accum) and w/Adadelta_1 (accum_update) after each step on the fed gradients
    tf.reset_default_graph()
    w = tf.Variable(initial, name="w")
    fed = tf.placeholder(initial.dtype, initial.shape)
    opt = tf.train.AdadeltaOptimizer(**kwargs)
    step = opt.apply_gradients([(fed, w)])
    slots = [opt.get_slot(w, "accum"), opt.get_slot(w, "accum_update")]
    history = [[s.op.name for s in slots]]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for g in grads:
            sess.run(step, {fed: g})
            history.append([x.tolist() for x in sess.run([w] + slots)])
    return history
"""
SETTINGS = {"defaults": {}, "large": {"learning_rate": 1.0, "rho": 0.5, "epsilon": 1e-3}}

ERRORS = """
def kernel_errors(tf):
    # TF checks these when ApplyAdadelta runs (shapes unknown while building)
    from_ops = getattr(tf, "raw_ops", None)
    apply = from_ops.ApplyAdadelta if from_ops is not None else None
    def dyn(value):
        return tf.placeholder_with_default(value, None)
    out = []
    cases = [lambda v, a, u: (v, a, u, dyn([0.1, 0.2]), 0.9, 1e-6, tf.ones([3])),
             lambda v, a, u: (v, a, u, 0.1, dyn([0.9]), 1e-6, tf.ones([3])),
             lambda v, a, u: (v, a, u, 0.1, 0.9, dyn([1e-6]), tf.ones([3])),
             lambda v, a, u: (v, a, u, 0.1, 0.9, 1e-6, dyn(tf.ones([4]))),
             lambda v, a, u: (v, a, tf.Variable(tf.zeros([3]), name="fresh"), 0.1, 0.9, 1e-6, tf.ones([3]))]
    for make in cases:
        tf.reset_default_graph()
        v = tf.Variable(tf.zeros([3]), name="v")
        a = tf.Variable(tf.zeros([3]), name="a")
        u = tf.Variable(tf.zeros([3]), name="u")
        args = make(v, a, u)
        with tf.Session() as sess:
            sess.run([v.initializer, a.initializer, u.initializer])
            try:
                sess.run(apply_adadelta(tf, *args))
                out.append(None)
            except tf.errors.OpError as e:   # TF's message also holds a traceback and the node's name
                lines = [line for line in e.message.splitlines() if line and not line[0].isspace()
                         and not line.startswith(("Graph execution error", "Detected at node", "Node:"))]
                out.append([type(e).__name__, e.op.name, lines[0]])
    return out
"""


def _data():
    rng = np.random.RandomState(1)
    initial = rng.randn(29, 17).astype(np.float32)
    grads = [(rng.randn(29, 17) * 10 ** rng.uniform(-3, 1)).astype(np.float32) for _ in range(5)]
    return initial, grads


@pytest.fixture(scope="module")
def tf_reference(tmp_path_factory):
    tfref.require_tf()
    initial, grads = _data()
    path = tmp_path_factory.mktemp("adadelta") / "data.npz"
    np.savez(path, initial=initial, grads=np.stack(grads))
    script = DUMP + UPDATES + ERRORS + """
from tensorflow.python.ops import gen_training_ops
def apply_adadelta(tf, *args):
    return gen_training_ops.apply_adadelta(*args)
exec(%r)
graph = dump()
data = np.load(sys.argv[1])
settings = json.loads(sys.argv[2])
updates = {key: run_updates(tf, data["initial"], list(data["grads"]), **kw) for key, kw in settings.items()}
print(json.dumps({"graph": graph, "updates": updates, "errors": kernel_errors(tf)}))
""" % GRAPH
    return tfref.run_tf_json(script, str(path), json.dumps(SETTINGS))


def test_minimize_builds_tensorflows_graph_op_for_op(tf_reference):
    ours = graphlab_ops(GRAPH)
    theirs = tf_reference["graph"]
    for mine, tfs in zip(ours, theirs):
        assert mine == tfs
    assert len(ours) == len(theirs)


def test_slots_are_named_as_in_tensorflow(tf_reference):
    w = tf.Variable(tf.zeros([2]), name="w")
    opt = tf.train.AdadeltaOptimizer()
    opt.minimize(tf.reduce_sum(w * w))
    assert sorted(opt.get_slot_names()) == ["accum", "accum_update"]
    assert [opt.get_slot(w, n).op.name for n in ["accum", "accum_update"]] == ["w/Adadelta", "w/Adadelta_1"]
    assert tf_reference["updates"]["defaults"][0] == ["w/Adadelta", "w/Adadelta_1"]


@pytest.mark.parametrize("setting", sorted(SETTINGS))
def test_variable_and_slots_match_tensorflow_step_by_step(tf_reference, setting):
    scope = {}
    exec(UPDATES, scope)
    ours = scope["run_updates"](tf, *_data(), **SETTINGS[setting])
    theirs = tf_reference["updates"][setting]
    assert ours[0] == theirs[0]
    assert len(ours) == len(theirs) == 6
    moved = False
    for step, (a, b) in enumerate(zip(ours[1:], theirs[1:])):
        for which, x, y in zip(["w", "accum", "accum_update"], a, b):
            x, y = np.array(x, np.float32), np.array(y, np.float32)
            message = "%s after step %d" % (which, step + 1)
            if which == "accum":      # no square root involved: TF's bits
                np.testing.assert_array_equal(x, y, err_msg=message)
            else:
                # TF's rsqrt is a refined hardware estimate (Eigen's prsqrt), an ulp or so off the exact
                # 1/sqrt; update^2 doubles it and lr = 1 with a small w magnifies it (measured: up to 8 and
                # 64 ulps, ~4e-6 relative)
                np.testing.assert_allclose(x, y, rtol=1e-5, atol=0, err_msg=message)
        moved = moved or not np.array_equal(a[0], _data()[0])
    assert moved


def test_default_hyperparameters_are_tensorflows():
    """lr 0.001, rho 0.95, epsilon 1e-8: one step from zero slots moves w by lr * sqrt(eps / (eps + 0.05 g^2)) g."""
    w = tf.Variable([1.0, -2.0], name="w")
    opt = tf.train.AdadeltaOptimizer()
    step = opt.minimize(tf.reduce_sum(w * w))   # grad = 2w
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(step)
        got, accum = sess.run([w, opt.get_slot(w, "accum")])
    g = np.array([2.0, -4.0])
    np.testing.assert_allclose(accum, 0.05 * g * g, rtol=1e-6)
    expected = np.array([1.0, -2.0]) - 0.001 * np.sqrt(1e-8 / (0.05 * g * g + 1e-8)) * g
    np.testing.assert_allclose(got, expected, rtol=1e-6)


def test_kernel_errors_match_tensorflow(tf_reference):
    from graphlab.ops import training_ops
    scope = {"apply_adadelta": lambda tf_, *args: training_ops.apply_adadelta(*[
        a._ref() if hasattr(a, "_ref") else a for a in args])}
    exec(ERRORS, scope)
    ours = scope["kernel_errors"](tf)
    theirs = tf_reference["errors"]
    assert None not in theirs
    assert [[kind, message] for kind, _, message in ours] == [[kind, message] for kind, _, message in theirs]
    # TF blames the update op; graphlab blames the uninitialized variable itself (the last case)
    assert [op for _, op, _ in ours[:4]] == [op for _, op, _ in theirs[:4]]
