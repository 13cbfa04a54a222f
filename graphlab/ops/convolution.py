"""The ``tf.nn`` convolution and pooling functions that are compositions of other ops, built op for op as
TF 2.21's ``tf.compat.v1`` builds them: conv1d (ExpandDims, Conv2D, Squeeze), conv2d_transpose
(Conv2DBackpropInput), convolution / atrous_conv2d / pool / depthwise_conv2d / separable_conv2d with a
dilation rate (SpaceToBatchND, the op, BatchToSpaceND: TF's ``with_space_to_batch``), and the 1-D pools.

Channels-last layouts only (NWC, NHWC, NDHWC), as the kernels.
"""
import numpy as np

from graphlab.framework import dtypes, tensor_shape
from graphlab.framework import graph as graph_mod
from graphlab.ops import _windows as win
from graphlab.ops import array_ops, conv3d_ops, conv_ops, depthwise_conv_ops
from graphlab.framework.registry import const_value, convert_to_tensor
from graphlab.ops.space_batch_ops import batch_to_space_nd, required_space_to_batch_paddings, space_to_batch_nd

_CHANNELS_LAST = {1: "NWC", 2: "NHWC", 3: "NDHWC"}


def _channels_last(data_format, n):
    if data_format is not None and data_format.startswith("NC"):
        raise ValueError("only channels-last data_format (%s) is supported (got %r): transpose the input first"
                         % (_CHANNELS_LAST.get(n, "N...C"), data_format))


# --------------------------------------------------------------------------------- with_space_to_batch
def _base_paddings(filter_shape, n, rate):
    """SAME padding a dilated window needs, split as TF splits it (more after than before)."""
    extra = (filter_shape[:n] - 1) * rate
    start = extra // 2
    end = extra - start
    return array_ops.stack([[start[i], end[i]] for i in range(n)])


def _spread(orig, fill_value, spatial_dims):
    """TF's _with_space_to_batch_adjust: rows of ``orig`` for the spatial axes, with fill rows for the
    non-spatial axes between them (numpy when orig is known at build time)."""
    fill_dims = orig.shape.as_list()[1:]
    known = const_value(orig)
    source = known if known is not None else orig
    parts, previous, i = [], 0, 0
    while i < len(spatial_dims):
        first, start_dim = i, spatial_dims[i]
        if start_dim > 1:
            parts.append(np.full([start_dim - 1 - previous] + fill_dims, fill_value,
                                 dtype=orig.dtype.as_numpy_dtype))
        while i + 1 < len(spatial_dims) and spatial_dims[i + 1] == spatial_dims[i] + 1:
            i += 1
        parts.append(source[first:i + 1])
        previous = spatial_dims[i]
        i += 1
    if known is not None:
        return np.concatenate(parts)
    return array_ops.concat(parts, 0)


