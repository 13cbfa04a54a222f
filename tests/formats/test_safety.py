"""A save that dies midway leaves the previous checkpoint readable and listed; truncated files give
DataLossError naming the file. (Mutated files of every kind: test_fuzz_loaders.py.)"""
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import graphlab as tf
from graphlab.framework import graph_io, meta_graph
from graphlab.formats.errors import DataLossError

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


def test_truncated_files_name_the_file(saved, tmp_path):
    for rel, load in [("ck.index", lambda p: tf.train.list_variables(p[:-6])),
                      ("ck.meta", lambda p: meta_graph.read_meta_graph_file(p)),
                      ("g.pb", graph_io.load_graph_def)]:
        data = (saved / rel).read_bytes()
        p = tmp_path / rel
        p.write_bytes(data[: len(data) // 2])
        with pytest.raises(DataLossError, match=str(p)):
            load(str(p))
