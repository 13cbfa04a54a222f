"""V2 checkpoint (tensor bundle) files: round trips, exact bytes, errors a user can see."""

import os

import numpy as np
import pytest

from graphlab.formats import crc32c, sstable, tensor_bundle as tb
from graphlab.formats.errors import DataLossError, InvalidArgumentError, NotFoundError
from graphlab.formats.protos import tensor_bundle_pb2

NUMERIC = ["float16", "float32", "float64", "int8", "int16", "int32", "int64",
           "uint8", "uint16", "uint32", "uint64", "bool", "complex64", "complex128"]


def _value(dtype, shape=(2, 3)):
    rng = np.random.default_rng(0)
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.startswith("complex"):
        return (rng.normal(size=shape) + 1j * rng.normal(size=shape)).astype(dtype)
    info = np.iinfo(dtype) if np.dtype(dtype).kind in "iu" else None
    if info is not None:
        return rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)
    return rng.normal(size=shape).astype(dtype)


@pytest.mark.parametrize("dtype", NUMERIC)
def test_round_trip_every_numeric_dtype(tmp_path, dtype):
    prefix = str(tmp_path / "model.ckpt")
    values = {"a": _value(dtype), "scalar": _value(dtype, ()), "empty": _value(dtype, (0, 4))}
    tb.write_bundle(prefix, values)
    r = tb.BundleReader(prefix)
    for name, v in values.items():
        got = r.read(name)
        assert got.dtype == np.dtype(dtype) and got.shape == v.shape
        np.testing.assert_array_equal(got, v)
        assert r.shape_and_dtype(name) == (list(v.shape), np.dtype(dtype))


def test_round_trip_strings(tmp_path):
    prefix = str(tmp_path / "s")
    values = {"bytes": np.array([[b"a", b""], [b"\x00\xff", b"x" * 300]], dtype=object),
              "str": np.array(["h\u00e9llo", "w"]), "fixed": np.array([b"ab", b"c"]),
              "scalar": np.array(b"only"), "none": np.array([], dtype=object)}
    tb.write_bundle(prefix, values)
    r = tb.BundleReader(prefix)
    assert r.read("bytes").tolist() == [[b"a", b""], [b"\x00\xff", b"x" * 300]]
    assert r.read("str").tolist() == ["h\u00e9llo".encode(), b"w"]
    assert r.read("fixed").tolist() == [b"ab", b"c"]
    assert r.read("scalar").shape == () and r.read("scalar")[()] == b"only"
    assert r.read("none").shape == (0,)
    assert r.shape_and_dtype("bytes") == ([2, 2], np.dtype(object))


def test_non_contiguous_and_big_endian_inputs(tmp_path):
    prefix = str(tmp_path / "m")
    base = np.arange(12, dtype=">i4").reshape(3, 4)
    tb.write_bundle(prefix, {"t": base.T, "be": base})
    r = tb.BundleReader(prefix)
    np.testing.assert_array_equal(r.read("t"), base.T)
    assert r.read("be").dtype == np.dtype("int32")


def test_keys_list_variables_and_missing_key(tmp_path):
    prefix = str(tmp_path / "m")
    tb.write_bundle(prefix, {"w": np.zeros((2, 3), np.float32), "b": np.zeros(3), "B": np.float32(1)})
    r = tb.BundleReader(prefix)
    assert r.keys() == ["B", "b", "w"]  # bytewise order
    assert r.list_variables() == [("B", []), ("b", [3]), ("w", [2, 3])]
    assert tb.list_variables(prefix) == r.list_variables()
    with pytest.raises(NotFoundError, match="^Key d not found in checkpoint$"):
        r.read("d")


def test_exact_bytes_of_a_small_bundle(tmp_path):
    prefix = str(tmp_path / "m")
    tb.write_bundle(prefix, {"v": np.array([1.0, 2.0], np.float32)})
    data = open(tb.data_path(prefix), "rb").read()
    assert data == np.array([1.0, 2.0], "<f4").tobytes()
    items = sstable.read_table(tb.index_path(prefix))
    assert items[0] == (b"", bytes.fromhex("08011a020801"))
    entry = tensor_bundle_pb2.BundleEntryProto.FromString(items[1][1])
    assert entry.dtype == 1 and [d.size for d in entry.shape.dim] == [2]
    assert entry.offset == 0 and entry.size == 8 and entry.crc32c == crc32c.masked_crc32c(data)
    # dtype, shape {dim {size 2}}, size 8, crc (offset 0 is not written)
    assert items[1][1][:10] == bytes.fromhex("0801 1204 1202 0802 2808")


