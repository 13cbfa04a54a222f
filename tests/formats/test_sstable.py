"""LevelDB table layout, round trips and corruption handling."""

import struct

import pytest

from graphlab.formats import sstable
from graphlab.formats.crc32c import crc32c, mask
from graphlab.formats.errors import DataLossError, NotFoundError

EMPTY_BLOCK = bytes.fromhex("00000000 01000000")


def test_empty_block_constant():
    assert sstable._BlockBuilder(16).finish() == EMPTY_BLOCK


def test_empty_table_layout():
    table = sstable.build_table([])
    # metaindex (empty block + trailer), index (empty block + trailer), footer
    trailer = bytes([0]) + struct.pack("<I", mask(crc32c(EMPTY_BLOCK + b"\0")))
    assert table[:13] == EMPTY_BLOCK + trailer
    assert table[13:26] == EMPTY_BLOCK + trailer
    assert len(table) == 26 + 48
    assert table[-8:] == bytes.fromhex("57fb808b247547db")
    assert table[26:30] == bytes([0x00, 0x08, 0x0D, 0x08])  # handles (0, 8) and (13, 8)
    assert sstable.parse_table(table) == []


def test_one_entry_layout():
    table = sstable.build_table([(b"", b"\x08\x01")])
    block = bytes([0, 0, 2]) + b"\x08\x01" + EMPTY_BLOCK
    assert table.startswith(block + b"\0" + struct.pack("<I", mask(crc32c(block + b"\0"))))
    assert sstable.parse_table(table) == [(b"", b"\x08\x01")]


def test_prefix_compression_and_restarts():
    keys = [b"layer%03d/kernel" % i for i in range(40)]
    w = sstable._BlockBuilder(16)
    for k in keys:
        w.add(k, b"v")
    assert w.restarts == [0, w.restarts[1], w.restarts[2]] and len(w.restarts) == 3
    assert sstable._block_entries(w.finish(), "data") == [(k, b"v") for k in keys]


def test_multi_block_round_trip():
    items = [(b"key%05d" % i, b"value-%d" % i * (i % 7)) for i in range(3000)]
    table = sstable.build_table(items, block_size=512)
    index = sstable._block_entries(sstable._read_block(table, _index_handle(table), "index"), "index")
    assert len(index) > 10
    assert sstable.parse_table(table) == items


def _index_handle(table):
    footer = table[-48:]
    _, pos = sstable._decode_handle(footer, "meta")
    handle, _ = sstable._decode_handle(footer[pos:], "index")
    return handle


def test_separators():
    assert sstable.shortest_separator(b"abcd", b"abzz") == b"abd"
    assert sstable.shortest_separator(b"abc", b"abd") == b"abc"
    assert sstable.shortest_separator(b"ab", b"abc") == b"ab"
    assert sstable.short_successor(b"abc") == b"b"
    assert sstable.short_successor(b"\xff\xffa") == b"\xff\xffb"
    assert sstable.short_successor(b"\xff") == b"\xff"


def test_keys_must_increase():
    with pytest.raises(ValueError):
        sstable.build_table([(b"b", b""), (b"a", b"")])


def _table():
    return sstable.build_table([(b"", b"\x08\x01\x1a\x02\x08\x01")] +
                               [(b"v%02d" % i, b"x" * i) for i in range(20)], block_size=64)


def test_every_truncation_is_data_loss():
    table = _table()
    for n in range(len(table)):
        with pytest.raises(DataLossError, match="Unable to read file t.index"):
            sstable.parse_table(table[:n], "t.index")


def test_every_bit_flip_is_detected_or_harmless():
    table = _table()
    good = sstable.parse_table(table)
    for i in range(len(table)):
        for bit in (0x01, 0x80):
            bad = bytearray(table)
            bad[i] ^= bit
            try:
                items = sstable.parse_table(bytes(bad), "t.index")
            except DataLossError as e:
                assert "t.index" in str(e)
            else:  # only footer padding is unchecked, as in LevelDB
                assert items == good and i >= len(table) - 48


def test_missing_file(tmp_path):
    with pytest.raises(NotFoundError):
        sstable.read_table(str(tmp_path / "nope.index"))


def test_not_a_table(tmp_path):
    p = tmp_path / "x.index"
    p.write_bytes(b"hello" * 20)
    with pytest.raises(DataLossError, match="bad magic number"):
        sstable.read_table(str(p))
