"""Depthwise 2-D convolution, NHWC: DepthwiseConv2dNative and its two backprop ops, with TF's gradient rules
(each backprop op differentiates to the other and the forward op, as in TF's nn_grad.py).

Each input channel c is convolved with its own ``channel_multiplier`` filters ``filter[:, :, c, :]``; output
channel ``c * multiplier + m`` holds filter m of channel c.
"""
import numpy as np

from graphlab.framework import tensor_shape
from graphlab.formats.errors import InvalidArgumentError, UnimplementedError
from graphlab.ops import _windows as win
from graphlab.framework.registry import build_op, register_op

_ATTRS = ("strides", "padding", "explicit_paddings", "data_format", "dilations")


def _attrs_of(op):
    return {k: op._attrs[k] for k in _ATTRS}


def _check_attrs(attrs):
    if attrs.get("data_format", "NHWC") != "NHWC":
        raise ValueError("only data_format='NHWC' is supported (got %r): transpose to NHWC first"
                         % attrs["data_format"])
    if attrs["padding"] not in ("SAME", "VALID"):
        raise ValueError("padding must be 'SAME' or 'VALID', got %r" % attrs["padding"])


def _rank4(shape):
    if shape.ndims is None:
        return [None] * 4
    if shape.ndims != 4:
        raise ValueError("Shape must be rank 4 but is rank %d" % shape.ndims)
    return shape.as_list()


def _hw(attrs, key):
    return attrs[key][1:3]


_UNDILATED = (1, 1)   # TF's CPU kernels: the forward op refuses dilations, the backprop ops ignore them


def _check_backprop(ctx, label, dy, in_shape, window, s, d, padding):
    """TF's depthwise check that out_backprop has the rows and columns the forward op gives."""
    for what, i in (("rows", 0), ("cols", 1)):
        computed = win.out_size(in_shape[i + 1], window[i], s[i], d[i], padding)[0]
        if dy.shape[i + 1] != computed:
            raise InvalidArgumentError(None, ctx.op, "%s: Number of %s of out_backprop doesn't match computed: "
                                       "actual = %d, computed = %d" % (label, what, dy.shape[i + 1], computed))


def _check_run(ctx, x, f):
    if np.ndim(x) != 4:
        raise InvalidArgumentError(None, ctx.op, "input must be 4-dimensional[%s]" % ",".join(map(str, np.shape(x))))
    if x.shape[3] != f.shape[2]:
        raise InvalidArgumentError(None, ctx.op, "input and filter must have the same depth: %d vs %d"
                                   % (x.shape[3], f.shape[2]))
    s = ctx.attrs["strides"]
    if s[0] != 1 or s[3] != 1:
        raise InvalidArgumentError(None, ctx.op, "Current implementation does not yet support strides in the "
                                   "batch and depth dimensions.")


# ---------------------------------------------------------------------------------- DepthwiseConv2dNative
def _outputs(op):
    _check_attrs(op._attrs)
    x, f = op._inputs
    n, h, w, c = _rank4(x._shape)
    kh, kw, fc, m = _rank4(f._shape)
    if c is not None and fc is not None and c != fc:
        raise ValueError("Dimensions must be equal, but are %d and %d" % (c, fc))
    s, d, p = _hw(op._attrs, "strides"), _hw(op._attrs, "dilations"), op._attrs["padding"]
    if (s[0] > 1 or s[1] > 1) and (d[0] > 1 or d[1] > 1):
        raise ValueError("Current implementation does not yet support dilations > 1 with strides > 1")
    oh, ow = win.static_out_dim(h, kh, s[0], d[0], p), win.static_out_dim(w, kw, s[1], d[1], p)
    depth = c * m if c is not None and m is not None else None
    return [(x._dtype.base_dtype, tensor_shape.TensorShape([n, oh, ow, depth]))]


def _kernel(ctx, x, f):
    _check_run(ctx, x, f)
    a = ctx.attrs
    if any(v != 1 for v in a["dilations"]):
        raise UnimplementedError(None, ctx.op, "Current kernel implementation does not support dilations, "
                                   "received [%s]" % " ".join(str(v) for v in a["dilations"]))
    s, d = _hw(a, "strides"), _UNDILATED
    outs, pads = win.geometry(x.shape[1:3], f.shape[:2], s, d, a["padding"])
    view = win.windows(win.pad(x, pads), f.shape[:2], s, d, outs)              # (N, oh, ow, C, kh, kw)
    out = np.einsum("nijcab,abcm->nijcm", view, f)
    return out.reshape(out.shape[:3] + (-1,)).astype(x.dtype, copy=False)


