"""Byte-string codecs of tf.io: EncodeBase64 / DecodeBase64 (web-safe alphabet, as TF), DecodeCompressed
(zlib and gzip), SerializeTensor / ParseTensor (a TensorProto's bytes, which TF reads), MatchingFiles
(glob patterns), and ExtractJpegShape (Pillow reads only the header). None has a gradient."""
import base64
import gzip
import zlib

import numpy as np

from graphlab.framework import dtypes, tensor_shape
from graphlab.formats.errors import DataLossError, InvalidArgumentError
from graphlab.framework.registry import NOT_DIFFERENTIABLE, build_op, register_op


def _each(fn, out_dtype=object):
    """Apply ``fn`` to every bytes element of a string tensor, keeping its shape."""
    def kernel(ctx, values):
        values = np.asarray(values, dtype=object)
        out = np.empty(values.shape, dtype=out_dtype)
        for index, value in np.ndenumerate(values):
            out[index] = fn(ctx, bytes(value))
        return out
    return kernel


def _strings_like(op):
    return [(dtypes.string, op._inputs[0]._shape)]


# ===================================================================================== Base64 codecs
def _encode64(ctx, data):
    out = base64.urlsafe_b64encode(data)
    return out if ctx.attrs["pad"] else out.rstrip(b"=")


def _decode64(ctx, data):
    try:
        return base64.urlsafe_b64decode(data + b"=" * (-len(data) % 4))
    except (ValueError, TypeError):
        raise InvalidArgumentError(None, ctx.op, "Invalid character found in base64.") from None


register_op("EncodeBase64", inputs=["input: string"], outputs=_strings_like, kernel=_each(_encode64),
            grad=NOT_DIFFERENTIABLE, doc="Web-safe base64 (- and _ for + and /), '=' padding if pad.")
register_op("DecodeBase64", inputs=["input: string"], outputs=_strings_like, kernel=_each(_decode64),
            grad=NOT_DIFFERENTIABLE, doc="The bytes a web-safe base64 string encodes (padding optional).")


def encode_base64(input, pad=False, name=None):  # noqa: A002  (TF's argument name)
    """``tf.io.encode_base64``."""
    return build_op("EncodeBase64", [input], attrs={"pad": bool(pad)}, name=name).outputs[0]


def decode_base64(input, name=None):  # noqa: A002
    """``tf.io.decode_base64``."""
    return build_op("DecodeBase64", [input], name=name).outputs[0]


# ==================================================================================== DecodeCompressed
def _decompress(ctx, data):
    kind = ctx.attrs["compression_type"]
    try:
        if kind == "":
            return data
        if kind == "ZLIB":
            return zlib.decompress(data)
        if kind == "GZIP":
            return gzip.decompress(data)
    except (OSError, zlib.error, EOFError) as e:
        raise DataLossError(None, ctx.op, "%s decompression failed: %s" % (kind, e)) from None
    raise InvalidArgumentError(None, ctx.op, "Unsupported compression type: %s" % kind)


register_op("DecodeCompressed", inputs=["bytes: string"], outputs=_strings_like, kernel=_each(_decompress),
            grad=NOT_DIFFERENTIABLE, doc="Each string decompressed (compression_type '', 'ZLIB' or 'GZIP').")


def decode_compressed(bytes, compression_type="", name=None):  # noqa: A002
    """``tf.io.decode_compressed``."""
    return build_op("DecodeCompressed", [bytes], attrs={"compression_type": compression_type},
                    name=name).outputs[0]


# ============================================================================ SerializeTensor, ParseTensor
def _serialize(ctx, value):
    from graphlab.framework.graph_io import make_tensor_proto
    value = np.asarray(value)
    enum = ctx.op.inputs[0].dtype.base_dtype.as_datatype_enum
    return np.array(make_tensor_proto(value, enum).SerializeToString(), dtype=object)


def _parse(ctx, serialized):
    from graphlab.framework.graph_io import tensor_proto_to_numpy
    from graphlab.formats.protos import tensor_pb2
    proto = tensor_pb2.TensorProto()
    try:
        proto.ParseFromString(bytes(np.asarray(serialized, dtype=object)[()]))
    except Exception:   # noqa: BLE001  (protobuf's DecodeError)
        raise InvalidArgumentError(None, ctx.op, "Could not parse `serialized` as TensorProto: '%r'"
                                   % bytes(np.asarray(serialized, dtype=object)[()])) from None
    want = ctx.attrs["out_type"]
    if proto.dtype != want.as_datatype_enum:
        raise InvalidArgumentError(None, ctx.op, "Type mismatch between parsed tensor (%s) and dtype (%s)"
                                   % (dtypes.as_dtype(proto.dtype).name, want.name))
    return tensor_proto_to_numpy(proto)


