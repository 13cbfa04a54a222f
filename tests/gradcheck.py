"""A numeric check of graphlab's gradient rules: analytic gradients against central differences in float64.

The registry-wide test (tests/gradients/test_gradients.py) runs it on a sample of every differentiable op."""
import numpy as np

import graphlab as tf


def numeric_jacobian_check(build, inputs, delta=1e-6):
    """``build(*placeholders)`` builds a statically shaped output from placeholders shaped like ``inputs``
    (float inputs as float64). Returns ``(analytic, numeric)``: per input, the gradient of
    ``sum(output * weights)`` (fixed random weights) from ``tf.gradients`` and from central differences
    (None for an input that is not floating point, or whose analytic gradient is None)."""
    graph = tf.Graph()
    with graph.as_default():
        placeholders = [tf.placeholder(_dtype_of(v), np.shape(v)) for v in inputs]
        out = build(*placeholders)
        if not out.shape.is_fully_defined():
            raise ValueError("numeric check needs a statically shaped output, got %s" % out)
        weights = np.random.RandomState(0).uniform(0.5, 1.5, size=out.shape.as_list())
        loss = tf.reduce_sum(out * tf.constant(weights.astype(out.dtype.base_dtype.as_numpy_dtype)))
        grads = [tf.convert_to_tensor(g) if isinstance(g, tf.IndexedSlices) else g
                 for g in tf.gradients(loss, placeholders)]
        with tf.Session(graph=graph) as sess:
            base = [np.array(v, dtype=np.float64) if np.asarray(v).dtype.kind == "f" else np.asarray(v)
                    for v in inputs]
            computed = iter(sess.run([g for g in grads if g is not None], dict(zip(placeholders, base))))
            analytic = [next(computed) if g is not None else None for g in grads]

            def loss_at(values):
                return float(sess.run(loss, dict(zip(placeholders, values))))
            numeric = [_central_differences(loss_at, base, i, delta) if v.dtype.kind == "f" else None
                       for i, v in enumerate(base)]
    return analytic, numeric


def _central_differences(loss_at, base, i, delta):
    slope = np.zeros_like(base[i])
    for idx in np.ndindex(base[i].shape):
        plus = [b.copy() for b in base]
        minus = [b.copy() for b in base]
        plus[i][idx] += delta
        minus[i][idx] -= delta
        slope[idx] = (loss_at(plus) - loss_at(minus)) / (2 * delta)
    return slope


def _dtype_of(value):
    array = np.asarray(value)
    return tf.float64 if array.dtype.kind == "f" else tf.as_dtype(array.dtype)
