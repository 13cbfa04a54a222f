"""Gradient clipping (graphlab/ops/clip_ops.py): the numbers, gradients and errors TensorFlow gives.
The graphs themselves are compared op for op in tests/programs/test_same_graph_as_tf.py."""
import numpy as np
import pytest

import graphlab as tf

import tfref

# Run with `tf` bound to graphlab or to TensorFlow; `results()` returns plain lists.
SCRIPT = """
def results():
    tf.reset_default_graph()
    rng = np.random.RandomState(0)
    t = tf.constant(rng.randn(4, 3).astype(np.float32))
    small = tf.constant([[0.1, -0.2, 0.05]])
    zeros = tf.zeros([2, 3])
    inf = tf.constant([np.inf, 1.0])
    out = {
        "by_norm": tf.clip_by_norm(t, 1.5),
        "by_norm_untouched": tf.clip_by_norm(small, 1.5),
        "by_norm_rows": tf.clip_by_norm(t, 1.0, axes=[1]),
        "by_norm_zeros": tf.clip_by_norm(zeros, 1.0),
        "by_norm_negative_bound": tf.clip_by_norm(t, tf.constant(-1.0)),
        "global_norm": tf.global_norm([t, None, small]),
        "by_average_norm": tf.clip_by_average_norm(t, 0.1),
    }
    clipped, norm = tf.clip_by_global_norm([t, None, small], 2.0)
    out.update(global_0=clipped[0], global_2=clipped[2], global_used_norm=norm)
    nan_clipped, _ = tf.clip_by_global_norm([inf], 1.0)
    out["global_inf"] = nan_clipped[0]
    out["grad_at_zeros"] = tf.gradients(tf.reduce_sum(tf.clip_by_norm(zeros, 1.0)), zeros)[0]
    out["grad_global"] = tf.gradients(tf.reduce_sum(clipped[0]), t)[0]
    with tf.Session() as sess:
        values = sess.run(out)
    return {k: np.asarray(v).tolist() for k, v in values.items()}
"""


@pytest.fixture(scope="module")
def tf_results():
    tfref.require_tf()
    return tfref.run_tf_json(SCRIPT + "print(json.dumps(results()))")


def _ours():
    scope = {"tf": tf, "np": np}
    exec(SCRIPT, scope)
    return scope["results"]()


def test_clipped_values_and_gradients_match_tensorflow(tf_results):
    ours = _ours()
    assert sorted(ours) == sorted(tf_results)
    for key in sorted(ours):
        np.testing.assert_allclose(np.array(ours[key], np.float64), np.array(tf_results[key], np.float64),
                                   rtol=1e-6, atol=1e-7, err_msg=key)


def test_what_clipping_does():
    ours = _ours()
    assert np.isclose(np.linalg.norm(ours["by_norm"]), 1.5)
    np.testing.assert_allclose(ours["by_norm_untouched"], [[0.1, -0.2, 0.05]], rtol=1e-6)
    row_norms = np.linalg.norm(ours["by_norm_rows"], axis=1)       # each row on its own: long ones shortened
    assert np.all(row_norms <= 1 + 1e-6) and np.sum(np.isclose(row_norms, 1.0)) == 3
    assert np.all(np.array(ours["grad_at_zeros"]) == 1)   # unclipped; the two Selects keep sqrt's NaN out
    assert np.all(np.isnan(ours["global_inf"]))                   # a diverged step is not clipped quietly
    both = np.concatenate([np.ravel(ours["global_0"]), np.ravel(ours["global_2"])])
    assert np.isclose(np.linalg.norm(both), 2.0)                  # one ratio for every entry


def test_training_with_clipped_gradients_matches_tensorflow():
    source = """
def train():
    tf.reset_default_graph()
    rng = np.random.RandomState(1)
    X = rng.randn(32, 3).astype(np.float32)
    Y = X @ np.array([[4.0], [-2.0], [1.0]], np.float32) + 3.0
    w = tf.Variable(tf.zeros([3, 1]))
    b = tf.Variable(0.0)
    loss = tf.reduce_mean(tf.square(tf.matmul(X, w) + b - Y))
    opt = tf.train.MomentumOptimizer(0.05, 0.9)
    grads, variables = zip(*opt.compute_gradients(loss))
    clipped, norm = tf.clip_by_global_norm(grads, 1.0)
    step = opt.apply_gradients(zip(clipped, variables))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        norms = [float(sess.run([step, norm])[1]) for _ in range(40)]
        return {"norms": norms, "w": sess.run(w).tolist(), "b": float(sess.run(b))}
"""
    theirs = tfref.run_tf_json(source + "print(json.dumps(train()))")
    scope = {"tf": tf, "np": np}
    exec(source, scope)
    ours = scope["train"]()
    assert theirs["norms"][0] > 1.0                 # the clipping did act
    np.testing.assert_allclose(ours["norms"], theirs["norms"], rtol=1e-5)
    np.testing.assert_allclose(ours["w"], theirs["w"], rtol=1e-5)
    np.testing.assert_allclose(ours["b"], theirs["b"], rtol=1e-5)


def test_bad_arguments_get_tensorflows_errors():
    t = tf.placeholder(tf.float32, [4, 3])
    with pytest.raises(TypeError, match=r"`t_list` should be a sequence of tensors. Received <class "
                                        r"'graphlab.framework.tensor.Tensor'>"):
        tf.clip_by_global_norm(t, 1.0)
    with pytest.raises(TypeError, match="`t_list` should be a sequence of tensors"):
        tf.global_norm("t")
    with pytest.raises(ValueError, match=r"Shapes \(4, 3\) and \(4, 4, 3\) are incompatible"):
        tf.clip_by_norm(t, tf.ones([4, 1, 1]))
