"""The tensor helpers of ``tf.keras.backend`` that custom losses, metrics and Lambda layers use: each is the
TF op (or the few ops) Keras builds for it, so a custom loss written with ``K`` makes TF's graph."""
import builtins
import itertools

import numpy as np

from graphlab.framework import dtypes, tensor_shape
from graphlab.framework import graph as graph_mod
from graphlab.framework.registry import build_op, constant, convert_to_tensor
from graphlab.keras.backend import config
from graphlab.keras.backend.session import learning_phase
from graphlab.keras.backend.variables import ndim
from graphlab.gradients import gradients as tf_gradients
from graphlab.ops import array_ops, control_flow_ops, math_impl, math_ops, nn_impl, nn_ops, random_ops, scan_ops


def _const(value, dtype):
    return constant(value, dtype=dtype)


def cast(x, dtype):
    return math_ops.cast(x, dtype)


def cast_to_floatx(x):
    return np.asarray(x, dtype=config.floatx())


def sum(x, axis=None, keepdims=False):  # noqa: A001  (Keras's names)
    return math_ops.reduce_sum(x, axis, keepdims)


def prod(x, axis=None, keepdims=False):
    return math_ops.reduce_prod(x, axis, keepdims)


def max(x, axis=None, keepdims=False):  # noqa: A001
    return math_ops.reduce_max(x, axis, keepdims)


def min(x, axis=None, keepdims=False):  # noqa: A001
    return math_ops.reduce_min(x, axis, keepdims)


def mean(x, axis=None, keepdims=False):
    """reduce_mean; booleans are averaged as floatx."""
    if x.dtype.base_dtype == dtypes.bool:
        x = math_ops.cast(x, config.floatx())
    return math_ops.reduce_mean(x, axis, keepdims)


def var(x, axis=None, keepdims=False):
    """tf.math.reduce_variance (booleans as floatx)."""
    if x.dtype.base_dtype == dtypes.bool:
        x = math_ops.cast(x, config.floatx())
    return math_impl.reduce_variance(x, axis=axis, keepdims=keepdims)


def std(x, axis=None, keepdims=False):
    """tf.math.reduce_std (booleans as floatx)."""
    if x.dtype.base_dtype == dtypes.bool:
        x = math_ops.cast(x, config.floatx())
    return math_impl.reduce_std(x, axis=axis, keepdims=keepdims)


def any(x, axis=None, keepdims=False):  # noqa: A001
    return math_ops.reduce_any(math_ops.cast(x, dtypes.bool), axis, keepdims)


def all(x, axis=None, keepdims=False):  # noqa: A001
    return math_ops.reduce_all(math_ops.cast(x, dtypes.bool), axis, keepdims)


def argmax(x, axis=-1):
    return math_ops.argmax(x, axis)


def argmin(x, axis=-1):
    return math_ops.argmin(x, axis)


def square(x):
    return math_ops.square(x)


def abs(x):  # noqa: A001
    return math_ops.abs(x)


def sqrt(x):
    """sqrt of max(x, 0), as Keras guards it."""
    zero = _const(0.0, x.dtype.base_dtype)
    return math_ops.sqrt(math_ops.maximum(x, zero))


def exp(x):
    return math_ops.exp(x)


def log(x):
    return math_ops.log(x)


def round(x):  # noqa: A001
    return math_ops.round(x)


def sign(x):
    return math_ops.sign(x)


def pow(x, a):  # noqa: A001
    return math_ops.pow(x, a)


def clip(x, min_value, max_value):
    """clip_by_value (None bounds: unbounded; a max below the min is raised to it)."""
    if isinstance(min_value, (int, float)) and isinstance(max_value, (int, float)) and max_value < min_value:
        max_value = min_value
    if min_value is None:
        min_value = -np.inf
    if max_value is None:
        max_value = np.inf
    return array_ops.clip_by_value(x, min_value, max_value)


def equal(x, y):
    return math_ops.equal(x, y)


def not_equal(x, y):
    return math_ops.not_equal(x, y)


def greater(x, y):
    return math_ops.greater(x, y)


def greater_equal(x, y):
    return math_ops.greater_equal(x, y)


def less(x, y):
    return math_ops.less(x, y)


def less_equal(x, y):
    return math_ops.less_equal(x, y)


def maximum(x, y):
    return math_ops.maximum(x, y)


def minimum(x, y):
    return math_ops.minimum(x, y)


def sin(x):
    return math_ops.sin(x)


def cos(x):
    return math_ops.cos(x)


