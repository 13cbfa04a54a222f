"""Hostile files: every loader, fed seeded mutations of the files graphlab writes, either gives back what the
original held or raises one of graphlab's documented error families (graphlab/formats/errors.py), with a
message that names the file or the node. Never another exception, a hang, a huge allocation or a silent
change in a checksummed file.

Two kinds of mutation: bytes (truncate, flip, insert, splice, garbage) and, for the files holding a graph,
structure (a node's input becomes "x:-1", an attr vanishes or changes kind, a Const declares 2**33
elements, a node repeats, a text file nests a thousand levels deep...), so the checks behind the proto
parser are reached too. The seed and the counts are fixed: every run feeds the same inputs.
"""
import os
import random
import re
import time

import numpy as np
import pytest

import graphlab as tf
from graphlab.framework import graph_io, meta_graph
from graphlab.formats import text_format as tf_text
from graphlab.formats.protos import attr_value_pb2, graph_def_pb2, meta_graph_pb2, saved_model_pb2, types_pb2
from graphlab.formats.errors import DataLossError, OpError
from graphlab.saved_model import loader
from graphlab.summary.events import summary_iterator

SEED = 20240614
PER_LOADER = 300
PER_TEXT_LOADER = 150     # protobuf's text parser is ten times slower than its binary one


# --- the originals ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def originals(tmp_path_factory):
    d = tmp_path_factory.mktemp("originals")
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [None, 2], name="x")
        w = tf.Variable(np.arange(4, dtype=np.float32).reshape(2, 2), name="w")
        tf.Variable(np.array([b"ab", b"c"], dtype=object), name="s")
        tf.Variable(np.int64(7), name="n")
        tf.constant(0.5, shape=[3, 3], name="compact")
        y = tf.nn.relu(tf.matmul(x, w) + tf.constant([1.0, -1.0]), name="y")
        sess = tf.Session()
        sess.run(tf.global_variables_initializer())
        saver = tf.train.Saver()
        saver.save(sess, str(d / "ck"))
        saver.export_meta_graph(str(d / "ck_text.meta"), as_text=True)
        tf.train.write_graph(g, str(d), "g.pb", as_text=False)
        tf.train.write_graph(g, str(d), "g.pbtxt", as_text=True)
        tf.saved_model.simple_save(sess, str(d / "sm"), {"x": x}, {"y": y})
        writer = tf.summary.FileWriter(str(d / "events"), g)
        for step in range(3):
            writer.add_summary(sess.run(tf.summary.scalar("loss", tf.reduce_sum(w) * step)), step)
        writer.close()
    os.makedirs(d / "smtext" / "variables")
    sm = graph_io.read_message(saved_model_pb2.SavedModel, str(d / "sm" / "saved_model.pb"))
    (d / "smtext" / "saved_model.pbtxt").write_text(tf_text.to_text(sm))
    for f in os.listdir(d / "sm" / "variables"):
        (d / "smtext" / "variables" / f).write_bytes((d / "sm" / "variables" / f).read_bytes())
    (d / "events_file").write_text(os.path.join("events", os.listdir(d / "events")[0]))
    return d


# --- the loaders: each returns what a learner would get, for comparison with the original's ---------------

def _checkpoint_values(prefix):
    reader = tf.train.NewCheckpointReader(prefix)
    return {k: reader.get_tensor(k).tolist() for k in sorted(reader.get_variable_to_shape_map())}


def _restore(prefix):
    with tf.Graph().as_default():
        v = [tf.Variable(np.zeros((2, 2), np.float32), name="w"), tf.Variable(np.int64(0), name="n"),
             tf.Variable(np.array([b"", b""], dtype=object), name="s")]
        with tf.Session() as sess:
            tf.train.Saver().restore(sess, prefix)
            return [x.tolist() for x in sess.run(v)]


def _import_graph(path):
    with tf.Graph().as_default() as g:
        tf.import_graph_def(graph_io.load_graph_def(path), name="")
        return len(g.get_operations())


