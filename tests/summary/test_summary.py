"""tf.summary and FileWriter: TF1's op names and tags, Summary bytes identical to TF's, events files that
TensorFlow's own summary_iterator reads (graph + scalars), checksummed framing; tf.logging; tf.contrib."""
import json
import logging
import os
import socket
import struct

import numpy as np
import pytest

import graphlab as tf
from graphlab.formats import crc32c
from graphlab.formats.protos import graph_def_pb2
from tests import tfref

# The serialized Summary TF 2.21 (compat.v1) returns for the graph in _summaries, fed x = XS.
XS = [1.0, 2.0, -3.0, 0.0, 2.0]
TF_BYTES = (b'\n\r\n\x06loss_1\x15\xcd\xcc\xcc>\n\xd2\x01\n\x0ctrain/x_hist*\xc1\x01\t\x00\x00\x00\x00\x00\x00'
            b'\x08\xc0\x11\x00\x00\x00\x00\x00\x00\x00@\x19\x00\x00\x00\x00\x00\x00\x14@!\x00\x00\x00\x00\x00\x00'
            b'\x00@)\x00\x00\x00\x00\x00\x002@2H\r\x9c\xc5\xa0)U\t\xc0h\xbc\x105\x9a\x07\x07\xc0\x00\x00\x00\x00'
            b'\x00\x00\x00\x00\x11\xea-\x81\x99\x97q=\x08\x99i\x19\x15Z\xed?+\x14\xfa\xcd\xbe$\xf0?\xdc\x94\xcd.'
            b'\x8du\xff?\xe0\x11\xf1\x0ctM\x01@\xff\xff\xff\xff\xff\xff\xef\x7f:H\x00\x00\x00\x00\x00\x00\x00\x00'
            b'\x00\x00\x00\x00\x00\x00\xf0?\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xf0?\x00\x00'
            b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xf0?\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
            b'\x00\x00\x00\x00@\x00\x00\x00\x00\x00\x00\x00\x00')


def _summaries():
    x = tf.placeholder(tf.float32, [None], name="x")
    loss = tf.reduce_mean(x, name="loss")
    s1 = tf.summary.scalar("loss", loss)
    with tf.name_scope("train"):
        s2 = tf.summary.histogram("x_hist", x)
    return x, s1, s2, tf.summary.merge_all()


def test_op_names_tags_and_collection_follow_tf1():
    x, s1, s2, merged = _summaries()
    assert [(op.name, op.type) for op in tf.get_default_graph().get_operations()][3:] == [
        ("loss_1/tags", "Const"), ("loss_1", "ScalarSummary"), ("train/x_hist/tag", "Const"),
        ("train/x_hist", "HistogramSummary"), ("Merge/MergeSummary", "MergeSummary")]
    assert tf.get_collection(tf.GraphKeys.SUMMARIES) == [s1, s2]
    assert merged.dtype == tf.string and merged.shape.as_list() == []
    assert tf.summary.merge([s1]).name == "Merge_1/MergeSummary:0"


def test_merge_all_of_nothing_is_none():
    assert tf.summary.merge_all() is None


def test_summary_bytes_are_tensorflows():
    x, s1, s2, merged = _summaries()
    with tf.Session() as sess:
        got = sess.run(merged, {x: XS})
    assert got == TF_BYTES
    value = tf.summary.Summary.FromString(got).value
    assert value[0].tag == "loss_1" and value[0].simple_value == pytest.approx(0.4)
    assert value[1].histo.num == 5 and value[1].histo.sum_squares == 18


def test_kernel_errors():
    v = tf.placeholder(tf.float32, [None])
    s = tf.summary.histogram("h", v)
    dup = tf.summary.merge([tf.summary.scalar("a", 1.0), tf.summary.scalar("a", 2.0, collections=[])])
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="Nan in summary histogram for: h"):
            sess.run(s, {v: [1.0, np.nan]})
        assert len(tf.summary.Summary.FromString(sess.run(dup)).value) == 2   # a and a_1: unique op names


def _write_log(logdir):
    x, s1, s2, merged = _summaries()
    writer = tf.summary.FileWriter(logdir, tf.get_default_graph())
    with tf.Session() as sess:
        for step in range(3):
            writer.add_summary(sess.run(merged, {x: [float(step), 1.0]}), step)
    writer.flush()
    writer.close()
    files = os.listdir(logdir)
    assert len(files) == 1
    return os.path.join(logdir, files[0])


