"""The classic TF1 ``tf.nn`` helpers that are compositions of other ops: moments, weighted_moments,
batch_normalization, l2_normalize, embedding_lookup, zero_fraction and weighted_cross_entropy_with_logits.

None of them registers an op type: each builds, op for op and under TF's own scope and op names, the
small subgraph TensorFlow builds, so graphs, gradients and renderings read the same as in TF.
"""

from graphlab.framework import dtypes
from graphlab.framework import graph as graph_mod
from graphlab.framework.tensor import Tensor
from graphlab.ops import array_ops, clip_ops, control_flow_ops, math_ops, nn_ops
from graphlab.framework.registry import convert_to_tensor


def _keep_dims(keepdims, keep_dims):
    """TF's deprecated-alias lookup: passing both spellings is an error, neither means False."""
    if keepdims is not None and keep_dims is not None:
        raise ValueError("Cannot specify both 'keep_dims' and 'keepdims'.")
    value = keepdims if keepdims is not None else keep_dims
    return bool(value) if value is not None else False


def _is_half(x):
    return getattr(x, "dtype", None) is not None and dtypes.as_dtype(x.dtype).base_dtype == dtypes.float16


# ------------------------------------------------------------------------------------------- moments
def moments(x, axes, shift=None, name=None, keep_dims=None, keepdims=None):
    """``tf.nn.moments``: mean and (biased) variance of ``x`` over ``axes``.

    As TF: both are reduced with keepdims=True (ops "mean" and "variance"), the variance is the mean of
    SquaredDifference(x, StopGradient(mean)) so no gradient flows back through the mean, and the kept
    axes are squeezed away afterwards unless keep_dims. float16 inputs are computed in float32 and cast
    back. ``shift`` is accepted and ignored, as in TF.
    """
    keep = _keep_dims(keepdims, keep_dims)
    with graph_mod.name_scope(name, "moments", [x, axes]):
        half = _is_half(x)
        y = math_ops.cast(x, dtypes.float32) if half else x
        mean = math_ops.reduce_mean(y, axes, keepdims=True, name="mean")
        variance = math_ops.reduce_mean(math_ops.squared_difference(y, array_ops.stop_gradient(mean)),
                                        axes, keepdims=True, name="variance")
        if not keep:
            mean = array_ops.squeeze(mean, axes)
            variance = array_ops.squeeze(variance, axes)
        if half:
            return math_ops.cast(mean, dtypes.float16), math_ops.cast(variance, dtypes.float16)
        return mean, variance


def weighted_moments(x, axes, frequency_weights, name=None, keep_dims=None, keepdims=None):
    """``tf.nn.weighted_moments``: the frequency-weighted mean and variance of ``x`` over ``axes``.

    The weights broadcast against x (TF adds ZerosLike(x) to count them per element); both divisions
    are DivNoNan, so all-zero weights give 0, not NaN, as in TF.
    """
    keep = _keep_dims(keepdims, keep_dims)
    with graph_mod.name_scope(name, "weighted_moments", [x, frequency_weights, axes]):
        x = convert_to_tensor(x, name="x")
        frequency_weights = convert_to_tensor(frequency_weights, name="frequency_weights")
        half = x.dtype.base_dtype == dtypes.float16
        if half:
            x = math_ops.cast(x, dtypes.float32)
        if frequency_weights.dtype.base_dtype != x.dtype.base_dtype:
            frequency_weights = math_ops.cast(frequency_weights, x.dtype.base_dtype)
        weighted_input_sum = math_ops.reduce_sum(frequency_weights * x, axes, name="weighted_input_sum",
                                                 keepdims=True)
        broadcasted_weights = frequency_weights + array_ops.zeros_like(x)
        sum_of_weights = math_ops.reduce_sum(broadcasted_weights, axes, name="sum_of_weights", keepdims=True)
        weighted_mean = math_ops.div_no_nan(weighted_input_sum, sum_of_weights)
        weighted_distsq = math_ops.reduce_sum(frequency_weights * math_ops.squared_difference(x, weighted_mean),
                                              axes, name="weighted_distsq", keepdims=True)
        weighted_variance = math_ops.div_no_nan(weighted_distsq, sum_of_weights)
        if not keep:
            weighted_mean = array_ops.squeeze(weighted_mean, axis=axes)
            weighted_variance = array_ops.squeeze(weighted_variance, axis=axes)
        if half:
            weighted_mean = math_ops.cast(weighted_mean, dtypes.float16)
            weighted_variance = math_ops.cast(weighted_variance, dtypes.float16)
        return weighted_mean, weighted_variance


