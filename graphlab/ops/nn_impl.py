"""The ``tf.nn`` functions that are compositions of other ops: moments, weighted_moments, batch_normalization,
l2_normalize, embedding_lookup, zero_fraction and weighted_cross_entropy_with_logits; Poisson loss,
sufficient statistics and normalized moments, relu_layer, the TF2-named pools and transposed convolutions,
and the distribution-aware loss scalings (one replica here).

None of them registers an op type: each builds, op for op and under TF's own scope and op names, the
small subgraph TensorFlow builds, so graphs, gradients and renderings read the same as in TF.
"""
import math

from graphlab.framework import dtypes
from graphlab.framework import graph as graph_mod
from graphlab.framework.tensor import Tensor
from graphlab.ops import array_ops, clip_ops, control_flow_ops, math_ops, nn_ops
from graphlab.framework.registry import constant, convert_to_tensor


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
        table = params[0]
        if not isinstance(table, Tensor) and not getattr(table, "_is_resource_variable", False):
            table = convert_to_tensor(table, name="params_0")   # a resource variable stays: ResourceGather
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


def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
    """``tf.nn.log_poisson_loss``: exp(log_input) - log_input * targets (+ Stirling's term if full)."""
    with graph_mod.name_scope(name, "log_poisson_loss", [log_input, targets]):
        log_input = convert_to_tensor(log_input, name="log_input")
        targets = convert_to_tensor(targets, name="targets")
        if not targets.shape.is_compatible_with(log_input.shape):
            raise ValueError("`log_input` and `targets` must have the same shape, received (%s vs %s)."
                             % (log_input.shape, targets.shape))
        result = math_ops.exp(log_input) - log_input * targets
        if compute_full_loss:
            point_five = constant(0.5, dtype=targets.dtype)
            two_pi = constant(2 * math.pi, dtype=targets.dtype)
            stirling_approx = (targets * math_ops.log(targets)) - targets + (
                point_five * math_ops.log(two_pi * targets))
            zeros = array_ops.zeros_like(targets, dtype=targets.dtype)
            ones = array_ops.ones_like(targets, dtype=targets.dtype)
            cond = math_ops.logical_and(targets >= zeros, targets <= ones)
            result += array_ops.where(cond, zeros, stirling_approx)
        return result


def sufficient_statistics(x, axes, shift=None, keep_dims=None, name=None, keepdims=None):
    """``tf.nn.sufficient_statistics``: (count, sum of x - shift, sum of squared deviations, shift)."""
    axes = list(set(axes))
    keep = bool(keepdims if keepdims is not None else keep_dims)
    with graph_mod.name_scope(name, "sufficient_statistics", [x, shift]):
        x = convert_to_tensor(x, name="x")
        x_shape = x.shape
        if x_shape.ndims is not None and all(x_shape.as_list()[d] is not None for d in axes):
            counts = 1
            for d in axes:
                counts *= x_shape.as_list()[d]
            counts = constant(counts, dtype=x.dtype)
        else:
            rank = array_ops.rank(x)
            positive_axes = [axis + rank if axis < 0 else axis for axis in axes]
            x_dims = array_ops.gather(math_ops.cast(array_ops.shape(x), x.dtype), positive_axes)
            counts = math_ops.reduce_prod(x_dims, name="count")
        if shift is not None:
            shift = convert_to_tensor(shift, name="shift")
            m_ss = math_ops.subtract(x, shift)
            v_ss = math_ops.squared_difference(x, shift)
        else:
            m_ss = x
            v_ss = math_ops.square(x)
        m_ss = math_ops.reduce_sum(m_ss, axes, keepdims=keep, name="mean_ss")
        v_ss = math_ops.reduce_sum(v_ss, axes, keepdims=keep, name="var_ss")
    return counts, m_ss, v_ss, shift