def _space_to_batch_call(input_shape, dilation_rate, padding, build, filter_shape=None, spatial_dims=None,
                         data_format=None, num_batch_dims=1):
    """TF's _WithSpaceToBatch: returns call(inp, filter). With every rate 1 it is just the op; otherwise the
    input is padded and split into rate-strided batches, the op runs VALID on them, and the result is
    interleaved back and cropped."""
    dilation_rate = convert_to_tensor(dilation_rate, dtype=dtypes.int32, name="dilation_rate")
    if dilation_rate.shape.ndims not in (None, 1):
        raise ValueError("`dilation_rate.shape.rank` must be 1. Received: dilation_rate=%s of rank %d"
                         % (dilation_rate, dilation_rate.shape.ndims))
    if not dilation_rate.shape.is_fully_defined():
        raise ValueError("`dilation_rate.shape` must be fully defined. Received: dilation_rate=%s with shape %s"
                         % (dilation_rate, dilation_rate.shape))
    n = dilation_rate.shape.as_list()[0]
    _channels_last(data_format, n)
    if spatial_dims is None:
        spatial_dims = range(num_batch_dims, n + num_batch_dims)
    original = list(spatial_dims)
    spatial_dims = sorted(set(int(d) for d in original))
    if spatial_dims != original or any(d < 1 for d in spatial_dims):
        raise ValueError("`spatial_dims` must be a monotonically increasing sequence of positive integers. "
                         "Received: spatial_dims=%s" % original)
    rank = spatial_dims[-1] + 1
    if input_shape.ndims is not None and input_shape.ndims < rank:
        raise ValueError("`input.shape.rank` must be at least %d. Received: input.shape=%s with rank %d"
                         % (rank, input_shape, input_shape.ndims))
    rate = const_value(dilation_rate)
    rate_or_tensor = dilation_rate
    if rate is not None:
        rate_or_tensor = rate
        if np.any(rate < 1):
            raise ValueError("`dilation_rate` must be positive. Received: dilation_rate=%s" % rate)
        if np.all(rate == 1):
            return build(n, padding)
    padding = str(padding).upper()
    base = None
    if padding == "SAME":
        if filter_shape is None:
            raise ValueError("`filter_shape` must be specified for `padding='SAME'`. Received: filter_shape=None "
                             "and padding=SAME")
        filter_shape = convert_to_tensor(filter_shape, name="filter_shape")
        known = const_value(filter_shape)
        if known is not None:
            base = _base_paddings(np.asarray(known), n, rate_or_tensor)
    elif padding == "VALID":
        base = np.zeros([n, 2], np.int32)
    else:
        raise ValueError("`padding` must be one of 'SAME' or 'VALID'. Received: padding=%s" % padding)
    op = build(n, "VALID")

    def call(inp, filter):  # noqa: A002
        spatial = None
        if input_shape.ndims is not None:
            dims = input_shape.as_list()
            spatial = [dims[i] for i in spatial_dims]
        if spatial is None or None in spatial:
            dynamic = array_ops.shape(inp)
            spatial = array_ops.stack([dynamic[i] for i in spatial_dims])
        base_paddings = base
        if base_paddings is None:
            base_paddings = _base_paddings(array_ops.shape(filter), n, rate_or_tensor)
        paddings, crops = required_space_to_batch_paddings(input_shape=spatial, base_paddings=base_paddings,
                                                           block_shape=dilation_rate)
        block = _spread(dilation_rate, 1, spatial_dims)
        paddings = _spread(paddings, 0, spatial_dims)
        crops = _spread(crops, 0, spatial_dims)
        converted = space_to_batch_nd(inp, block_shape=block, paddings=paddings)
        return batch_to_space_nd(op(converted, filter), block_shape=block, crops=crops)
    return call


def with_space_to_batch(input, dilation_rate, padding, op, filter_shape=None, spatial_dims=None,  # noqa: A002
                        data_format=None):
    """``tf.nn.with_space_to_batch``: ``op(converted_input, num_spatial_dims, padding)`` on the
    space-to-batch transformed input, transformed back."""
    input = convert_to_tensor(input, name="input")
    call = _space_to_batch_call(input.shape, dilation_rate, padding,
                                lambda n, pad: (lambda inp, _: op(inp, n, pad)),
                                filter_shape=filter_shape, spatial_dims=spatial_dims, data_format=data_format)
    return call(input, None)


# ------------------------------------------------------------------------------------------ convolution
def conv1d(value=None, filters=None, stride=None, padding=None, use_cudnn_on_gpu=None, data_format=None,
           name=None, input=None, dilations=None):  # noqa: A002
    """``tf.nn.conv1d``: a Conv2D over an inserted height axis of 1 (ExpandDims, Conv2D, Squeeze)."""
    value = input if value is None else value
    with graph_mod.name_scope(name, "conv1d", [value, filters]) as scope:
        if data_format not in (None, "NWC", "NHWC"):
            _channels_last(data_format, 1)
            raise ValueError("`data_format` must be 'NWC' or 'NCW'. Received: data_format=%s" % data_format)
        strides = [1] + win.sequence(stride, 1, "stride")
        rates = [1] + win.sequence(dilations, 1, "dilations")
        value = array_ops.expand_dims(value, -3)
        filters = array_ops.expand_dims(filters, 0)
        result = conv_ops.conv2d(value, filters, strides, padding,
                                 use_cudnn_on_gpu=True if use_cudnn_on_gpu is None else use_cudnn_on_gpu,
                                 data_format="NHWC", dilations=rates, name=scope)
        return array_ops.squeeze(result, [-3])


