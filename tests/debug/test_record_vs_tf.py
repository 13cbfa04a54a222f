"""The same graph recorded on graphlab and on real TensorFlow (through TF's own debugger dumps, in TF's
process): the same values per tensor and loop iteration, and the first NaN/Inf op is the one TF's
has_inf_or_nan filter finds in its dump."""
import json
import textwrap

import numpy as np

import graphlab
import graphlab.debug as tf_debug
import tfref

# one program, built with `tf` bound to graphlab or to tensorflow.compat.v1
PROGRAM = textwrap.dedent('''
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    labels = tf.placeholder(tf.float32, [None, 2], name="labels")
    w = tf.Variable(np.arange(6, dtype=np.float32).reshape(3, 2) / 10, name="w")
    logits = tf.matmul(x, w, name="logits")
    probs = tf.nn.softmax(logits, name="probs")
    logp = tf.log(probs, name="logp")
    loss = tf.negative(tf.reduce_sum(labels * logp), name="loss")
    scaled = tf.cond(loss > 1.0, lambda: loss * 0.5, lambda: loss + 1.0, name="c")
    i0 = tf.constant(0, name="i0")
    _, grown = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * 2.0), [i0, tf.reduce_sum(w)],
                             name="loop")
    total = tf.add(scaled, grown, name="total")
    sess = tf.Session(config=CONFIG)
    sess.run(tf.global_variables_initializer())
    SMALL = {x: [[1, 2, 3], [0, -1, 2]], labels: [[1, 0], [0, 1]]}
    HUGE = {x: [[1000, 2000, 3000], [0, -1, 2]], labels: [[1, 0], [0, 1]]}
''')

TF_SCRIPT = '''
import json, os, shutil, tempfile
import numpy as np
import tensorflow.compat.v1 as tf
tf.disable_v2_behavior()
from tensorflow.python.debug.lib import debug_data, debug_utils
import graphlab.debug
from tensorflow.core.protobuf import rewriter_config_pb2
# TF's graph optimizer off, so that TF runs the graph as built: with it on, grappler rewrites log(softmax(x))
# into a LogSoftmax that does not underflow, and there is no NaN to hunt
CONFIG = tf.ConfigProto(graph_options=tf.GraphOptions(
    rewrite_options=rewriter_config_pb2.RewriterConfig(disable_meta_optimizer=True)))
exec(PROGRAM)

def values(record):
    out = {}
    for r in record.ops:
        for v in r.outputs:
            if v.value is not None:
                out.setdefault(v.name, []).append(np.asarray(v.value, dtype=np.float64).tolist())
    return out

small = graphlab.debug.record(sess, total, SMALL)
huge = graphlab.debug.record(sess, total, HUGE)
# TF's own first NaN/Inf: its dump of the same run, searched with its has_inf_or_nan filter
root = tempfile.mkdtemp()
options = tf.RunOptions()
debug_utils.watch_graph(options, sess.graph, debug_urls=["file://" + root])
sess.run(total, HUGE, options=options)
dump = debug_data.DebugDumpDir(root)
first = dump.find(debug_data.has_inf_or_nan, first_n=1)
shutil.rmtree(root)
print(json.dumps({"small": values(small), "huge": values(huge), "results": [float(small.results), float(huge.results)],
                  "tf_first": first[0].node_name, "ours_on_tf": huge.first_inf_or_nan().name,
                  "source": small.source,
                  "iterations": [r.iteration for r in small.ops if r.name == "loop/mul"]}, allow_nan=True))
'''


def _values(record):
    out = {}
    for r in record.ops:
        for v in r.outputs:
            if v.value is not None:
                out.setdefault(v.name, []).append(np.asarray(v.value, dtype=np.float64).tolist())
    return out


def test_recorded_values_and_first_nan_match_tensorflow():
    reference = json.loads(tfref.run_tf_with_graphlab(
        "PROGRAM = %r\n%s" % (PROGRAM, TF_SCRIPT)).strip().splitlines()[-1])
    namespace = {"tf": graphlab, "np": np, "CONFIG": None}
    exec(PROGRAM, namespace)
    sess, total = namespace["sess"], namespace["total"]
    small = tf_debug.record(sess, total, namespace["SMALL"])
    huge = tf_debug.record(sess, total, namespace["HUGE"])
    assert reference["source"] == "tensorflow"
    for ours, theirs in ((small, reference["small"]), (huge, reference["huge"])):
        mine = _values(ours)
        common = set(mine) & set(theirs)
        # the user's ops are all there on both sides (TF's graph rewrites may rename a few of its own)
        for name in ("w:0", "logits:0", "probs:0", "logp:0", "loss:0", "c/Merge:0", "loop/mul:0",
                     "loop/Exit_1:0", "total:0"):
            assert name in theirs and name in mine, name
        assert len(common) > 25
        for name in sorted(common):
            assert len(mine[name]) == len(theirs[name]), name
            for a, b in zip(mine[name], theirs[name]):
                np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6, err_msg=name)
    np.testing.assert_allclose([float(small.results), float(huge.results)], reference["results"], rtol=1e-6)
    assert np.isinf(reference["results"][1])
    # the first op with an Inf or NaN: TF's has_inf_or_nan in TF's dump, ours on TF, ours on graphlab
    assert reference["tf_first"] == "logp"
    assert reference["ours_on_tf"] == "logp"
    assert huge.first_inf_or_nan().name == "logp"
    assert [r.iteration for r in small.ops if r.name == "loop/mul" and not r.dead] == reference["iterations"]
