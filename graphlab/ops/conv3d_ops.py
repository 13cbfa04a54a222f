"""3-D convolution and pooling, NDHWC (``tf.nn.conv3d``, ``conv3d_transpose``, ``max_pool3d``, ``avg_pool3d``).

Op types and gradient graphs are TF's: Conv3D differentiates to Conv3DBackpropInputV2 / Conv3DBackpropFilterV2
(each differentiable again), MaxPool3D to MaxPool3DGrad (which, like TF's CPU kernel, passes the gradient to
every element within 1e-5 of its window's maximum) and MaxPool3DGradGrad, AvgPool3D to AvgPool3DGrad.
Kernels are the N-d window code of ``_windows``.
"""
import numpy as np

from graphlab.framework import graph as graph_mod
from graphlab.framework import tensor_shape
from graphlab.formats.errors import InvalidArgumentError
from graphlab.ops import _windows as win
from graphlab.ops import array_ops
from graphlab.framework.registry import build_op, register_op

_N = 3   # spatial axes


def _padding(padding):
    padding = padding.decode() if isinstance(padding, bytes) else str(padding)
    if padding.upper() not in ("SAME", "VALID"):
        raise ValueError("padding must be 'SAME' or 'VALID', got %r" % padding)
    return padding.upper()


def _five(value, name, op_type):
    value = [int(v) for v in value]
    if len(value) < 5:
        raise ValueError("Attr '%s' of '%s' Op passed list of length %d less than minimum 5."
                         % (name, op_type, len(value)))
    return value


def _check_attrs(attrs):
    fmt = attrs.get("data_format", "NDHWC")
    if fmt != "NDHWC":
        raise ValueError("only data_format='NDHWC' is supported (got %r): transpose to NDHWC first" % fmt)


def _rank5(shape):
    if shape.ndims is None:
        return [None] * 5
    if shape.ndims != 5:
        raise ValueError("Shape must be rank 5 but is rank %d" % shape.ndims)
    return shape.as_list()


def _negative_check(outs, sizes, window):
    for o, size, k in zip(outs, sizes, window):
        if o is not None and o <= 0 and size is not None and k is not None and k > size:
            raise ValueError("Negative dimension size caused by subtracting %d from %d" % (k, size))


def _conv_attrs_of(op):
    return {k: op._attrs[k] for k in ("strides", "padding", "data_format", "dilations")}


def _spatial(attrs, key):
    return attrs[key][1:-1]


def _check_input_5d(ctx, x, what="input"):
    if np.ndim(x) != 5:
        raise InvalidArgumentError(None, ctx.op, "%s must be 5-dimensional" % what)
    if ctx.attrs["strides"][0] != 1 or ctx.attrs["strides"][4] != 1:
        raise InvalidArgumentError(None, ctx.op, "Current implementation does not yet support strides in the "
                                   "batch and depth dimensions.")


# -------------------------------------------------------------------------------------------- Conv3D
def _conv3d_outputs(op):
    _check_attrs(op._attrs)
    x, f = op._inputs
    n, d, h, w, c = _rank5(x._shape)
    kd, kh, kw, fc, o = _rank5(f._shape)
    if c is not None and fc is not None and c % fc:
        raise ValueError("Depth of input (%d) is not a multiple of input depth of filter (%d)" % (c, fc))
    if c is not None and fc is not None and c != fc:
        raise ValueError("grouped convolutions are not supported: input depth %d, filter depth %d" % (c, fc))
    s, dl, p = _spatial(op._attrs, "strides"), _spatial(op._attrs, "dilations"), op._attrs["padding"]
    outs = [win.static_out_dim(size, k, st, di, p) for size, k, st, di in zip((d, h, w), (kd, kh, kw), s, dl)]
    _negative_check(outs, (d, h, w), [None if k is None else (k - 1) * di + 1 for k, di in zip((kd, kh, kw), dl)])
    return [(x._dtype.base_dtype, tensor_shape.TensorShape([n] + outs + [o]))]


def _cpu_dilations(ctx, message):
    """TF's CPU kernels refuse dilated 3-D convolutions (its GPU kernels run them); graphlab follows the CPU."""
    if any(d != 1 for d in ctx.attrs["dilations"]):
        raise InvalidArgumentError(None, ctx.op, message)


