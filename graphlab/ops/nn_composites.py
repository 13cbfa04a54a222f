"""tf.nn functions TF builds from other ops: Poisson loss, sufficient statistics and normalized moments,
relu_layer, the TF2-named pools and transposed convolutions, and the distribution-aware loss scalings
(one replica here)."""
import math

from graphlab.framework import graph as graph_mod
from graphlab.ops import array_ops, math_ops, nn_ops
from graphlab.framework.registry import constant, convert_to_tensor


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
