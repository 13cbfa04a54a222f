"""DType: TensorFlow's data types, with the enum numbers its files use and the numpy type kernels use.

A ref dtype (``float32_ref``) is what a ``VariableV2`` op outputs: a handle to mutable state rather than a
value. Its enum is the base enum + 100, as in TensorFlow's ``types.proto``.
"""
import numpy as np

_REF_OFFSET = 100


class DType:
    """One TensorFlow data type. Compare with ``==``; ``tf.float32 == "float32"`` also works, as in TF."""

    __slots__ = ("_enum", "_name", "_np", "base_dtype", "_as_ref")

    def __init__(self, enum, name, np_type):
        self._enum = enum
        self._name = name
        self._np = np_type
        # base_dtype and _as_ref are plain attributes (set once all types exist): they are read for
        # every op built, so they must be cheap.

    # --- identity -------------------------------------------------------------------------------------
    @property
    def name(self):
        return self._name

    @property
    def as_datatype_enum(self):
        return self._enum

    @property
    def as_numpy_dtype(self):
        return self._np

    @property
    def is_ref_dtype(self):
        return self._enum > _REF_OFFSET


    @property
    def real_dtype(self):
        base = self.base_dtype
        return {complex64: float32, complex128: float64}.get(base, base)

    # --- kinds ----------------------------------------------------------------------------------------
    @property
    def is_floating(self):
        return self.base_dtype in _FLOATING

    @property
    def is_integer(self):
        return self.base_dtype in _INTEGERS

    @property
    def is_unsigned(self):
        return self.base_dtype in _UNSIGNED

    @property
    def is_complex(self):
        return self.base_dtype in _COMPLEX

    @property
    def is_bool(self):
        return self.base_dtype == bool

    @property
    def is_numpy_compatible(self):
        return self._np is not None

    @property
    def size(self):
        return np.dtype(self._np).itemsize if self._np is not None and self._np is not object else 1

    @property
    def min(self):
        base = self.base_dtype._np
        return np.finfo(base).min if self.is_floating else np.iinfo(base).min

    @property
    def max(self):
        base = self.base_dtype._np
        return np.finfo(base).max if self.is_floating else np.iinfo(base).max

    def is_compatible_with(self, other):
        """TF's rule: ``float32`` accepts ``float32`` and ``float32_ref``; a ref type only its own type."""
        other = as_dtype(other)
        return self._enum == other._enum or self._enum == other.base_dtype._enum

    # --- python protocol ------------------------------------------------------------------------------
    def __eq__(self, other):
        if other is None:
            return False
        if not isinstance(other, DType):
            try:
                other = as_dtype(other)
            except TypeError:
                return False
        return self._enum == other._enum

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return self._enum

    def __repr__(self):
        return "tf." + self._name

    def __str__(self):
        return "<dtype: %r>" % self._name

    def __reduce__(self):
        return as_dtype, (self._name,)


_BASE_TYPES = [
    (1, "float32", np.float32), (2, "float64", np.float64), (3, "int32", np.int32), (4, "uint8", np.uint8),
    (5, "int16", np.int16), (6, "int8", np.int8), (7, "string", object), (8, "complex64", np.complex64),
    (9, "int64", np.int64), (10, "bool", np.bool_), (14, "bfloat16", None), (17, "uint16", np.uint16),
    (18, "complex128", np.complex128), (19, "float16", np.float16), (20, "resource", None),
    (21, "variant", None), (22, "uint32", np.uint32), (23, "uint64", np.uint64),
    # quantized types: stored as numpy structured types of one field, as TF's Python does, so a quint8 array
    # is not mistaken for a uint8 one; only Const, Identity-like ops and Dequantize handle them
    (11, "qint8", np.dtype([("qint8", np.int8)])), (12, "quint8", np.dtype([("quint8", np.uint8)])),
    (13, "qint32", np.dtype([("qint32", np.int32)])), (15, "qint16", np.dtype([("qint16", np.int16)])),
    (16, "quint16", np.dtype([("quint16", np.uint16)])),
]

