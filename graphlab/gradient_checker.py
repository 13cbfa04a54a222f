"""``tf.test.compute_gradient`` and ``compute_gradient_error``: a gradient checked against finite
differences, as TF1's gradient_checker does it. The gradient graph (``tf.gradients`` of y with respect to x,
seeded by an Identity of a Const ``dy``) gives the theoretical Jacobian one column per element of y (``dy``
fed a one-hot); central differences of ``y`` give the numeric one, one row per element of x. Complex values
count as two reals, as in TF. Runs in the default session."""
import numpy as np

from graphlab.framework import dtypes
from graphlab.framework.default_stacks import get_default_session
from graphlab.framework.indexed_slices import IndexedSlices
from graphlab.framework.registry import constant
from graphlab.gradients import gradients
from graphlab.ops import array_ops
from graphlab.ops.math_ops import cast

_CHECKABLE = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64, dtypes.complex64, dtypes.complex128)


def _size(shape):
    return int(np.prod(shape, dtype=np.int64)) if not isinstance(shape, int) else shape


def _feeds(extra, own):
    merged = dict(extra or {})
    merged.update(own)
    return merged


def _gradient_and_seed(x, y, y_shape):
    """dy/dx seeded by an Identity of a Const: the Const is what gets fed (the Identity keeps the fed value
    apart from the gradient, which for an Add would otherwise be the fed tensor itself)."""
    with x.graph.as_default():
        seed = constant(1.0, shape=y_shape, dtype=y.dtype)
        grads = gradients(y, x, array_ops.identity(seed))
    return grads[0], seed


def _theoretical(x, x_shape, x_value, seed, y_shape, dx, extra):
    session = get_default_session()
    if x.dtype.is_complex:
        x_shape = tuple(x_shape) + (2,)
    rows = _size(x_shape)
    columns = _size(y_shape) * (2 if seed.dtype.is_complex else 1)
    jacobian = np.zeros((rows, columns), dtype=x.dtype.real_dtype.as_numpy_dtype)
    seed_value = np.zeros(y_shape, dtype=seed.dtype.as_numpy_dtype)
    seed_flat = seed_value.ravel().view(seed.dtype.real_dtype.as_numpy_dtype)
    row_width = _size(x_shape[1:])
    for column in range(columns):
        seed_flat[column] = 1
        feed = _feeds(extra, {x: x_value, seed: seed_value})
        if isinstance(dx, IndexedSlices):
            indices, values = session.run([dx.indices, dx.values], feed)
            for i, v in zip(indices, values):
                jacobian[i * row_width:(i + 1) * row_width, column] += v.flat
        else:
            jacobian[:, column] = session.run(dx, feed).ravel().view(jacobian.dtype)
        seed_flat[column] = 0
    if not columns:       # an empty y: its gradient must be all zeros of x's shape
        value = session.run(dx, _feeds(extra, {x: x_value, seed: seed_value}))
        if value.shape != x_value.shape:
            raise ValueError("Empty gradient has wrong shape: expected %s, got %s" % (x_value.shape, value.shape))
        if np.any(value):
            raise ValueError("Empty tensor with nonzero gradients")
    return jacobian


def _numeric(x, x_shape, x_value, y, y_shape, delta, extra):
    if x.dtype == dtypes.bfloat16:
        x = cast(x, dtypes.float32)
    if y.dtype == dtypes.bfloat16:
        y = cast(y, dtypes.float32)
    if x_value.dtype == dtypes.bfloat16.as_numpy_dtype:
        x_value = x_value.astype(np.float32)
    rows = _size(x_shape) * (2 if x.dtype.is_complex else 1)
    columns = _size(y_shape) * (2 if y.dtype.is_complex else 1)
    x_real, y_real = x.dtype.real_dtype.as_numpy_dtype, y.dtype.real_dtype.as_numpy_dtype
    x_value = np.asarray(x_value, dtype=x.dtype.as_numpy_dtype)
    scale = np.asarray(2 * delta, dtype=y_real)[()]
    jacobian = np.zeros((rows, columns), dtype=x_real)
    for row in range(rows):
        plus, minus = x_value.copy(), x_value.copy()
        plus.ravel().view(x_real)[row] += delta
        minus.ravel().view(x_real)[row] -= delta
        y_plus = y.eval(feed_dict=_feeds(extra, {x: plus}))
        y_minus = y.eval(feed_dict=_feeds(extra, {x: minus}))
        jacobian[row, :] = ((y_plus - y_minus) / scale).ravel().view(y_real)
    return jacobian


def _jacobians(x, x_shape, dx, y, y_shape, seed, x_init_value, delta, extra):
    t, t2 = dtypes.as_dtype(x.dtype), dtypes.as_dtype(y.dtype)
    assert t.base_dtype in _CHECKABLE, "Don't support type %s for x" % t.name
    assert t2.base_dtype in _CHECKABLE, "Don't support type %s for y" % t2.name
    if x_init_value is not None:
        assert list(x_shape) == list(x_init_value.shape), "x_shape = %s, init_data shape = %s" % (
            x_shape, list(x_init_value.shape))
        x_value = x_init_value
    else:
        x_value = np.random.random_sample(x_shape).astype(t.as_numpy_dtype)
        if t.is_complex:
            x_value.imag = np.random.random_sample(x_shape)
    return (_theoretical(x, x_shape, x_value, seed, y_shape, dx, extra),
            _numeric(x, x_shape, x_value, y, y_shape, delta, extra))


def compute_gradient(x, x_shape, y, y_shape, x_init_value=None, delta=1e-3, init_targets=None,
                     extra_feed_dict=None):
    """``tf.test.compute_gradient``: (theoretical, numeric) Jacobians of y with respect to x, each with a row
    per element of x and a column per element of y; for a list of x, a list of such pairs."""
    extra = extra_feed_dict or {}
    if isinstance(x, list):
        pairs = [_gradient_and_seed(xi, y, y_shape) for xi in x]
        _run_targets(init_targets)
        inits = x_init_value if x_init_value is not None else [None] * len(x)
        return [_jacobians(xi, shape, dx, y, y_shape, seed, init, delta, extra)
                for xi, shape, (dx, seed), init in zip(x, x_shape, pairs, inits)]
    _run_targets(init_targets)
    dx, seed = _gradient_and_seed(x, y, y_shape)
    return _jacobians(x, x_shape, dx, y, y_shape, seed, x_init_value, delta, extra)


def _run_targets(targets):
    if targets is not None:
        assert isinstance(targets, (list, tuple))
        for target in targets:
            target.run()


def compute_gradient_error(x, x_shape, y, y_shape, x_init_value=None, delta=1e-3, init_targets=None,
                           extra_feed_dict=None):
    """``tf.test.compute_gradient_error``: the largest difference between the theoretical and the numeric
    Jacobian (over all of x's when x is a list)."""
    result = compute_gradient(x, x_shape, y, y_shape, x_init_value, delta, init_targets, extra_feed_dict)
    pairs = [result] if isinstance(result, tuple) else result
    error = 0
    for theoretical, numeric in pairs:
        if theoretical.size or numeric.size:
            error = np.maximum(error, np.fabs(theoretical - numeric).max())
    return error