def test_events_file_name_framing_and_contents(tmp_path):
    path = _write_log(str(tmp_path))
    stamp, host = os.path.basename(path).split(".")[3], ".".join(os.path.basename(path).split(".")[4:])
    assert os.path.basename(path).startswith("events.out.tfevents.") and len(stamp) == 10 \
        and host == socket.gethostname()
    blob = open(path, "rb").read()
    (length,) = struct.unpack("<Q", blob[:8])
    assert struct.unpack("<I", blob[8:12])[0] == crc32c.masked_crc32c(blob[:8])
    assert struct.unpack("<I", blob[12 + length:16 + length])[0] == crc32c.masked_crc32c(blob[12:12 + length])
    events = list(tf.summary.summary_iterator(path))
    assert [e.WhichOneof("what") for e in events] == ["file_version", "graph_def", "meta_graph_def"] + \
        ["summary"] * 3
    assert events[0].file_version == "brain.Event:2"
    graph = graph_def_pb2.GraphDef.FromString(events[1].graph_def)
    assert "train/x_hist" in [n.name for n in graph.node]
    assert [(e.step, e.summary.value[0].simple_value) for e in events[3:]] == [(0, 0.5), (1, 1.0), (2, 1.5)]


def test_tensorflow_reads_our_events_file(tmp_path):
    path = _write_log(str(tmp_path))
    seen = tfref.run_tf_json("""
        out = {"kinds": [], "scalars": [], "nodes": []}
        for e in tf.train.summary_iterator(sys.argv[1]):
            out["kinds"].append(e.WhichOneof("what"))
            if e.HasField("graph_def"):
                g = tf.GraphDef.FromString(e.graph_def)
                out["nodes"] = [n.name for n in g.node]
                tf.import_graph_def(g, name="")
            for v in e.summary.value:
                if v.HasField("simple_value"):
                    out["scalars"].append([e.step, v.tag, v.simple_value])
                else:
                    out["scalars"].append([e.step, v.tag, v.histo.num])
        print(json.dumps(out))
        """, path)
    assert seen["kinds"] == ["file_version", "graph_def", "meta_graph_def", "summary", "summary", "summary"]
    assert {"x", "loss", "loss_1", "train/x_hist", "Merge/MergeSummary"} <= set(seen["nodes"])
    assert seen["scalars"] == [[0, "loss_1", 0.5], [0, "train/x_hist", 2.0], [1, "loss_1", 1.0],
                               [1, "train/x_hist", 2.0], [2, "loss_1", 1.5], [2, "train/x_hist", 2.0]]


def test_writer_refuses_after_close(tmp_path):
    writer = tf.summary.FileWriter(str(tmp_path / "new" / "dir"))
    writer.close()
    with pytest.raises(RuntimeError, match="closed"):
        writer.add_summary(tf.summary.Summary())


def test_logging_levels_map_onto_python_logging():
    assert (tf.logging.DEBUG, tf.logging.INFO, tf.logging.WARN, tf.logging.ERROR) == (10, 20, 30, 40)
    records = []

    class Collect(logging.Handler):
        def emit(self, record):
            records.append((record.levelname, record.getMessage()))

    logger = logging.getLogger("tensorflow")
    handler = Collect()
    logger.addHandler(handler)
    tf.logging.set_verbosity(tf.logging.INFO)
    try:
        assert tf.logging.get_verbosity() == logging.INFO
        tf.logging.info("step %d", 3)
        tf.logging.debug("hidden")
        tf.logging.warning("careful")
        tf.logging.error("bad")
    finally:
        logger.removeHandler(handler)
        tf.logging.set_verbosity(tf.logging.WARN)
    assert records == [("INFO", "step 3"), ("WARNING", "careful"), ("ERROR", "bad")]


def test_contrib_framework_reads_checkpoints(tmp_path):
    v = tf.Variable(np.arange(6, dtype=np.float32).reshape(2, 3), name="w")
    tf.Variable(1.5, name="b")
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = saver.save(sess, str(tmp_path / "model"))
    assert tf.contrib.framework.list_variables(path) == [("b", []), ("w", [2, 3])]
    np.testing.assert_array_equal(tf.contrib.framework.load_variable(str(tmp_path), "w:0"),
                                  np.arange(6).reshape(2, 3))
    assert v.name == "w:0"
