"""TFRecord files, written and read by our own code: ``tf.python_io.TFRecordWriter``,
``tf.python_io.tf_record_iterator`` and ``TFRecordOptions`` (no compression, GZIP or ZLIB).

A record is TF's framing (``frame`` below, as tensorflow/core/lib/io/record_writer writes it): uint64 length
(little endian), masked crc32c of those 8 bytes, the data, masked crc32c of the data; TensorBoard's event files
use it too. Reading checks both checksums; a file cut short or corrupted raises DataLossError naming the file
and the byte where it happened, as TF does.
"""
import gzip
import os
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


_CHUNK = 1 << 16


def _open(path):
    try:
        return open(path, "rb")
    except FileNotFoundError:
        raise NotFoundError(None, None, "%s; No such file or directory" % path) from None
    except IsADirectoryError:
        raise NotFoundError(None, None, "%s; Is a directory" % path) from None


def _inflate_error(path, e):
    """DataLossError with zlib's words as TF's ZlibInputStream gives them ("inflate() failed with error -3:
    incorrect header check"), and the file."""
    text = str(e)
    code, _, why = text.partition(" while decompressing data: ")
    code = code.replace("Error ", "")
    detail = "inflate() failed with error %s: %s" % (code, why) if why else text
    return DataLossError(None, None, "%s (in %s)" % (detail, path))


class _Inflated:
    """A file's bytes read a chunk at a time, inflated as they are read when kind is GZIP or ZLIB (as TF's
    ZlibInputStream): memory stays bounded by what a caller asks for, however far a small file inflates."""

    def __init__(self, path, kind=""):
        self.path = path
        self._file = _open(path)
        self._kind = kind
        self._inflater = self._new_inflater() if kind else None
        self._buffer = bytearray()
        self._raw_done = False

    def _new_inflater(self):
        return zlib.decompressobj(31 if self._kind == "GZIP" else 15)

    def close(self):
        self._file.close()

    def _fill(self, want):
        """Grow the buffer toward `want` bytes (fewer only at the end of the stream)."""
        while len(self._buffer) < want and not self._raw_done:
            if not self._kind:
                chunk = self._file.read(max(_CHUNK, want - len(self._buffer)))
                if not chunk:
                    self._raw_done = True
                self._buffer += chunk
                continue
            d = self._inflater
            room = max(want - len(self._buffer), _CHUNK)
            try:
                if d.unconsumed_tail:
                    self._buffer += d.decompress(d.unconsumed_tail, room)
                    continue
                if d.eof:
                    rest = d.unused_data or self._file.read(_CHUNK)
                    if not rest:
                        self._raw_done = True
                        continue
                    self._inflater = d = self._new_inflater()  # another member (concatenated gzip)
                    self._buffer += d.decompress(rest, room)
                    continue
                chunk = self._file.read(_CHUNK)
                if not chunk:
                    self._raw_done = True
                    if not d.eof:  # cut off inside the compressed stream
                        self._buffer += d.flush()
                        raise DataLossError(None, None, "%s: the %s stream ends before its end marker (file cut "
                                            "short?)" % (self.path, self._kind))
                    continue
                self._buffer += d.decompress(chunk, room)
            except zlib.error as e:
                raise _inflate_error(self.path, e) from None

    def read(self, n):
        """Up to n bytes (fewer only at the end of the stream)."""
        self._fill(n)
        out = bytes(self._buffer[:n])
        del self._buffer[:n]
        return out

    def read_all(self):
        parts = []
        while True:
            part = self.read(1 << 20)
            if not part:
                return b"".join(parts)
            parts.append(part)


def read_file_bytes(path, kind=""):
    """The whole (inflated) content of a file."""
    stream = _Inflated(path, kind)
    try:
        return stream.read_all()
    finally:
        stream.close()


def records(path, kind=""):
    """(offset, data) of each record in the file, read as a stream (one record in memory at a time);
    DataLossError on a corrupt or truncated record, as TF's RecordReader."""
    stream = _Inflated(path, kind)
    try:
        pos = 0
        while True:
            head = stream.read(12)
            if not head:
                return
            if len(head) < 12:
                raise DataLossError(None, None, "truncated record at %d in %s" % (pos, path))
            header = head[:8]
            (length,) = struct.unpack("<Q", header)
            (crc,) = struct.unpack("<I", head[8:12])
            if crc != masked_crc32c(header):
                raise DataLossError(None, None, "corrupted record at %d in %s (length checksum mismatch%s)" % (
                    pos, path, "; is this even a TFRecord file?" if pos == 0 else ""))
            data = _read_record_data(stream, length)
            if data is None:
                raise DataLossError(None, None, "truncated record at %d in %s" % (pos, path))
            (crc,) = struct.unpack("<I", data[-4:])
            data = data[:-4]
            if crc != masked_crc32c(data):
                raise DataLossError(None, None, "corrupted record at %d in %s (data checksum mismatch)" % (
                    pos, path))
            yield pos, data
            pos += 16 + length
    finally:
        stream.close()


def _read_record_data(stream, length):
    """A record's data and its 4-byte checksum, or None when the file ends first. A length beyond what an
    uncompressed file holds is refused before anything is read."""
    if not stream._kind:
        here = stream._file.tell() - len(stream._buffer)
        if here + length + 4 > os.fstat(stream._file.fileno()).st_size:
            return None
    blob = stream.read(length + 4)
    return blob if len(blob) == length + 4 else None


def tf_record_iterator(path, options=None):
    """``tf.python_io.tf_record_iterator``: the bytes of each record in the file, in order."""
    for _, data in records(path, _compression(options)):
        yield data


__all__ = ["TFRecordWriter", "TFRecordOptions", "TFRecordCompressionType", "tf_record_iterator"]