def _conv3d_kernel(ctx, x, f):
    _check_input_5d(ctx, x)
    _cpu_dilations(ctx, "CPU implementation of Conv3D currently only supports dilated rates of 1.")
    if np.ndim(f) != 5:
        raise InvalidArgumentError(None, ctx.op, "filter must be 5-dimensional")
    if x.shape[4] != f.shape[3]:
        raise InvalidArgumentError(None, ctx.op, "Input depth must be evenly divisible by filter depth: %d vs %d"
                                   % (x.shape[4], f.shape[3]))
    a = ctx.attrs
    outs, pads = win.geometry(x.shape[1:4], f.shape[:3], _spatial(a, "strides"), _spatial(a, "dilations"),
                              a["padding"])
    view = win.windows(win.pad(x, pads), f.shape[:3], _spatial(a, "strides"), _spatial(a, "dilations"), outs)
    return np.tensordot(view, f, axes=([4, 5, 6, 7], [3, 0, 1, 2])).astype(x.dtype, copy=False)


_RULES = win.ConvGradients("Conv3D", "Conv3DBackpropInputV2", "Conv3DBackpropFilterV2", _conv_attrs_of)


register_op("Conv3D", inputs=["input: T", "filter: T"], outputs=_conv3d_outputs, kernel=_conv3d_kernel,
            grad=_RULES.forward_grad, doc="3-D convolution (cross-correlation) of NDHWC input with DHWIO filter.")


# ----------------------------------------------------------------------------- Conv3DBackpropInputV2
_BACKPROP_DILATIONS = "Current CPU implementation does not yet support dilation rates larger than 1."


def _backprop_input_outputs(op):
    _check_attrs(op._attrs)
    dims, dy = _rank5(op._inputs[1]._shape), _rank5(op._inputs[2]._shape)
    if dims[4] is not None and dy[4] is not None and dims[4] != dy[4]:
        raise ValueError("Dimensions must be equal, but are %d and %d" % (dims[4], dy[4]))
    return win.shape_from_input(0, 1, 5)(op)


def _backprop_input_kernel(ctx, sizes, f, dy):
    sizes = [int(v) for v in np.reshape(sizes, [-1])]
    _cpu_dilations(ctx, _BACKPROP_DILATIONS)
    a = ctx.attrs
    s, d = _spatial(a, "strides"), _spatial(a, "dilations")
    win.check_backprop_size(ctx, "Conv3DBackpropInputOp", dy, sizes, f.shape[:3], s, d, a["padding"])
    return win.scatter_windows(lambda off: np.tensordot(dy, f[off], axes=([4], [1])), sizes, f.shape[:3],
                               s, d, a["padding"], dy.dtype)


register_op("Conv3DBackpropInputV2", inputs=["input_sizes: Tshape=int32", "filter: T", "out_backprop: T"],
            outputs=_backprop_input_outputs, kernel=_backprop_input_kernel, grad=_RULES.backprop_input_grad,
            doc="Gradient of Conv3D with respect to its input (and the op behind conv3d_transpose).")


# ---------------------------------------------------------------------------- Conv3DBackpropFilterV2
def _backprop_filter_outputs(op):
    _check_attrs(op._attrs)
    return win.shape_from_input(1, 0, 5)(op)


def _backprop_filter_kernel(ctx, x, sizes, dy):
    window = [int(v) for v in np.reshape(sizes, [-1])[:3]]
    _cpu_dilations(ctx, _BACKPROP_DILATIONS)
    a = ctx.attrs
    s, d = _spatial(a, "strides"), _spatial(a, "dilations")
    win.check_backprop_size(ctx, "Conv3DBackpropFilterOp", dy, x.shape, window, s, d, a["padding"])
    outs, pads = win.geometry(x.shape[1:4], window, s, d, a["padding"])
    view = win.windows(win.pad(x, pads), window, s, d, outs)                    # (N, o, o, o, C, k, k, k)
    df = np.tensordot(view, dy, axes=([0, 1, 2, 3], [0, 1, 2, 3]))               # (C, k, k, k, O)
    return np.ascontiguousarray(df.transpose(1, 2, 3, 0, 4)).astype(x.dtype, copy=False)


register_op("Conv3DBackpropFilterV2", inputs=["input: T", "filter_sizes: int32", "out_backprop: T"],
            outputs=_backprop_filter_outputs, kernel=_backprop_filter_kernel, grad=_RULES.backprop_filter_grad,
            doc="Gradient of Conv3D with respect to its filter.")


# ------------------------------------------------------------------------------------------- pooling
def _pool_attrs_of(op):
    return {k: op._attrs[k] for k in ("ksize", "strides", "padding", "data_format")}


def _pool_outputs(op):
    _check_attrs(op._attrs)
    x = op._inputs[0]
    n, d, h, w, c = _rank5(x._shape)
    k, s, p = _spatial(op._attrs, "ksize"), _spatial(op._attrs, "strides"), op._attrs["padding"]
    outs = [win.static_out_dim(size, kk, st, 1, p) for size, kk, st in zip((d, h, w), k, s)]
    _negative_check(outs, (d, h, w), k)
    return [(x._dtype.base_dtype, tensor_shape.TensorShape([n] + outs + [c]))]


