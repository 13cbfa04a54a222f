"""LevelDB-format sorted tables: the container of a TF checkpoint's PREFIX.index file.

Layout written (what TF's table builder produces for a tensor bundle):
data blocks, an empty metaindex block, an index block (one entry per data block, restart interval 1),
then a 48-byte footer ending in a magic number. Each block is followed by a 5-byte trailer: a
compression byte (always 0, none) and the masked CRC32C of block + compression byte.

The reader trusts nothing: every length, offset and checksum is checked and any problem becomes a
DataLossError naming the file, never a struct.error or IndexError from deep inside the parser.
"""

import os
import struct

from graphlab.formats import crc32c as _crc
from graphlab.formats.errors import NotFoundError, data_loss

MAGIC = 0xDB4775248B80FB57
FOOTER_SIZE = 48
BLOCK_TRAILER_SIZE = 5
BLOCK_SIZE = 262144
RESTART_INTERVAL = 16
NO_COMPRESSION = 0
SNAPPY_COMPRESSION = 1


# --- varints -----------------------------------------------------------------------------------

def put_varint(n):
    """Unsigned LEB128 (little-endian base-128) encoding."""
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


class _Corrupt(Exception):
    """Internal: a parse step found bad bytes; turned into DataLossError with the file name."""


def get_varint(buf, pos, limit, max_bytes=10):
    """Decode a varint at buf[pos:limit]; returns (value, new_pos). Raises _Corrupt if malformed."""
    result = shift = 0
    for i in range(max_bytes):
        if pos >= limit:
            raise _Corrupt("truncated varint")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7
    raise _Corrupt("varint too long")


# --- comparator helpers (bytewise, as LevelDB's default comparator) -----------------------------

def shortest_separator(start, limit):
    """A short key k with start <= k < limit, used as the index key of a finished block."""
    n = min(len(start), len(limit))
    i = 0
    while i < n and start[i] == limit[i]:
        i += 1
    if i < n:
        b = start[i]
        if b < 0xFF and b + 1 < limit[i]:
            return start[:i] + bytes([b + 1])
    return start


def short_successor(key):
    """A short key >= key, used as the index key of the last block."""
    for i, b in enumerate(key):
        if b != 0xFF:
            return key[:i] + bytes([b + 1])
    return key


# --- writing -----------------------------------------------------------------------------------

class _BlockBuilder:
    """Prefix-compressed entries with a restart point (full key) every `interval` entries."""

    def __init__(self, interval):
        self.interval = interval
        self.buf = bytearray()
        self.restarts = [0]
        self.counter = 0
        self.last_key = b""

    def empty(self):
        return not self.buf

    def size_estimate(self):
        return len(self.buf) + 4 * len(self.restarts) + 4

    def add(self, key, value):
        shared = 0
        if self.counter < self.interval:
            n = min(len(key), len(self.last_key))
            while shared < n and key[shared] == self.last_key[shared]:
                shared += 1
        else:
            self.restarts.append(len(self.buf))
            self.counter = 0
        self.buf += put_varint(shared) + put_varint(len(key) - shared) + put_varint(len(value))
        self.buf += key[shared:] + value
        self.last_key = key
        self.counter += 1

    def finish(self):
        tail = struct.pack("<%dI" % len(self.restarts), *self.restarts)
        return bytes(self.buf) + tail + struct.pack("<I", len(self.restarts))


class TableWriter:
    """Builds a table in memory from keys added in strictly increasing bytewise order."""

    def __init__(self, block_size=BLOCK_SIZE, restart_interval=RESTART_INTERVAL):
        self.block_size = block_size
        self.out = bytearray()
        self.data = _BlockBuilder(restart_interval)
        self.index = _BlockBuilder(1)
        self.last_key = None
        self.pending_handle = None

    def _write_block(self, contents):
        """Append block + trailer; return its handle (offset, size)."""
        handle = (len(self.out), len(contents))
        trailer_type = bytes([NO_COMPRESSION])
        crc = _crc.mask(_crc.crc32c(contents + trailer_type))
        self.out += contents + trailer_type + struct.pack("<I", crc)
        return handle

    @staticmethod
    def _encode_handle(handle):
        return put_varint(handle[0]) + put_varint(handle[1])

    def add(self, key, value):
        key, value = bytes(key), bytes(value)
        if self.last_key is not None and key <= self.last_key:
            raise ValueError("table keys must be strictly increasing: %r after %r" % (key, self.last_key))
        if self.pending_handle is not None:
            self.index.add(shortest_separator(self.last_key, key), self._encode_handle(self.pending_handle))
            self.pending_handle = None
        self.data.add(key, value)
        self.last_key = key
        if self.data.size_estimate() >= self.block_size:
            self._flush()

    def _flush(self):
        if self.data.empty():
            return
        self.pending_handle = self._write_block(self.data.finish())
        self.data = _BlockBuilder(self.data.interval)

    def finish(self):
        """Return the complete table bytes."""
        self._flush()
        meta_handle = self._write_block(_BlockBuilder(RESTART_INTERVAL).finish())
        if self.pending_handle is not None:
            self.index.add(short_successor(self.last_key), self._encode_handle(self.pending_handle))
            self.pending_handle = None
        index_handle = self._write_block(self.index.finish())
        footer = self._encode_handle(meta_handle) + self._encode_handle(index_handle)
        footer = footer.ljust(FOOTER_SIZE - 8, b"\0") + struct.pack("<Q", MAGIC)
        return bytes(self.out + footer)


