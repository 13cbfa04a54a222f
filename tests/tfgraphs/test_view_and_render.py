"""The engine-neutral graph view on real TensorFlow graphs (graphlab.graphview.adapt): ops, inputs, control
inputs, attrs, shapes and creating lines read from a tf.Graph; the lints and the renderer use it, and a TF
run's RunMetadata step stats give the overlay of what actually ran. Runs under TF's Python with graphlab."""
import json

from tfref import run_tf_with_graphlab

SCRIPT = r'''
import json
import numpy as np
import tensorflow.compat.v1 as tf
tf.disable_v2_behavior()
from graphlab import graphview, viz
from graphlab.lint import checks, lint_graph

x = tf.placeholder(tf.float32, [None, 3], name="x")
w = tf.Variable(tf.ones([3, 1]), name="w")
y = tf.matmul(x, w, name="y")
with tf.control_dependencies([y]):
    z = tf.identity(x, name="z")
table = tf.constant(np.zeros((600, 600), np.float32), name="table")
unused = tf.square(x, name="unused")
g = graphview.adapt(tf.get_default_graph())
same = graphview.adapt(tf.get_default_graph()) is g
ops = {op.name: op for op in g._ops}
out = {
    "same_adapter": same,
    "names": [op.name for op in g._ops],
    "y_inputs": [t.name for t in ops["y"]._inputs],
    "z_controls": [c.name for c in ops["z"]._control_inputs],
    "y_shape": graphview.shape_label(ops["y"]._outputs[0]._shape),
    "y_line": [ops["y"].source_line.filename, ops["y"].source_line.lineno],
    "y_attrs": sorted(ops["y"]._attrs),
    "large": [(c.op.name, list(c.shape), c.nbytes) for c in checks.large_constants(g._ops)],
    "lint": lint_graph(g, 100, 1 << 20),
}
before = len(g._ops)
for i in range(120):
    x = x + 1.0
out["grown"] = len(g._ops) - before
out["growth"] = [(gr.source_line.lineno, gr.count) for gr in checks.op_growth(g._ops[before:], 100)]
r = viz.render(tf.get_default_graph(), fetches=[y], feeds=[x.graph.get_tensor_by_name("x:0")], collapse=None)
out["pruned"] = r.info["overlay"]["active"]
with tf.Session() as s:
    s.run(w.initializer)
    md = tf.RunMetadata()
    s.run(y, {"x:0": [[1, 2, 3]]}, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE), run_metadata=md)
r = viz.render(tf.get_default_graph(), run_metadata=md)
out["ran"] = r.info["overlay"]["active"]
out["svg"] = r.svg()[:5]
out["graph_def_ops"] = viz.render(tf.get_default_graph().as_graph_def()).info["ops"]
out["live_ops"] = viz.render(tf.get_default_graph()).info["ops"]
print(json.dumps(out))
'''


def test_tf_graph_through_the_view_lints_and_renderer():
    out = json.loads(run_tf_with_graphlab(SCRIPT).strip().splitlines()[-1])
    assert out["same_adapter"] is True
    assert out["names"][:3] == ["x", "ones", "w"]
    assert out["y_inputs"] == ["x:0", "w/read:0"]
    assert out["z_controls"] == ["y"]
    assert out["y_shape"] == "[?,1]"
    assert out["y_line"] == ["<string>", 11]           # the user's line, from TF's op traceback
    assert out["y_attrs"] == ["T", "_has_manual_control_dependencies", "grad_a", "grad_b", "transpose_a", "transpose_b"]
    assert out["large"] == [["table", [600, 600], 1440000]]
    assert out["lint"] == ["<string>:14 embeds constant table: shape [600, 600], float32, 1.4 MiB"]
    assert out["grown"] == 240 and out["growth"] == [[32, 240]]
    assert out["pruned"] == ["w", "w/read", "y"]
    assert out["ran"] == ["w", "w/read", "y"]          # what TF's step stats say ran (x was fed)
    assert out["svg"] == "<?xml" or out["svg"].startswith("<svg")
    assert out["graph_def_ops"] == out["live_ops"]
