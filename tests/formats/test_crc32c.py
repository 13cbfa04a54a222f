"""CRC32C values and TF's masking, for the C backend (if any) and the numpy fallback alike."""

import numpy as np
import pytest

from graphlab.formats import crc32c as c

IMPLS = [c.crc32c, c._crc32c_numpy]


@pytest.mark.parametrize("crc", IMPLS)
def test_known_values(crc):
    assert crc(b"") == 0
    assert crc(bytes(32)) == 0x8A9136AA  # RFC 3720 test vector
    assert crc(b"\xff" * 32) == 0x62A8AB43
    assert crc(bytes(range(32))) == 0x46DD794E
    assert crc(b"123456789") == 0xE3069283


@pytest.mark.parametrize("crc", IMPLS)
def test_extend_equals_whole(crc):
    data = b"hello, checkpoint world" * 3
    assert crc(data[10:], crc(data[:10])) == crc(data)


def test_mask_roundtrip_and_constants():
    assert c.mask(0) == 0xA282EAD8
    for v in [0, 1, 0x8A9136AA, 0xFFFFFFFF, 0x12345678]:
        assert c.unmask(c.mask(v)) == v
    assert c.masked_crc32c(b"") == 0xA282EAD8


@pytest.mark.parametrize("n", [1, 7, 4095, 4096, 5000, 70001, (1 << 20) + 13])
def test_numpy_lanes_match_bytewise(n):
    data = np.random.default_rng(n).integers(0, 256, n, dtype=np.uint8)
    expect = c._register_bytes(0xFFFFFFFF, data.tobytes()) ^ 0xFFFFFFFF if n < 100000 else c.crc32c(data)
    assert c._crc32c_numpy(data) == expect
    assert c._crc32c_numpy(data.tobytes()) == expect
    assert c._crc32c_numpy(data[n // 3:], c._crc32c_numpy(data[:n // 3])) == expect


def test_accepts_arrays_and_memoryviews():
    arr = np.arange(10, dtype=np.float32)
    assert c.crc32c(arr) == c.crc32c(arr.tobytes()) == c.crc32c(memoryview(arr.tobytes()))