_RULES = win.ConvGradients("DepthwiseConv2dNative", "DepthwiseConv2dNativeBackpropInput",
                           "DepthwiseConv2dNativeBackpropFilter", _attrs_of, shape_n=False)


register_op("DepthwiseConv2dNative", inputs=["input: T", "filter: T"], outputs=_outputs, kernel=_kernel,
            grad=_RULES.forward_grad, doc="Per-channel 2-D convolution; output depth is in_channels * channel_multiplier.")


# ------------------------------------------------------------------------ DepthwiseConv2dNativeBackpropInput
def _backprop_outputs(sizes_index, dtype_index):
    sized = win.shape_from_input(sizes_index, dtype_index, 4)

    def outputs(op):
        _check_attrs(op._attrs)
        return sized(op)
    return outputs


def _backprop_input_kernel(ctx, sizes, f, dy):
    sizes = [int(v) for v in np.reshape(sizes, [-1])]
    a = ctx.attrs
    s, d = _hw(a, "strides"), _UNDILATED
    kh, kw, c, m = f.shape
    _check_backprop(ctx, "DepthwiseConv2DBackpropInput", dy, sizes, (kh, kw), s, d, a["padding"])
    dy = dy.reshape(dy.shape[:3] + (c, m))
    return win.scatter_windows(lambda off: np.einsum("nijcm,cm->nijc", dy, f[off]), sizes, (kh, kw), s, d,
                               a["padding"], dy.dtype)


register_op("DepthwiseConv2dNativeBackpropInput", inputs=["input_sizes: int32", "filter: T", "out_backprop: T"],
            outputs=_backprop_outputs(0, 1), kernel=_backprop_input_kernel, grad=_RULES.backprop_input_grad,
            doc="Gradient of DepthwiseConv2dNative with respect to its input.")


# ----------------------------------------------------------------------- DepthwiseConv2dNativeBackpropFilter
def _backprop_filter_kernel(ctx, x, sizes, dy):
    kh, kw, c, m = [int(v) for v in np.reshape(sizes, [-1])]
    a = ctx.attrs
    s, d = _hw(a, "strides"), _UNDILATED
    _check_backprop(ctx, "DepthwiseConv2DBackpropFilter", dy, x.shape, (kh, kw), s, d, a["padding"])
    outs, pads = win.geometry(x.shape[1:3], (kh, kw), s, d, a["padding"])
    view = win.windows(win.pad(x, pads), (kh, kw), s, d, outs)
    dy = dy.reshape(dy.shape[:3] + (c, m))
    return np.einsum("nijcab,nijcm->abcm", view, dy).astype(x.dtype, copy=False)


register_op("DepthwiseConv2dNativeBackpropFilter", inputs=["input: T", "filter_sizes: int32", "out_backprop: T"],
            outputs=_backprop_outputs(1, 0), kernel=_backprop_filter_kernel, grad=_RULES.backprop_filter_grad,
            doc="Gradient of DepthwiseConv2dNative with respect to its filter.")


# ----------------------------------------------------------------------------------------- public API
def _attrs(strides, padding, data_format, dilations):
    return {"strides": win.sequence(strides, 2, "strides"), "padding": str(padding).upper(),
            "explicit_paddings": [], "data_format": data_format or "NHWC",
            "dilations": win.sequence(dilations, 2, "dilations")}


def depthwise_conv2d_native(input, filter, strides, padding, data_format="NHWC",  # noqa: A002
                            dilations=(1, 1, 1, 1), name=None):
    """``tf.nn.depthwise_conv2d_native``: the raw op."""
    return build_op("DepthwiseConv2dNative", [input, filter],
                    attrs=_attrs(strides, padding, data_format, dilations), name=name).outputs[0]


def depthwise_conv2d_native_backprop_input(input_sizes, filter, out_backprop, strides, padding,  # noqa: A002
                                           data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    return build_op("DepthwiseConv2dNativeBackpropInput", [input_sizes, filter, out_backprop],
                    attrs=_attrs(strides, padding, data_format, dilations), name=name).outputs[0]


def depthwise_conv2d_native_backprop_filter(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
                                            data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    return build_op("DepthwiseConv2dNativeBackpropFilter", [input, filter_sizes, out_backprop],
                    attrs=_attrs(strides, padding, data_format, dilations), name=name).outputs[0]


__all__ = ["depthwise_conv2d_native", "depthwise_conv2d_native_backprop_input",
           "depthwise_conv2d_native_backprop_filter"]
