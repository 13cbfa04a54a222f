"""One real-TensorFlow run for the RNN test modules (test_rnn_graphs.py, test_rnn_values.py,
test_rnn_interop.py): importing TF costs seconds, so their snippets go to a single subprocess, run once per
test session.

graphlab writes its files first (TF reads them in the same run), in a directory kept for the session."""
import atexit
import functools
import json
import os
import shutil
import tempfile

import numpy as np

import graphlab
from tests import tfref
from tests.programs.test_same_graph_as_tf import DUMP

TF_SCRIPT = DUMP + """
graphs_in, errors_in, values_in = (json.loads(a) for a in sys.argv[1:4])
results = {"graphs": {}, "errors": {}, "values": {}, "frame_attrs": {}}
exec(ATTRS_DUMP)
for key, src in graphs_in.items():
    tf.reset_default_graph()
    exec(src)
    results["graphs"][key] = dump()
    results["frame_attrs"][key] = frame_attrs()
for key, src in errors_in.items():
    tf.reset_default_graph()
    try:
        exec(src)
        results["errors"][key] = None
    except Exception as e:
        results["errors"][key] = [type(e).__name__, str(e)]
tf.reset_default_graph()
exec(FACTS)
results["facts"] = facts
for key, src in values_in.items():
    tf.reset_default_graph()
    exec(PRELUDE + src)
    results["values"][key] = run(fetch, feed)
tf.reset_default_graph()
exec(PRELUDE + TRAINING)
results["training"] = {"losses": losses, "kernel": kernel}
tf.reset_default_graph()
exec(PRELUDE + CHECKPOINT_MODEL)
with tf.Session() as sess:
    saver.restore(sess, sys.argv[4])
    results["from_graphlab"] = sess.run(out[-1], {x: X}).tolist()
    sess.run(tf.global_variables_initializer())     # TF's own initial weights, saved for graphlab
    saver.save(sess, sys.argv[5])
    results["tf_saved"] = sess.run(out[-1], {x: X}).tolist()
# dynamic_rnn's model: graphlab's files run here; TF's own are written for graphlab
interop = results["interop"] = {}
ours_dir, tf_dir = sys.argv[6], sys.argv[7]
def feed_of():
    return {"x:0": X, "lengths:0": LENGTHS}
tf.reset_default_graph()
exec(INPUTS)
saver = tf.train.import_meta_graph(ours_dir + "/model.ckpt.meta")
with tf.Session() as sess:
    saver.restore(sess, ours_dir + "/model.ckpt")
    interop["meta"] = [v.tolist() for v in sess.run(["y:0", "seq:0"], feed_of())]
tf.reset_default_graph()
graph_def = tf.GraphDef()
with open(ours_dir + "/frozen.pb", "rb") as f:
    graph_def.ParseFromString(f.read())
tf.import_graph_def(graph_def, name="")
with tf.Session() as sess:
    interop["frozen"] = [v.tolist() for v in sess.run(["y:0", "seq:0"], feed_of())]
tf.reset_default_graph()
with tf.Session() as sess:
    meta = tf.saved_model.loader.load(sess, ["serve"], ours_dir + "/saved_model")
    signature = meta.signature_def["serving_default"]
    interop["saved_model"] = sess.run(signature.outputs["y"].name, {
        signature.inputs["x"].name: X, signature.inputs["lengths"].name: LENGTHS}).tolist()
tf.reset_default_graph()
exec(INTEROP_MODEL)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    saver.save(sess, tf_dir + "/model.ckpt")
    interop["tf_model"] = [v.tolist() for v in sess.run(["y:0", "seq:0"], feed_of())]
    frozen = tf.graph_util.convert_variables_to_constants(sess, tf.get_default_graph().as_graph_def(), ["y", "seq"])
    with open(tf_dir + "/frozen.pb", "wb") as f:
        f.write(frozen.SerializeToString())
    try:
        sess.run("y:0", {"x:0": X, "lengths:0": [1, 2]})
    except tf.errors.InvalidArgumentError as e:
        interop["bad_lengths"] = str(e)
print(json.dumps(results))
"""


def _save_graphlab_checkpoint(values_module, path):
    graphlab.reset_default_graph()
    scope = {"tf": graphlab, "np": np}
    exec(values_module.PRELUDE + values_module.CHECKPOINT_MODEL, scope)
    with graphlab.Session() as sess:
        sess.run(graphlab.global_variables_initializer())
        scope["load_weights"](sess)
        scope["saver"].save(sess, path)
        saved = sess.run(scope["out"][-1], {scope["x"]: scope["X"]})
    graphlab.reset_default_graph()
    return saved


@functools.lru_cache(maxsize=None)
def tf_results():
    """TF's graphs, errors, facts, values, training losses and checkpoint round trip, plus what graphlab
    saved (``graphlab_saved``) and where TF's checkpoint is (``tf_ckpt``)."""
    from tests.ops import test_rnn_graphs as graphs, test_rnn_interop as interop, test_rnn_values as values
    tfref.require_tf()
    tmp = tempfile.mkdtemp(prefix="graphlab_rnn_")
    atexit.register(shutil.rmtree, tmp, True)
    for sub in ("ours", "tf"):
        os.mkdir(os.path.join(tmp, sub))
    ours_saved = _save_graphlab_checkpoint(values, tmp + "/graphlab.ckpt")
    ours_model = interop.save_graphlab_model(values.PRELUDE, tmp + "/ours")
    sources = {"FACTS": graphs.FACTS, "ATTRS_DUMP": graphs.ATTRS_DUMP, "FRAME_ATTRS": graphs.FRAME_ATTRS,
               "PRELUDE": values.PRELUDE, "TRAINING": values.TRAINING, "CHECKPOINT_MODEL": values.CHECKPOINT_MODEL,
               "INPUTS": interop.INPUTS, "INTEROP_MODEL": interop.MODEL}
    script = "".join("%s = %r\n" % item for item in sources.items()) + TF_SCRIPT
    theirs = tfref.run_tf_json(script, json.dumps(graphs.GRAPHS), json.dumps(graphs.ERRORS),
                               json.dumps(values.VALUES), tmp + "/graphlab.ckpt", tmp + "/tf.ckpt",
                               tmp + "/ours", tmp + "/tf")
    theirs.update(graphlab_saved=ours_saved, tf_ckpt=tmp + "/tf.ckpt", graphlab_model=ours_model,
                  tf_model_dir=tmp + "/tf")
    return theirs