def conv2d_transpose(value=None, filter=None, output_shape=None, strides=None, padding="SAME",  # noqa: A002
                     data_format="NHWC", name=None, input=None, filters=None, dilations=None):  # noqa: A002
    """``tf.nn.conv2d_transpose``: Conv2DBackpropInput with output_shape as its input_sizes."""
    value = input if value is None else value
    filter = filters if filter is None else filter
    with graph_mod.name_scope(name, "conv2d_transpose", [value, filter, output_shape]) as scope:
        _channels_last(data_format, 2)
        return conv_ops.conv2d_backprop_input(output_shape, filter, value, win.sequence(strides, 2, "strides"),
                                              padding, data_format or "NHWC",
                                              win.sequence(dilations, 2, "dilations"), name=scope)


def _non_atrous(input_shape, filter_shape, padding, strides, name, num_batch_dims=1):
    """TF's _NonAtrousConvolution: the plain op for the rank (conv1d, Conv2D or Conv3D)."""
    if input_shape.ndims is not None:
        filter_shape = filter_shape.with_rank(input_shape.ndims - num_batch_dims + 1)
    if filter_shape.ndims is not None:
        input_shape = input_shape.with_rank(filter_shape.ndims + num_batch_dims - 1)
    if input_shape.ndims is None:
        raise ValueError("Rank of convolution must be known. Received: input_shape=%s of rank None" % input_shape)
    dims = input_shape.ndims - num_batch_dims - 1
    if not 1 <= dims <= 3:
        raise ValueError("`input_shape.rank - num_batch_dims + 1` must be at least 3 and at most 5. Received: "
                         "input_shape.rank=%d and num_batch_dims=%d" % (input_shape.ndims, num_batch_dims))
    strides = [1] * dims if strides is None else list(strides)
    if dims == 1:
        return lambda inp, f: conv1d(value=inp, filters=f, stride=strides[0], padding=padding, name=name)
    if dims == 2:
        return lambda inp, f: conv_ops.conv2d(inp, f, [1] + strides + [1], padding, name=name)
    return lambda inp, f: conv3d_ops.conv3d(inp, f, [1] + strides + [1], padding, name=name)


def convolution(input, filter=None, padding=None, strides=None, dilation_rate=None, name=None,  # noqa: A002
                data_format=None, filters=None, dilations=None):
    """``tf.nn.convolution`` (TF1 signature): the 1-, 2- or 3-D convolution for the filter's rank; with a
    dilation rate, TF's SpaceToBatchND / op / BatchToSpaceND construction."""
    filter = filters if filter is None else filter
    rate = dilations if dilation_rate is None else dilation_rate
    if not hasattr(filter, "_op") and not hasattr(filter, "_to_tensor"):
        with graph_mod.name_scope("convolution_internal", None, [filter, input]):
            filter = convert_to_tensor(filter, name="filters")
    if not hasattr(input, "_op"):
        with graph_mod.name_scope("convolution_internal", None, [filter, input]):
            input = convert_to_tensor(input, name="input")
    f_rank, x_rank = filter.shape.ndims, input.shape.ndims
    if f_rank:
        n = f_rank - 2
    elif x_rank:
        n = x_rank - 2
    else:
        raise ValueError("When `num_spatial_dims` is not set, one of `input.shape.rank` or `filters.shape.rank` "
                         "must be known. Received: input.shape=%s of rank %s and filters.shape=%s of rank %s"
                         % (input.shape, x_rank, filter.shape, f_rank))
    batch_dims = x_rank - n - 1 if x_rank else 1
    if n not in (1, 2, 3):
        raise ValueError("`num_spatial_dims` must be 1, 2, or 3. Received: num_spatial_dims=%d." % n)
    _channels_last(data_format, n)
    rates = win.sequence(rate, n, "dilations")
    stride_list = win.sequence(strides, n, "strides")
    dilated = rate is not None and any(r != 1 for r in rates)
    with graph_mod.name_scope(name, "convolution", [input, filter]) as scope:
        if not dilated:
            if n == 2:
                return conv_ops.conv2d(input, filter, stride_list, padding, dilations=rates, name=scope)
            if n == 3:
                return conv3d_ops.conv3d(input, filter, stride_list, padding, dilations=rates, name=scope)
            return conv1d(input, filter, stride_list, padding, dilations=rates, name=scope)
        stride_list, rates = stride_list[1:-1], rates[1:-1]
        if any(s > 1 for s in stride_list) and any(r > 1 for r in rates):
            raise ValueError("`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: "
                             "strides=%s and dilation_rate=%s" % (np.array(stride_list), np.array(rates)))
        in_shape, f_shape = tensor_shape.as_shape(input.shape), tensor_shape.as_shape(filter.shape)
        if padding == "SAME" and not f_shape.is_fully_defined():   # TF converts the static shape to a tensor
            raise ValueError("Cannot convert a partially known TensorShape %s to a Tensor." % f_shape)
        call = _space_to_batch_call(in_shape, np.array(rates, np.int32), padding,
                                    lambda _, pad: _non_atrous(in_shape, f_shape, pad, stride_list, scope,
                                                               batch_dims),
                                    filter_shape=f_shape.as_list() if f_shape.is_fully_defined() else None,
                                    spatial_dims=range(batch_dims, n + batch_dims),
                                    data_format=data_format, num_batch_dims=batch_dims)
        return call(input, filter)


