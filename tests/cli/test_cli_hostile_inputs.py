"""The `graphlab` command on hostile input never prints a traceback: seeded mutations (cut short, random
bytes, bytes flipped, empty, a directory) of a checkpoint, a SavedModel, a GraphDef and a script, under a
C locale with a strict UTF-8 stdout, in a directory whose name is not UTF-8. Each ends in exit status 2 and
one line on stderr naming the file; a good run prints its non-UTF-8 output path without a codec error."""
import os
import random
import shutil
import subprocess
import sys

import numpy as np
import pytest

import graphlab as tf

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEED = 29
ODD_DIR = b"caf\xe9-\xff"       # Latin-1 bytes: a valid file name, not UTF-8


def run(*args):
    env = dict(os.environ, LC_ALL="C", LANG="C", PYTHONIOENCODING="utf-8:strict", PYTHONUTF8="0",
               PYTHONPATH=os.pathsep.join([REPO, os.environ.get("PYTHONPATH", "")]))
    args = [a if isinstance(a, bytes) else str(a).encode() for a in args]
    return subprocess.run([sys.executable.encode(), b"-m", b"graphlab.cli"] + args, capture_output=True,
                          env=env, timeout=300)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    base = os.fsencode(str(tmp_path_factory.mktemp("hostile_cli")))
    root = os.path.join(base, b"plain")   # written under a UTF-8 name (the paths are saved inside the files)
    os.mkdir(root)
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 2], name="x")
        w = tf.Variable(np.ones((2, 3), np.float32), name="w")
        y = tf.identity(tf.matmul(x, w), name="y")
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            tf.train.Saver().save(s, os.fsdecode(os.path.join(root, b"model.ckpt")))
            tf.train.write_graph(s.graph_def, os.fsdecode(root), "graph.pb", as_text=False)
            tf.saved_model.simple_save(s, os.fsdecode(os.path.join(root, b"export")), {"x": x}, {"y": y})
    with open(os.path.join(root, b"script.py"), "w") as f:
        f.write("import graphlab as tf\nx = tf.constant(1.0)\n")
    os.rename(root, os.path.join(base, ODD_DIR))
    return os.path.join(base, ODD_DIR)


def _mutations(data, rng):
    yield "empty", b""
    yield "cut", data[:rng.randrange(1, max(2, len(data)))]
    yield "random", bytes(rng.randrange(256) for _ in range(rng.randrange(1, 4000)))
    flipped = bytearray(data)
    for _ in range(8):
        flipped[rng.randrange(len(flipped))] ^= 1 << rng.randrange(8)
    yield "flipped", bytes(flipped)
    yield "nul script", b"\x00\xff\xfe" + data[:50]


def _commands(root, target):
    ckpt = os.path.join(root, b"model.ckpt")
    return {
        b"model.ckpt.index": [b"inspect", ckpt, b"--all"],
        b"graph.pb": [b"freeze", b"--input_graph", os.path.join(root, b"graph.pb"), b"--input_checkpoint", ckpt,
                      b"--output_node_names", b"y", b"--output_graph", os.path.join(root, b"out.pb")],
        b"export/saved_model.pb": [b"saved-model", b"show", b"--dir", os.path.join(root, b"export"), b"--all"],
        b"export/variables/variables.index": [
            b"saved-model", b"run", b"--dir", os.path.join(root, b"export"), b"--tag_set", b"serve",
            b"--signature_def", b"serving_default", b"--input_exprs", b"x=[[1.0, 2.0]]"],
        b"script.py": [b"lint", os.path.join(root, b"script.py")],
    }[target]


@pytest.mark.parametrize("target", [b"model.ckpt.index", b"graph.pb", b"export/saved_model.pb",
                                    b"export/variables/variables.index", b"script.py"])
def test_mutated_files_end_in_one_line_naming_the_file(files, target, tmp_path):
    rng = random.Random("%d-%s" % (SEED, target))
    path = os.path.join(files, target)
    with open(path, "rb") as f:
        original = f.read()
    failures = []
    try:
        for kind, data in _mutations(original, rng):
            if kind == "nul script" and target != b"script.py":
                continue
            with open(path, "wb") as f:
                f.write(data)
            done = run(*_commands(files, target))
            err = done.stderr.strip()
            if done.returncode == 0:
                continue          # a mutation the format tolerates (checked by the loaders' own tests)
            if (done.returncode != 2 or b"Traceback" in err or len(err.splitlines()) != 1
                    or os.path.basename(target.split(b"/")[0]).split(b".")[0] not in err):
                failures.append((kind, done.returncode, err[-600:]))
    finally:
        with open(path, "wb") as f:
            f.write(original)
    assert not failures, failures


def test_a_directory_or_missing_path_is_one_line(files):
    for args in ([b"inspect", files], [b"inspect", os.path.join(files, b"nothing\xff")],
                 [b"show", files, b"-o", os.path.join(files, b"x.svg")],
                 [b"saved-model", b"show", b"--dir", os.path.join(files, b"nothing\xff")],
                 [b"lint", files]):
        done = run(*args)
        err = done.stderr.strip()
        assert done.returncode == 2 and b"Traceback" not in err and len(err.splitlines()) == 1, (args, done)
        assert ODD_DIR in err, (args, err)   # the path's own bytes, not a codec error or escapes


def test_good_run_prints_its_non_utf8_output_path(files):
    out = os.path.join(files, b"frozen\xe9.pb")
    done = run(b"freeze", b"--input_graph", os.path.join(files, b"graph.pb"), b"--input_checkpoint",
               os.path.join(files, b"model.ckpt"), b"--output_node_names", b"y", b"--output_graph", out)
    assert done.returncode == 0, done.stderr
    assert os.path.exists(out) and b"Traceback" not in done.stderr
    assert b"frozen\xe9.pb" in done.stdout + done.stderr
