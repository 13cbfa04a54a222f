"""A save that dies midway leaves the previous checkpoint readable and listed; corrupt files of every kind
give graphlab's clear errors naming the file, never a raw struct/protobuf traceback."""
import os
import random
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import graphlab as tf
from graphlab.formats import graph_io, meta_graph
from graphlab.formats.errors import DataLossError, NotFoundError, OpError
from graphlab.saved_model import loader

SAVER_SCRIPT = textwrap.dedent('''
    import sys, numpy as np, graphlab as tf
    d, big = sys.argv[1], int(sys.argv[2])
    v = tf.Variable(np.full([big], 1.0 if big < 100 else 2.0, np.float32), name="v")
    s = tf.train.Saver()
    sess = tf.Session(); sess.run(tf.global_variables_initializer())
    print("saving", flush=True)
    s.save(sess, d + "/model", global_step=1 if big < 100 else 2)
    print("done", flush=True)
''')


def _run_saver(d, size, kill_after=None):
    proc = subprocess.Popen([sys.executable, "-c", SAVER_SCRIPT, d, str(size)], stdout=subprocess.PIPE, text=True)
    if kill_after is None:
        assert proc.wait(timeout=120) == 0
        return
    assert proc.stdout.readline().strip() == "saving"
    time.sleep(kill_after)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=60)


def test_killed_save_leaves_previous_checkpoint_intact(tmp_path):
    d = str(tmp_path)
    _run_saver(d, 10)
    assert tf.train.latest_checkpoint(d) == d + "/model-1"
    # ~400 MB of float32: writing takes long enough to be killed part-way (several delays to catch it)
    for delay in (0.05, 0.3, 1.0):
        _run_saver(d, 100_000_000, kill_after=delay)
        latest = tf.train.latest_checkpoint(d)
        assert latest in (d + "/model-1", d + "/model-2")
        reader = tf.train.NewCheckpointReader(latest)
        value = reader.get_tensor("v")
        assert value[:3].tolist() == ([1.0] * 3 if latest.endswith("-1") else [2.0] * 3)
        assert not [f for f in os.listdir(d) if f.startswith("model-2.") and "tempstate" not in f
                    and not os.path.exists(os.path.join(d, "model-2.index"))]
        if latest.endswith("-2"):
            break
    assert tf.train.load_variable(d + "/model-1", "v").tolist() == [1.0] * 10


def _mutations(data, rng, n):
    out = []
    for _ in range(n):
        b = bytearray(data)
        kind = rng.randrange(4)
        if kind == 0 and b:
            b = b[:rng.randrange(len(b))]  # truncate
        elif kind == 1 and b:
            for _ in range(rng.randint(1, 4)):
                b[rng.randrange(len(b))] = rng.randrange(256)  # flip bytes
        elif kind == 2:
            pos = rng.randrange(len(b) + 1)
            b[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))  # insert
        else:
            b = bytearray(rng.randrange(256) for _ in range(rng.randint(0, 64)))  # garbage
        out.append(bytes(b))
    return out


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    d = tmp_path_factory.mktemp("orig")
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 2], name="x")
        w = tf.Variable(np.arange(4, dtype=np.float32).reshape(2, 2), name="w")
        s_var = tf.Variable(np.array([b"ab", b"c"], dtype=object), name="s")
        y = tf.matmul(x, w, name="y")
        sess = tf.Session()
        sess.run(tf.global_variables_initializer())
        tf.train.Saver().save(sess, str(d / "ck"))
        tf.train.write_graph(tf.get_default_graph(), str(d), "g.pb", as_text=False)
        tf.saved_model.simple_save(sess, str(d / "sm"), {"x": x}, {"y": y})
        del s_var
    return d


CLEAR = (DataLossError, NotFoundError, OpError, ValueError, TypeError, RuntimeError, KeyError)


def _check_clear(fn, path):
    try:
        fn()
    except CLEAR as e:
        text = str(e)
        if isinstance(e, DataLossError):
            assert path in text or os.path.basename(path) in text, text
        assert "Traceback" not in text


def test_fuzzed_files_give_only_clear_errors(saved, tmp_path):
    rng = random.Random(1234)
    loaders = {
        "ck.index": lambda p: [tf.train.NewCheckpointReader(p[:-6]).get_tensor(k)
                               for k in tf.train.NewCheckpointReader(p[:-6]).get_variable_to_shape_map()],
        "ck.data-00000-of-00001": lambda p: [tf.train.load_variable(p[:-len(".data-00000-of-00001")], k)
                                             for k in ("w", "s")],
        "ck.meta": lambda p: _import_meta(p),
        "g.pb": lambda p: _import_pb(p),
        "sm/saved_model.pb": lambda p: _load_sm(os.path.dirname(p)),
        "checkpoint": lambda p: tf.train.get_checkpoint_state(os.path.dirname(p)),
    }
    work = tmp_path / "work"
    for f in saved.rglob("*"):
        dest = work / f.relative_to(saved)
        if f.is_dir():
            dest.mkdir(parents=True, exist_ok=True)
        else:
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(f.read_bytes())
    (work / "checkpoint").write_text('model_checkpoint_path: "%s"\n' % (work / "ck"))
    total = 0
    for rel, load in loaders.items():
        target = work / rel
        original = target.read_bytes()
        for blob in _mutations(original, rng, 400):
            target.write_bytes(blob)
            _check_clear(lambda: load(str(target)), str(target))
            total += 1
        target.write_bytes(original)
    assert total == 2400


def _import_meta(p):
    with tf.Graph().as_default():
        saver = tf.train.import_meta_graph(p)
        if saver is not None:
            saver.restore(tf.Session(), p[:-5])


def _import_pb(p):
    with tf.Graph().as_default():
        tf.import_graph_def(graph_io.load_graph_def(p), name="")


def _load_sm(d):
    with tf.Graph().as_default():
        loader.load(tf.Session(), ["serve"], d)


def test_truncated_files_name_the_file(saved, tmp_path):
    for rel, load in [("ck.index", lambda p: tf.train.list_variables(p[:-6])),
                      ("ck.meta", lambda p: meta_graph.read_meta_graph_file(p)),
                      ("g.pb", graph_io.load_graph_def)]:
        data = (saved / rel).read_bytes()
        p = tmp_path / rel
        p.write_bytes(data[: len(data) // 2])
        with pytest.raises(DataLossError, match=str(p)):
            load(str(p))