def _import_meta(path):
    with tf.Graph().as_default() as g:
        saver = tf.train.import_meta_graph(path)
        if saver is not None:
            with tf.Session() as sess:
                saver.restore(sess, path[:-len(".meta")] if path.endswith("ck.meta") else path[:-len("_text.meta")])
        return len(g.get_operations())


def _load_saved_model(export_dir):
    with tf.Graph().as_default():
        with tf.Session() as sess:
            loader.load(sess, ["serve"], export_dir)
            return sess.run("w:0").tolist()


def _events(path):
    return [e.SerializeToString() for e in summary_iterator(path)]


def _state(directory):
    state = tf.train.get_checkpoint_state(directory)
    return state and (state.model_checkpoint_path, tf.train.latest_checkpoint(directory))


def _prefix_of(got, expected):
    """TF's record reader stops quietly at a tail shorter than a record header, so a file cut between
    records reads as its first records."""
    return got == expected[:len(got)]


# name: (file to mutate, loader given the root, is the file checksummed (success must give the original's
# result, or for event files its first records), does it hold a graph (structural mutations apply): text or
# binary)
LOADERS = {
    "checkpoint index (NewCheckpointReader)": ("ck.index", lambda d: _checkpoint_values(str(d / "ck")), True, None),
    "checkpoint index (list_variables)": ("ck.index", lambda d: tf.train.list_variables(str(d / "ck")), True, None),
    "checkpoint data (load_variable)": ("ck.data-00000-of-00001",
                                        lambda d: [tf.train.load_variable(str(d / "ck"), k).tolist()
                                                   for k in ("w", "s", "n")], True, None),
    "checkpoint data (Saver.restore)": ("ck.data-00000-of-00001", lambda d: _restore(str(d / "ck")), True, None),
    "checkpoint state file": ("checkpoint", lambda d: _state(str(d)), False, None),
    "GraphDef .pb": ("g.pb", lambda d: _import_graph(str(d / "g.pb")), False, "binary"),
    "GraphDef .pbtxt": ("g.pbtxt", lambda d: _import_graph(str(d / "g.pbtxt")), False, "text"),
    "meta graph (binary) and restore": ("ck.meta", lambda d: _import_meta(str(d / "ck.meta")), False, "binary"),
    "meta graph (text) and restore": ("ck_text.meta", lambda d: _import_meta(str(d / "ck_text.meta")), False,
                                      "text"),
    "SavedModel saved_model.pb": ("sm/saved_model.pb", lambda d: _load_saved_model(str(d / "sm")), False,
                                  "binary"),
    "SavedModel saved_model.pbtxt": ("smtext/saved_model.pbtxt", lambda d: _load_saved_model(str(d / "smtext")),
                                     False, "text"),
    "SavedModel variables": ("sm/variables/variables.index", lambda d: _load_saved_model(str(d / "sm")), True,
                             None),
    "events file (summary_iterator)": (None, lambda d: _events(str(d / (d / "events_file").read_text())),
                                       _prefix_of, None),
}


# --- mutations ----------------------------------------------------------------------------------------

def mutate_bytes(data, rng):
    b = bytearray(data)
    kind = rng.randrange(6)
    if kind == 0 and b:
        return bytes(b[:rng.randrange(len(b))])                                   # truncated
    if kind == 1 and b:
        for _ in range(rng.randint(1, 4)):
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)                       # bit flips
        return bytes(b)
    if kind == 2:
        pos = rng.randrange(len(b) + 1)
        b[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))  # inserted bytes
        return bytes(b)
    if kind == 3 and len(b) > 2:
        i, j = sorted(rng.sample(range(len(b)), 2))
        return bytes(b[:i] + b[j:] + b[i:j])                                      # spliced
    if kind == 4 and b:
        i = rng.randrange(len(b))
        return bytes(b[:i] + bytes([0xFF] * rng.randint(1, 10)) + b[i:])          # varint-breaking run
    return bytes(rng.randrange(256) for _ in range(rng.randint(0, 80)))           # garbage


