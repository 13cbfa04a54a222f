"""Hostile media against TF: WAV headers that lie (4 GiB data chunk over 8 bytes, 65535 channels, wrong block
align or byte rate, chunks cut short), PNGs declaring 100000x100000 pixels in 69 bytes, GIFs with a 4000x4000
screen and 400 one-pixel frames, JPEGs whose header claims more than TF decodes, and a Const of 10^12
elements. graphlab gives TF's values or TF's error class and message, without building the declared buffer
(each case runs in a child process with its address space capped, see run_capped)."""
import json
import os
import resource
import struct
import subprocess
import sys

import numpy as np
import pytest

import hostile_media as hm
from tfref import run_tf_json

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CAP_BYTES = 1500 << 20   # address space for a child: numpy, Pillow and graphlab fit; a bomb's buffer does not

DECODE = r'''
import json, sys
def decode(make, path):
    g = tf.Graph()
    with g.as_default():
        out = make(tf.read_file(path))
        with tf.Session() as s:
            try:
                v = s.run(out)
                return {"shape": list(v.shape), "sum": float(v.sum(dtype="float64")),
                        "head": v.reshape(-1)[:16].astype("float64").tolist()}
            except tf.errors.OpError as e:
                lines = [l for l in e.message.split("\n") if l.strip()]
                msg = lines[-2] if "Graph execution error" in e.message else e.message
                return {"error": type(e).__name__, "message": msg.strip()}
ops = {"wav": lambda c: tf.audio.decode_wav(c)[0], "wav2": lambda c: tf.audio.decode_wav(c, 2, 6)[0],
       "png": tf.image.decode_png, "image": tf.image.decode_image, "gif": tf.image.decode_gif,
       "jpeg": tf.image.decode_jpeg}
print(json.dumps([decode(ops[k], p) for k, p in json.loads(sys.argv[1])]))
'''


