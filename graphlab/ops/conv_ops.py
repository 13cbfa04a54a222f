"""Convolution and pooling ops (``tf.nn.conv2d``, ``max_pool``, ``avg_pool``), NHWC only.

Kernels are vectorised numpy: the padded input is viewed as windows with
``np.lib.stride_tricks.sliding_window_view`` (no copy) and contracted with ``np.tensordot``. Gradients use TF's op
types (Conv2DBackpropInput / Conv2DBackpropFilter, MaxPoolGrad, AvgPoolGrad), each registered with its own
kernel and rule, so gradient graphs read like TF's and can be differentiated again.
"""
import numpy as np

from graphlab.framework import tensor_shape
from graphlab.formats.errors import InvalidArgumentError, UnimplementedError
from graphlab.ops import _windows as window_geometry
from graphlab.ops import array_ops
from graphlab.framework.registry import build_op, const_value, register_op

_sliding = np.lib.stride_tricks.sliding_window_view


# ------------------------------------------------------------------------------------------ geometry
def _four_in(value, name, data_format):
    """_four for an op of ``data_format``: one or two ints are the window's H and W (TF's _get_sequence)."""
    given = [value] if isinstance(value, int) else list(value)
    four = _four(value, name)
    if data_format == "NCHW" and len(given) in (1, 2):
        four = [1, 1, four[1], four[2]]
    return four


def _four(value, name):
    """TF's strides/ksize/dilations: an int, 2 ints (H, W) or 4 NHWC ints -> 4 NHWC ints."""
    if isinstance(value, int):
        value = [value]
    value = [int(v) for v in value]
    if len(value) == 1:
        value = value * 2
    if len(value) == 2:
        value = [1] + value + [1]
    if len(value) != 4:
        raise ValueError("%s should be of length 1, 2 or 4 but was %d" % (name, len(value)))
    return value


def _padding(padding):
    padding = padding.decode() if isinstance(padding, bytes) else str(padding)
    if padding.upper() not in ("SAME", "VALID"):
        raise ValueError("padding must be 'SAME' or 'VALID', got %r" % padding)
    return padding.upper()


