"""TF1's readers: ``WholeFileReader``, ``TextLineReader``, ``FixedLengthRecordReader`` and
``TFRecordReader`` (their V2 ops), plus ``tf.read_file`` / ``tf.write_file``.

A reader's state lives in the session. ``reader.read(filename_queue)`` returns (key, value) for the next
record; when the current file is used up, it dequeues the next file name (waiting, as a dequeue does), and
when the queue is closed and empty it raises OutOfRangeError: the end of the input. Keys are TF's:
``file:line`` (1-based) for text lines, ``file:index`` for fixed-length records, ``file:offset`` for
TFRecords, the file name for whole files.
"""
import os
import threading

import numpy as np

from graphlab.formats import tfrecord
from graphlab.framework import dtypes, tensor_shape
from graphlab.formats.errors import InvalidArgumentError, NotFoundError, OutOfRangeError
from graphlab.ops import data_flow_ops, image_ops
from graphlab.framework.registry import NOT_DIFFERENTIABLE, build_op, no_outputs, register_op

_SCALAR_STRING = (dtypes.string, tensor_shape.SCALAR)


def _strings(*values):
    out = []
    for v in values:
        a = np.empty((), dtype=object)
        a[()] = v
        out.append(a)
    return out


def _read_bytes(ctx, path):
    """A file's bytes in four system calls (open, fstat, one read, close; Python's buffered open() makes
    seven): each call lets another thread take the GIL, so fewer calls mean fewer hand-overs between
    queue-runner threads."""
    try:
        fd = os.open(path, os.O_RDONLY)
        try:
            size = os.fstat(fd).st_size
            data = os.read(fd, size + 1)
            if len(data) > size:          # the file grew meanwhile (or reports no size): read to the end
                parts = [data]
                while True:
                    more = os.read(fd, 1 << 20)
                    if not more:
                        break
                    parts.append(more)
                data = b"".join(parts)
            return data
        finally:
            os.close(fd)
    except FileNotFoundError:
        raise NotFoundError(None, ctx.op, "%s; No such file or directory" % path) from None
    except IsADirectoryError:
        raise InvalidArgumentError(None, ctx.op, "%s is a directory, not a file" % path) from None


# ------------------------------------------------------------------------------------ record sources
def _whole_file(ctx, path, attrs):
    yield path, _read_bytes(ctx, path)


def _text_lines(ctx, path, attrs):
    data = _read_bytes(ctx, path)
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    skip = attrs.get("skip_header_lines", 0)
    for number, line in enumerate(lines, 1):
        if number > skip:
            yield "%s:%d" % (path, number), line[:-1] if line.endswith(b"\r") else line


def _fixed_length(ctx, path, attrs):
    data = _read_bytes(ctx, path)
    a = attrs
    header, size, footer = a.get("header_bytes", 0), a["record_bytes"], a.get("footer_bytes", 0)
    hop = a.get("hop_bytes", 0) or size
    if a.get("encoding"):
        data = tfrecord.read_file_bytes(path, a["encoding"].upper())
    body = data[header:len(data) - footer if footer else len(data)]
    index, offset = 0, 0
    while offset + size <= len(body):
        yield "%s:%d" % (path, index), body[offset:offset + size]
        index, offset = index + 1, offset + hop
    if offset < len(body) and hop == size:
        raise InvalidArgumentError(None, ctx.op, "Excluding the header (%d bytes) and footer (%d bytes), input "
                                   "file \"%s\" has body length %d, which is not an exact multiple of the record "
                                   "length (%d bytes)." % (header, footer, path, len(body), size))


def _tf_records(ctx, path, attrs):
    try:
        for offset, data in tfrecord.records(path, attrs.get("compression_type", "")):
            yield "%s:%d" % (path, offset), data
    except Exception as e:          # DataLossError/NotFoundError without an op: report it against ours
        if hasattr(e, "error_code"):
            raise type(e)(None, ctx.op, e.message) from None
        raise


class _ReaderState:
    def __init__(self, source, attrs):
        self.source, self.attrs = source, attrs     # the reader op's attrs (record_bytes ...)
        self.lock = threading.Lock()
        self.records = None            # iterator over the current file's (key, value)
        self.path = None
        self.produced = 0
        self.completed = 0


def _reader_kernel(source):
    def kernel(ctx):
        key = ("__reader__", ctx.attrs.get("shared_name") or ctx.op.name)
        state = ctx.state.get(key)
        if state is None:
            with ctx.session._lock:
                state = ctx.state.setdefault(key, _ReaderState(source, ctx.attrs))
        return state
    return kernel


def _next_file(ctx, queue):
    """The next file name from the reader's queue of work (a scalar string element), as a str."""
    (item,) = data_flow_ops._take(ctx, queue, 1)
    path = item[0][()] if isinstance(item[0], np.ndarray) else item[0]
    return path.decode("utf-8") if isinstance(path, bytes) else str(path)