WEIRD_INPUTS = ["%s:-1", "%s: 1", "%s:+1", "%s:0_1", "%s:abc", "%s:", "%s:99999999999999999999", "^%s:0",
                ":0", "^", "", "\u00e9\u00e9:0", "%s:01"]


def _tensor_attr(rng):
    av = attr_value_pb2.AttrValue()
    t = av.tensor
    t.dtype = rng.choice([types_pb2.DT_FLOAT, types_pb2.DT_STRING, types_pb2.DT_INT64, types_pb2.DT_HALF, 999])
    for d in rng.choice([[2 ** 33], [2 ** 28], [2 ** 32, 2 ** 32], [-3], [2, 2], [2 ** 62, 4]]):
        t.tensor_shape.dim.add(size=d)
    n = rng.choice([0, 1, 2, 5])
    if t.dtype == types_pb2.DT_STRING:
        t.string_val.extend([b"v"] * n)
    elif t.dtype == types_pb2.DT_INT64:
        t.int64_val.extend(range(n))
    else:
        t.float_val.extend([1.5] * n)
    if rng.random() < 0.2:
        t.tensor_content = bytes(rng.randrange(256) for _ in range(rng.randint(0, 12)))
    return av


def _other_attr(rng):
    av = attr_value_pb2.AttrValue()
    kind = rng.randrange(7)
    if kind == 0:
        av.i = rng.choice([-1, 3, 2 ** 62])
    elif kind == 1:
        av.f = float("nan")
    elif kind == 2:
        av.s = b"\xff\xfe"
    elif kind == 3:
        av.type = rng.choice([0, 7, 21, 120])
    elif kind == 4:
        av.shape.dim.add(size=rng.choice([-7, 2 ** 40]))
    elif kind == 5:
        av.list.i.extend([1, 2])
    else:
        av.func.name = "f"
    return av


def mutate_graph_def(gd, rng):
    """One structural change to a GraphDef (in place)."""
    nodes = list(gd.node)
    if not nodes:
        return
    nd = rng.choice(nodes)
    other = rng.choice(nodes).name
    kind = rng.randrange(8)
    if kind == 0 and nd.input:
        i = rng.randrange(len(nd.input))
        nd.input[i] = rng.choice(WEIRD_INPUTS).replace("%s", other)
    elif kind == 1 and nd.attr:
        del nd.attr[rng.choice(sorted(nd.attr))]
    elif kind == 2:
        nd.attr[rng.choice(sorted(nd.attr) or ["value"])].CopyFrom(_other_attr(rng))
    elif kind == 3:
        nd.attr[rng.choice(["value", "dtype", "shape", "T"])].CopyFrom(_tensor_attr(rng))
    elif kind == 4:
        nd.op = rng.choice(["Const", "Identity", "Switch", "Merge", "NoOp", "AddV2", "Assign", "NoSuchOp"])
    elif kind == 5:
        gd.node.add().CopyFrom(nd)                                        # a node named twice
    elif kind == 6:
        nd.input.append(nd.name)                                          # a cycle through itself
    else:
        gd.node.remove(nd)                                                # a node others read is gone


def deep_text(depth):
    """A GraphDef text nesting AttrValue.func.attr ``depth`` levels deep."""
    return ('node { name: "n" op: "NoOp" attr { key: "k" value { ' + 'func { name: "f" attr { key: "k" value { '
            * depth + "} } } " * depth + "} } }")


_PARSED = {}


