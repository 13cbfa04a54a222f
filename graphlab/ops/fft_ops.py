"""Discrete Fourier transforms over the innermost 1, 2 or 3 axes: FFT/IFFT, FFT2D/IFFT2D, FFT3D/IFFT3D on complex
tensors and RFFT/IRFFT (and 2D, 3D) between real signals and their half spectra (``tf.signal``,
``tf.spectral``, TF1's ``tf.fft`` ...), computed with numpy.fft, with TF's gradients."""
import numpy as np

from graphlab.framework import dtypes, graph as graph_mod, tensor_shape
from graphlab.framework.registry import build_op, const_value, convert_to_tensor, get_opdef, register_op

_REAL_OF = {dtypes.complex64: dtypes.float32, dtypes.complex128: dtypes.float64}
_COMPLEX_OF = {dtypes.float32: dtypes.complex64, dtypes.float64: dtypes.complex128}


def _axes(rank):
    return tuple(range(-rank, 0))


# ===================================================================================== complex <-> complex
def _fft_size(tensor, rank):
    """The number of points the transform of ``tensor`` covers (product of its innermost ``rank`` sizes)."""
    from graphlab.ops import array_ops, math_ops
    return math_ops.reduce_prod(array_ops.shape(tensor)[-rank:])


def _fft_grad(rank, inverse_fn):
    def grad(op, g):
        from graphlab.ops import math_ops
        size = math_ops.cast(_fft_size(g, rank), g.dtype.base_dtype)
        return [inverse_fn(g) * size]
    return grad


def _ifft_grad(rank, forward_fn):
    def grad(op, g):
        from graphlab.ops import math_ops
        rsize = math_ops.cast(math_ops.reciprocal(math_ops.cast(_fft_size(g, rank), g.dtype.real_dtype)),
                              g.dtype.base_dtype)
        return [forward_fn(g) * rsize]
    return grad


def _complex_only(op):
    t = op._inputs[0]
    if not t._dtype.base_dtype.is_complex:
        raise TypeError("Value passed to parameter 'input' has DataType %s not in list of allowed values: complex64, "
                        "complex128" % t._dtype.base_dtype.name)
    return [(t._dtype.base_dtype, t._shape)]


def _complex_transform(op_type, np_fn, rank):
    register_op(op_type, inputs=["input: Tcomplex"], outputs=_complex_only,
                kernel=lambda ctx, x: np_fn(x, axes=_axes(rank)).astype(np.asarray(x).dtype),
                grad=None, doc="The %s over the innermost %d axes." % (np_fn.__name__, rank))

    def fn(input, name=None):  # noqa: A002
        return build_op(op_type, [input], name=name).outputs[0]
    fn.__name__ = op_type.lower()
    return fn


fft = _complex_transform("FFT", np.fft.fftn, 1)
ifft = _complex_transform("IFFT", np.fft.ifftn, 1)
fft2d = _complex_transform("FFT2D", np.fft.fftn, 2)
ifft2d = _complex_transform("IFFT2D", np.fft.ifftn, 2)
fft3d = _complex_transform("FFT3D", np.fft.fftn, 3)
ifft3d = _complex_transform("IFFT3D", np.fft.ifftn, 3)
for _fwd, _inv, _rank in (("FFT", "IFFT", 1), ("FFT2D", "IFFT2D", 2), ("FFT3D", "IFFT3D", 3)):
    # each rule calls the other direction's function, so they are attached once both exist
    get_opdef(_fwd).grad = _fft_grad(_rank, globals()[_inv.lower()])
    get_opdef(_inv).grad = _ifft_grad(_rank, globals()[_fwd.lower()])


# ======================================================================================= real <-> half spectrum
def _fit(x, lengths, rank):
    """Crop or zero-pad the innermost ``rank`` axes of ``x`` to ``lengths`` (what TF's RFFT does to its input)."""
    x = np.asarray(x)
    for axis, n in zip(_axes(rank), lengths):
        have = x.shape[axis]
        if have > n:
            x = np.take(x, np.arange(n), axis=axis)
        elif have < n:
            pad = [(0, 0)] * x.ndim
            pad[axis] = (0, n - have)
            x = np.pad(x, pad)
    return x


