"""Dequantize: reading 8- and 16-bit quantized weights back as float32, as TensorFlow computes it.

Why graphlab has it: ``graphlab transform ... quantize_weights`` (and TF's own transform_graph tool) store big
weights as quint8 codes plus their range, with a Dequantize op under the weight's old name. Without this op
graphlab could write such a graph but not load it. graphlab does not compute with quantized tensors
otherwise (no quantized matmul or convolution); quantize-aware training is left out (graphlab/omissions.py).

TF's three modes (dequantize_op.cc, quantization_utils.h), all in float32 arithmetic:

* MIN_COMBINED: ``min + (code + half) * (max - min) / (highest - lowest)``, half being half the type's range
  for signed types (0 for unsigned);
* MIN_FIRST: ``min_rounded + (code - lowest) * scale`` with ``scale = (max - min) / (2^bits - 1)`` and the
  minimum rounded to a whole number of steps (``round(min / scale) * scale``), so 0.0 is exactly representable;
* SCALED: ``code * scale`` with ``scale = max / highest`` for unsigned types, else the larger of
  ``min / lowest`` and ``max / highest`` (``lowest + 1`` with ``narrow_range``).

With ``axis`` set, each slice along it has its own min and max (MIN_COMBINED and SCALED only, as in TF).
"""
import numpy as np

from graphlab.framework import dtypes
from graphlab.formats.errors import InvalidArgumentError, UnimplementedError
from graphlab.formats import dtypes_map
from graphlab.framework.registry import NOT_DIFFERENTIABLE, build_op, convert_to_tensor, register_op

_MODES = ("MIN_COMBINED", "MIN_FIRST", "SCALED")


def _codes(value):
    """The integer codes of a quantized array (quint8 -> uint8 view, no copy)."""
    base = dtypes_map.quantized_base(value.dtype)
    return value.view(base) if base is not None else value


def _round_half_away(x):
    """C's round() of a float32 scalar: halves go away from zero (numpy's round goes to even)."""
    x = float(x)
    return np.float32(np.copysign(np.floor(abs(x) + 0.5), x))


def _dequantize_slice(codes, lo, hi, mode, narrow_range):
    info = np.iinfo(codes.dtype)
    f32 = np.float32
    lo, hi = f32(lo), f32(hi)
    if mode == "MIN_COMBINED":
        half = f32(0.0) if info.min == 0 else f32((f32(info.max) - f32(info.min) + f32(1)) / f32(2))
        scale = f32((hi - lo) / (f32(info.max) - f32(info.min)))
        return (codes.astype(f32) + half) * scale + lo
    if mode == "MIN_FIRST":
        scale = f32(float(f32(hi - lo)) / (2.0 ** (8 * codes.itemsize) - 1))
        lo_rounded = lo if lo == hi else f32(_round_half_away(lo / scale) * scale)
        return (lo_rounded - f32(info.min) * scale) + codes.astype(f32) * scale
    lowest = info.min + (1 if narrow_range else 0)
    scale = f32(hi / f32(info.max)) if info.min == 0 else max(f32(lo / f32(lowest)), f32(hi / f32(info.max)))
    return codes.astype(np.int64).astype(f32) * scale


def _dequantize_kernel(ctx, value, lo, hi):
    mode, axis, narrow = ctx.attrs["mode"], ctx.attrs.get("axis", -1), ctx.attrs.get("narrow_range", False)
    if axis >= value.ndim:
        raise InvalidArgumentError(None, ctx.op, "Axis must be less than input dimension(%d), got %d"
                                   % (value.ndim, axis))
    slices = value.shape[axis] if axis > -1 else 1
    for name, bound in (("input_min_tensor", lo), ("input_max_tensor", hi)):
        if np.size(bound) != slices:
            raise InvalidArgumentError(None, ctx.op, "%s must have as many elements as input on the "
                                       "dequantization axis (%d), got %d, expected %d"
                                       % (name, axis, np.size(bound), slices))
    codes = _codes(value)
    lo, hi = np.reshape(lo, -1), np.reshape(hi, -1)
    if axis == -1 or slices == 1:
        return _dequantize_slice(codes, lo[0], hi[0], mode, narrow)
    if mode == "MIN_FIRST":
        raise UnimplementedError(None, ctx.op, "MIN_FIRST mode is not implemented for Dequantize with axis != -1.")
    out = np.empty(codes.shape, np.float32)
    for i in range(slices):
        index = (slice(None),) * axis + (i,)
        out[index] = _dequantize_slice(codes[index], lo[i], hi[i], mode, narrow)
    return out


def _dequantize_outputs(op):
    """TF's shape rule: the input's shape; scalar ranges, or with ``axis`` one range per slice along it."""
    value, lo, hi = op._inputs
    axis = op._attrs.get("axis", -1)
    if axis < -1:
        raise ValueError("axis should be at least -1, got %d" % axis)
    want = 0 if axis == -1 else 1
    for bound in (lo, hi):
        if bound._shape.ndims is not None and bound._shape.ndims != want:
            raise ValueError("Shape must be rank %d but is rank %d" % (want, bound._shape.ndims))
    if axis != -1:
        rank = value._shape.ndims
        if rank is not None and rank < axis + 1:
            raise ValueError("Shape must be at least rank %d but is rank %d" % (axis + 1, rank))
        depth = value._shape.as_list()[axis] if rank is not None else None
        for bound in (lo, hi):
            slices = bound._shape.as_list()[0] if bound._shape.ndims == 1 else None
            if depth is not None and slices is not None and depth != slices:
                raise ValueError("Dimensions must be equal, but are %d and %d" % (slices, depth))
    return [(op._attrs.get("dtype", dtypes.float32), value._shape)]


register_op("Dequantize", inputs=["input: T", "min_range: float32", "max_range: float32"],
            outputs=_dequantize_outputs,
            kernel=_dequantize_kernel, grad=NOT_DIFFERENTIABLE,
            doc="Quantized codes back to float32 from their range (MIN_COMBINED, MIN_FIRST or SCALED).")


def dequantize(input, min_range, max_range, mode="MIN_COMBINED", name=None, axis=None,  # noqa: A002 (TF's name)
               narrow_range=False, dtype=dtypes.float32):
    """``tf.quantization.dequantize`` / ``tf.dequantize``: float32 values of quantized codes."""
    if mode not in _MODES:
        raise ValueError("Mode string must be 'MIN_COMBINED', 'MIN_FIRST', or 'SCALED', is '%s'" % mode)
    value = convert_to_tensor(input, name="input")
    if value.dtype.base_dtype not in dtypes.QUANTIZED_DTYPES:
        raise TypeError("Value passed to parameter 'input' has DataType %s not in list of allowed values: "
                        "qint8, quint8, qint32, qint16, quint16" % value.dtype.base_dtype.name)
    if axis is None:
        axis = -1
    elif axis < 0:
        if value.shape.ndims is None:
            raise ValueError("input should have known rank to use negative axis.")
        axis %= value.shape.ndims
    attrs = {"mode": mode, "narrow_range": bool(narrow_range), "axis": int(axis),
             "dtype": dtypes.as_dtype(dtype)}
    return build_op("Dequantize", [value, min_range, max_range], attrs=attrs, name=name).outputs[0]