def _check_pool(ctx, x):
    _check_input_5d(ctx, x, "tensor_in")
    k = ctx.attrs["ksize"]
    if k[0] != 1 or k[4] != 1:
        raise InvalidArgumentError(None, ctx.op, "Pooling is not yet supported on the batch dimension.")


def _pool_windows(x, attrs, fill):
    k, s = _spatial(attrs, "ksize"), _spatial(attrs, "strides")
    outs, pads = win.geometry(x.shape[1:4], k, s, [1] * _N, attrs["padding"])
    return win.windows(win.pad(x, pads, fill), k, s, [1] * _N, outs)


def _max_pool3d_kernel(ctx, x):
    _check_pool(ctx, x)
    fill = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    return _pool_windows(x, ctx.attrs, fill).max(axis=(-3, -2, -1)).astype(x.dtype, copy=False)


def _avg_counts(shape, attrs):
    ones = np.ones((1,) + tuple(shape[1:4]) + (1,))
    return _pool_windows(ones, attrs, 0.0).sum(axis=(-3, -2, -1))


def _avg_pool3d_kernel(ctx, x):
    _check_pool(ctx, x)
    total = _pool_windows(x, ctx.attrs, 0).sum(axis=(-3, -2, -1))
    return (total / _avg_counts(x.shape, ctx.attrs)).astype(x.dtype, copy=False)


def _near_max(x, y, attrs):
    """Per window offset, which inputs TF's CPU MaxPool3DGrad credits: within 1e-5 of the window's max."""
    fill = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    view = _pool_windows(x, attrs, fill)                                      # (N, o, o, o, C, k, k, k)
    return np.abs(view - y[..., None, None, None]) < 1e-5


def _max_pool3d_grad_kernel(ctx, x, y, dy):
    hit = _near_max(x, y, ctx.attrs)
    k, s = _spatial(ctx.attrs, "ksize"), _spatial(ctx.attrs, "strides")
    return win.scatter_windows(lambda off: np.where(hit[(Ellipsis,) + off], dy, 0), x.shape, k, s, [1] * _N,
                               ctx.attrs["padding"], dy.dtype)


def _max_pool3d_grad_grad_kernel(ctx, x, y, g):
    """Output-shaped: the incoming input-shaped gradient read at each window's first maximum (TF's kernel
    reads one element here, where MaxPool3DGrad credits every near-maximum)."""
    fill = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    view = _pool_windows(x, ctx.attrs, fill)
    flat = view.reshape(view.shape[:5] + (-1,))
    first = flat.argmax(axis=-1)[..., None]
    grads = _pool_windows(g, ctx.attrs, 0)
    return np.take_along_axis(grads.reshape(flat.shape), first, axis=-1)[..., 0].astype(g.dtype, copy=False)


def _avg_pool3d_grad_kernel(ctx, sizes, dy):
    sizes = [int(v) for v in np.reshape(sizes, [-1])]
    k, s = _spatial(ctx.attrs, "ksize"), _spatial(ctx.attrs, "strides")
    share = dy / _avg_counts(sizes, ctx.attrs)
    return win.scatter_windows(lambda off: share, sizes, k, s, [1] * _N, ctx.attrs["padding"], dy.dtype)


def _same_as(index):
    return lambda op: [(op._inputs[index]._dtype.base_dtype, op._inputs[index]._shape)]


register_op("MaxPool3D", inputs=["input: T"], outputs=_pool_outputs, kernel=_max_pool3d_kernel,
            grad=lambda op, g: [build_op("MaxPool3DGrad", [op.inputs[0], op.outputs[0], g],
                                         attrs=_pool_attrs_of(op)).outputs[0]],
            doc="Maximum over each 3-D window (padding never wins).")
register_op("MaxPool3DGrad", inputs=["orig_input: TInput", "orig_output: TInput", "grad: T"],
            outputs=_same_as(0), kernel=_max_pool3d_grad_kernel,
            grad=lambda op, g: [array_ops.zeros_like(op.inputs[0]), array_ops.zeros_like(op.inputs[1]),
                                build_op("MaxPool3DGradGrad", [op.inputs[0], op.inputs[1], g],
                                         attrs=_pool_attrs_of(op)).outputs[0]],
            doc="Gradient of MaxPool3D: each output's gradient goes to the elements within 1e-5 of its max.")
