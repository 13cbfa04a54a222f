"""tf.train.Supervisor compared with TensorFlow running the same programs: its default ops, the session it
hands out (initialized, or restored from logdir's latest checkpoint), the files and events it writes, its
services and queue runners on one Coordinator, the quiet end on OutOfRangeError and the re-raised error
otherwise, and a trimmed tensorflow/models ptb_word_lm.py (range_input_producer input, LSTM, Supervisor)
printing TF's perplexities."""
import contextlib
import io
import json
import os
import threading

import graphlab
from tests import tfref

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "supervisor_programs")


def _program(name):
    with open(os.path.join(HERE, name)) as f:
        return f.read()


def _ours(program):
    """Run ``program`` with graphlab as ``tf``; its last stdout line, parsed."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(program, "<supervisor program>", "exec"), {"tf": graphlab, "__name__": "__main__"})
    return json.loads(buf.getvalue().strip().splitlines()[-1])


def _compare(name):
    program = _program(name)
    theirs = tfref.run_tf_json(program)
    before = set(threading.enumerate())
    ours = _ours(program)
    leaked = [t.name for t in set(threading.enumerate()) - before if t.is_alive()]
    assert leaked == [], "threads left running after the program: %s" % leaked
    return ours, theirs


def test_train_save_and_restore_in_logdir_as_tensorflow():
    ours, theirs = _compare("train_and_restore.py")
    assert ours == theirs
    assert ours["restored"][1] == 4.0 and "model.ckpt-4.index" in ours["files"]


def test_errors_queue_runners_and_services_as_tensorflow():
    ours, theirs = _compare("errors_and_services.py")
    assert ours == theirs
    assert ours["got"] == [1, 2, 3] and ours["reraised"] == "boom"


def test_ptb_word_lm_trimmed_prints_tensorflows_perplexities():
    ours, theirs = _compare("ptb_word_lm_small.py")
    assert ours == theirs
    assert len(ours["train"]) == 3


def test_supervisor_is_no_longer_an_omission():
    from graphlab.omissions import OMISSIONS
    assert not any("Supervisor" in names.split() for names, _ in OMISSIONS["tf.train"])
    assert isinstance(graphlab.train.Supervisor, type) and graphlab.train.Supervisor.USE_DEFAULT == 0