def atrous_conv2d(value, filters, rate, padding, name=None):
    """``tf.nn.atrous_conv2d``: ``convolution`` with the same dilation rate on both spatial axes."""
    return convolution(input=value, filter=filters, padding=padding, dilation_rate=np.broadcast_to(rate, (2,)),
                       name=name)


def depthwise_conv2d(input, filter, strides, padding, rate=None, name=None, data_format=None,  # noqa: A002
                     dilations=None):
    """``tf.nn.depthwise_conv2d``: DepthwiseConv2dNative, inside TF's space-to-batch for a rate > 1."""
    rate = dilations if rate is None else rate
    with graph_mod.name_scope(name, "depthwise", [input, filter]) as scope:
        input = convert_to_tensor(input, name="tensor_in")
        filter = convert_to_tensor(filter, name="filter_in")
        rate = [1, 1] if rate is None else rate

        def op(converted, _, pad):
            return depthwise_conv_ops.depthwise_conv2d_native(converted, filter, strides, pad,
                                                              data_format=data_format, name=scope)
        return with_space_to_batch(input, rate, padding, op, filter_shape=array_ops.shape(filter),
                                   data_format=data_format)


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding, rate=None,  # noqa: A002
                     name=None, data_format=None, dilations=None):
    """``tf.nn.separable_conv2d``: a depthwise convolution, then a 1x1 Conv2D mixing its channels."""
    rate = dilations if rate is None else rate
    with graph_mod.name_scope(name, "separable_conv2d", [input, depthwise_filter, pointwise_filter]) as scope:
        input = convert_to_tensor(input, name="tensor_in")
        depthwise_filter = convert_to_tensor(depthwise_filter, name="depthwise_filter")
        pointwise_filter = convert_to_tensor(pointwise_filter, name="pointwise_filter")
        pointwise_shape = pointwise_filter.shape.with_rank(4)
        for i in (0, 1):
            if pointwise_shape.as_list()[i] not in (None, 1):
                raise ValueError("Dimensions %d and 1 are not compatible" % pointwise_shape.as_list()[i])
        rate = [1, 1] if rate is None else rate

        def op(converted, _, pad):
            return depthwise_conv_ops.depthwise_conv2d_native(converted, depthwise_filter, strides, pad,
                                                              data_format=data_format, name="depthwise")
        depthwise = with_space_to_batch(input, rate, padding, op, filter_shape=array_ops.shape(depthwise_filter),
                                        data_format=data_format)
        return conv_ops.conv2d(depthwise, pointwise_filter, [1, 1, 1, 1], padding="VALID",
                               data_format=data_format or "NHWC", name=scope)