def test_empty_tensor_crc_and_scalar_shape_written(tmp_path):
    prefix = str(tmp_path / "m")
    tb.write_bundle(prefix, {"e": np.zeros((0,), np.float32), "s": np.float64(3)})
    entries = dict(sstable.read_table(tb.index_path(prefix)))
    assert tensor_bundle_pb2.BundleEntryProto.FromString(entries[b"e"]).crc32c == 0xA282EAD8
    assert entries[b"s"].startswith(bytes.fromhex("0802 1200"))  # empty shape message is present


def test_string_layout(tmp_path):
    prefix = str(tmp_path / "m")
    tb.write_bundle(prefix, {"s": np.array([b"ab", b"c"], dtype=object)})
    data = open(tb.data_path(prefix), "rb").read()
    lengths_crc = crc32c.crc32c(bytes.fromhex("02000000 01000000"))
    assert data == b"\x02\x01" + crc32c.mask(lengths_crc).to_bytes(4, "little") + b"abc"


def test_bad_values_are_rejected(tmp_path):
    prefix = str(tmp_path / "m")
    with pytest.raises(InvalidArgumentError):
        tb.write_bundle(prefix, {"t": np.array(["2020-01-01"], dtype="datetime64[D]")})
    with pytest.raises(InvalidArgumentError):
        tb.write_bundle(prefix, {"t": np.array([1, b"x"], dtype=object)})
    with pytest.raises(InvalidArgumentError):
        tb.write_bundle(prefix, {"": np.zeros(1)})
    assert os.listdir(tmp_path) == []  # nothing half-written left behind


def test_failed_write_keeps_previous_checkpoint(tmp_path):
    prefix = str(tmp_path / "m")
    tb.write_bundle(prefix, {"v": np.arange(3)})
    before = sorted(os.listdir(tmp_path))
    with pytest.raises(InvalidArgumentError):
        tb.write_bundle(prefix, {"v": np.arange(5), "w": np.array([object()], dtype=object)})
    assert sorted(os.listdir(tmp_path)) == before
    np.testing.assert_array_equal(tb.BundleReader(prefix).read("v"), np.arange(3))


# --- corrupt or missing files ---------------------------------------------------------------------

@pytest.fixture
def bundle(tmp_path):
    prefix = str(tmp_path / "m")
    tb.write_bundle(prefix, {"a": np.arange(10, dtype=np.float32), "s": np.array([b"xy", b"z"], object)})
    return prefix


def _all_reads(prefix):
    r = tb.BundleReader(prefix)
    return {k: r.read(k) for k in r.keys()}


def test_truncated_data_file(bundle):
    path = tb.data_path(bundle)
    data = open(path, "rb").read()
    for n in range(len(data)):
        open(path, "wb").write(data[:n])
        with pytest.raises(DataLossError, match=path):
            _all_reads(bundle)


def test_flipped_data_bytes(bundle):
    path = tb.data_path(bundle)
    data = open(path, "rb").read()
    for i in range(len(data)):
        bad = bytearray(data)
        bad[i] ^= 0x10
        open(path, "wb").write(bad)
        with pytest.raises(DataLossError, match=path):
            _all_reads(bundle)


def test_corrupt_index_file(bundle):
    path = tb.index_path(bundle)
    index = open(path, "rb").read()
    for n in range(0, len(index), 7):
        open(path, "wb").write(index[:n])
        with pytest.raises(DataLossError, match=path):
            tb.BundleReader(bundle)
    for i in range(len(index) - 48):
        bad = bytearray(index)
        bad[i] ^= 0x04
        open(path, "wb").write(bad)
        with pytest.raises(DataLossError):
            _all_reads(bundle)


def test_missing_files(bundle):
    os.remove(tb.data_path(bundle))
    r = tb.BundleReader(bundle)
    with pytest.raises(NotFoundError, match="data-00000-of-00001"):
        r.read("a")
    with pytest.raises(NotFoundError):
        tb.BundleReader(bundle + "-nope")


def test_garbage_entry_proto(tmp_path):
    prefix = str(tmp_path / "g")
    table = sstable.build_table([(b"", tb.header_bytes()), (b"x", b"\xff\xff\xff")])
    open(tb.index_path(prefix), "wb").write(table)
    with pytest.raises(DataLossError, match="cannot parse entry 'x'"):
        tb.BundleReader(prefix)