def dot(x, y):
    """matmul for 2-D operands; higher ranks reshape to 2-D and back, as Keras does."""
    x_ndim, y_ndim = ndim(x), ndim(y)
    if x_ndim is not None and (x_ndim > 2 or (y_ndim or 0) > 2):
        x_shape = [d if d is not None else s for d, s in zip(x.shape.as_list(), array_ops.unstack(array_ops.shape(x)))]
        y_shape = [d if d is not None else s for d, s in zip(y.shape.as_list(), array_ops.unstack(array_ops.shape(y)))]
        y_permute = [y_ndim - 2] + list(builtins.range(y_ndim - 2)) + [y_ndim - 1]
        xt = array_ops.reshape(x, [-1, x_shape[-1]])
        yt = array_ops.reshape(array_ops.transpose(y, perm=y_permute), [y_shape[-2], -1])
        return array_ops.reshape(math_ops.matmul(xt, yt), x_shape[:-1] + y_shape[:-2] + y_shape[-1:])
    return math_ops.matmul(x, y)


def batch_dot(x, y, axes=None):
    raise NotImplementedError("K.batch_dot is not implemented in graphlab; use tf.matmul on batched tensors")


def transpose(x):
    return array_ops.transpose(x)


def concatenate(tensors, axis=-1):
    """concat along ``axis`` (negative axes counted from the first tensor's rank)."""
    if axis < 0:
        rank = ndim(tensors[0])
        axis = axis % rank if rank else 0
    return array_ops.concat([convert_to_tensor(t) for t in tensors], axis)


def reshape(x, shape):
    return array_ops.reshape(x, shape)


def permute_dimensions(x, pattern):
    return array_ops.transpose(x, perm=pattern)


def expand_dims(x, axis=-1):
    return array_ops.expand_dims(x, axis)


def squeeze(x, axis):
    return array_ops.squeeze(x, [axis])


def stack(x, axis=0):
    return array_ops.stack(x, axis=axis)


def flatten(x):
    return array_ops.reshape(x, [-1])


def batch_flatten(x):
    return array_ops.reshape(x, array_ops.stack([-1, math_ops.reduce_prod(array_ops.shape(x)[1:])]))


def repeat(x, n):
    assert ndim(x) == 2
    x = array_ops.expand_dims(x, 1)
    pattern = array_ops.stack([1, n, 1])
    return array_ops.tile(x, pattern)


def reverse(x, axes):
    """Reverse along ``axes`` (an int or a list)."""
    if isinstance(axes, int):
        axes = [axes]
    return array_ops.reverse(x, axes)


def tile(x, n):
    if isinstance(n, int):
        n = [n]
    return array_ops.tile(x, n)


def gather(reference, indices):
    return array_ops.gather(reference, indices)


def shape(x):
    return array_ops.shape(x)


def ones_like(x, dtype=None, name=None):
    """TF2's ones_like, which Keras calls: a Const when the shape is known, else an OnesLike op (TF1's builds
    a Fill)."""
    if hasattr(x, "shape") and tensor_shape.as_shape(x.shape).is_fully_defined():
        with graph_mod.name_scope(name, "ones_like", [x]) as scope:
            dt = dtypes.as_dtype(dtype or x.dtype).base_dtype
            return constant(np.ones(x.shape.as_list(), dt.as_numpy_dtype), dtype=dt, name=scope)
    with graph_mod.name_scope(name, "ones_like", [x]) as scope:     # TF2's: the OnesLike op itself
        x = convert_to_tensor(x)
        if dtype is not None and dtypes.as_dtype(dtype).base_dtype != x.dtype.base_dtype:
            return array_ops.ones_like(x, dtype=dtype, name=name)
        return build_op("OnesLike", [x], name=scope).outputs[0]


def zeros_like(x, dtype=None, name=None):
    return array_ops.zeros_like(x, dtype=dtype, name=name)


def one_hot(indices, num_classes):
    return array_ops.one_hot(indices, depth=num_classes, axis=-1)


def stop_gradient(variables):
    if isinstance(variables, (list, tuple)):
        return [array_ops.stop_gradient(v) for v in variables]
    return array_ops.stop_gradient(variables)


def relu(x, alpha=0.0, max_value=None, threshold=0.0):
    """nn.relu in the plain case; the leaky/capped/thresholded forms as Keras composes them."""
    dtype = getattr(x, "dtype", config.floatx())
    if alpha != 0.0:
        if max_value is None and threshold == 0:
            return nn_ops.leaky_relu(x, alpha=alpha)
        negative_part = nn_ops.relu(-x + threshold) if threshold != 0 else nn_ops.relu(-x)
    clip_max = max_value is not None
    if threshold != 0:
        x = x * math_ops.cast(math_ops.greater(x, threshold), dtype=dtype)
    elif max_value == 6:
        x = nn_ops.relu6(x)
        clip_max = False
    else:
        x = nn_ops.relu(x)
    if clip_max:
        max_value = _const(max_value, x.dtype.base_dtype)
        zero = _const(0, x.dtype.base_dtype)
        x = array_ops.clip_by_value(x, zero, max_value)
    if alpha != 0.0:
        x -= _const(alpha, x.dtype.base_dtype) * negative_part
    return x


