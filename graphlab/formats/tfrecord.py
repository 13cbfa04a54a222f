"""TFRecord files, written and read by our own code: ``tf.python_io.TFRecordWriter``,
``tf.python_io.tf_record_iterator`` and ``TFRecordOptions`` (no compression, GZIP or ZLIB).

A record is TF's framing (``frame`` below, as tensorflow/core/lib/io/record_writer writes it): uint64 length
(little endian), masked crc32c of those 8 bytes, the data, masked crc32c of the data; TensorBoard's event files
use it too. Reading checks both checksums; a file cut short or corrupted raises DataLossError naming the file
and the byte where it happened, as TF does.
"""
import gzip
import struct
import zlib

from graphlab.formats.crc32c import masked_crc32c
from graphlab.formats.errors import DataLossError, InvalidArgumentError, NotFoundError


def frame(data):
    """One TFRecord: header (length + its crc), data, data crc."""
    header = struct.pack("<Q", len(data))
    return header + struct.pack("<I", masked_crc32c(header)) + data + struct.pack("<I", masked_crc32c(data))


def read_records(path):
    """Yield each record's data, checking both checksums, with TF's record reader's rules: a tail shorter
    than a record header ends the file; a record whose header is there but whose data is cut short is
    ``DataLossError: truncated record at <offset>``, a checksum mismatch ``corrupted record at <offset>``
    (the offset of the header, or of the data whose checksum failed)."""
    with open(path, "rb") as f:
        blob = f.read()
    pos = 0
    while pos + 12 <= len(blob):
        header = blob[pos:pos + 8]
        (length,) = struct.unpack("<Q", header)
        (hcrc,) = struct.unpack("<I", blob[pos + 8:pos + 12])
        if hcrc != masked_crc32c(header):
            raise DataLossError(None, None, "corrupted record at %d (in %s: the length's checksum does not "
                                "match)" % (pos, path))
        end = pos + 12 + length
        if end + 4 > len(blob):
            raise DataLossError(None, None, "truncated record at %d (in %s: the file ends inside this record, "
                                "as when its writer stops mid-write)" % (pos, path))
        data = blob[pos + 12:end]
        (dcrc,) = struct.unpack("<I", blob[end:end + 4])
        if dcrc != masked_crc32c(data):
            raise DataLossError(None, None, "corrupted record at %d (in %s: the data's checksum does not "
                                "match)" % (pos + 12, path))
        yield data
        pos = end + 4


class TFRecordCompressionType:
    NONE, ZLIB, GZIP = 0, 1, 2


class TFRecordOptions:
    """``tf.python_io.TFRecordOptions(compression_type)``: "", "ZLIB" or "GZIP" (or the enum)."""

    compression_type_map = {TFRecordCompressionType.ZLIB: "ZLIB", TFRecordCompressionType.GZIP: "GZIP",
                            TFRecordCompressionType.NONE: ""}

    def __init__(self, compression_type=None, **unused):
        if isinstance(compression_type, int):
            compression_type = self.compression_type_map[compression_type]
        self.compression_type = compression_type or ""

    @classmethod
    def get_compression_type_string(cls, options):
        if options is None:
            return ""
        if isinstance(options, TFRecordOptions):
            return options.compression_type
        return cls(options).compression_type


def _compression(options):
    kind = TFRecordOptions.get_compression_type_string(options)
    if kind not in ("", "ZLIB", "GZIP"):
        raise InvalidArgumentError(None, None, "Unsupported compression type: %s (use '', 'ZLIB' or 'GZIP')" % kind)
    return kind


class TFRecordWriter:
    """``tf.python_io.TFRecordWriter(path, options=None)``: ``write(bytes)`` one record at a time."""

    def __init__(self, path, options=None):
        self._path = path
        self._kind = _compression(options)
        self._parts = []
        try:
            self._file = open(path, "wb")
        except OSError as e:
            raise NotFoundError(None, None, "%s; %s" % (path, e.strerror)) from None

    def write(self, record):
        if isinstance(record, str):
            record = record.encode("utf-8")
        data = frame(bytes(record))
        if self._kind:
            self._parts.append(data)       # compressed as one stream when the file is closed
        else:
            self._file.write(data)

    def flush(self):
        if not self._kind:
            self._file.flush()

    def close(self):
        if self._file is None:
            return
        if self._kind:
            raw = b"".join(self._parts)
            self._file.write(gzip.compress(raw) if self._kind == "GZIP" else zlib.compress(raw))
        self._file.close()
        self._file = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def read_file_bytes(path, kind=""):
    try:
        with open(path, "rb") as f:
            blob = f.read()
    except FileNotFoundError:
        raise NotFoundError(None, None, "%s; No such file or directory" % path) from None
    if kind == "GZIP":
        try:
            blob = gzip.decompress(blob)
        except (OSError, EOFError, zlib.error) as e:
            raise DataLossError(None, None, "%s: not a valid GZIP stream (%s)" % (path, e)) from None
    elif kind == "ZLIB":
        try:
            blob = zlib.decompress(blob)
        except zlib.error as e:
            raise DataLossError(None, None, "%s: not a valid ZLIB stream (%s)" % (path, e)) from None
    return blob


def records(path, kind=""):
    """(offset, data) of each record in the file; DataLossError on a corrupt or truncated record."""
    blob = read_file_bytes(path, kind)
    pos = 0
    while pos < len(blob):
        if pos + 12 > len(blob):
            raise DataLossError(None, None, "truncated record at %d in %s" % (pos, path))
        header = blob[pos:pos + 8]
        (length,) = struct.unpack("<Q", header)
        (crc,) = struct.unpack("<I", blob[pos + 8:pos + 12])
        if crc != masked_crc32c(header):
            raise DataLossError(None, None, "corrupted record at %d in %s (length checksum mismatch)" % (pos, path))
        end = pos + 12 + length
        if end + 4 > len(blob):
            raise DataLossError(None, None, "truncated record at %d in %s" % (pos, path))
        data = blob[pos + 12:end]
        (crc,) = struct.unpack("<I", blob[end:end + 4])
        if crc != masked_crc32c(data):
            raise DataLossError(None, None, "corrupted record at %d in %s (data checksum mismatch)" % (pos, path))
        yield pos, data
        pos = end + 4


def tf_record_iterator(path, options=None):
    """``tf.python_io.tf_record_iterator``: the bytes of each record in the file, in order."""
    for _, data in records(path, _compression(options)):
        yield data


__all__ = ["TFRecordWriter", "TFRecordOptions", "TFRecordCompressionType", "tf_record_iterator"]
