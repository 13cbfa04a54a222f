"""Gradient rules of the ops that read resource variables (ReadVariableOp, ResourceGather, ResourceGatherNd),
checked numerically: tf.gradients with respect to the variable against central differences of the loss,
each element of the variable perturbed in turn (``load``). These take a handle, so the placeholder-based check
of every other rule (test_gradients.py) cannot feed them."""
import numpy as np
import pytest

import graphlab as tf

READS = {
    "ReadVariableOp": lambda v: tf.sin(v.value()) * v,
    "ResourceGather": lambda v: tf.gather(v, [2, 0, 2]) * tf.constant([[1.0], [2.0], [3.0]], tf.float64),
    "ResourceGatherNd": lambda v: tf.gather_nd(v, [[1, 0], [2, 1], [1, 0]]) ** 2,
}


@pytest.mark.parametrize("op_type", sorted(READS))
def test_gradient_through_a_variable_matches_central_differences(op_type):
    with tf.Graph().as_default():
        start = np.array([[0.5, -1.25], [2.0, 0.75], [-0.5, 1.5]])
        v = tf.Variable(start, use_resource=True)
        loss = tf.reduce_sum(READS[op_type](v) * tf.constant(np.arange(1.0, 7.0).reshape(3, 2)
                                                            if op_type == "ReadVariableOp" else 1.0, tf.float64))
        assert op_type in {op.type for op in tf.get_default_graph().get_operations()}
        grad = tf.gradients(loss, v)[0]
        with tf.Session() as sess:
            sess.run(v.initializer)
            analytic = sess.run(tf.convert_to_tensor(grad))
            numeric = np.zeros_like(start)
            eps = 1e-6
            for index in np.ndindex(start.shape):
                values = []
                for sign in (1, -1):
                    moved = start.copy()
                    moved[index] += sign * eps
                    v.load(moved, sess)
                    values.append(sess.run(loss))
                numeric[index] = (values[0] - values[1]) / (2 * eps)
    np.testing.assert_allclose(analytic, numeric, rtol=1e-6, atol=1e-8)
