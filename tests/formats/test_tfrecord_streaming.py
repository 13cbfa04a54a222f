"""GZIP and ZLIB TFRecord files are inflated as they are read: a 1 MB file that inflates to 512 MiB of zeros
ends at once in TF's DataLossError ("corrupted record at 0") inside a child process capped below that,
a stream that is not GZIP/ZLIB gives TF's inflate() error, and records after a good prefix still come out."""
import json
import os
import subprocess
import sys
import zlib

import pytest

from tfref import run_tf_json

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

READ = r'''
import json, sys
out = []
for path, kind in json.loads(sys.argv[1]):
    got = []
    try:
        for r in tf.python_io.tf_record_iterator(path, tf.python_io.TFRecordOptions(kind)):
            got.append(r.decode("latin-1"))
        out.append({"records": got})
    except Exception as e:
        out.append({"records": got, "error": type(e).__name__, "message": getattr(e, "message", str(e))})
    g = tf.Graph()
    with g.as_default():
        nxt = tf.data.make_one_shot_iterator(tf.data.TFRecordDataset([path], compression_type=kind)).get_next()
        with tf.Session() as s:
            got = []
            try:
                while True:
                    got.append(s.run(nxt).decode("latin-1"))
            except tf.errors.OutOfRangeError:
                out.append({"records": got})
            except tf.errors.OpError as e:
                out.append({"records": got, "error": type(e).__name__})
print(json.dumps(out))
'''


def _bomb(path, wbits, mib=512):
    c = zlib.compressobj(9, zlib.DEFLATED, wbits)
    with open(path, "wb") as f:
        for _ in range(mib):
            f.write(c.compress(b"\0" * (1 << 20)))
        f.write(c.flush())


def _good(path, kind):
    import graphlab as tf
    with tf.python_io.TFRecordWriter(str(path), tf.python_io.TFRecordOptions(kind)) as w:
        for r in (b"one", b"two", b"three"):
            w.write(r)


def test_compressed_bombs_and_bad_streams_as_tf(tmp_path):
    cases = []
    for kind, wbits in (("GZIP", 31), ("ZLIB", 15)):
        _bomb(tmp_path / ("bomb." + kind), wbits)
        cases.append((str(tmp_path / ("bomb." + kind)), kind))
        _good(tmp_path / ("good." + kind), kind)
        cases.append((str(tmp_path / ("good." + kind)), kind))
        (tmp_path / ("plain." + kind)).write_bytes(b"this is not a compressed stream")
        cases.append((str(tmp_path / ("plain." + kind)), kind))
    code = "import resource; resource.setrlimit(resource.RLIMIT_AS, (%d, %d))\nimport graphlab as tf\n" % (
        (450 << 20,) * 2) + READ
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([REPO, os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, "-c", code, json.dumps(cases)], capture_output=True, text=True,
                          env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    ours = json.loads(done.stdout.strip().splitlines()[-1])
    theirs = run_tf_json(READ, json.dumps(cases))
    for o, t in zip(ours, theirs):
        assert (o["records"], o.get("error")) == (t["records"], t.get("error")), (o, t)
        if "message" in t:
            # TF's words first (its "corrupted record at 0", its inflate() error), then the file graphlab adds
            key = t["message"].split(" (Is this")[0]
            assert key.split(" at ")[0] in o["message"], (o, t)
    assert "corrupted record at 0" in ours[0]["message"] and "inflate() failed with error -3" in ours[4]["message"]