def build_table(items, block_size=BLOCK_SIZE):
    """Table bytes for (key, value) pairs given in strictly increasing key order."""
    writer = TableWriter(block_size=block_size)
    for key, value in items:
        writer.add(key, value)
    return writer.finish()


# --- reading -----------------------------------------------------------------------------------

def _read_block(buf, handle, what):
    """Return the contents of the block at handle after checking bounds, type and checksum."""
    offset, size = handle
    end = offset + size
    if offset < 0 or end + BLOCK_TRAILER_SIZE > len(buf):
        raise _Corrupt("%s block [%d, +%d) lies beyond the end of the file (%d bytes)"
                       % (what, offset, size, len(buf)))
    contents = bytes(buf[offset:end])
    kind = buf[end]
    stored = struct.unpack_from("<I", buf, end + 1)[0]
    actual = _crc.crc32c(contents + bytes([kind]))
    if _crc.unmask(stored) != actual:
        raise _Corrupt("checksum mismatch in %s block at offset %d" % (what, offset))
    if kind == SNAPPY_COMPRESSION:
        raise _Corrupt("%s block is snappy-compressed, which TF checkpoints never are" % what)
    if kind != NO_COMPRESSION:
        raise _Corrupt("%s block has unknown compression type %d" % (what, kind))
    return contents


def _block_entries(block, what):
    """Decode all (key, value) pairs of one block."""
    if len(block) < 4:
        raise _Corrupt("%s block is too short (%d bytes)" % (what, len(block)))
    num_restarts = struct.unpack_from("<I", block, len(block) - 4)[0]
    limit = len(block) - 4 - 4 * num_restarts
    if num_restarts < 1 or limit < 0:
        raise _Corrupt("%s block has a bad restart count %d" % (what, num_restarts))
    entries, pos, key = [], 0, b""
    while pos < limit:
        shared, pos = get_varint(block, pos, limit, 5)
        non_shared, pos = get_varint(block, pos, limit, 5)
        value_len, pos = get_varint(block, pos, limit, 5)
        if shared > len(key) or pos + non_shared + value_len > limit:
            raise _Corrupt("bad entry in %s block" % what)
        key = key[:shared] + block[pos:pos + non_shared]
        pos += non_shared
        entries.append((key, block[pos:pos + value_len]))
        pos += value_len
    return entries


def _decode_handle(value, what):
    offset, pos = get_varint(value, 0, len(value))
    size, pos = get_varint(value, pos, len(value))
    return (offset, size), pos


def parse_table(buf, path="<memory>"):
    """All (key, value) pairs of a table held in bytes, in key order; DataLossError naming `path`."""
    try:
        if len(buf) < FOOTER_SIZE:
            raise _Corrupt("file is too short to be a table (%d bytes)" % len(buf))
        footer = bytes(buf[-FOOTER_SIZE:])
        if struct.unpack_from("<Q", footer, FOOTER_SIZE - 8)[0] != MAGIC:
            raise _Corrupt("not an sstable (bad magic number)")
        meta_handle, pos = _decode_handle(footer[:FOOTER_SIZE - 8], "metaindex")
        index_handle, _ = _decode_handle(footer[pos:FOOTER_SIZE - 8], "index")
        body = memoryview(buf)[:len(buf) - FOOTER_SIZE]
        _block_entries(_read_block(body, meta_handle, "metaindex"), "metaindex")  # unused, but checked
        items = []
        for _sep, handle_bytes in _block_entries(_read_block(body, index_handle, "index"), "index"):
            handle, _ = _decode_handle(handle_bytes, "index entry")
            items.extend(_block_entries(_read_block(body, handle, "data"), "data"))
        for (a, _), (b, _) in zip(items, items[1:]):
            if not a < b:
                raise _Corrupt("keys are out of order (%r before %r)" % (a, b))
        return items
    except _Corrupt as e:
        raise data_loss(path, str(e)) from None
    except struct.error as e:  # a fixed-width read past the end that the checks above missed
        raise data_loss(path, "truncated data (%s)" % e) from None


def read_table(path):
    """All (key, value) pairs of the table file at `path`; NotFoundError if it does not exist."""
    try:
        with open(path, "rb") as f:
            buf = f.read()
    except FileNotFoundError:
        raise NotFoundError(None, None, "%s; No such file or directory" % os.fspath(path)) from None
    return parse_table(buf, os.fspath(path))