def normalize_moments(counts, mean_ss, variance_ss, shift, name=None):
    """``tf.nn.normalize_moments``: (mean, variance) from sufficient statistics."""
    with graph_mod.name_scope(name, "normalize", [counts, mean_ss, variance_ss, shift]):
        divisor = math_ops.reciprocal(counts, name="divisor")
        if shift is not None:
            shifted_mean = math_ops.multiply(mean_ss, divisor, name="shifted_mean")
            mean = math_ops.add(shifted_mean, shift, name="mean")
        else:
            shifted_mean = math_ops.multiply(mean_ss, divisor, name="mean")
            mean = shifted_mean
        variance = math_ops.subtract(math_ops.multiply(variance_ss, divisor), math_ops.square(shifted_mean),
                                     name="variance")
    return mean, variance


def relu_layer(x, weights, biases, name=None):
    """``tf.nn.relu_layer``: relu(matmul(x, weights) + biases)."""
    with graph_mod.name_scope(name, "relu_layer", [x, weights, biases]) as scope:
        x = convert_to_tensor(x, name="x")
        weights = convert_to_tensor(weights, name="weights")
        biases = convert_to_tensor(biases, name="biases")
        xw_plus_b = nn_ops.bias_add(math_ops.matmul(x, weights), biases)
        return nn_ops.relu(xw_plus_b, name=scope)


def batch_norm_with_global_normalization(t=None, m=None, v=None, beta=None, gamma=None, variance_epsilon=None,
                                         scale_after_normalization=None, name=None, input=None,  # noqa: A002
                                         mean=None, variance=None):
    """``tf.nn.batch_norm_with_global_normalization`` (TF1): batch_normalization, gamma only if scaling."""
    from graphlab.ops.nn_impl import batch_normalization
    t = input if input is not None else t
    m = mean if mean is not None else m
    v = variance if variance is not None else v
    return batch_normalization(t, m, v, beta, gamma if scale_after_normalization else None, variance_epsilon,
                               name)


def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    """``tf.nn.compute_average_loss``: sum(loss * weight) / global batch size (one replica in graphlab)."""
    from graphlab.framework import dtypes
    per_example_loss = convert_to_tensor(per_example_loss)
    input_dtype = per_example_loss.dtype
    if sample_weight is not None:
        per_example_loss = per_example_loss * math_ops.cast(convert_to_tensor(sample_weight), input_dtype)
    per_example_loss = math_ops.cast(per_example_loss, input_dtype)
    if global_batch_size is None:
        global_batch_size = array_ops.shape(per_example_loss, out_type=dtypes.int64)[0]
    global_batch_size = math_ops.cast(global_batch_size, input_dtype)
    return math_ops.div_no_nan(math_ops.reduce_sum(per_example_loss), global_batch_size)


def scale_regularization_loss(regularization_loss):
    """``tf.nn.scale_regularization_loss``: the summed loss over the number of replicas (one here)."""
    return math_ops.reduce_sum(regularization_loss) / 1


def _rank_of(x, data_format):
    x = convert_to_tensor(x)
    rank = x.shape.ndims
    if rank is None:
        raise ValueError("The rank of the input must be known")
    return rank - 2


