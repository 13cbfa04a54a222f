"""Seeded fuzzing of the surfaces a hostile user reaches besides the graph files (test_fuzz_loaders.py): image
and audio decoders, TFRecord readers (plain, GZIP, ZLIB), tf.data pipelines over damaged records, and the
serving request parser. Each runs in a child process whose address space is capped at what the child uses
after importing everything plus a bounded multiple of the inputs' size, so a loader that builds what a header
declares instead of what the data holds fails the test (MemoryError). Every outcome must be a value or one of
graphlab's errors (OpError; ServingError with a 4xx code for requests), never another exception.

Mutations: the byte mutations of test_fuzz_loaders (cut, flip, insert, splice, 0xFF runs, garbage) and, for
each format, header fields set to extreme values (PNG IHDR size, GIF screen and frame sizes, JPEG SOF size,
WAV channels / block align / data size, a TFRecord length). The seed and counts are fixed."""
import json
import os
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEED = 20261129
HEADROOM = 256 << 20        # beyond the child's own size after imports
PER_INPUT_FACTOR = 200      # and this many times the largest input (a decoded image of a valid file fits)

CHILD = r'''
import io, json, random, resource, struct, sys, zlib, tempfile, os, traceback
import numpy as np
import graphlab as tf
OpError = tf.errors.OpError
from graphlab.serving import json_tensor
from graphlab.serving.status import ServingError
from PIL import Image
import hostile_media as hm
from test_fuzz_loaders import mutate_bytes

SEED, HEADROOM, FACTOR, COUNT = [int(a) for a in sys.argv[1:5]]
rng = random.Random(SEED)


def png(mode, size):
    buf = io.BytesIO()
    Image.fromarray(np.random.RandomState(1).randint(0, 255, size + ((3,) if mode == "RGB" else ())).astype(
        np.uint8), mode).save(buf, "PNG")
    return buf.getvalue()


def gif():
    buf = io.BytesIO()
    frames = [Image.fromarray(np.full((6, 5, 3), 40 * k, np.uint8), "RGB") for k in range(3)]
    frames[0].save(buf, "GIF", save_all=True, append_images=frames[1:])
    return buf.getvalue()


def jpeg():
    buf = io.BytesIO()
    Image.fromarray(np.random.RandomState(2).randint(0, 255, (16, 16, 3)).astype(np.uint8)).save(buf, "JPEG")
    return buf.getvalue()


def header_mutation(kind, data):
    b = bytearray(data)
    big = rng.choice([0, 1, 255, 65535, 1 << 16, 1 << 24, 1 << 31, (1 << 32) - 1])
    if kind == "png" and len(b) > 24:
        struct.pack_into(">I", b, rng.choice([16, 20]), big & 0xFFFFFFFF)
        crc = zlib.crc32(bytes(b[12:29]))      # a consistent header: the size check is what is tested
        struct.pack_into(">I", b, 29, crc)
    elif kind == "gif" and len(b) > 10:
        struct.pack_into("<H", b, rng.choice([6, 8]), big & 0xFFFF)
        i = b.find(b"\x2c")
        if i > 0 and len(b) > i + 9:
            struct.pack_into("<H", b, i + rng.choice([1, 3, 5, 7]), big & 0xFFFF)
    elif kind == "jpeg":
        i = b.find(b"\xff\xc0")
        if i > 0 and len(b) > i + 9:
            struct.pack_into(">H", b, i + rng.choice([5, 7]), big & 0xFFFF)
    elif kind == "wav" and len(b) > 44:
        field = rng.choice([(22, "<H"), (32, "<H"), (40, "<I"), (28, "<I"), (34, "<H")])
        struct.pack_into(field[1], b, field[0], big & (0xFFFF if field[1] == "<H" else 0xFFFFFFFF))
    return bytes(b)


originals = {"png": png("RGB", (12, 10)), "png_gray": png("L", (7, 9)), "gif": gif(), "jpeg": jpeg(),
             "wav": hm.wav(channels=2, frames=bytes(range(64)))}
largest = max(len(v) for v in originals.values())

g = tf.Graph()
with g.as_default():
    contents = tf.placeholder(tf.string, [], name="contents")
    decoders = {"png": tf.image.decode_png(contents, channels=3), "png_gray": tf.image.decode_image(contents),
                "gif": tf.image.decode_gif(contents), "jpeg": tf.image.decode_jpeg(contents),
                "wav": tf.audio.decode_wav(contents).audio}
sess = tf.Session(graph=g)

def vm_size():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024

cap = vm_size() + HEADROOM + FACTOR * largest
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
bad, counts = [], {}


def check(surface, data, fn):
    counts[surface] = counts.get(surface, 0) + 1
    try:
        fn(data)
    except OpError as e:
        if not e.message.strip():
            bad.append((surface, "empty message", data[:40].hex()))
    except ServingError as e:
        if e.http_status >= 500:
            bad.append((surface, "%s %s" % (e.code, e.message[:200]), data[:80].hex()))
    except BaseException as e:  # noqa: BLE001 - this is what the test is for
        bad.append((surface, "%s: %s" % (type(e).__name__, str(e)[:200]), data[:40].hex()))


for kind, data in originals.items():
    key = kind
    for i in range(COUNT):
        blob = header_mutation(kind.split("_")[0], data) if i % 3 == 0 else mutate_bytes(data, rng)
        check(kind, blob, lambda b: sess.run(decoders[key], {contents: b}))

# TFRecords: plain, GZIP and ZLIB files, mutated, read whole and through a dataset pipeline
d = tempfile.mkdtemp()
for kind in ("", "GZIP", "ZLIB"):
    path = os.path.join(d, "r%s.tfrecord" % kind)
    with tf.python_io.TFRecordWriter(path, tf.python_io.TFRecordOptions(kind)) as w:
        for k in range(5):
            w.write(b"record %d" % k * (k + 1))
    original = open(path, "rb").read()
    for i in range(COUNT):
        blob = mutate_bytes(original, rng)
        if i % 4 == 0 and not kind and len(blob) > 12:   # a length claiming far more than the file holds
            b = bytearray(original)
            struct.pack_into("<Q", b, 0, rng.choice([1 << 20, 1 << 40, (1 << 64) - 1]))
            blob = bytes(b)
        with open(path, "wb") as f:
            f.write(blob)
        check("tfrecord " + (kind or "plain"), blob,
              lambda b: list(tf.python_io.tf_record_iterator(path, tf.python_io.TFRecordOptions(kind))))

        def pipeline(b):
            with tf.Graph().as_default():
                ds = tf.data.TFRecordDataset([path], compression_type=kind).map(
                    lambda r: tf.strings.length(r)).batch(2)
                nxt = tf.data.make_one_shot_iterator(ds).get_next()
                with tf.Session() as s:
                    for _ in range(20):
                        try:
                            s.run(nxt)
                        except tf.errors.OutOfRangeError:
                            return
        if i % 5 == 0:
            check("dataset " + (kind or "plain"), blob, pipeline)

# datasets whose function fails on seeded elements: every call is a value, the element's error or the end
for i in range(COUNT // 4):
    fail_at = rng.sample(range(12), rng.randint(0, 4))
    def run(_, fail_at=fail_at):
        with tf.Graph().as_default():
            bad_idx = tf.constant(fail_at + [-1], tf.int64)
            ds = tf.data.Dataset.range(12).map(lambda x: tf.debugging.check_numerics(
                1.0 / tf.cast(tf.reduce_min(tf.abs(bad_idx - x)), tf.float32), "fail"), num_parallel_calls=2)
            ds = ds.filter(lambda v: v > 0).prefetch(2)
            nxt = tf.data.make_one_shot_iterator(ds).get_next()
            got, errors = 0, 0
            with tf.Session() as s:
                for _ in range(30):
                    try:
                        s.run(nxt)
                        got += 1
                    except tf.errors.OutOfRangeError:
                        break
                    except tf.errors.InvalidArgumentError:
                        errors += 1
            if (got, errors) != (12 - len(fail_at), len(fail_at)):
                raise AssertionError("dataset lost elements: %r for failures at %r" % ((got, errors), fail_at))
    check("dataset errors", b"", run)

# serving requests: mutated JSON bodies (and bombs) through the parser and the tensor conversion
bodies = [json.dumps({"instances": [{"x": [1.0, 2.0, 3.0], "tag": {"b64": "YWJj"}}]}).encode(),
          json.dumps({"signature_name": "s", "inputs": {"x": [[1, 2, 3]], "tag": ["a"]}}).encode(),
          b'{"instances": ' + b"[" * 300 + b"1" + b"]" * 300 + b"}", b'{"instances": [[1e400]]}',
          b'{"inputs": {"x": [[1, 2, 3]], "tag": [' + b'"a", ' * 1000 + b'"b"]}}']
dtypes = {"x": "DT_FLOAT", "tag": "DT_STRING"}
def request(b):
    sig, form, raw = json_tensor.parse_request(b)
    (json_tensor.row_inputs if form == "row" else json_tensor.columnar_inputs)(raw, dtypes)
for i in range(COUNT * 2):
    body = rng.choice(bodies)
    check("request", body if i < len(bodies) else mutate_bytes(body, rng), request)

print(json.dumps({"bad": bad, "counts": counts, "cap_mb": cap >> 20}))
'''


def test_media_records_datasets_and_requests_under_a_memory_cap():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([REPO, TESTS, os.path.join(TESTS, "formats"),
                                                       os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, "-c", CHILD, str(SEED), str(HEADROOM), str(PER_INPUT_FACTOR), "60"],
                          capture_output=True, text=True, env=env, timeout=900, cwd=TESTS)
    assert done.returncode == 0, done.stderr[-4000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert not report["bad"], "\n".join(map(str, report["bad"][:20]))
    assert report["counts"]["png"] == 60 and report["counts"]["request"] == 120, report["counts"]