_BY_ENUM = {}
_BY_NAME = {}
for _enum, _name, _np in _BASE_TYPES:
    for _dt in (DType(_enum, _name, _np), DType(_enum + _REF_OFFSET, _name + "_ref", _np)):
        _BY_ENUM[_dt._enum] = _dt
        _BY_NAME[_dt._name] = _dt

for _dt in _BY_ENUM.values():
    _dt.base_dtype = _BY_ENUM[_dt._enum - _REF_OFFSET] if _dt._enum > _REF_OFFSET else _dt
    _dt._as_ref = _dt if _dt._enum > _REF_OFFSET else _BY_ENUM[_dt._enum + _REF_OFFSET]

float32 = _BY_NAME["float32"]
float64 = double = _BY_NAME["float64"]
float16 = half = _BY_NAME["float16"]
bfloat16 = _BY_NAME["bfloat16"]
int8, int16, int32, int64 = (_BY_NAME[n] for n in ("int8", "int16", "int32", "int64"))
uint8, uint16, uint32, uint64 = (_BY_NAME[n] for n in ("uint8", "uint16", "uint32", "uint64"))
complex64, complex128 = _BY_NAME["complex64"], _BY_NAME["complex128"]
string = _BY_NAME["string"]
bool = _BY_NAME["bool"]  # noqa: A001  (TF's public name)
resource, variant = _BY_NAME["resource"], _BY_NAME["variant"]
qint8, quint8, qint16, quint16, qint32 = (_BY_NAME[n] for n in ("qint8", "quint8", "qint16", "quint16", "qint32"))
QUANTIZED_DTYPES = frozenset([qint8, quint8, qint16, quint16, qint32, _BY_NAME["qint8_ref"], _BY_NAME["quint8_ref"],
                              _BY_NAME["qint16_ref"], _BY_NAME["quint16_ref"], _BY_NAME["qint32_ref"]])
float32_ref, float64_ref, int32_ref, int64_ref = (_BY_NAME[n + "_ref"] for n in ("float32", "float64", "int32", "int64"))
_INTEGERS = frozenset([int8, int16, int32, int64, uint8, uint16, uint32, uint64])   # sets: asked per op
_FLOATING = frozenset([float16, float32, float64, bfloat16])   # a set: is_floating is asked per op built
_UNSIGNED = frozenset([uint8, uint16, uint32, uint64])
_COMPLEX = frozenset([complex64, complex128])

# numpy type -> DType (numpy's string/bytes/object kinds all map to tf.string)
_BY_NUMPY = {np.dtype(np_type): _BY_ENUM[enum] for enum, _, np_type in _BASE_TYPES if np_type not in (None, object)}

# The names TF's error messages use for dtypes ("with dtype float"), from its DataTypeString.
_TF_ENUM_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


def as_dtype(value):
    """Turn a DType, name, numpy dtype/type, python type or enum into a DType (TypeError otherwise)."""
    if isinstance(value, DType):
        return value
    if isinstance(value, np.dtype) and value in _BY_NUMPY:
        return _BY_NUMPY[value]
    if isinstance(value, str):
        if value in _BY_NAME:
            return _BY_NAME[value]
        alias = {"float": float32, "double": float64, "half": float16}.get(value)
        if alias is not None:
            return alias
        raise TypeError("Cannot convert value %r to a TensorFlow DType." % (value,))
    if isinstance(value, int) and not isinstance(value, type(True)) and value in _BY_ENUM:
        return _BY_ENUM[value]
    if value is float:
        return float64  # np.dtype(float) is float64, as in TF
    if value is int:
        return int64
    if value is type(True):
        return bool
    if value in (str, bytes):
        return string
    try:
        np_dtype = np.dtype(value)
    except TypeError:
        np_dtype = None
    if np_dtype is not None:
        if np_dtype.kind in "SUO":
            return string
        if np_dtype in _BY_NUMPY:
            return _BY_NUMPY[np_dtype]
    raise TypeError("Cannot convert value %r to a TensorFlow DType." % (value,))


def tf_type_name(dtype):
    """The short name TF prints in run-time messages: float, double, int32, string ..."""
    name = dtype.base_dtype.name
    return _TF_ENUM_NAMES.get(name, name)
