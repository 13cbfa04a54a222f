"""Importing graphlab, loading files (a GraphDef, a checkpoint, a SavedModel, a PNG, a TFRecord) and running
graphs start no process: an audit hook in a child process records every process-starting event
(subprocess.Popen, os.system, os.exec, os.spawn, os.posix_spawn, os.fork) and must see none. (The first
Session.run used to run /sbin/ldconfig -p through ctypes.util.find_library.)"""
import json
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

CHILD = r'''
import json, os, sys, tempfile
started = []
def hook(event, args):
    if event in ("subprocess.Popen", "os.system", "os.exec", "os.spawn", "os.posix_spawn", "os.fork",
                 "os.forkpty", "pty.spawn"):
        started.append([event, repr(args)[:200]])
sys.addaudithook(hook)
import numpy as np
import graphlab as tf
d = tempfile.mkdtemp()
with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    w = tf.Variable(np.ones((2, 2), np.float32), name="w")
    y = tf.matmul(x, w, name="y")
    png = tf.image.encode_png(tf.zeros([4, 4, 3], tf.uint8))
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        s.run(y, {x: np.ones((3, 2), np.float32)})
        data = s.run(png)
        tf.train.Saver().save(s, os.path.join(d, "m.ckpt"))
        tf.train.write_graph(s.graph_def, d, "g.pb", as_text=False)
        tf.saved_model.simple_save(s, os.path.join(d, "sm"), {"x": x}, {"y": y})
with open(os.path.join(d, "i.png"), "wb") as f:
    f.write(data)
with tf.python_io.TFRecordWriter(os.path.join(d, "r.tfrecord"), tf.python_io.TFRecordOptions("GZIP")) as w:
    w.write(b"abc")
started_while_writing = list(started)
del started[:]
with tf.Graph().as_default() as g:
    gd = tf.GraphDef()
    gd.ParseFromString(open(os.path.join(d, "g.pb"), "rb").read())
    tf.import_graph_def(gd, name="")
    with tf.Session() as s:
        s.run(tf.image.decode_png(tf.read_file(os.path.join(d, "i.png"))))
with tf.Graph().as_default():
    saver = tf.train.import_meta_graph(os.path.join(d, "m.ckpt.meta"))
    with tf.Session() as s:
        saver.restore(s, os.path.join(d, "m.ckpt"))
        s.run("y:0", {"x:0": np.ones((1, 2), np.float32)})
with tf.Session(graph=tf.Graph()) as s:
    tf.saved_model.loader.load(s, ["serve"], os.path.join(d, "sm"))
    s.run("y:0", {"x:0": np.ones((1, 2), np.float32)})
list(tf.python_io.tf_record_iterator(os.path.join(d, "r.tfrecord"), tf.python_io.TFRecordOptions("GZIP")))
print(json.dumps({"writing": started_while_writing, "loading": started}))
'''


def test_import_load_and_run_start_no_process():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([REPO, os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen == {"writing": [], "loading": []}, seen