# -------------------------------------------------------------------------------------------- pooling
def _pool1d(op, default_name, input, ksize, strides, padding, data_format, name):  # noqa: A002
    with graph_mod.name_scope(name, default_name, [input]) as scope:
        if data_format not in (None, "NWC"):
            _channels_last(data_format, 1)
        ksize = [1] + win.sequence(ksize, 1, "ksize")
        strides = [1] + win.sequence(strides, 1, "strides")
        expanded = array_ops.expand_dims(input, 1)
        return array_ops.squeeze(op(expanded, ksize, strides, padding, "NHWC", name=scope), 1)


def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    """``tf.nn.max_pool1d``: MaxPool over an inserted height axis (scope "MaxPool1d", TF's spelling)."""
    return _pool1d(conv_ops.max_pool, "MaxPool1d", input, ksize, strides, padding, data_format, name)


def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    """``tf.nn.avg_pool1d``: AvgPool over an inserted height axis (scope "AvgPool1D")."""
    return _pool1d(conv_ops.avg_pool, "AvgPool1D", input, ksize, strides, padding, data_format, name)


def pool(input, window_shape, pooling_type, padding, dilation_rate=None, strides=None, name=None,  # noqa: A002
         data_format=None, dilations=None):
    """``tf.nn.pool``: N-d max or average pooling, dilated through TF's space-to-batch."""
    rate = dilations if dilation_rate is None else dilation_rate
    with graph_mod.name_scope(name, "%s_pool" % pooling_type.lower(), [input]) as scope:
        input = convert_to_tensor(input, name="input")
        n = len(window_shape)
        if not 1 <= n <= 3:
            raise ValueError("`len(window_shape)` must be 1, 2, or 3. Received: window_shape=%s of length %d"
                             % (window_shape, n))
        input.shape.with_rank(n + 2)
        _channels_last(data_format, n)
        rate = np.array([1] * n if rate is None else rate, np.int32)
        strides = np.array([1] * n if strides is None else strides, np.int32)
        if len(rate) != n or len(strides) != n:
            raise ValueError("`len(dilation_rate)` and `len(strides)` should be %d. Received: dilation_rate=%s, "
                             "strides=%s" % (n, list(rate), list(strides)))
        if np.any(rate < 1) or np.any(strides < 1):
            raise ValueError("all values of `dilation_rate` and `strides` must be positive. Received: "
                             "dilation_rate=%s, strides=%s" % (rate, strides))
        if np.any(strides > 1) and np.any(rate > 1):
            raise ValueError("`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: "
                             "strides=%s and dilation_rate=%s" % (strides, rate))
        if padding == "SAME" and np.any(rate > 1):
            raise ValueError("pooling with 'SAME' padding is not implemented for `dilation_rate` > 1. Received: "
                             "padding=%s and dilation_rate=%s" % (padding, rate))
        if np.any(strides > window_shape):
            raise ValueError("`strides` > `window_shape` not supported due to inconsistency between CPU and GPU "
                             "implementations. Received: strides=%s and window_shape=%s" % (strides, window_shape))
        kinds = {"MAX": (conv_ops.max_pool, conv3d_ops.max_pool3d), "AVG": (conv_ops.avg_pool, conv3d_ops.avg_pool3d)}
        if pooling_type not in kinds:
            raise ValueError("%d-D %s pooling is not supported." % (n, pooling_type))
        two_d, three_d = kinds[pooling_type]
        window = [1] + list(window_shape) + [1]
        steps = [1] + [int(s) for s in strides] + [1]
        if n == 1:
            window, steps = [1] + window, [1] + steps

        def op(converted, _, pad):
            if n == 1:
                converted = array_ops.expand_dims(converted, 1)
            result = (three_d if n == 3 else two_d)(converted, window, steps, pad, name=scope)
            if n == 1:
                result = array_ops.squeeze(result, [1])
            return result
        return with_space_to_batch(input, rate, padding, op, filter_shape=window_shape,
                                   spatial_dims=range(1, n + 1))


__all__ = ["conv1d", "conv2d_transpose", "convolution", "atrous_conv2d", "depthwise_conv2d", "separable_conv2d",
           "with_space_to_batch", "max_pool1d", "avg_pool1d", "pool"]