def _out_size(size, k, stride, dilation, padding):
    """(output size, pad before, pad after) along one spatial axis, as TF computes them."""
    k_eff = (k - 1) * dilation + 1
    if padding == "VALID":
        out = (size - k_eff + stride) // stride
        return max(out, 0), 0, 0
    out = -(-size // stride)
    total = max((out - 1) * stride + k_eff - size, 0)
    return out, total // 2, total - total // 2


def _geometry(x_shape, k_hw, attrs):
    """Output (oh, ow) and pads ((top, bottom), (left, right)) for a NHWC input and window (kh, kw)."""
    s, d = attrs["strides"], attrs.get("dilations", [1, 1, 1, 1])
    oh, pt, pb = _out_size(x_shape[1], k_hw[0], s[1], d[1], attrs["padding"])
    ow, pl, pr = _out_size(x_shape[2], k_hw[1], s[2], d[2], attrs["padding"])
    return (oh, ow), ((pt, pb), (pl, pr))


def _windows(xp, k_hw, attrs, out_hw):
    """View of padded NHWC ``xp`` as (N, oh, ow, C, kh, kw) windows (strided and dilated, no copy)."""
    s, d = attrs["strides"], attrs.get("dilations", [1, 1, 1, 1])
    keh, kew = (k_hw[0] - 1) * d[1] + 1, (k_hw[1] - 1) * d[2] + 1
    w = _sliding(xp, (keh, kew), axis=(1, 2))
    return w[:, ::s[1], ::s[2], :, ::d[1], ::d[2]][:, :out_hw[0], :out_hw[1]]


def _pad(x, pads, value=0):
    return np.pad(x, ((0, 0), pads[0], pads[1], (0, 0)), mode="constant", constant_values=value)


def _static_out_dim(size, k, stride, dilation, padding):
    if size is None or k is None:
        return None
    return _out_size(size, k, stride, dilation, padding)[0]


def _check_nhwc(attrs):
    fmt = attrs.get("data_format", "NHWC")
    if fmt != "NHWC":
        raise ValueError("only data_format='NHWC' is supported (got %r): transpose to NHWC first" % fmt)
    if attrs["strides"][0] != 1 or attrs["strides"][3] != 1:
        raise ValueError("Current implementation does not yet support strides in the batch and depth dimensions.")


def _dims(shape, rank, what):
    if shape.ndims is None:
        return [None] * rank
    if shape.ndims != rank:
        raise ValueError("Shape must be rank %d but is rank %d" % (rank, shape.ndims))
    return shape.as_list()


def _shape_of(tensor):
    """Static value of a shape-vector input (Const, Shape, or one output of ShapeN), as a list or None."""
    value = const_value(tensor)
    if value is not None:
        return [int(v) for v in value]
    op = tensor._op
    if op._type == "ShapeN":
        return op._inputs[tensor._value_index]._shape.as_list() if op._inputs[tensor._value_index]._shape.ndims \
            is not None else None
    return None


def _conv_attrs(strides, padding, data_format, dilations):
    return {"strides": _four(strides, "strides"), "padding": _padding(padding), "use_cudnn_on_gpu": True,
            "explicit_paddings": [], "data_format": data_format or "NHWC",
            "dilations": _four(dilations if dilations is not None else 1, "dilations")}


def _same_conv_attrs(op):
    return {k: op._attrs[k] for k in ("strides", "padding", "use_cudnn_on_gpu", "explicit_paddings",
                                      "data_format", "dilations")}


# -------------------------------------------------------------------------------------------- Conv2D
def _conv2d_outputs(op):
    x, f = op._inputs
    _check_nhwc(op._attrs)
    n, h, w, c = _dims(x._shape, 4, "input")
    kh, kw, fc, o = _dims(f._shape, 4, "filter")
    if c is not None and fc is not None and c % fc != 0:
        raise ValueError("Depth of input (%d) is not a multiple of input depth of filter (%d)" % (c, fc))
    if c is not None and fc is not None and c != fc:
        raise ValueError("grouped convolutions are not supported: input depth %d, filter depth %d" % (c, fc))
    s, d, p = op._attrs["strides"], op._attrs["dilations"], op._attrs["padding"]
    oh, ow = _static_out_dim(h, kh, s[1], d[1], p), _static_out_dim(w, kw, s[2], d[2], p)
    if (oh is not None and oh <= 0) or (ow is not None and ow <= 0):
        raise ValueError("Computed output size would be negative: %s [input_size: %s, effective_filter_size: "
                         "%s, stride: %s]" % (oh if oh is not None and oh <= 0 else ow, h, kh, s[1]))
    return [(x._dtype.base_dtype, tensor_shape.TensorShape([n, oh, ow, o]))]


def _conv2d_kernel(ctx, x, f):
    out_hw, pads = _geometry(x.shape, f.shape[:2], ctx.attrs)
    win = _windows(_pad(x, pads), f.shape[:2], ctx.attrs, out_hw)          # (N, oh, ow, C, kh, kw)
    return np.tensordot(win, f, axes=([3, 4, 5], [2, 0, 1])).astype(x.dtype, copy=False)


_RULES = window_geometry.ConvGradients("Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter",
                                      lambda op: _same_conv_attrs(op))


register_op("Conv2D", inputs=["input: T", "filter: T"], outputs=_conv2d_outputs, kernel=_conv2d_kernel,
            grad=_RULES.forward_grad, doc="2-D convolution (cross-correlation) of NHWC input with HWIO filter.")


# ------------------------------------------------------------------------------- Conv2DBackpropInput
def _backprop_input_outputs(op):
    _check_nhwc(op._attrs)
    f, dy = op._inputs[1]._shape, op._inputs[2]._shape
    if f.ndims == 4 and dy.ndims == 4 and None not in (f[3].value, dy[3].value) and f[3].value != dy[3].value:
        raise ValueError("Dimensions must be equal, but are %d and %d" % (dy[3].value, f[3].value))
    sizes = _shape_of(op._inputs[0]) or array_ops._partial_shape(op._inputs[0])   # e.g. a Pack of [batch, 16, 16, 4]
    if sizes is None:
        c = op._inputs[1]._shape.as_list()[2] if op._inputs[1]._shape.ndims == 4 else None
        return [(op._inputs[1]._dtype.base_dtype, tensor_shape.TensorShape([None, None, None, c]))]
    return [(op._inputs[1]._dtype.base_dtype, tensor_shape.TensorShape(sizes))]


def _cpu_dilations(ctx):
    """TF's CPU backprop kernels refuse dilated convolutions (its GPU kernels run them); graphlab follows."""
    if any(d != 1 for d in ctx.attrs["dilations"]):
        raise InvalidArgumentError(None, ctx.op, "Current CPU implementations do not yet support dilation rates "
                                   "larger than 1.")


def _backprop_input_kernel(ctx, sizes, f, dy):
    sizes = [int(v) for v in sizes]
    _cpu_dilations(ctx)
    if sizes[3] % f.shape[2]:
        raise InvalidArgumentError(None, ctx.op, "Conv2DCustomBackpropInput: input depth must be evenly divisible "
                                   "by filter depth")
    a = ctx.attrs
    window_geometry.check_backprop_size(ctx, "Conv2DCustomBackpropInput", dy, sizes, f.shape[:2], a["strides"][1:3],
                                 a["dilations"][1:3], a["padding"])
    out_hw, pads = _geometry(sizes, f.shape[:2], ctx.attrs)
    s, d = ctx.attrs["strides"], ctx.attrs["dilations"]
    hp, wp = sizes[1] + sum(pads[0]), sizes[2] + sum(pads[1])
    dxp = np.zeros((sizes[0], hp, wp, sizes[3]), dtype=dy.dtype)
    for i in range(f.shape[0]):          # kh * kw strided adds, each a full tensordot over the batch
        for j in range(f.shape[1]):
            hs, ws = i * d[1], j * d[2]
            dxp[:, hs:hs + s[1] * (out_hw[0] - 1) + 1:s[1], ws:ws + s[2] * (out_hw[1] - 1) + 1:s[2]] += \
                np.tensordot(dy, f[i, j], axes=([3], [1]))
    return dxp[:, pads[0][0]:pads[0][0] + sizes[1], pads[1][0]:pads[1][0] + sizes[2]].astype(dy.dtype, copy=False)


register_op("Conv2DBackpropInput", inputs=["input_sizes: int32", "filter: T", "out_backprop: T"],
            outputs=_backprop_input_outputs, kernel=_backprop_input_kernel, grad=_RULES.backprop_input_grad,
            doc="Gradient of Conv2D with respect to its input.")


# ------------------------------------------------------------------------------ Conv2DBackpropFilter
def _backprop_filter_outputs(op):
    _check_nhwc(op._attrs)
    sizes = _shape_of(op._inputs[1])
    return [(op._inputs[0]._dtype.base_dtype,
             tensor_shape.TensorShape(sizes) if sizes is not None else tensor_shape.unknown_shape(4))]


def _backprop_filter_kernel(ctx, x, sizes, dy):
    k_hw = [int(sizes[0]), int(sizes[1])]
    _cpu_dilations(ctx)
    a = ctx.attrs
    window_geometry.check_backprop_size(ctx, "Conv2DCustomBackpropFilter", dy, x.shape, k_hw, a["strides"][1:3],
                                 a["dilations"][1:3], a["padding"])
    out_hw, pads = _geometry(x.shape, k_hw, ctx.attrs)
    win = _windows(_pad(x, pads), k_hw, ctx.attrs, out_hw)                 # (N, oh, ow, C, kh, kw)
    df = np.tensordot(win, dy, axes=([0, 1, 2], [0, 1, 2]))                # (C, kh, kw, O)
    return np.ascontiguousarray(df.transpose(1, 2, 0, 3)).astype(x.dtype, copy=False)


register_op("Conv2DBackpropFilter", inputs=["input: T", "filter_sizes: int32", "out_backprop: T"],
            outputs=_backprop_filter_outputs, kernel=_backprop_filter_kernel, grad=_RULES.backprop_filter_grad,
            doc="Gradient of Conv2D with respect to its filter.")


# ------------------------------------------------------------------------------------------- pooling
def _pool_attrs(ksize, strides, padding, data_format, explicit=True):
    data_format = data_format or "NHWC"
    attrs = {"ksize": _four_in(ksize, "ksize", data_format), "strides": _four_in(strides, "strides", data_format),
             "padding": _padding(padding), "data_format": data_format}
    if explicit:
        attrs["explicit_paddings"] = []
    return attrs       # windows over the batch or depth build, as in TF, and fail when run (_pooling_in_nhwc)


def _nchw(attrs):
    return attrs.get("data_format", "NHWC") in ("NCHW", b"NCHW")


def _to_nhwc(values):
    """A 4-vector (ksize, strides, a shape) of the NCHW layout in NHWC order."""
    return [values[0], values[2], values[3], values[1]]


def _pool_outputs(op):
    x = op._inputs[0]
    nchw = _nchw(op._attrs)
    dims = _dims(x._shape, 4, "input")
    n, h, w, c = _to_nhwc(dims) if nchw else dims
    k, s, p = op._attrs["ksize"], op._attrs["strides"], op._attrs["padding"]
    if nchw:
        k, s = _to_nhwc(k), _to_nhwc(s)
    oh, ow = _static_out_dim(h, k[1], s[1], 1, p), _static_out_dim(w, k[2], s[2], 1, p)
    if (oh is not None and oh <= 0) or (ow is not None and ow <= 0):
        raise ValueError("Computed output size would be negative: %s [input_size: %s, effective_filter_size: "
                         "%s, stride: %s]" % (oh if oh is not None and oh <= 0 else ow, h, k[1], s[1]))
    if op._type == "MaxPool":       # TF's MaxPool shape also pools the depth (depthwise max pooling)
        c = _static_out_dim(c, k[3], s[3], 1, p)
    shape = [n, c, oh, ow] if nchw else [n, oh, ow, c]
    return [(x._dtype.base_dtype, tensor_shape.TensorShape(shape))]


class _NHWCContext:
    """A pooling kernel's context with its attrs in the NHWC layout the kernels compute in."""

    __slots__ = ("op", "attrs", "session", "state")

    def __init__(self, ctx, attrs):
        self.op, self.attrs, self.session, self.state = ctx.op, attrs, ctx.session, ctx.state

    def error(self, cls, message):
        return cls(None, self.op, message)


def _depthwise_max(x, k, s):
    """MaxPool across depth only (TF's depthwise max pooling): windows of k channels, k apart."""
    n, h, w, c = x.shape
    if k != s or c % k:
        raise ValueError("depth_stride must equal depth_window, and the depth must be evenly divisible by "
                         "depth_window")
    return x.reshape(n, h, w, c // k, k).max(axis=-1)


def _pooling_in_nhwc(kernel):
    """Run a pooling kernel as TF's CPU kernels run it: windows across the batch or across both depth and
    space fail with TF's UnimplementedError; an NCHW op computes in NHWC (its 4-d arrays and an input-shape
    vector transposed there and back), as TF's graph optimizer arranges on a CPU."""
    def run(ctx, *args):
        attrs = ctx.attrs
        nchw = _nchw(attrs)
        k, s = (_to_nhwc(attrs["ksize"]), _to_nhwc(attrs["strides"])) if nchw else (attrs["ksize"], attrs["strides"])
        if nchw and ctx.op._type.startswith("MaxPool") and (k[0], k[3], s[0], s[3]) != (1, 1, 1, 1):
            raise InvalidArgumentError(None, ctx.op, "Default MaxPoolingOp only supports NHWC on device type CPU")
        if k[0] != 1 or s[0] != 1:
            raise UnimplementedError(None, ctx.op, "Pooling is not yet supported on the batch dimension.")
        if (k[3] != 1 or s[3] != 1) and (k[1], k[2], s[1], s[2]) == (1, 1, 1, 1) and kernel is _max_pool_kernel:
            try:
                return _depthwise_max(args[0], k[3], s[3])
            except ValueError as e:
                raise InvalidArgumentError(None, ctx.op, str(e)) from None
        if (k[3] != 1 or s[3] != 1) and kernel is _max_pool_grad_kernel:
            raise UnimplementedError(None, ctx.op, "MaxPoolingGrad is not yet supported on the depth dimension.")
        if k[3] != 1 or s[3] != 1:
            raise UnimplementedError(None, ctx.op, "MaxPooling supports exactly one of pooling across depth or "
                                     "pooling across width/height." if (k[1], k[2], s[1], s[2]) != (1, 1, 1, 1)
                                     else "Pooling across depth is not supported by graphlab's pooling kernels.")
        if not nchw:
            return kernel(ctx, *args)
        inner = dict(attrs, ksize=k, strides=s, data_format="NHWC")
        args = [np.transpose(a, (0, 2, 3, 1)) if np.ndim(a) == 4 else
                np.asarray(_to_nhwc(list(a))) if np.ndim(a) == 1 else a for a in args]
        out = kernel(_NHWCContext(ctx, inner), *args)
        return np.transpose(out, (0, 3, 1, 2))
    run.__wrapped__ = kernel
    return run


def _max_windows(x, attrs, fill):
    k = attrs["ksize"][1:3]
    out_hw, pads = _geometry(x.shape, k, attrs)
    return _windows(_pad(x, pads, fill), k, attrs, out_hw), out_hw, pads


def _argmax_flat(x, attrs):
    """Flat index into x (per image, row-major H*W*C) of each window's first maximum, shape (N, oh, ow, C)."""
    win, out_hw, pads = _max_windows(x, attrs, -np.inf)
    kh, kw = attrs["ksize"][1:3]
    s = attrs["strides"]
    arg = win.reshape(win.shape[:4] + (kh * kw,)).argmax(axis=-1)
    rows = np.arange(out_hw[0])[None, :, None, None] * s[1] + arg // kw - pads[0][0]
    cols = np.arange(out_hw[1])[None, None, :, None] * s[2] + arg % kw - pads[1][0]
    n, h, w, c = x.shape
    return ((np.arange(n)[:, None, None, None] * h + rows) * w + cols) * c + np.arange(c)


def _max_pool_kernel(ctx, x):
    win = _max_windows(x.astype(np.float64) if x.dtype.kind != "f" else x, ctx.attrs, -np.inf)[0]
    return win.max(axis=(-2, -1)).astype(x.dtype, copy=False)


def _pool_attrs_of(op):
    return {k: op._attrs[k] for k in ("ksize", "strides", "padding", "data_format", "explicit_paddings")
            if k in op._attrs}


register_op("MaxPool", inputs=["input: T"], outputs=_pool_outputs, kernel=_pooling_in_nhwc(_max_pool_kernel),
            grad=lambda op, g: [build_op("MaxPoolGrad", [op.inputs[0], op.outputs[0], g],
                                         attrs=_pool_attrs_of(op)).outputs[0]],
            doc="Maximum over each window (padding never wins).")


def _max_pool_grad_kernel(ctx, x, y, dy):
    """Each output's gradient goes to the first maximum of its window (as TF's CPU kernel)."""
    idx = _argmax_flat(x, ctx.attrs)
    return np.bincount(idx.ravel(), weights=dy.ravel().astype(np.float64),
                       minlength=x.size).reshape(x.shape).astype(dy.dtype, copy=False)


def _max_pool_grad_grad_kernel(ctx, x, y, g):
    """The incoming input-shaped gradient, read at each window's maximum (output-shaped)."""
    return g.ravel()[_argmax_flat(x, ctx.attrs)].astype(g.dtype, copy=False)


register_op("MaxPoolGrad", inputs=["orig_input: T", "orig_output: T", "grad: T"],
            outputs=lambda op: [(op._inputs[0]._dtype.base_dtype, op._inputs[0]._shape)],
            kernel=_pooling_in_nhwc(_max_pool_grad_kernel),
            grad=lambda op, g: [array_ops.zeros_like(op.inputs[0]), array_ops.zeros_like(op.inputs[1]),
                                build_op("MaxPoolGradGrad", [op.inputs[0], op.inputs[1], g],
                                         attrs=_pool_attrs_of(op)).outputs[0]],
            doc="Gradient of MaxPool: routes each output gradient to its window's maximum.")
register_op("MaxPoolGradGrad", inputs=["orig_input: T", "orig_output: T", "grad: T"],
            outputs=lambda op: [(op._inputs[1]._dtype.base_dtype, op._inputs[1]._shape)],
            kernel=_pooling_in_nhwc(_max_pool_grad_grad_kernel),
            grad=lambda op, g: [array_ops.zeros_like(op.inputs[0]), array_ops.zeros_like(op.inputs[1]),
                                build_op("MaxPoolGrad", [op.inputs[0], op.inputs[1], g],
                                         attrs=_pool_attrs_of(op)).outputs[0]],
            doc="Gradient of MaxPoolGrad with respect to its grad input.")


def _avg_counts(shape, attrs):
    """How many real (unpadded) elements each window holds: TF averages over those only."""
    ones = np.ones((1, shape[1], shape[2], 1))
    win, _, _ = _max_windows(ones, attrs, 0.0)
    return win.sum(axis=(-2, -1))                                           # (1, oh, ow, 1)


def _avg_pool_kernel(ctx, x):
    win = _max_windows(x, ctx.attrs, 0)[0]
    return (win.sum(axis=(-2, -1)) / _avg_counts(x.shape, ctx.attrs)).astype(x.dtype, copy=False)


def _avg_pool_grad_kernel(ctx, sizes, dy):
    sizes = [int(v) for v in sizes]
    k, s = ctx.attrs["ksize"], ctx.attrs["strides"]
    out_hw, pads = _geometry(sizes, k[1:3], ctx.attrs)
    share = dy / _avg_counts(sizes, ctx.attrs)
    dxp = np.zeros((sizes[0], sizes[1] + sum(pads[0]), sizes[2] + sum(pads[1]), sizes[3]), dtype=np.float64)
    for i in range(k[1]):
        for j in range(k[2]):
            dxp[:, i:i + s[1] * (out_hw[0] - 1) + 1:s[1], j:j + s[2] * (out_hw[1] - 1) + 1:s[2]] += share
    return dxp[:, pads[0][0]:pads[0][0] + sizes[1], pads[1][0]:pads[1][0] + sizes[2]].astype(dy.dtype)


def _avg_pool_grad_outputs(op):
    sizes = _shape_of(op._inputs[0])
    return [(op._inputs[1]._dtype.base_dtype,
             tensor_shape.TensorShape(sizes) if sizes is not None else tensor_shape.unknown_shape(4))]


register_op("AvgPool", inputs=["value: T"], outputs=_pool_outputs, kernel=_pooling_in_nhwc(_avg_pool_kernel),
            grad=lambda op, g: [build_op("AvgPoolGrad", [array_ops.shape(op.inputs[0]), g],
                                         attrs=_pool_attrs_of(op)).outputs[0]],
            doc="Mean over each window, counting only unpadded elements.")
register_op("AvgPoolGrad", inputs=["orig_input_shape: int32", "grad: T"], outputs=_avg_pool_grad_outputs,
            kernel=_pooling_in_nhwc(_avg_pool_grad_kernel),
            grad=lambda op, g: [array_ops.stop_gradient(op.inputs[0]),    # TF returns it for the shape too
                                build_op("AvgPool", [g], attrs=_pool_attrs_of(op)).outputs[0]],
            doc="Gradient of AvgPool: spreads each output gradient evenly over its window.")


# ----------------------------------------------------------------------------------------- public API
def conv2d(input, filter=None, strides=None, padding=None, use_cudnn_on_gpu=True,  # noqa: A002
           data_format="NHWC", dilations=(1, 1, 1, 1), name=None, filters=None):
    """``tf.nn.conv2d`` (TF1 signature; ``filters`` accepted as the TF2 spelling)."""
    filter = filters if filter is None else filter
    if filter is None or strides is None or padding is None:
        raise TypeError("conv2d() needs input, filter, strides and padding")
    attrs = _conv_attrs(strides, padding, data_format, dilations)
    attrs["use_cudnn_on_gpu"] = bool(use_cudnn_on_gpu)
    return build_op("Conv2D", [input, filter], attrs=attrs, name=name).outputs[0]


def conv2d_backprop_input(input_sizes, filter, out_backprop, strides, padding,  # noqa: A002
                          data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    return build_op("Conv2DBackpropInput", [input_sizes, filter, out_backprop],
                    attrs=_conv_attrs(strides, padding, data_format, dilations), name=name).outputs[0]


def conv2d_backprop_filter(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
                           data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    return build_op("Conv2DBackpropFilter", [input, filter_sizes, out_backprop],
                    attrs=_conv_attrs(strides, padding, data_format, dilations), name=name).outputs[0]


def max_pool(value, ksize, strides, padding, data_format="NHWC", name=None, input=None):  # noqa: A002
    """``tf.nn.max_pool``."""
    value = input if value is None else value
    return build_op("MaxPool", [value], attrs=_pool_attrs(ksize, strides, padding, data_format),
                    name=name).outputs[0]


def avg_pool(value, ksize, strides, padding, data_format="NHWC", name=None, input=None):  # noqa: A002
    """``tf.nn.avg_pool``."""
    value = input if value is None else value
    return build_op("AvgPool", [value], attrs=_pool_attrs(ksize, strides, padding, data_format, explicit=False),
                    name=name).outputs[0]


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """``tf.nn.max_pool2d``: TF's own default name, "MaxPool2d"."""
    return max_pool(input, ksize, strides, padding, data_format, name=name or "MaxPool2d")


avg_pool2d = avg_pool

__all__ = ["conv2d", "conv2d_backprop_input", "conv2d_backprop_filter", "max_pool", "avg_pool", "max_pool2d",
           "avg_pool2d"]
