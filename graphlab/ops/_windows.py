"""Sliding-window geometry shared by the N-d convolution and pooling kernels (Conv3D, depthwise, 3-D pools).

A channels-last input ``(N, s1..sn, C)`` is padded as TF pads it and viewed, without copying, as windows
``(N, o1..on, C, k1..kn)`` with ``np.lib.stride_tricks.sliding_window_view``; backward kernels add each
window offset's contribution into a padded buffer with one strided slice per offset.
"""
import itertools

import numpy as np

from graphlab.framework import tensor_shape
from graphlab.formats.errors import InvalidArgumentError

_sliding = np.lib.stride_tricks.sliding_window_view


def out_size(size, k, stride, dilation, padding):
    """(output size, pad before, pad after) along one spatial axis, as TF computes them."""
    k_eff = (k - 1) * dilation + 1
    if padding == "VALID":
        return max((size - k_eff + stride) // stride, 0), 0, 0
    out = -(-size // stride)
    total = max((out - 1) * stride + k_eff - size, 0)
    return out, total // 2, total - total // 2


def static_out_dim(size, k, stride, dilation, padding):
    """out_size's output for build-time shapes: None when the input or window size is unknown."""
    if size is None or k is None:
        return None
    return out_size(size, k, stride, dilation, padding)[0]


def geometry(spatial, window, strides, dilations, padding):
    """Output sizes and [(before, after)] pads for spatial sizes ``spatial`` and window ``window``."""
    outs, pads = [], []
    for size, k, s, d in zip(spatial, window, strides, dilations):
        o, before, after = out_size(size, k, s, d, padding)
        outs.append(o)
        pads.append((before, after))
    return outs, pads


def pad(x, pads, value=0):
    """Pad the spatial axes of a channels-last array."""
    return np.pad(x, [(0, 0)] + list(pads) + [(0, 0)], mode="constant", constant_values=value)


def windows(xp, window, strides, dilations, outs):
    """View of padded ``xp`` (N, s.., C) as windows (N, o.., C, k..): strided and dilated, no copy."""
    n = len(window)
    eff = [(k - 1) * d + 1 for k, d in zip(window, dilations)]
    view = _sliding(xp, eff, axis=tuple(range(1, n + 1)))
    index = (slice(None),) + tuple(slice(None, o * s, s) for o, s in zip(outs, strides)) + (slice(None),) + \
        tuple(slice(None, None, d) for d in dilations)
    view = view[index]
    return view[(slice(None),) + tuple(slice(0, o) for o in outs)]


def scatter_windows(contribution, in_shape, window, strides, dilations, padding, dtype):
    """Sum, into an array of ``in_shape`` (N, s.., C'), what ``contribution(offset)`` gives for each window
    offset (an array (N, o.., C') added at the strided positions that offset reads). The backward pass of
    every windowed op: one strided add per offset, padding cut off at the end."""
    spatial = list(in_shape[1:-1])
    outs, pads = geometry(spatial, window, strides, dilations, padding)
    padded = [in_shape[0]] + [s + b + a for s, (b, a) in zip(spatial, pads)] + [in_shape[-1]]
    buf = np.zeros(padded, dtype=np.float64 if np.dtype(dtype).kind != "f" else dtype)
    for offset in itertools.product(*[range(k) for k in window]):
        start = [o * d for o, d in zip(offset, dilations)]
        index = (slice(None),) + tuple(slice(b, b + s * (o - 1) + 1, s) for b, s, o in zip(start, strides, outs)) \
            + (slice(None),)
        if min(outs, default=1) > 0:
            buf[index] += contribution(offset)
    crop = (slice(None),) + tuple(slice(b, b + s) for (b, _), s in zip(pads, spatial)) + (slice(None),)
    return np.ascontiguousarray(buf[crop]).astype(dtype, copy=False)


def check_backprop_size(ctx, op_label, dy, in_shape, window, strides, dilations, padding):
    """TF's check that out_backprop has the spatial sizes the forward op would have produced."""
    for i, (size, k, s, d) in enumerate(zip(in_shape[1:-1], window, strides, dilations)):
        computed = out_size(size, k, s, d, padding)[0]
        actual = dy.shape[i + 1]
        if actual != computed:
            raise InvalidArgumentError(None, ctx.op, "%s: Size of out_backprop doesn't match computed: actual = "
                                       "%d, computed = %d spatial_dim: %d input: %d filter: %d output: %d "
                                       "stride: %d dilation: %d" % (op_label, actual, computed, i + 1, size, k,
                                                                     actual, s, d))


def sequence(value, n, name):
    """TF's _get_sequence for channels-last ops: an int, n ints or n + 2 ints -> n + 2 ints."""
    if value is None:
        return [1] * (n + 2)
    value = [int(v) for v in value] if isinstance(value, (list, tuple, np.ndarray)) else [int(value)]
    if len(value) == n + 2:
        return value
    if len(value) == 1:
        value = value * n
    elif len(value) != n:
        raise ValueError("%s should be of length 1, %d or %d. Received: %s=%s of length %d"
                         % (name, n, n + 2, name, value, len(value)))
    return [1] + value + [1]


def shape_from_input(sizes_index, dtype_index, rank):
    """Output rule of a backprop op whose output shape is one of its inputs (input_sizes, filter_sizes,
    orig_input_shape): that vector's value where known at build time, else ``rank`` unknown dims."""
    def outputs(op):
        from graphlab.ops.array_ops import _partial_shape
        sizes = _partial_shape(op._inputs[sizes_index])
        dtype = op._inputs[dtype_index]._dtype.base_dtype
        return [(dtype, tensor_shape.TensorShape(sizes) if sizes is not None else tensor_shape.unknown_shape(rank))]
    return outputs


class ConvGradients:
    """The three gradient rules TF writes for each convolution family (nn_grad.py): the forward op
    differentiates to its two backprop ops, and each backprop op, being linear in its two tensor inputs, to
    the other backprop op and the forward op. ``shape_n``: TF takes the forward op's two shapes with one
    ShapeN (Conv2D, Conv3D) or two Shapes (depthwise)."""

    def __init__(self, forward, backprop_input, backprop_filter, attrs_of, shape_n=True):
        self.forward, self.backprop_input, self.backprop_filter = forward, backprop_input, backprop_filter
        self.attrs_of, self.shape_n = attrs_of, shape_n

    def _op(self, op_type, inputs, op):
        from graphlab.framework.registry import build_op
        return build_op(op_type, inputs, attrs=self.attrs_of(op)).outputs[0]

    def forward_grad(self, op, grad):
        from graphlab.ops import array_ops
        x, f = op.inputs
        if self.shape_n:
            x_shape, f_shape = array_ops.shape_n([x, f])
            return [self._op(self.backprop_input, [x_shape, f, grad], op),
                    self._op(self.backprop_filter, [x, f_shape, grad], op)]
        return [self._op(self.backprop_input, [array_ops.shape(x), f, grad], op),
                self._op(self.backprop_filter, [x, array_ops.shape(f), grad], op)]

    def backprop_input_grad(self, op, grad):
        from graphlab.ops import array_ops
        _, f, dy = op.inputs
        return [None, self._op(self.backprop_filter, [grad, array_ops.shape(f), dy], op),
                self._op(self.forward, [grad, f], op)]

    def backprop_filter_grad(self, op, grad):
        from graphlab.ops import array_ops
        x, _, dy = op.inputs
        return [self._op(self.backprop_input, [array_ops.shape(x), grad, dy], op), None,
                self._op(self.forward, [x, grad], op)]
