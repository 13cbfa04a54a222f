"""numpy dtype <-> TensorFlow DataType enum, for the dtypes a checkpoint can hold.

Kept here so the file formats work without the engine; the engine's dtypes module carries the same
numbers (types.proto) and may import these tables.
"""

import numpy as np

from graphlab.formats.protos import types_pb2

# Numeric types stored as raw little-endian bytes.
NUMPY_TO_ENUM = {
    np.dtype(np.float16): types_pb2.DT_HALF,
    np.dtype(np.float32): types_pb2.DT_FLOAT,
    np.dtype(np.float64): types_pb2.DT_DOUBLE,
    np.dtype(np.int8): types_pb2.DT_INT8,
    np.dtype(np.int16): types_pb2.DT_INT16,
    np.dtype(np.int32): types_pb2.DT_INT32,
    np.dtype(np.int64): types_pb2.DT_INT64,
    np.dtype(np.uint8): types_pb2.DT_UINT8,
    np.dtype(np.uint16): types_pb2.DT_UINT16,
    np.dtype(np.uint32): types_pb2.DT_UINT32,
    np.dtype(np.uint64): types_pb2.DT_UINT64,
    np.dtype(np.bool_): types_pb2.DT_BOOL,
    np.dtype(np.complex64): types_pb2.DT_COMPLEX64,
    np.dtype(np.complex128): types_pb2.DT_COMPLEX128,
}
# Quantized types, stored as raw bytes too, as numpy structured types of one field (TF's Python does the
# same): the field's name tells a quint8 array from a uint8 one.
QUANTIZED = {types_pb2.DT_QINT8: ("qint8", np.int8), types_pb2.DT_QUINT8: ("quint8", np.uint8),
             types_pb2.DT_QINT16: ("qint16", np.int16), types_pb2.DT_QUINT16: ("quint16", np.uint16),
             types_pb2.DT_QINT32: ("qint32", np.int32)}
NUMPY_TO_ENUM.update({np.dtype([(name, base)]): enum for enum, (name, base) in QUANTIZED.items()})
ENUM_TO_NUMPY = {enum: dt for dt, enum in NUMPY_TO_ENUM.items()}
ENUM_TO_NUMPY[types_pb2.DT_STRING] = np.dtype(object)  # elements are Python bytes

REF_OFFSET = 100


def quantized_base(dtype):
    """The plain integer numpy type behind a quantized one (quint8 -> uint8), or None for other types."""
    dtype = np.dtype(dtype)
    if dtype.names and len(dtype.names) == 1 and dtype in NUMPY_TO_ENUM:
        return dtype.fields[dtype.names[0]][0]
    return None


def enum_name(enum):
    """'DT_FLOAT' style name of an enum value, or the number if unknown (for error messages)."""
    try:
        return types_pb2.DataType.Name(enum)
    except ValueError:
        return str(enum)


def is_string_dtype(dtype):
    """True for numpy dtypes we store as DT_STRING: bytes ('S'), str ('U') and object arrays."""
    return np.dtype(dtype).kind in "OSU"


def numpy_to_enum(dtype):
    """DataType enum for a numpy dtype (any byte order); None if TF has no such type."""
    dtype = np.dtype(dtype)
    if is_string_dtype(dtype):
        return types_pb2.DT_STRING
    return NUMPY_TO_ENUM.get(dtype.newbyteorder("="))


def enum_to_numpy(enum):
    """numpy dtype for a DataType enum (ref types map to their base); None if not supported."""
    if enum > REF_OFFSET:
        enum -= REF_OFFSET
    return ENUM_TO_NUMPY.get(enum)