register_op("SerializeTensor", inputs=["tensor: T"], outputs=lambda op: [(dtypes.string, tensor_shape.SCALAR)],
            kernel=_serialize, grad=NOT_DIFFERENTIABLE, doc="The tensor as a serialized TensorProto.")
register_op("ParseTensor", inputs=["serialized: string"],
            outputs=lambda op: [(op._attrs["out_type"], tensor_shape.UNKNOWN)], kernel=_parse,
            grad=NOT_DIFFERENTIABLE, doc="The tensor a serialized TensorProto holds (of dtype out_type).")


def serialize_tensor(tensor, name=None):
    """``tf.io.serialize_tensor``."""
    return build_op("SerializeTensor", [tensor], name=name).outputs[0]


def parse_tensor(serialized, out_type, name=None):
    """``tf.io.parse_tensor``."""
    return build_op("ParseTensor", [serialized], attrs={"out_type": dtypes.as_dtype(out_type)},
                    name=name).outputs[0]


# ====================================================================================== MatchingFiles
# =================================================================================== ExtractJpegShape
def _jpeg_shape(ctx, contents):
    from graphlab.ops.image_ops import _open
    img = _open(ctx, bytes(np.asarray(contents, dtype=object)[()]), "ExtractJpegShape")
    channels = len(img.getbands())
    return np.array([img.size[1], img.size[0], channels], dtype=ctx.attrs["output_type"].as_numpy_dtype)


register_op("ExtractJpegShape", inputs=["contents: string"],
            outputs=lambda op: [(op._attrs["output_type"], tensor_shape.TensorShape([3]))], kernel=_jpeg_shape,
            grad=NOT_DIFFERENTIABLE, doc="[height, width, channels] of a JPEG, from its header.")


def extract_jpeg_shape(contents, output_type=dtypes.int32, name=None):
    """``tf.io.extract_jpeg_shape``."""
    return build_op("ExtractJpegShape", [contents], attrs={"output_type": dtypes.as_dtype(output_type)},
                    name=name).outputs[0]


# ============================================================================================= Substr
def _substr(ctx, values, pos, length):
    values = np.asarray(values, dtype=object)
    pos, length = np.broadcast_arrays(np.asarray(pos), np.asarray(length))
    shape = np.broadcast_shapes(values.shape, pos.shape)
    values, pos, length = (np.broadcast_to(a, shape) for a in (values, pos, length))
    out = np.empty(shape, dtype=object)
    for index in np.ndindex(*shape):
        s, p, n = bytes(values[index]), int(pos[index]), int(length[index])
        if p > len(s) or p < -len(s):
            raise InvalidArgumentError(None, ctx.op, "pos %d out of range for string b'%s' at index %s"
                                       % (p, s.decode("latin-1"), list(index) if shape else 0))
        p = p + len(s) if p < 0 else p
        out[index] = s[p:p + max(n, 0)]
    return out


register_op("Substr", inputs=["input: string", "pos: T", "len: T"],
            outputs=lambda op: [(dtypes.string, op._inputs[0]._shape if op._inputs[1]._shape.ndims == 0
                                 else tensor_shape.UNKNOWN)],
            kernel=_substr, grad=NOT_DIFFERENTIABLE, doc="Bytes [pos, pos + len) of each string (unit BYTE).")


def substr(input, pos, len, name=None, unit="BYTE"):  # noqa: A002
    """``tf.substr`` / ``tf.strings.substr`` (byte units)."""
    if unit != "BYTE":
        raise NotImplementedError("graphlab's tf.substr counts bytes only (unit='BYTE')")
    return build_op("Substr", [input, pos, len], attrs={"unit": unit}, name=name).outputs[0]


def is_jpeg(contents, name=None):
    """``tf.io.is_jpeg``: whether the bytes start with JPEG's marker, as TF builds it (Substr, Equal)."""
    from graphlab.framework.graph import name_scope
    from graphlab.ops.math_ops import equal
    with name_scope(name, "is_jpeg", [contents]) as scope:
        start = substr(contents, 0, 3)
        return equal(start, b"\xff\xd8\xff", name=scope)