def _rfft_kernel(rank):
    def kernel(ctx, x, fft_length):
        lengths = [int(n) for n in np.asarray(fft_length).reshape(-1)]
        out = np.fft.rfftn(_fit(x, lengths, rank), s=lengths, axes=_axes(rank))
        return out.astype(ctx.attrs["Tcomplex"].as_numpy_dtype)
    return kernel


def _irfft_kernel(rank):
    def kernel(ctx, y, fft_length):
        lengths = [int(n) for n in np.asarray(fft_length).reshape(-1)]
        half = lengths[:-1] + [lengths[-1] // 2 + 1]
        out = np.fft.irfftn(_fit(y, half, rank), s=lengths, axes=_axes(rank))
        return out.astype(ctx.attrs["Treal"].as_numpy_dtype)
    return kernel


def _spectrum_shape(x, fft_length, rank, half):
    lengths = const_value(fft_length)
    if x._shape.ndims is None:
        return tensor_shape.UNKNOWN
    dims = x._shape.as_list()
    if lengths is None:
        return tensor_shape.TensorShape(dims[:-rank] + [None] * rank)
    lengths = [int(n) for n in np.asarray(lengths).reshape(-1)]
    if half:
        lengths = lengths[:-1] + [lengths[-1] // 2 + 1]
    return tensor_shape.TensorShape(dims[:-rank] + lengths)


def _rfft_outputs(rank):
    return lambda op: [(op._attrs["Tcomplex"], _spectrum_shape(op._inputs[0], op._inputs[1], rank, True))]


def _irfft_outputs(rank):
    return lambda op: [(op._attrs["Treal"], _spectrum_shape(op._inputs[0], op._inputs[1], rank, False))]


def _rfft_grad(rank):
    """d(real x) of y = RFFT(x): the real part of N * IFFTkD of the half spectrum's gradient zero-padded to
    the full length, then cropped or padded back to x's own innermost sizes."""
    def grad(op, g):
        from graphlab.ops import array_ops, math_ops
        x, fft_length = op.inputs
        full = array_ops.concat([array_ops.shape(g)[:-1], fft_length[-1:]], 0)
        padding = array_ops.stack([array_ops.zeros([array_ops.rank(g)], dtypes.int32), full - array_ops.shape(g)], 1)
        padded = array_ops.pad(g, padding)
        inverse = {1: ifft, 2: ifft2d, 3: ifft3d}[rank](padded)
        size = math_ops.cast(math_ops.reduce_prod(fft_length), inverse.dtype.real_dtype)
        from graphlab.ops.complex_ops import real
        dense = real(inverse) * size
        return [_fit_tensor(dense, array_ops.shape(x)[-rank:], rank), None]
    return grad


def _fit_tensor(t, lengths, rank):
    """Graph form of _fit: crop then zero-pad the innermost ``rank`` axes of t to ``lengths``."""
    from graphlab.ops import array_ops, math_ops
    shape = array_ops.shape(t)
    outer = shape[:-rank]
    keep = math_ops.minimum(shape[-rank:], lengths)
    t = array_ops.slice(t, array_ops.zeros_like(shape), array_ops.concat([outer, keep], 0))
    extra = lengths - keep
    padding = array_ops.stack([array_ops.zeros_like(shape), array_ops.concat([array_ops.zeros_like(outer), extra], 0)], 1)
    return array_ops.pad(t, padding)


def _irfft_grad(rank):
    """TF's _irfft_grad_helper: RFFT(grad) * mask / N, the mask counting each half-spectrum bin's mirror."""
    def grad(op, g):
        from graphlab.ops import array_ops, math_ops
        y, fft_length = op.inputs
        real_dtype = g.dtype.base_dtype
        complex_dtype = _COMPLEX_OF[real_dtype]
        is_odd = math_ops.mod(fft_length[-1], 2)
        last = array_ops.shape(y)[-1]
        mask = array_ops.concat([array_ops.ones([1], real_dtype), 2.0 * array_ops.ones([last - 2 + is_odd], real_dtype),
                                 array_ops.ones([1 - is_odd], real_dtype)], 0)
        rsize = math_ops.reciprocal(math_ops.cast(_fft_size(g, rank), real_dtype))
        the_rfft = {1: rfft, 2: rfft2d, 3: rfft3d}[rank](g, fft_length)
        return [the_rfft * math_ops.cast(rsize * mask, complex_dtype), None]
    return grad


def _real_transform(op_type, rank, inverse):
    register_op(op_type, inputs=["input: T", "fft_length: int32"],
                outputs=(_irfft_outputs if inverse else _rfft_outputs)(rank),
                kernel=(_irfft_kernel if inverse else _rfft_kernel)(rank),
                grad=(_irfft_grad if inverse else _rfft_grad)(rank),
                doc=("The real signal of a half spectrum" if inverse else "The half spectrum of a real signal")
                + " over the innermost %d axes (length fft_length)." % rank)

    def fn(input_tensor, fft_length=None, name=None):
        with graph_mod.name_scope(name, op_type.lower(), [input_tensor, fft_length]) as scope:
            x = convert_to_tensor(input_tensor, name="input_tensor")
            if inverse:
                real_dtype = _REAL_OF[x.dtype.base_dtype]
                if fft_length is None:
                    from graphlab.ops import array_ops
                    inner = array_ops.shape(x)[-rank:]
                    fft_length = array_ops.concat([inner[:-1], [2 * (inner[-1] - 1)]], 0) if rank > 1 else \
                        2 * (inner - 1)
                attrs = {"Treal": real_dtype, "Tcomplex": x.dtype.base_dtype}
            else:
                if fft_length is None:
                    from graphlab.ops import array_ops
                    fft_length = array_ops.shape(x)[-rank:]
                attrs = {"Treal": x.dtype.base_dtype, "Tcomplex": _COMPLEX_OF[x.dtype.base_dtype]}
            fft_length = convert_to_tensor(fft_length, dtype=dtypes.int32, name="fft_length")
            return build_op(op_type, [x, fft_length], attrs=attrs, name=scope).outputs[0]
    fn.__name__ = op_type.lower()
    return fn


rfft = _real_transform("RFFT", 1, False)
irfft = _real_transform("IRFFT", 1, True)
rfft2d = _real_transform("RFFT2D", 2, False)
irfft2d = _real_transform("IRFFT2D", 2, True)
rfft3d = _real_transform("RFFT3D", 3, False)
irfft3d = _real_transform("IRFFT3D", 3, True)


def fftshift(x, axes=None, name=None):
    """``tf.signal.fftshift``: move the zero-frequency term to the centre (a roll by half of each axis)."""
    from graphlab.ops.sequence_ops import roll
    with graph_mod.name_scope(name, "fftshift", [x]):
        x = convert_to_tensor(x)
        if axes is None:
            axes = tuple(range(x.shape.ndims))
            shift = [int(d // 2) for d in x.shape.as_list()]
        elif isinstance(axes, int):
            shift = int(x.shape.as_list()[axes] // 2)
        else:
            shift = [int(x.shape.as_list()[a] // 2) for a in axes]
        return roll(x, shift, axes)


def ifftshift(x, axes=None, name=None):
    """``tf.signal.ifftshift``: the inverse of fftshift."""
    from graphlab.ops.sequence_ops import roll
    with graph_mod.name_scope(name, "ifftshift", [x]):
        x = convert_to_tensor(x)
        if axes is None:
            axes = tuple(range(x.shape.ndims))
            shift = [-int(d // 2) for d in x.shape.as_list()]
        elif isinstance(axes, int):
            shift = -int(x.shape.as_list()[axes] // 2)
        else:
            shift = [-int(x.shape.as_list()[a] // 2) for a in axes]
        return roll(x, shift, axes)