register_op("MaxPool3DGradGrad", inputs=["orig_input: T", "orig_output: T", "grad: T"],
            outputs=_same_as(1), kernel=_max_pool3d_grad_grad_kernel,
            grad=lambda op, g: [array_ops.zeros_like(op.inputs[0]), array_ops.zeros_like(op.inputs[1]),
                                build_op("MaxPool3DGrad", [op.inputs[0], op.inputs[1], g],
                                         attrs=_pool_attrs_of(op)).outputs[0]],
            doc="Gradient of MaxPool3DGrad with respect to its grad input.")
register_op("AvgPool3D", inputs=["input: T"], outputs=_pool_outputs, kernel=_avg_pool3d_kernel,
            grad=lambda op, g: [build_op("AvgPool3DGrad", [array_ops.shape(op.inputs[0]), g],
                                         attrs=_pool_attrs_of(op)).outputs[0]],
            doc="Mean over each 3-D window, counting only unpadded elements.")
register_op("AvgPool3DGrad", inputs=["orig_input_shape: int32", "grad: T"], outputs=win.shape_from_input(0, 1, 5),
            kernel=_avg_pool3d_grad_kernel,
            grad=lambda op, g: [array_ops.stop_gradient(op.inputs[0]),
                                build_op("AvgPool3D", [g], attrs=_pool_attrs_of(op)).outputs[0]],
            doc="Gradient of AvgPool3D: spreads each output gradient evenly over its window.")


# ----------------------------------------------------------------------------------------- public API
def _conv_attrs(strides, padding, data_format, dilations, op_type):
    return {"strides": _five(strides, "strides", op_type), "padding": _padding(padding),
            "data_format": data_format or "NDHWC",
            "dilations": _five(dilations if dilations is not None else [1] * 5, "dilations", op_type)}


def conv3d(input, filter=None, strides=None, padding=None, data_format="NDHWC",  # noqa: A002
           dilations=(1, 1, 1, 1, 1), name=None, filters=None):
    """``tf.nn.conv3d`` (TF1 signature; ``filters`` is the TF2 spelling)."""
    filter = filters if filter is None else filter
    return build_op("Conv3D", [input, filter], attrs=_conv_attrs(strides, padding, data_format, dilations,
                                                                 "Conv3D"), name=name).outputs[0]


def conv3d_backprop_input_v2(input_sizes, filter, out_backprop, strides, padding,  # noqa: A002
                             data_format="NDHWC", dilations=(1, 1, 1, 1, 1), name=None):
    return build_op("Conv3DBackpropInputV2", [input_sizes, filter, out_backprop],
                    attrs=_conv_attrs(strides, padding, data_format, dilations, "Conv3DBackpropInputV2"),
                    name=name).outputs[0]


def conv3d_backprop_filter_v2(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
                              data_format="NDHWC", dilations=(1, 1, 1, 1, 1), name=None):
    return build_op("Conv3DBackpropFilterV2", [input, filter_sizes, out_backprop],
                    attrs=_conv_attrs(strides, padding, data_format, dilations, "Conv3DBackpropFilterV2"),
                    name=name).outputs[0]


def conv3d_transpose(value, filter=None, output_shape=None, strides=None, padding="SAME",  # noqa: A002
                     data_format="NDHWC", name=None, input=None, filters=None, dilations=None):  # noqa: A002
    """``tf.nn.conv3d_transpose``: Conv3DBackpropInputV2 with output_shape as its input_sizes."""
    filter = filters if filter is None else filter
    value = input if value is None else value
    with graph_mod.name_scope(name, "conv3d_transpose", [value, filter, output_shape]) as scope:
        return conv3d_backprop_input_v2(output_shape, filter, value, win.sequence(strides, _N, "strides"),
                                        padding, data_format or "NDHWC", win.sequence(dilations, _N, "dilations"),
                                        name=scope)


def _pool3d(op_type, default_name, input, ksize, strides, padding, data_format, name):  # noqa: A002
    with graph_mod.name_scope(name, default_name, [input]) as scope:
        attrs = {"ksize": win.sequence(ksize, _N, "ksize"), "strides": win.sequence(strides, _N, "strides"),
                 "padding": _padding(padding), "data_format": data_format or "NDHWC"}
        return build_op(op_type, [input], attrs=attrs, name=scope).outputs[0]


def max_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    """``tf.nn.max_pool3d``."""
    return _pool3d("MaxPool3D", "MaxPool3D", input, ksize, strides, padding, data_format, name)


def avg_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    """``tf.nn.avg_pool3d``."""
    return _pool3d("AvgPool3D", "AvgPool3D", input, ksize, strides, padding, data_format, name)


__all__ = ["conv3d", "conv3d_transpose", "conv3d_backprop_input_v2", "conv3d_backprop_filter_v2", "max_pool3d",
           "avg_pool3d"]
