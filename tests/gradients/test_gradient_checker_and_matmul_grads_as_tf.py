"""``tf.test.compute_gradient`` / ``compute_gradient_error`` and the MatMul / BatchMatMulV2 gradient graphs,
compared with TF 2.21 run live: the same Jacobians and errors, the same ops (the gradient's MatMuls marked
grad_a / grad_b, a given grad_ys behind an Identity "grad_ys_0", broadcast batch axes reduced with
BroadcastGradientArgs of the batch parts of the shapes, as TF builds them)."""

import numpy as np
import pytest

from tests import tfsnippets

PROGRAM = r'''
out = {}
def gradient_ops():
    rows = []
    for op in tf.get_default_graph().get_operations():
        if op.name.startswith("gradients"):
            attrs = {k: op.get_attr(k) for k in ("grad_a", "grad_b", "grad_x", "grad_y", "adj_x", "adj_y",
                                                 "transpose_a", "transpose_b") if k in op.node_def.attr}
            rows.append([op.name, op.type, [t.name for t in op.inputs], attrs])
    return rows

tf.reset_default_graph()
x = tf.placeholder(tf.float64, [2, 3], name="x")
w = tf.constant(np.arange(12.0).reshape(3, 4) / 10)
y = tf.tanh(tf.matmul(x, w))
x0 = np.arange(6.0).reshape(2, 3) / 7
with tf.Session():
    theoretical, numeric = tf.test.compute_gradient(x, [2, 3], y, [2, 4], x_init_value=x0)
    out["jacobians"] = [theoretical.tolist(), numeric.tolist()]
    out["error_list"] = float(tf.test.compute_gradient_error([x], [[2, 3]], y, [2, 4], x_init_value=[x0]))
    v = tf.placeholder(tf.float32, [3], name="v")
    error = tf.test.compute_gradient_error(v, [3], tf.reduce_sum(v * v), [],
                                           x_init_value=np.array([1.0, 2.0, 3.0], np.float32))
    out["error_float32"] = [type(error).__name__, float(error)]
out["checker_ops"] = [[op.name, op.type] for op in tf.get_default_graph().get_operations()]

cases = {
    "broadcast_batch": ("tf.placeholder(tf.float32, [2, 3, 4], name='a')", "tf.placeholder(tf.float32, [4, 5], name='b')", {}),
    "broadcast_other_side": ("tf.placeholder(tf.float32, [3, 4], name='a')", "tf.placeholder(tf.float32, [2, 4, 5], name='b')", {"adjoint_b": False}),
    "same_batch": ("tf.placeholder(tf.float32, [2, 3, 4], name='a')", "tf.placeholder(tf.float32, [2, 4, 5], name='b')", {}),
    "unknown_batch": ("tf.placeholder(tf.float32, [None, 3, 4], name='a')", "tf.placeholder(tf.float32, [None, 4, 5], name='b')", {}),
    "adjoints": ("tf.placeholder(tf.float32, [2, 1, 4, 3], name='a')", "tf.placeholder(tf.float32, [3, 5, 4], name='b')", {"adjoint_a": True, "adjoint_b": True}),
    "matrices": ("tf.placeholder(tf.float32, [3, 4], name='a')", "tf.placeholder(tf.float32, [5, 4], name='b')", {"transpose_b": True}),
}
out["matmul_grads"] = {}
rng = np.random.RandomState(1)
for key, (ta, tb, kwargs) in cases.items():
    tf.reset_default_graph()
    a, b = eval(ta), eval(tb)
    grads = tf.gradients(tf.matmul(a, b, **kwargs), [a, b])
    shape = lambda t: [d if d is not None else 2 for d in t.shape.as_list()]
    feed = {a: rng.rand(*shape(a)).astype(np.float32), b: rng.rand(*shape(b)).astype(np.float32)}
    values = tf.Session().run(grads, feed)
    out["matmul_grads"][key] = [gradient_ops(), [v.tolist() for v in values]]
print(json.dumps(out))
'''


@pytest.fixture(scope="module")
def reference():
    return tfsnippets.last_json_in_tf(PROGRAM)


@pytest.fixture(scope="module")
def ours():
    return tfsnippets.last_json_in_graphlab(PROGRAM)


def test_compute_gradient_as_tf(reference, ours):
    # the theoretical Jacobian to float64 rounding; the numeric one differences tanh at +-1e-3 (each engine's
    # tanh rounds its last bits its own way, and the difference divides by 2e-3)
    np.testing.assert_allclose(ours["jacobians"][0], reference["jacobians"][0], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(ours["jacobians"][1], reference["jacobians"][1], rtol=1e-6, atol=1e-9)
    assert ours["error_list"] == pytest.approx(reference["error_list"], abs=1e-7)
    assert ours["error_float32"][0] == reference["error_float32"][0]
    assert ours["error_float32"][1] == pytest.approx(reference["error_float32"][1], abs=1e-3)
    assert ours["checker_ops"] == reference["checker_ops"]


@pytest.mark.parametrize("key", ["broadcast_batch", "broadcast_other_side", "same_batch", "unknown_batch",
                                 "adjoints", "matrices"])
def test_matmul_gradient_graph_as_tf(reference, ours, key):
    mine, theirs = ours["matmul_grads"][key], reference["matmul_grads"][key]
    assert mine[0] == theirs[0]
    for m, t in zip(mine[1], theirs[1]):
        np.testing.assert_allclose(m, t, rtol=1e-5)