# ----------------------------------------------------------------------------------------- batchnorm
def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """``tf.nn.batch_normalization``: scale * (x - mean) / sqrt(variance + eps) + offset.

    Built as TF builds it, folded into one multiply-add on x: inv = Rsqrt(variance + eps) (times scale),
    then x * inv + (offset - mean * inv). ``offset`` and ``scale`` may be None.
    """
    with graph_mod.name_scope(name, "batchnorm", [x, mean, variance, scale, offset]):
        inv = math_ops.rsqrt(variance + variance_epsilon)
        if scale is not None:
            inv *= scale
        # one expression, as TF writes it: x * inv is built before offset - mean * inv (op names follow)
        return x * math_ops.cast(inv, x.dtype) + math_ops.cast(
            offset - mean * inv if offset is not None else -mean * inv, x.dtype)


# -------------------------------------------------------------------------------------- l2_normalize
def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    """``tf.nn.l2_normalize``: x / sqrt(max(sum(x**2, axis), epsilon)), computed as x * Rsqrt(...).

    The epsilon bounds the squared norm from below, so an all-zero slice stays zero instead of NaN.
    ``dim`` is TF's deprecated alias of ``axis``; axis None normalises over all elements.
    """
    if axis is not None and dim is not None:
        raise ValueError("Cannot specify both 'dim' and 'axis'.")
    axis = dim if axis is None else axis
    with graph_mod.name_scope(name, "l2_normalize", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        if x.dtype.is_complex:
            raise NotImplementedError("l2_normalize of a complex tensor (%s, dtype %s) is not supported by "
                                      "graphlab; normalise its real and imaginary parts yourself"
                                      % (x.name, x.dtype.name))
        square_sum = math_ops.reduce_sum(math_ops.square(x), axis, keepdims=True)
        x_inv_norm = math_ops.rsqrt(math_ops.maximum(square_sum, epsilon))
        return math_ops.multiply(x, x_inv_norm, name=scope)


# ---------------------------------------------------------------------------------- embedding_lookup
def _clip(params, ids, max_norm):
    """embedding_lookup's max_norm: clip each looked-up embedding (the axes after the ids' axes)."""
    if max_norm is None:
        return params
    ids_rank, params_rank = ids.shape.ndims, params.shape.ndims
    if ids_rank and params_rank:
        axes = list(range(ids_rank, params_rank))
    else:
        axes = array_ops.range(ids_rank if ids_rank else array_ops.rank(ids),
                               params_rank if params_rank else array_ops.rank(params))
    return clip_ops.clip_by_norm(params, max_norm, axes)


def embedding_lookup(params, ids, partition_strategy="mod", name=None, validate_indices=True, max_norm=None):
    """``tf.nn.embedding_lookup``: rows of ``params`` picked by ``ids`` (a GatherV2 on axis 0 named like
    the scope, then an Identity), with shape ids.shape + params.shape[1:].

    ``params`` is one tensor or variable, or a list of one. Sharded embeddings (a list of several, which
    TF splits with DynamicPartition/DynamicStitch by ``partition_strategy``) are not supported.
    ``validate_indices`` is ignored as in TF (ids are always checked on CPU), and so is
    ``partition_strategy``, which only matters for shards.
    """
    if params is None:
        raise ValueError("params must be specified")
    if isinstance(params, (list, tuple)) and not params:
        raise ValueError("Length of params is currently 0. Need at least one param.")
    if not isinstance(params, list):     # as TF: only a list means shards; a tuple is one nested value
        params = [params]
    if len(params) > 1:
        raise NotImplementedError(
            "embedding_lookup over %d sharded params is not supported by graphlab: pass a single tensor or "
            "variable (or a list of one). A Python list counts as shards, as in TF, so wrap a nested list of "
            "numbers in tf.constant; for 'div' shards, tf.concat(params, 0) gives the same table" % len(params))
    with graph_mod.name_scope(name, "embedding_lookup", params + [ids]) as scope:
        table = params[0] if isinstance(params[0], Tensor) else convert_to_tensor(params[0], name="params_0")
        ids = convert_to_tensor(ids, name="ids")
        with graph_mod.get_default_graph().colocate_with(table):      # as TF: the gather goes with its table
            result = _clip(array_ops.gather(table, ids, name=scope), ids, max_norm)
        return array_ops.identity(result)


# ------------------------------------------------------------------------------------ zero_fraction
def _count_nonzero(value, dtype):
    """How many elements of ``value`` are not 0, summed in ``dtype`` (scope "count_nonzero")."""
    with graph_mod.name_scope(None, "count_nonzero", [value]):
        zero = array_ops.zeros([], dtype=value.dtype)
        return math_ops.reduce_sum(math_ops.cast(math_ops.not_equal(value, zero), dtype=dtype),
                                   name="nonzero_count")


def zero_fraction(value, name=None):
    """``tf.nn.zero_fraction`` (also ``tf.math.zero_fraction``): the fraction of zeros in ``value`` as a
    float32 scalar (NaN when it is empty), the sparsity summary of the CIFAR-10 tutorial.

    Built as TF 2.21 builds it: the element count as int64, then a tf.cond that counts the non-zeros in
    int32 when the count fits (cast to int64) and in int64 otherwise, then (size - nonzero) / size in a
    "counts_to_fraction" scope and an Identity named "fraction"."""
    with graph_mod.name_scope(name, "zero_fraction", [value]):
        value = convert_to_tensor(value, name="value")
        size = array_ops.size(value, out_type=dtypes.int64)
        num_nonzero = control_flow_ops.cond(
            size <= dtypes.int32.max,
            true_fn=lambda: math_ops.cast(_count_nonzero(value, dtypes.int32), dtype=dtypes.int64),
            false_fn=lambda: _count_nonzero(value, dtypes.int64))
        with graph_mod.name_scope(None, "counts_to_fraction", []):
            num_zero = size - num_nonzero
            fraction = math_ops.cast(num_zero, dtype=dtypes.float32) / math_ops.cast(size, dtype=dtypes.float32)
        return array_ops.identity(fraction, "fraction")


# ------------------------------------------------------------------------ weighted_cross_entropy_with_logits
def weighted_cross_entropy_with_logits(labels=None, logits=None, pos_weight=None, name=None, targets=None):
    """``tf.nn.weighted_cross_entropy_with_logits`` (TF1 signature; ``targets`` is the old name of
    ``labels``): sigmoid cross entropy with the positive term scaled by ``pos_weight``,

        (1 - z) * x + (1 + (q - 1) * z) * (log1p(exp(-|x|)) + relu(-x))

    for logits x, labels z and pos_weight q, op for op as TF writes it (stable for large |x|)."""
    if labels is not None and targets is not None:
        raise ValueError("Cannot specify both 'targets' and 'labels'.")
    labels = targets if labels is None else labels
    with graph_mod.name_scope(name, "logistic_loss", [logits, labels]) as scope:
        logits = convert_to_tensor(logits, name="logits")
        labels = convert_to_tensor(labels, name="labels")
        if not labels.shape.is_compatible_with(logits.shape):
            raise ValueError("`logits` and `labels` must have the same shape, received (%s vs %s)."
                             % (logits.shape, labels.shape))
        log_weight = 1 + (pos_weight - 1) * labels
        return math_ops.add(
            (1 - labels) * logits,
            log_weight * (math_ops.log1p(math_ops.exp(-math_ops.abs(logits))) + nn_ops.relu(-logits)),
            name=scope)


__all__ = ["moments", "weighted_moments", "batch_normalization", "l2_normalize", "embedding_lookup",
           "zero_fraction", "weighted_cross_entropy_with_logits"]