def elu(x, alpha=1.0):
    res = nn_ops.elu(x)
    if alpha == 1:
        return res
    return array_ops.where(x > 0, res, alpha * res)


def softmax(x, axis=-1):
    return nn_ops.softmax(x, axis=axis)


def softplus(x):
    return nn_ops.softplus(x)


def softsign(x):
    return nn_ops.softsign(x)


def sigmoid(x):
    return math_ops.sigmoid(x)


def hard_sigmoid(x):
    point_two = _const(0.2, x.dtype.base_dtype)
    point_five = _const(0.5, x.dtype.base_dtype)
    x = math_ops.multiply(x, point_two)
    x = math_ops.add(x, point_five)
    return array_ops.clip_by_value(x, 0.0, 1.0)


def tanh(x):
    return math_ops.tanh(x)


def l2_normalize(x, axis=None):
    return nn_impl.l2_normalize(x, axis=axis)


def _logits_of(output, from_logits, op_type):
    """Keras's shortcut: an output made by a Softmax/Sigmoid op is turned back into its logits."""
    op = getattr(output, "op", None)
    if op is not None and op.type == op_type:
        return op.inputs[0], True
    return output, from_logits


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Cross entropy of one-hot ``target`` and probabilities ``output`` (normalized, clipped to
    [eps, 1-eps]); softmax outputs and logits go through softmax_cross_entropy_with_logits."""
    target, output = convert_to_tensor(target), convert_to_tensor(output)
    target.shape.assert_is_compatible_with(output.shape)
    output, from_logits = _logits_of(output, from_logits, "Softmax")
    if from_logits:
        return nn_ops.softmax_cross_entropy_with_logits_v2(labels=target, logits=output, axis=axis)
    output = output / math_ops.reduce_sum(output, axis, True)
    eps = _const(config.epsilon(), output.dtype.base_dtype)
    output = array_ops.clip_by_value(output, eps, 1.0 - eps)
    return -math_ops.reduce_sum(target * math_ops.log(output), axis)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Cross entropy of integer ``target`` and probabilities (or logits) ``output``."""
    target, output = convert_to_tensor(target), convert_to_tensor(output)
    target = math_ops.cast(target, "int64")
    output, from_logits = _logits_of(output, from_logits, "Softmax")
    if not from_logits:
        eps = _const(config.epsilon(), output.dtype.base_dtype)
        output = math_ops.log(array_ops.clip_by_value(output, eps, 1 - eps))
    output_rank = output.shape.ndims
    if output_rank is not None:
        axis %= output_rank
        if axis != output_rank - 1:
            perm = list(itertools.chain(builtins.range(axis), builtins.range(axis + 1, output_rank), [axis]))
            output = array_ops.transpose(output, perm=perm)
    output_shape = array_ops.shape(output)
    target_rank = target.shape.ndims
    update_shape = target_rank is not None and output_rank is not None and target_rank != output_rank - 1
    if update_shape:
        target = flatten(target)
        output = array_ops.reshape(output, [-1, output_shape[-1]])
    result = nn_ops.sparse_softmax_cross_entropy_with_logits(labels=target, logits=output)
    if update_shape and output_rank >= 3:
        result = array_ops.reshape(result, output_shape[:-1])
    return result


def binary_crossentropy(target, output, from_logits=False):
    """Element-wise binary cross entropy: clip to [eps, 1-eps], then -(t log(p+eps) + (1-t) log(1-p+eps));
    sigmoid outputs and logits go through sigmoid_cross_entropy_with_logits."""
    target, output = convert_to_tensor(target), convert_to_tensor(output)
    output, from_logits = _logits_of(output, from_logits, "Sigmoid")
    if from_logits:
        return nn_ops.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    eps = _const(config.epsilon(), output.dtype.base_dtype)
    output = array_ops.clip_by_value(output, eps, 1.0 - eps)
    bce = target * math_ops.log(output + config.epsilon())
    bce += (1 - target) * math_ops.log(1 - output + config.epsilon())
    return -bce


def in_train_phase(x, alt, training=None):
    """x when training, alt otherwise: a cond on the learning phase unless the phase is a Python value."""
    if training is None:
        from graphlab.keras.engine.base_layer import call_context_training
        training = call_context_training()
    if training is None:
        training = learning_phase()
    if not hasattr(training, "op"):
        if training == 1 or training is True:
            return x() if callable(x) else x
        if training == 0 or training is False:
            return alt() if callable(alt) else alt
    return switch(training, x, alt)