def _next_record(ctx, reader, queue):
    while True:
        if reader.records is None:
            path = _next_file(ctx, queue)
            reader.records = reader.source(ctx, path, reader.attrs)
            reader.path = path
        try:
            key, value = next(reader.records)
        except StopIteration:
            reader.records = None
            reader.completed += 1
            continue
        reader.produced += 1
        return key, value


def _read_whole_file(ctx, reader, queue):
    """WholeFileReader's next record: the file name is taken under the reader's lock, the file read after
    it, so two runner threads never wait for each other's file. As TF's, the file counts as produced and
    completed in the same read."""
    with reader.lock:
        path = reader.path = _next_file(ctx, queue)
        reader.produced += 1
        reader.completed += 1
    image_ops.last_file.path = path      # a decode error later in this run names the file
    try:
        data = _read_bytes(ctx, path)
    except BaseException:                # as TF's: a file that could not be read is not counted
        with reader.lock:
            reader.produced -= 1
            reader.completed -= 1
        raise
    return tuple(_strings(path.encode("utf-8"), data))


def _read_kernel(ctx, reader, queue):
    if reader.source is _whole_file and reader.records is None:
        return _read_whole_file(ctx, reader, queue)
    with reader.lock:           # two runner threads share a reader: one record each
        key, value = _next_record(ctx, reader, queue)
        image_ops.last_file.path = reader.path      # a decode error later in this run names the file
    return tuple(_strings(key.encode("utf-8") if isinstance(key, str) else key, value))


def _read_up_to_kernel(ctx, reader, queue, n):
    keys, values = [], []
    with reader.lock:
        for _ in range(int(n)):
            try:
                key, value = _next_record(ctx, reader, queue)
            except OutOfRangeError:      # the input ended: what was read so far, if anything
                if keys:
                    break
                raise
            keys.append(key.encode("utf-8") if isinstance(key, str) else key)
            values.append(value)
    k, v = np.empty(len(keys), dtype=object), np.empty(len(values), dtype=object)
    k[:], v[:] = keys, values
    return k, v


_READERS = {"WholeFileReaderV2": _whole_file, "TextLineReaderV2": _text_lines,
            "FixedLengthRecordReaderV2": _fixed_length, "TFRecordReaderV2": _tf_records}
for _type, _source in _READERS.items():
    register_op(_type, outputs=lambda op: [(dtypes.resource, tensor_shape.SCALAR)], kernel=_reader_kernel(_source),
                grad=NOT_DIFFERENTIABLE, stateful=True, doc="A reader whose position lives in the session.")

register_op("ReaderReadV2", inputs=["reader_handle: resource", "queue_handle: resource"],
            outputs=lambda op: [_SCALAR_STRING, _SCALAR_STRING], kernel=_read_kernel, grad=NOT_DIFFERENTIABLE,
            stateful=True, doc="(key, value) of the next record, taking the next file from the queue as needed.")
register_op("ReaderReadUpToV2", inputs=["reader_handle: resource", "queue_handle: resource", "num_records: int64"],
            outputs=lambda op: [(dtypes.string, tensor_shape.TensorShape([None]))] * 2,
            kernel=_read_up_to_kernel, grad=NOT_DIFFERENTIABLE, stateful=True,
            doc="Up to num_records (keys, values); fewer only at the end of the input.")
register_op("ReaderNumRecordsProducedV2", inputs=["reader_handle: resource"],
            outputs=lambda op: [(dtypes.int64, tensor_shape.SCALAR)], grad=NOT_DIFFERENTIABLE, stateful=True,
            kernel=lambda ctx, r: np.int64(r.produced), doc="Records read so far.")
register_op("ReaderNumWorkUnitsCompletedV2", inputs=["reader_handle: resource"],
            outputs=lambda op: [(dtypes.int64, tensor_shape.SCALAR)], grad=NOT_DIFFERENTIABLE, stateful=True,
            kernel=lambda ctx, r: np.int64(r.completed), doc="Files finished so far.")


def _reset_kernel(ctx, reader):
    with reader.lock:
        reader.records, reader.produced, reader.completed = None, 0, 0


register_op("ReaderResetV2", inputs=["reader_handle: resource"], outputs=no_outputs, kernel=_reset_kernel,
            grad=NOT_DIFFERENTIABLE, stateful=True, doc="Back to the initial state.")


# ---------------------------------------------------------------------------- ReadFile / WriteFile
def _read_file_kernel(ctx, filename):
    path = filename[()] if isinstance(filename, np.ndarray) else filename
    path = path.decode("utf-8") if isinstance(path, bytes) else str(path)
    image_ops.last_file.path = path
    return _strings(_read_bytes(ctx, path))[0]