def run_capped(cases):
    """Decode [(op key, path)] with graphlab in a child process whose address space is capped."""
    code = "import resource; resource.setrlimit(resource.RLIMIT_AS, (%d, %d))\n" % (CAP_BYTES, CAP_BYTES)
    code += "import graphlab as tf\n" + DECODE
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([REPO, os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, "-c", code, json.dumps(cases)], capture_output=True, text=True,
                          env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def compare(tmp_path, named_files):
    """Decode each (op key, name, bytes) with graphlab (capped) and TF; every result must agree."""
    names = [n for _, n, _ in named_files]
    files = [(k, d) for k, _, d in named_files]
    cases = []
    for i, (key, data) in enumerate(files):
        path = tmp_path / ("f%d" % i)
        path.write_bytes(data)
        cases.append((key, str(path)))
    ours = run_capped(cases)
    theirs = run_tf_json("import json, sys\n" + DECODE, json.dumps(cases))
    wrong = []
    for (key, _), name, o, t in zip(files, names, ours, theirs):
        if "error" in t or "error" in o:
            same = o == t
        else:
            same = (o["shape"] == t["shape"] and np.allclose(o["head"], t["head"])
                    and np.isclose(o["sum"], t["sum"], rtol=1e-6))
        if not same:
            wrong.append((key, name, o, t))
    assert not wrong, "\n".join(map(str, wrong))


def _wav_fmt18():
    data = bytearray(hm.wav())
    fmt = data[12:36]
    body = fmt[:4] + struct.pack("<I", 18) + fmt[8:] + b"\x00\x00"
    out = b"RIFF" + data[4:8] + b"WAVE" + body + data[36:]
    return out


WAVS = {
    "plain": hm.wav(),
    "data 4 GiB over 8 bytes": hm.wav(data_size=0xFFFFFFF0),
    "data 2 GiB - 1 over 8 bytes": hm.wav(data_size=0x7FFFFFFF),
    "65535 channels": hm.wav(channels=65535, frames=b""),
    "two channels": hm.wav(channels=2, frames=b"\x01\x00\x02\x00\x03\x00\x04\x00\x05\x00\x06\x00"),
    "odd data size": hm.wav(frames=b"\x01\x00\x02\x00\x03", data_size=5),
    "8 bits": hm.wav(bits=8, frames=b"\x01\x02"),
    "float format": hm.wav(fmt_tag=3, bits=32, frames=b"\x00" * 8),
    "bad block align": hm.wav()[:32] + b"\x04\x00" + hm.wav()[34:],
    "bad byte rate": hm.wav()[:28] + struct.pack("<I", 12345) + hm.wav()[32:],
    "header cut": hm.wav()[:30],
    "no data chunk": hm.wav()[:36],
    "two data chunks": hm.wav() + b"data" + struct.pack("<I", 2) + b"\x05\x00",
    "a LIST chunk first": hm.wav()[:36] + b"LIST" + struct.pack("<I", 4) + b"abcd" + hm.wav()[36:],
    "fmt size 18": _wav_fmt18(),
    "not RIFF": b"RIFX" + hm.wav()[4:],
    "zero channels": hm.wav(channels=0, frames=b""),
}


def test_wav_headers_as_tf_checks_them(tmp_path):
    files = [("wav", n, d) for n, d in WAVS.items()] + [("wav2", n, WAVS[n]) for n in ("plain", "two channels")]
    compare(tmp_path, files)


def _animated_gif(interlace=False):
    """Frames Pillow stores as cropped deltas at offsets with a transparent index (what TF composes)."""
    import io
    from PIL import Image
    rng = np.random.RandomState(7)
    base = rng.randint(0, 4, (12, 10)).astype(np.uint8) * 60
    frames = []
    for k in range(4):
        a = base.copy()
        a[2 + k:5 + k, 3:6] = 250 - 20 * k
        frames.append(Image.fromarray(np.stack([a, a[::-1], a.T[:12, :10] if False else a // 2], -1), "RGB"))
    buf = io.BytesIO()
    frames[0].save(buf, "GIF", save_all=True, append_images=frames[1:], optimize=False, disposal=1,
                   interlace=interlace)
    return buf.getvalue()


IMAGES = [
    ("png", "PNG declaring 100000x100000 in 69 bytes", hm.png_declaring(100000, 100000)),
    ("image", "the same through decode_image", hm.png_declaring(100000, 100000)),
    ("png", "PNG of 46340x46340 gray (2**29 pixels or more)", hm.png_declaring(46340, 46340, 0)),
    ("png", "PNG of 20000x20000 over 64 bytes of rows", hm.png_declaring(20000, 20000)),
    ("png", "PNG of 1000x1000 over 64 bytes of rows", hm.png_declaring(1000, 1000)),
    ("gif", "GIF: 4000x4000 screen, 400 one-pixel frames", hm.gif_screen(4000, 4000, 400)),
    ("image", "the same through decode_image", hm.gif_screen(4000, 4000, 400)),
    ("gif", "GIF: 4000x4000 screen, 3 frames of 2x3", hm.gif_screen(4000, 4000, 3, 2, 3)),
    ("gif", "GIF: 3x2 screen, frames of 3x2", hm.gif_screen(3, 2, 2, 3, 2)),
    ("gif", "GIF: a 5000x5000 frame over a few bytes",
     hm.gif_screen(10, 10, 1, 3, 3).replace(b"\x2c\x00\x00\x00\x00\x03\x00\x03\x00\x00",
                                            b"\x2c\x00\x00\x00\x00\x88\x13\x88\x13\x00")),
    ("gif", "GIF cut inside its first frame", hm.gif_screen(10, 10, 1, 30, 30)[:60]),
    ("gif", "GIF cut in its screen descriptor", hm.gif_screen(10, 10, 1)[:9]),
    ("gif", "not a GIF", b"GIF00a" + b"\x00" * 30),
    ("gif", "animated deltas with transparency", _animated_gif()),
    ("gif", "interlaced animation", _animated_gif(interlace=True)),
    ("jpeg", "JPEG claiming 20000x20000 RGB over 8x8 data", None),
    ("jpeg", "JPEG claiming 13378x13378 RGB (one row past TF's limit)", None),
]


def _rgb_jpeg_claiming(width, height):
    import io
    from PIL import Image
    buf = io.BytesIO()
    Image.new("RGB", (8, 8), (10, 200, 30)).save(buf, "JPEG")
    data = bytearray(buf.getvalue())
    pos = 2
    while data[pos + 1] != 0xC0:
        pos += 2 + struct.unpack(">H", data[pos + 2:pos + 4])[0]
    struct.pack_into(">HH", data, pos + 5, height, width)
    return bytes(data)


def test_image_bombs_and_compositions_as_tf(tmp_path):
    files = []
    for key, name, data in IMAGES:
        if data is None:
            side = 20000 if "20000" in name else 13378
            data = _rgb_jpeg_claiming(side, side)
        files.append((key, name, data))
    compare(tmp_path, files)


CONST = r'''
import json
out = []
for shape in ([10**6, 10**6], [10**12], [2, 3]):
    g = tf.Graph()
    with g.as_default():
        ident = tf.identity(tf.constant(1.5, shape=shape), name="ident")
        with tf.Session() as s:
            try:
                out.append({"sum": float(s.run(ident).sum())})
            except tf.errors.OpError as e:
                out.append({"error": type(e).__name__, "op": e.op.name if e.op is not None else None,
                            "first": e.message.split("Node:")[-1].strip().split("\n")[1].split(":")[0]
                                     if "Graph execution" in e.message else e.message.split(":")[0]})
print(json.dumps(out))
'''


def test_huge_broadcast_constant_refused_naming_the_op():
    code = "import resource; resource.setrlimit(resource.RLIMIT_AS, (%d, %d))\nimport graphlab as tf\n" % (
        CAP_BYTES, CAP_BYTES) + CONST
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([REPO, os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    ours = json.loads(done.stdout.strip().splitlines()[-1])
    theirs = run_tf_json(CONST)
    assert [o.get("error") for o in ours] == [t.get("error") for t in theirs] == ["InvalidArgumentError"] * 2 + [None]
    assert ours[2] == theirs[2]
    for o in ours[:2]:
        assert o["op"] == "Const" and o["first"] == "Cannot parse tensor from proto", o
    assert [t["first"] for t in theirs[:2]] == ["Cannot parse tensor from proto"] * 2, theirs
