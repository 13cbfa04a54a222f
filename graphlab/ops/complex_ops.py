"""Complex numbers: Complex, Real, Imag, Conj, Angle and ComplexAbs (``tf.complex``, ``tf.real``, ``tf.imag``,
``tf.conj``, ``tf.angle``, and ``tf.abs`` of a complex tensor), with TF's gradients. A gradient with respect to
a complex tensor follows TF's convention (dL/dRe + i dL/dIm for a real loss L)."""
import numpy as np

from graphlab.framework import dtypes, graph as graph_mod, tensor_shape
from graphlab.ops.math_ops import _bcast, _conj_scope
from graphlab.framework.registry import broadcast_outputs, build_op, constant, convert_to_tensor, register_op

_COMPLEX_OF = {dtypes.float32: dtypes.complex64, dtypes.float64: dtypes.complex128}


def _real_out(op):
    t = op._inputs[0]
    return [(t._dtype.base_dtype.real_dtype, t._shape)]


def _complex_out(op):
    return [(op._attrs["Tout"], broadcast_outputs()(op)[0][1])]


# ============================================================================================ Complex
def _complex_grad(op, grad):
    """[real(grad), imag(grad)], summed back to each input's shape centrally (BROADCASTING_OPS)."""
    return [real(grad), imag(grad)]


register_op("Complex", inputs=["real: T", "imag: T"], outputs=_complex_out,
            kernel=_bcast(lambda ctx, re, im: (np.asarray(re) + 1j * np.asarray(im)).astype(
                ctx.attrs["Tout"].as_numpy_dtype)),
            grad=_complex_grad, doc="real + imag * 1j (complex64 from float32, complex128 from float64).")


def complex(real, imag, name=None):  # noqa: A001  (TF's name)
    """``tf.complex``."""
    real = convert_to_tensor(real, name="real")
    imag = convert_to_tensor(imag, name="imag")
    with graph_mod.name_scope(name, "Complex", [real, imag]) as scope:
        input_types = (real.dtype.base_dtype, imag.dtype.base_dtype)
        if input_types[0] != input_types[1] or input_types[0] not in _COMPLEX_OF:
            raise TypeError("real and imag have incorrect types: {} {}".format(real.dtype.name, imag.dtype.name))
        return build_op("Complex", [real, imag], attrs={"Tout": _COMPLEX_OF[input_types[0]]}, name=scope).outputs[0]


# ======================================================================================== Real, Imag
register_op("Real", inputs=["input: T"], outputs=_real_out, kernel=lambda ctx, x: np.real(x).copy(),
            grad=lambda op, grad: [complex(grad, constant(0, dtype=grad.dtype.base_dtype))],
            doc="The real part of each element.")
register_op("Imag", inputs=["input: T"], outputs=_real_out, kernel=lambda ctx, x: np.imag(x).copy(),
            grad=lambda op, grad: [complex(constant(0, dtype=grad.dtype.base_dtype), grad)],
            doc="The imaginary part of each element.")


def real(input, name=None):  # noqa: A002
    """``tf.math.real``: the real part (a real tensor is returned as it is)."""
    with graph_mod.name_scope(name, "Real", [input]) as scope:
        input = convert_to_tensor(input, name="input")  # noqa: A001
        if input.dtype.is_complex:
            return build_op("Real", [input], attrs={"Tout": input.dtype.real_dtype}, name=scope).outputs[0]
        return input


def imag(input, name=None):  # noqa: A002
    """``tf.math.imag``: the imaginary part (zeros for a real tensor)."""
    from graphlab.ops import array_ops
    with graph_mod.name_scope(name, "Imag", [input]) as scope:
        input = convert_to_tensor(input, name="input")  # noqa: A001
        if input.dtype.is_complex:
            return build_op("Imag", [input], attrs={"Tout": input.dtype.real_dtype}, name=scope).outputs[0]
        return array_ops.zeros_like(input)


# ================================================================================================ Conj
register_op("Conj", inputs=["input: T"], outputs=lambda op: [(op._inputs[0]._dtype.base_dtype, op._inputs[0]._shape)],
            kernel=lambda ctx, x: np.conj(x), grad=lambda op, grad: [conj(grad)],
            doc="The complex conjugate of each element.")


def conj(x, name=None):
    """``tf.math.conj``: the complex conjugate; a real number tensor is returned as it is."""
    x = convert_to_tensor(x)
    if x.dtype.is_complex:
        with graph_mod.name_scope(name, "Conj", [x]) as scope:
            return build_op("Conj", [x], name=scope).outputs[0]
    if x.dtype.is_floating or x.dtype.is_integer:
        return x
    raise TypeError("Expected numeric or variant tensor, got dtype %r" % x.dtype)


# =============================================================================================== Angle
def _angle_grad(op, grad):
    x = op.inputs[0]
    with _conj_scope(op, grad):
        re, im = real(x), imag(x)
        z = _reciprocal(complex(im, re))
        complex_grad = complex(grad, constant(0, dtype=grad.dtype.base_dtype))
        return [-complex_grad * z]


def _reciprocal(x):
    from graphlab.ops.math_ops import reciprocal
    return reciprocal(x)


register_op("Angle", inputs=["input: T"], outputs=_real_out, kernel=lambda ctx, x: np.angle(x).astype(
    np.real(np.asarray(x)).dtype), grad=_angle_grad, doc="The argument (phase) of each element, in (-pi, pi].")


def angle(input, name=None):  # noqa: A002
    """``tf.math.angle``: the argument of complex numbers; pi for negative real numbers, 0 otherwise."""
    from graphlab.ops import array_ops, math_ops
    with graph_mod.name_scope(name, "Angle", [input]) as scope:
        input = convert_to_tensor(input, name="input")  # noqa: A001
        if input.dtype.is_complex:
            return build_op("Angle", [input], attrs={"Tout": input.dtype.real_dtype}, name=scope).outputs[0]
        return array_ops.where(math_ops.less(input, 0), np.pi * array_ops.ones_like(input),
                               array_ops.zeros_like(input))


# ========================================================================================== ComplexAbs
def _complex_abs_grad(op, grad):
    from graphlab.ops import array_ops, math_ops
    return [math_ops.div_no_nan(complex(grad, array_ops.zeros_like(grad)) * op.inputs[0],
                                complex(op.outputs[0], array_ops.zeros_like(op.outputs[0])))]


register_op("ComplexAbs", inputs=["x: T"], outputs=_real_out,
            kernel=lambda ctx, x: np.abs(x).astype(np.real(np.asarray(x)).dtype), grad=_complex_abs_grad,
            doc="|x| of complex numbers (a real tensor).")


def complex_abs(x, name=None):
    return build_op("ComplexAbs", [x], attrs={"Tout": x.dtype.real_dtype}, name=name,
                    default_name="ComplexAbs").outputs[0]


del tensor_shape