def _write_file_kernel(ctx, filename, contents):
    path = filename[()].decode("utf-8") if isinstance(filename, np.ndarray) else filename.decode("utf-8")
    data = contents[()] if isinstance(contents, np.ndarray) else contents
    if os.path.dirname(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


register_op("ReadFile", inputs=["filename: string"], outputs=lambda op: [_SCALAR_STRING], kernel=_read_file_kernel,
            grad=NOT_DIFFERENTIABLE, stateful=False, doc="The whole contents of a file, as one string.")
register_op("WriteFile", inputs=["filename: string", "contents: string"], outputs=no_outputs,
            kernel=_write_file_kernel, grad=NOT_DIFFERENTIABLE, stateful=True,
            doc="Writes a string to a file, creating its folder if needed.")


def read_file(filename, name=None):
    """``tf.read_file`` / ``tf.io.read_file``."""
    return build_op("ReadFile", [filename], name=name, default_name="ReadFile").outputs[0]


def write_file(filename, contents, name=None):
    """``tf.write_file`` / ``tf.io.write_file``."""
    return build_op("WriteFile", [filename, contents], name=name, default_name="WriteFile")


# ------------------------------------------------------------------------------------ Python classes
def _queue_ref(queue):
    return queue.queue_ref if isinstance(queue, data_flow_ops.QueueBase) else queue


class ReaderBase:
    """What every reader shares: ``read``, ``read_up_to``, ``num_records_produced``,
    ``num_work_units_completed`` and ``reset``."""

    def __init__(self, op_type, attrs, name):
        attrs = dict(attrs, container="", shared_name="")
        self._reader_ref = build_op(op_type, (), attrs=attrs, name=name, default_name=op_type).outputs[0]

    @property
    def reader_ref(self):
        return self._reader_ref

    @property
    def supports_serialize(self):
        return False

    def read(self, queue, name=None):
        op = build_op("ReaderReadV2", [self._reader_ref, _queue_ref(queue)], name=name, default_name="ReaderReadV2")
        return op.outputs[0], op.outputs[1]

    def read_up_to(self, queue, num_records, name=None):
        op = build_op("ReaderReadUpToV2", [self._reader_ref, _queue_ref(queue), num_records], name=name,
                      default_name="ReaderReadUpToV2")
        return op.outputs[0], op.outputs[1]

    def num_records_produced(self, name=None):
        return build_op("ReaderNumRecordsProducedV2", [self._reader_ref], name=name,
                        default_name="ReaderNumRecordsProducedV2").outputs[0]

    def num_work_units_completed(self, name=None):
        return build_op("ReaderNumWorkUnitsCompletedV2", [self._reader_ref], name=name,
                        default_name="ReaderNumWorkUnitsCompletedV2").outputs[0]

    def reset(self, name=None):
        return build_op("ReaderResetV2", [self._reader_ref], name=name, default_name="ReaderResetV2")


class WholeFileReader(ReaderBase):
    """Each file is one record: key = file name, value = its contents."""

    def __init__(self, name=None):
        super().__init__("WholeFileReaderV2", {}, name)


class TextLineReader(ReaderBase):
    """Each line is one record (without its newline); ``skip_header_lines`` skips a CSV header."""

    def __init__(self, skip_header_lines=None, name=None):
        super().__init__("TextLineReaderV2", {"skip_header_lines": int(skip_header_lines or 0)}, name)


class FixedLengthRecordReader(ReaderBase):
    """Records of ``record_bytes`` each, after ``header_bytes`` and before ``footer_bytes`` (CIFAR-10's binary
    files are 3073-byte records: a label byte and a 32x32x3 image)."""

    def __init__(self, record_bytes, header_bytes=None, footer_bytes=None, hop_bytes=None, name=None,
                 encoding=None):
        super().__init__("FixedLengthRecordReaderV2", {
            "header_bytes": int(header_bytes or 0), "record_bytes": int(record_bytes),
            "footer_bytes": int(footer_bytes or 0), "hop_bytes": int(hop_bytes or 0),
            "encoding": encoding or ""}, name)


class TFRecordReader(ReaderBase):
    """Each TFRecord is one record; ``options`` a TFRecordOptions for compressed files."""

    def __init__(self, name=None, options=None):
        kind = tfrecord.TFRecordOptions.get_compression_type_string(options)
        super().__init__("TFRecordReaderV2", {"compression_type": kind}, name)


__all__ = ["FixedLengthRecordReader", "ReaderBase", "TFRecordReader", "TextLineReader", "WholeFileReader",
           "read_file", "write_file"]



# ------------------------------------------------------------------------------------- MatchingFiles
def _matching_files_kernel(ctx, pattern):
    import glob
    patterns = [p.decode("utf-8") if isinstance(p, bytes) else str(p)
                for p in np.asarray(pattern, dtype=object).reshape(-1)]
    found = sorted({f for p in patterns for f in glob.glob(p)})
    out = np.empty(len(found), dtype=object)
    out[:] = [f.encode("utf-8") for f in found]
    return out


register_op("MatchingFiles", inputs=["pattern: string"], outputs=lambda op: [(dtypes.string, tensor_shape.TensorShape([None]))],
            kernel=_matching_files_kernel, grad=NOT_DIFFERENTIABLE,
            doc="The sorted names of the files matching a glob pattern (or several).")


def matching_files(pattern, name=None):
    """``tf.matching_files`` / ``tf.io.matching_files``."""
    return build_op("MatchingFiles", [pattern], name=name, default_name="MatchingFiles").outputs[0]