def mutate_structure(data, text, rng, rel):
    """Parse the original, change its (first) graph, serialise it as the file is."""
    cls = {"g.pb": graph_def_pb2.GraphDef, "g.pbtxt": graph_def_pb2.GraphDef,
           "ck.meta": meta_graph_pb2.MetaGraphDef, "ck_text.meta": meta_graph_pb2.MetaGraphDef,
           "sm/saved_model.pb": saved_model_pb2.SavedModel,
           "smtext/saved_model.pbtxt": saved_model_pb2.SavedModel}[rel]
    if text and rng.random() < 0.05:
        return deep_text(rng.choice([300, 1000, 5000])).encode()
    if (rel, data) not in _PARSED:     # parse each original once (the text parser is slow)
        _PARSED[rel, data] = tf_text.from_text(data, cls) if text else graph_io.parse_message(cls, data, rel)
    msg = cls()
    msg.CopyFrom(_PARSED[rel, data])
    gd = msg if cls is graph_def_pb2.GraphDef else (
        msg.graph_def if cls is meta_graph_pb2.MetaGraphDef else msg.meta_graphs[0].graph_def)
    for _ in range(rng.randint(1, 3)):
        mutate_graph_def(gd, rng)
    return tf_text.to_text(msg).encode() if text else msg.SerializeToString()


# --- the check ----------------------------------------------------------------------------------------

def documented(e, path, root):
    """Why ``e`` is not one of the documented errors with a clear message, or None when it is."""
    text = str(e)
    # the file, or a node, op, tensor or collection of it by name (quoted)
    names_something = os.path.basename(path) in text or str(root) in text or re.search(r"'[^']+'", text)
    if isinstance(e, OpError):
        if isinstance(e, DataLossError) and os.path.basename(path) not in text:
            return "DataLossError does not name the file"
        return None if text.strip() else "empty message"
    if type(e) is ValueError:
        return None if names_something else "ValueError names neither the file nor a node"
    if type(e) is RuntimeError and "could not be found in SavedModel" in text:
        return None
    return "undocumented %s" % type(e).__name__


def test_every_loader_on_mutated_files(originals, tmp_path):
    rng = random.Random(SEED)
    failures, counts, times = [], {}, []
    start = time.perf_counter()
    for name, (rel, load, checksummed, form) in LOADERS.items():
        work = tmp_path / ("w%d" % len(counts))
        _copy_tree(originals, work)
        rel = rel or (work / "events_file").read_text()
        target = work / rel
        original = target.read_bytes()
        expected = load(work)
        count = PER_TEXT_LOADER if form == "text" else PER_LOADER
        for i in range(count):
            if form and i % 5 < 2:
                blob = mutate_structure(original, form == "text", rng, rel)
            else:
                blob = mutate_bytes(original, rng)
            target.write_bytes(blob)
            try:
                got = load(work)
            except Exception as e:  # noqa: BLE001  (classified below)
                why = documented(e, str(target), work)
                if why:
                    failures.append("%s, mutation %d: %s: %s: %s" % (name, i, why, type(e).__name__, str(e)[:300]))
            else:
                same = checksummed(got, expected) if callable(checksummed) else got == expected
                if checksummed and not same:
                    failures.append("%s, mutation %d: loaded silently with different content" % (name, i))
        target.write_bytes(original)
        counts[name] = count
        print("%-40s %d mutated files, %.1f s" % (name, count, time.perf_counter() - start - sum(times)))
        times.append(time.perf_counter() - start - sum(times))
    elapsed = time.perf_counter() - start
    print("fuzzed %d mutated files into %d loaders in %.1f s" % (sum(counts.values()), len(counts), elapsed))
    assert not failures, "%d of %d mutated files:\n%s" % (len(failures), sum(counts.values()),
                                                          "\n".join(failures[:40]))
    assert sum(counts.values()) == 10 * PER_LOADER + 3 * PER_TEXT_LOADER == 3450


def _copy_tree(src, dest):
    for f in sorted(src.rglob("*")):
        out = dest / f.relative_to(src)
        if f.is_dir():
            out.mkdir(parents=True, exist_ok=True)
        else:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(f.read_bytes())