def in_test_phase(x, alt, training=None):
    return in_train_phase(alt, x, training=training)


def switch(condition, then_expression, else_expression):
    """A cond on a scalar ``condition``; with a tensor of conditions, where() picking element by element."""
    if condition.dtype != dtypes.bool:
        condition = math_ops.cast(condition, "bool")
    cond_ndim = ndim(condition)
    if not cond_ndim:
        then_fn = then_expression if callable(then_expression) else (lambda: then_expression)
        else_fn = else_expression if callable(else_expression) else (lambda: else_expression)
        return control_flow_ops.cond(condition, then_fn, else_fn)
    if callable(then_expression):
        then_expression = then_expression()
    if callable(else_expression):
        else_expression = else_expression()
    expr_ndim = ndim(then_expression)
    if cond_ndim > expr_ndim:
        raise ValueError("Rank of `condition` should be less than or equal to rank of `then_expression` and "
                         "`else_expression`. ndim(condition)=%d, ndim(then_expression)=%d" % (cond_ndim, expr_ndim))
    if cond_ndim > 1:
        ndim_diff = expr_ndim - cond_ndim
        cond_shape = array_ops.concat([array_ops.shape(condition), [1] * ndim_diff], axis=0)
        condition = array_ops.reshape(condition, cond_shape)
        expr_shape = array_ops.shape(then_expression)
        shape_diff = expr_shape - cond_shape
        tile_shape = array_ops.where_v2(shape_diff > 0, expr_shape, array_ops.ones_like(expr_shape))
        condition = array_ops.tile(condition, tile_shape)
    return array_ops.where_v2(condition, then_expression, else_expression)


def repeat_elements(x, rep, axis):
    """Each slice along ``axis`` repeated ``rep`` times (split and concat when the axis is known)."""
    x_shape = x.shape.as_list()
    if x_shape[axis] is not None:
        splits = array_ops.split(x, num_or_size_splits=x_shape[axis], axis=axis)
        return concatenate([s for s in splits for _ in builtins.range(rep)], axis)
    auxiliary_axis = axis + 1
    shape = array_ops.shape(x)
    x_rep = array_ops.expand_dims(x, axis=auxiliary_axis)
    reps = np.ones(len(x.shape) + 1)
    reps[auxiliary_axis] = rep
    x_rep = array_ops.tile(x_rep, reps)
    reps = np.delete(reps, auxiliary_axis)
    reps[axis] = rep
    shape *= constant(reps, dtype="int32")
    x_rep = array_ops.reshape(x_rep, shape)
    x_rep.set_shape(x_shape)
    return x_rep


def temporal_padding(x, padding=(1, 1)):
    """Zeros before and after the steps of a 3-D tensor."""
    assert len(padding) == 2
    return array_ops.pad(x, [[0, 0], [padding[0], padding[1]], [0, 0]])


def spatial_2d_padding(x, padding=((1, 1), (1, 1)), data_format=None):
    """Zero rows and columns around the images of a 4-D tensor."""
    assert len(padding) == 2 and len(padding[0]) == 2 and len(padding[1]) == 2
    data_format = config.normalize_data_format(data_format)
    if data_format == "channels_first":
        pattern = [[0, 0], [0, 0], list(padding[0]), list(padding[1])]
    else:
        pattern = [[0, 0], list(padding[0]), list(padding[1]), [0, 0]]
    return array_ops.pad(x, pattern)


def _seed(seed):
    """Keras draws an op seed from numpy's generator when none is given."""
    return np.random.randint(10e6) if seed is None else seed


def random_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    return random_ops.random_normal(shape, mean=mean, stddev=stddev, dtype=dtype or config.floatx(),
                                    seed=_seed(seed))


def random_uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    return random_ops.random_uniform(shape, minval=minval, maxval=maxval, dtype=dtype or config.floatx(),
                                     seed=_seed(seed))


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    return random_ops.truncated_normal(shape, mean, stddev, dtype=dtype or config.floatx(), seed=_seed(seed))


def dropout(x, level, noise_shape=None, seed=None):
    return nn_ops.dropout(x, rate=level, noise_shape=noise_shape, seed=_seed(seed))


def cumsum(x, axis=0):
    return scan_ops.cumsum(x, axis=axis)


def cumprod(x, axis=0):
    return scan_ops.cumprod(x, axis=axis)


def arange(start, stop=None, step=1, dtype="int32"):
    if stop is None and start < 0:
        start = 0
    result = array_ops.range(start, limit=stop, delta=step, name="arange")
    return result if dtype == "int32" else cast(result, dtype)


def in_top_k(predictions, targets, k):
    return nn_ops.in_top_k(predictions, targets, k)


def gradients(loss, variables):
    return tf_gradients(loss, variables, colocate_gradients_with_ops=True)
