"""A run skips stateless ops whose results nothing reads (only control edges lead to them), as TensorFlow's
graph optimizer turns them into NoOps. Expectations were read off TF 2.21 (compat.v1) for the same code;
the training case is also checked live against TF's own trace."""
import numpy as np
import pytest

import graphlab as tf
from graphlab import viz
from graphlab.formats import errors

from tests import tfref


def after(op):
    """A constant that must wait for ``op``: a control edge and nothing else leads to ``op``."""
    with tf.control_dependencies([op]):
        return tf.identity(tf.constant(1.0))


MODEL = """
x = tf.placeholder(tf.float32, [None, 3], name="x")
w = tf.Variable(np.ones((3, 2), np.float32), name="w")
loss = tf.reduce_sum(tf.matmul(x, w))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
"""
"""One small model, built by the same source in graphlab (here) and in TensorFlow (TF_TRACE below)."""


def mlp_gradients():
    scope = {"tf": tf, "np": np}
    exec(MODEL, scope)
    return scope["sess"], scope["train"], scope["x"], scope["w"]


def test_the_gradient_for_the_input_placeholder_is_built_but_not_computed():
    sess, train, x, w = mlp_gradients()
    sess.run(train, {x: np.ones((4, 3), np.float32)})
    # TF1's gradient gating joins both MatMul gradients with a control edge; only the one for w is read
    assert "gradients/MatMul_grad/MatMul" in sess.last_run.skipped
    assert "gradients/MatMul_grad/MatMul" not in sess.last_run.executed
    assert "gradients/MatMul_grad/MatMul_1" in sess.last_run.executed
    assert "gradients/MatMul_grad/tuple/group_deps" in sess.last_run.executed
    np.testing.assert_allclose(sess.run(w), np.full((3, 2), 1 - 0.4, np.float32))


def test_a_fetched_op_is_never_skipped():
    sess, train, x, w = mlp_gradients()
    dx = tf.get_default_graph().get_tensor_by_name("gradients/MatMul_grad/MatMul:0")
    _, value = sess.run([train, dx], {x: np.ones((4, 3), np.float32)})
    assert value.shape == (4, 3) and sess.last_run.skipped == []


def test_a_stateless_chain_that_ends_in_a_control_edge_is_skipped_whole():
    p = tf.placeholder(tf.float32, [None], name="p")
    doubled = tf.reshape(p, [3]) * 2.0          # would fail: 4 values cannot be reshaped to [3]
    c = after(doubled.op)
    sess = tf.Session()
    assert sess.run(c, {p: np.zeros(4, np.float32)}) == 1.0       # TF: 1.0
    assert sess.last_run.skipped == ["Reshape/shape", "Reshape", "mul/y", "mul"]


def test_an_unfed_placeholder_still_fails_the_run():
    p = tf.placeholder(tf.float32, [2], name="p")
    c = after((p * 2.0).op)
    with pytest.raises(errors.InvalidArgumentError, match="You must feed a value for placeholder tensor 'p'"):
        tf.Session().run(c)


@pytest.mark.parametrize("make", [lambda w: tf.identity(w), lambda w: w * 2.0], ids=["identity", "mul"])
def test_a_variable_read_still_runs_and_fails_when_uninitialized(make):
    w = tf.Variable(1.0, name="w")
    c = after(make(w).op)
    with pytest.raises(errors.FailedPreconditionError, match="Attempting to use uninitialized value w"):
        tf.Session().run(c)


def test_stateful_ops_reached_by_control_edges_still_run():
    v = tf.Variable(0, name="v")
    bump = tf.assign_add(v, 1)
    c = after(bump.op)
    sess = tf.Session()
    sess.run(v.initializer)
    sess.run(c)
    sess.run(c)
    assert sess.run(v) == 2


@pytest.mark.parametrize("taken", [True, False])
def test_a_skipped_op_inside_a_cond_branch_keeps_the_branch_lazy(taken):
    v = tf.Variable(0, name="v")
    pred = tf.placeholder(tf.bool, [], name="pred")

    def true_fn():
        side = tf.square(tf.constant(3.0))               # nothing reads it
        with tf.control_dependencies([side.op]):
            return tf.identity(tf.constant(10))

    def false_fn():
        return tf.constant(20)

    out = tf.cond(pred, true_fn, false_fn)
    sess = tf.Session()
    sess.run(v.initializer)
    assert sess.run(out, {pred: taken}) == (10 if taken else 20)
    assert "cond/Square" in sess.last_run.skipped


def test_the_pruned_drawing_shows_skipped_ops_as_not_running():
    sess, train, x, w = mlp_gradients()
    r = viz.render(tf.get_default_graph(), fetches=train, feeds=[x], expand=["gradients"], max_nodes=1000)
    overlay = r.info["overlay"]
    assert "gradients/MatMul_grad/MatMul" not in overlay["active"]
    assert "gradients/MatMul_grad/MatMul_1" in overlay["active"]
    assert "skipped: unread" in r.dot
    assert any("1 skipped (nothing reads their results)" in line for line in r.summary)


TF_TRACE = MODEL + """
md = tf.RunMetadata()
sess.run(train, {x: np.ones((4, 3), np.float32)},
         options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE), run_metadata=md)
ran = sorted({n.node_name for d in md.step_stats.dev_stats for n in d.node_stats})
print(json.dumps(ran))
"""


def test_tensorflow_skips_the_same_gradient():
    tf_ran = set(tfref.run_tf_json(TF_TRACE))
    sess, train, x, w = mlp_gradients()
    sess.run(train, {x: np.ones((4, 3), np.float32)})
    assert "gradients/MatMul_grad/MatMul_1" in tf_ran
    for name in sess.last_run.skipped:
        assert name not in tf_ran