def max_pool_v2(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """``tf.nn.max_pool_v2``: MaxPool for 1-D, 2-D or 3-D inputs by their rank."""
    return _pool_v2("max", input, ksize, strides, padding, data_format, name)


def avg_pool_v2(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """``tf.nn.avg_pool_v2``: AvgPool for 1-D, 2-D or 3-D inputs by their rank."""
    return _pool_v2("avg", input, ksize, strides, padding, data_format, name)


def _expand(value, n, channels_last):
    """TF's _get_sequence: an int or n values become the full (n + 2)-long ksize/strides list."""
    value = [value] if isinstance(value, int) else list(value)
    if len(value) == n + 2:
        return value
    if len(value) == 1:
        value = value * n
    out = [1] * (n + 2)
    if channels_last:
        out[1:-1] = value
    else:
        out[2:] = value
    return out


def _pool_v2(kind, input, ksize, strides, padding, data_format, name):  # noqa: A002
    from graphlab.ops import conv3d_ops, conv_ops, convolution
    n = _rank_of(input, data_format)
    channels_last = data_format is None or not data_format.startswith("NC")
    ksize = _expand(ksize, n, channels_last)
    strides = _expand(strides, n, channels_last)
    if n == 1:
        fn = convolution.max_pool1d if kind == "max" else convolution.avg_pool1d
        return fn(input, ksize, strides, padding, data_format=data_format or "NWC", name=name)
    if n == 2:
        fn = conv_ops.max_pool if kind == "max" else conv_ops.avg_pool
        return fn(input, ksize, strides, padding, data_format=data_format or "NHWC", name=name)
    if n == 3:
        fn = conv3d_ops.max_pool3d if kind == "max" else conv3d_ops.avg_pool3d
        return fn(input, ksize, strides, padding, data_format=data_format or "NDHWC", name=name)
    raise ValueError("Input tensor must be of rank 3, 4 or 5 but was %d." % (n + 2))


def conv1d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NWC",  # noqa: A002
                     dilations=None, name=None):
    """``tf.nn.conv1d_transpose``: conv2d_transpose over a height of 1 (as TF builds it)."""
    from graphlab.ops import convolution
    with graph_mod.name_scope(name, "conv1d_transpose", [input, filters, output_shape]):
        if data_format not in ("NWC", "NCW", None):
            raise ValueError("`data_format` must be 'NWC' or 'NCW'. Received: data_format=%s" % data_format)
        channels_last = data_format in ("NWC", None)
        spatial_start = 1 if channels_last else 2
        strides = _one_spatial(strides, spatial_start)
        dilations = _one_spatial(dilations if dilations is not None else 1, spatial_start)
        input = array_ops.expand_dims(input, spatial_start)  # noqa: A001
        filters = array_ops.expand_dims(filters, 0)
        output_shape = list(output_shape) if not hasattr(output_shape, "dtype") else output_shape
        if isinstance(output_shape, list):
            output_shape = output_shape[:spatial_start] + [1] + output_shape[spatial_start:]
        else:
            output_shape = array_ops.concat([output_shape[:spatial_start], [1], output_shape[spatial_start:]], 0)
        out = convolution.conv2d_transpose(input, filters, output_shape, strides=strides, padding=padding,
                                           data_format="NHWC" if channels_last else "NCHW", dilations=dilations)
        return array_ops.squeeze(out, [spatial_start])


def _one_spatial(value, spatial_start):
    """A 1-D conv's stride or dilation as the 4-D list conv2d wants: height 1 inserted."""
    if isinstance(value, int):
        value = [value]
    value = list(value)
    if len(value) == 1:
        out = [1, 1, 1, 1]
        out[spatial_start + 1] = value[0]
        return out
    if len(value) == 3:
        return value[:spatial_start] + [1] + value[spatial_start:]
    return value


def conv_transpose(input, filters, output_shape, strides, padding="SAME", data_format=None,  # noqa: A002
                   dilations=None, name=None):
    """``tf.nn.conv_transpose``: the 1-D, 2-D or 3-D transposed convolution by the rank of output_shape."""
    from graphlab.ops import conv3d_ops, convolution
    with graph_mod.name_scope(name, "conv_transpose", [input, filters, output_shape]):
        n = (len(output_shape) if not hasattr(output_shape, "shape") else output_shape.shape.as_list()[0]) - 2
        if n == 1:
            return conv1d_transpose(input, filters, output_shape, strides, padding=padding,
                                    data_format=data_format or "NWC", dilations=dilations)
        if n == 2:
            return convolution.conv2d_transpose(input, filters, output_shape, strides=strides, padding=padding,
                                                data_format=data_format or "NHWC", dilations=dilations)
        if n == 3:
            return conv3d_ops.conv3d_transpose(input, filters, output_shape, strides=strides, padding=padding,
                                               data_format=data_format or "NDHWC")
        raise ValueError("output_shape must be of length 3, 4 or 5 but was %d." % (n + 2))


__all__ = ["moments", "weighted_moments", "batch_normalization", "l2_normalize", "embedding_lookup",
           "zero_fraction", "weighted_cross_entropy_with_logits"]
