"""decode_png beside TensorFlow 2.21 on PNGs of every plain layout (gray, gray+alpha, RGB, RGBA; one IDAT
chunk or several) and on those Image.open still decodes (palette with transparency, 16-bit gray): pixels
equal for every channels/dtype asked. A truncated or corrupted plain PNG is still InvalidArgumentError
naming the op and the file."""
import io
import json
import os
import struct
import zlib

import numpy as np
import pytest

import graphlab as tf
from tests import tfref

PIL = pytest.importorskip("PIL.Image")


def _chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def _split_idat(data, cuts=(7, 90)):
    """The same PNG with its image data spread over several IDAT chunks."""
    (length,) = struct.unpack_from(">I", data, 33)
    idat = data[41:41 + length]
    bounds = [0, *cuts, len(idat)]
    return data[:33] + b"".join(_chunk(b"IDAT", idat[a:b]) for a, b in zip(bounds, bounds[1:])) + \
        _chunk(b"IEND", b"")


def _pngs():
    rng = np.random.default_rng(5)
    out = {}
    for mode, bands in (("L", 1), ("LA", 2), ("RGB", 3), ("RGBA", 4)):
        pixels = rng.integers(0, 256, (9, 13, bands), dtype=np.uint8)
        buf = io.BytesIO()
        PIL.fromarray(pixels[:, :, 0] if bands == 1 else pixels, mode).save(buf, "PNG")
        out[mode] = buf.getvalue()
    out["RGB_split"] = _split_idat(out["RGB"])
    buf = io.BytesIO()
    palette = PIL.fromarray(rng.integers(0, 4, (6, 5), dtype=np.uint8), "P")
    palette.putpalette([10, 20, 30, 200, 100, 0, 0, 255, 0, 7, 7, 7])
    palette.save(buf, "PNG", transparency=1)
    out["P_trns"] = buf.getvalue()
    buf = io.BytesIO()
    PIL.fromarray(rng.integers(0, 65536, (4, 6), dtype=np.uint16)).save(buf, "PNG")
    out["L16"] = buf.getvalue()
    return out


CASES = [(c, d) for c in (0, 1, 3, 4) for d in ("uint8", "uint16")]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    d = tmp_path_factory.mktemp("pngs")
    for name, data in _pngs().items():
        (d / (name + ".png")).write_bytes(data)
    return d


@pytest.fixture(scope="module")
def theirs(folder):
    return tfref.run_tf_json("""
    folder = sys.argv[1]
    out = {}
    for name in sorted(os.listdir(folder)):
        data = open(os.path.join(folder, name), "rb").read()
        for channels, dtype in %r:
            with tf.Graph().as_default(), tf.Session() as s:
                v = s.run(tf.image.decode_png(data, channels=channels, dtype=getattr(tf, dtype)))
            out["%%s/%%d/%%s" %% (name, channels, dtype)] = v.tolist()
    print(json.dumps(out))
    """ % (CASES,), folder)


def test_png_pixels_equal_tf_for_every_layout(folder, theirs):
    checked, wrong = 0, []
    for name in sorted(os.listdir(folder)):
        data = (folder / name).read_bytes()
        for channels, dtype in CASES:
            with tf.Graph().as_default(), tf.Session() as s:
                ours = s.run(tf.image.decode_png(data, channels=channels, dtype=getattr(tf, dtype)))
            want = np.array(theirs["%s/%d/%s" % (name, channels, dtype)], dtype=dtype)
            if ours.dtype != want.dtype or ours.shape != want.shape or not np.array_equal(ours, want):
                wrong.append("%s channels=%d %s" % (name, channels, dtype))
            checked += 1
    assert not wrong
    assert checked == len(CASES) * 7


@pytest.mark.parametrize("damage", ["truncated", "idat_flipped", "ihdr_checksum"])
def test_damaged_plain_png_names_op_and_file(tmp_path, damage):
    data = _pngs()["RGB"]
    if damage == "truncated":
        data = data[:len(data) // 2]
    else:
        data = bytearray(data)
        data[60 if damage == "idat_flipped" else 20] ^= 0xFF
        data = bytes(data)
    path = tmp_path / "broken.png"
    path.write_bytes(data)
    with tf.Graph().as_default():
        decoded = tf.image.decode_png(tf.read_file(str(path)), channels=3, name="pixels")
        with tf.Session() as s:
            with pytest.raises(tf.errors.InvalidArgumentError, match="broken.png") as e:
                s.run(decoded)
    assert e.value.op.name == "pixels"
