"""The `graphlab` command, run in a subprocess as a user runs it: help on every subcommand, inspect of a
TF-written checkpoint beside TF's own inspect_checkpoint, freeze, graph transforms whose results TF runs
to the same outputs, saved-model show/run beside TF's saved_model_cli, show, lint, and errors that name the
file and say what to do."""
import os
import re
import sys

import numpy as np
import pytest

from clirun import REPO, graphlab
from tfref import require_tf, run_tf, run_tf_json

SUBCOMMANDS = ["inspect", "show", "lint", "freeze", "saved-model", "transform", "serve"]

BUILD = r'''
import sys, numpy as np
import graphlab as tf
d = sys.argv[1]
rng = np.random.RandomState(0)
x = tf.placeholder(tf.float32, [None, 8, 8, 3], name="x")
w = tf.Variable(rng.randn(3, 3, 3, 16).astype(np.float32) * 0.3, name="conv/w")
y = tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME")
mean = tf.Variable(rng.randn(16).astype(np.float32) * 0.1, name="bn/mean")
var = tf.Variable(rng.rand(16).astype(np.float32) + 0.5, name="bn/var")
gamma = tf.Variable(rng.rand(16).astype(np.float32) + 0.5, name="bn/gamma")
beta = tf.Variable(rng.randn(16).astype(np.float32), name="bn/beta")
y = tf.nn.batch_normalization(y, mean, var, beta, gamma, 1e-3)
y = tf.check_numerics(tf.nn.relu(y), "bad")
y = tf.reshape(y, [-1, 8 * 8 * 16])
w2 = tf.Variable(rng.randn(8 * 8 * 16, 10).astype(np.float32) * 0.05, name="fc/w")
logits = tf.identity(tf.matmul(y, w2) + tf.constant(np.arange(10, dtype=np.float32)), name="logits")
unused = tf.reduce_sum(w2, name="unused")
saver = tf.train.Saver()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    saver.save(sess, d + "/model.ckpt", global_step=1)
    tf.saved_model.simple_save(sess, d + "/export/1", {"x": x}, {"logits": logits})
'''

# Runs GraphDefs in TF: argv = input .npy, then .pb files; prints each graph's logits for that input.
TF_RUN_GRAPHS = r'''
x = np.load(sys.argv[1])
out = []
for path in sys.argv[2:]:
    gd = tf.GraphDef()
    with open(path, "rb") as f:
        gd.ParseFromString(f.read())
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(gd, name="")
        with tf.Session(graph=g) as sess:
            out.append(sess.run("logits:0", {"x:0": x}).tolist())
print(json.dumps(out))
'''


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    d = tmp_path_factory.mktemp("model")
    script = d / "build.py"
    script.write_text(BUILD)
    import subprocess
    from clirun import env
    subprocess.run([sys.executable, str(script), str(d)], check=True, env=env(), cwd=REPO, timeout=300)
    graphlab("freeze", "--input_meta_graph", d / "model.ckpt-1.meta", "--input_checkpoint", d,
             "--output_node_names", "logits", "--output_graph", d / "frozen.pb")
    return d


def test_help_on_every_subcommand():
    top = graphlab("--help")
    for name in SUBCOMMANDS:
        assert name in top.stdout
        proc = graphlab(name, "--help")
        assert proc.stdout.startswith("usage: graphlab " + name), proc.stdout[:200]
    for action in ("show", "run"):
        assert "--dir" in graphlab("saved-model", action, "--help").stdout


def test_console_script_declared():
    text = open(os.path.join(REPO, "pyproject.toml")).read()
    assert re.search(r'^\[project\.scripts\]\s*\ngraphlab = "graphlab\.cli\.main:main"', text, re.M)
    from graphlab.cli.main import main
    assert callable(main)


# --- inspect ------------------------------------------------------------------------------------------

TF_CKPT = r'''
d = sys.argv[1]
a = tf.Variable(np.arange(6, dtype=np.float32).reshape(2, 3) / 7, name="a")
b = tf.Variable(np.array([1, 2], np.int64), name="scope/b")
c = tf.Variable(3.5, dtype=tf.float64, name="c")
s = tf.train.Saver()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    s.save(sess, d + "/model.ckpt", global_step=3)
import contextlib, io
from tensorflow.python.tools import inspect_checkpoint
outs = {}
for key, args in (("list", ("", False)), ("all", ("", True)), ("a", ("a", False))):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        inspect_checkpoint.print_tensors_in_checkpoint_file(d + "/model.ckpt-3", *args)
    outs[key] = buf.getvalue()
print(json.dumps(outs))
'''


def test_inspect_matches_tf_inspect_checkpoint(tmp_path):
    tf_out = run_tf_json(TF_CKPT, tmp_path)
    prefix = tmp_path / "model.ckpt-3"
    assert graphlab("inspect", prefix).stdout == tf_out["list"]
    assert graphlab("inspect", prefix, "--all").stdout == tf_out["all"]
    assert graphlab("inspect", prefix, "--tensor", "a").stdout == tf_out["a"]
    # a directory means its latest checkpoint; a file of the checkpoint means its prefix
    assert graphlab("inspect", tmp_path, "--all").stdout == tf_out["all"]
    assert graphlab("inspect", str(prefix) + ".index", "--all").stdout == tf_out["all"]


def test_inspect_errors_name_the_file(tmp_path):
    proc = graphlab("inspect", tmp_path / "nope", check=False)
    assert proc.returncode == 2
    assert str(tmp_path / "nope") in proc.stderr and "Pass the prefix" in proc.stderr
    proc = graphlab("inspect", tmp_path, check=False)
    assert proc.returncode == 2 and "no `checkpoint` file" in proc.stderr


def test_inspect_unknown_tensor(model):
    proc = graphlab("inspect", model, "--tensor", "conv/ww", check=False)
    assert proc.returncode == 2
    assert "Tensor conv/ww not found in checkpoint" in proc.stderr and "conv/w" in proc.stderr


# --- freeze and transform -----------------------------------------------------------------------------

ALL = ('strip_unused_nodes(type=float, shape="2,8,8,3") remove_nodes(op=Identity, op=CheckNumerics) '
       'fold_constants(ignore_errors=true) fold_batch_norms quantize_weights sort_by_execution_order')


def _read(path):
    from graphlab.framework import graph_io
    return graph_io.load_graph_def(str(path))


def test_freeze_from_meta_graph_and_saved_model(model):
    gd = _read(model / "frozen.pb")
    ops = [n.op for n in gd.node]
    assert "VariableV2" not in ops and "unused" not in [n.name for n in gd.node]
    graphlab("freeze", "--input_saved_model_dir", model / "export" / "1", "--output_node_names", "logits",
             "--output_graph", model / "frozen_sm.pbtxt")
    gd2 = _read(model / "frozen_sm.pbtxt")
    assert sorted(n.name for n in gd2.node) == sorted(n.name for n in gd.node)


def test_freeze_errors(model):
    proc = graphlab("freeze", "--input_meta_graph", model / "model.ckpt-1.meta", "--output_node_names", "logits",
                    "--output_graph", model / "f.pb", check=False)
    assert proc.returncode == 2 and "--input_checkpoint is needed" in proc.stderr
    proc = graphlab("freeze", "--input_meta_graph", model / "model.ckpt-1.meta", "--input_checkpoint", model,
                    "--output_node_names", "logits:0", "--output_graph", model / "f.pb", check=False)
    assert proc.returncode == 2 and "no node named logits:0" in proc.stderr and "model.ckpt-1.meta" in proc.stderr


TRANSFORMS = [
    'strip_unused_nodes(type=float, shape="2,8,8,3")',
    "remove_nodes(op=Identity, op=CheckNumerics)",
    "fold_constants(ignore_errors=true)",
    "fold_constants fold_batch_norms",
    "quantize_weights",
    "sort_by_execution_order",
    ALL,
]


@pytest.fixture(scope="module")
def transformed(model, tmp_path_factory):
    """{transforms: (path, TF's logits before, TF's logits after)}: every transform through the command, then
    one TF process runs the frozen graph and each result on the same input."""
    d = tmp_path_factory.mktemp("transformed")
    paths = []
    for k, transforms in enumerate(TRANSFORMS):
        out = d / ("t%d.pb" % k)
        graphlab("transform", "--in_graph", model / "frozen.pb", "--out_graph", out, "--inputs", "x",
                 "--outputs", "logits", "--transforms", transforms)
        paths.append(out)
    x = np.random.RandomState(1).randn(2, 8, 8, 3).astype(np.float32)
    np.save(d / "x.npy", x)
    results = run_tf_json(TF_RUN_GRAPHS, d / "x.npy", model / "frozen.pb", *paths)
    before = np.array(results[0])
    return {t: (p, before, np.array(r)) for t, p, r in zip(TRANSFORMS, paths, results[1:])}


@pytest.mark.parametrize("transforms", TRANSFORMS)
def test_transformed_graph_runs_in_tf_with_same_outputs(model, transformed, transforms):
    out, before, after = transformed[transforms]
    gd = _read(out)
    ops = [n.op for n in gd.node]
    if "remove_nodes" in transforms:
        assert "CheckNumerics" not in ops and ops.count("Identity") == 1  # the output itself stays
    if "fold_constants" in transforms:
        assert "Rsqrt" not in ops
    if "fold_batch_norms" in transforms:
        assert ops.count("Mul") == 0 and ops.count("Conv2D") == 1
    if "quantize_weights" in transforms:
        assert "Dequantize" in ops and os.path.getsize(out) < os.path.getsize(model / "frozen.pb") / 2
    if transforms.startswith("strip"):
        x = next(n for n in gd.node if n.name == "x")
        assert [d.size for d in x.attr["shape"].shape.dim] == [2, 8, 8, 3]
    if "quantize_weights" in transforms:
        # 8-bit weights: the logits move, but by far less than their spread
        err = np.abs(after - before).max()
        assert 0 < err < 0.05 * (before.max() - before.min()), err
    else:
        np.testing.assert_allclose(after, before, rtol=1e-4, atol=1e-4)


def test_quantize_matches_tf_dequantize():
    """graphlab's codes dequantized by TF's own Dequantize op give back the weights within one step, and
    graphlab's Dequantize gives TF's floats exactly."""
    import graphlab
    from graphlab.tools.graph_transforms import quantize_float
    w = np.random.RandomState(2).randn(40, 30).astype(np.float32)
    codes, lo, hi = quantize_float(w)
    out = run_tf_json(r'''
codes = np.array(json.loads(sys.argv[1]), np.uint8)
t = tf.dequantize(tf.constant(codes, tf.quint8), float(sys.argv[2]), float(sys.argv[3]), mode="MIN_FIRST")
with tf.Session() as sess:
    print(json.dumps(sess.run(t).tolist()))
''', __import__("json").dumps(codes.tolist()), repr(float(lo)), repr(float(hi)))
    out = np.array(out, np.float32)
    step = (hi - lo) / 255
    assert np.abs(out - w).max() <= step
    with graphlab.Graph().as_default(), graphlab.Session() as sess:
        ours = sess.run(graphlab.dequantize(graphlab.constant(codes.view(graphlab.quint8.as_numpy_dtype)),
                                            float(lo), float(hi), mode="MIN_FIRST"))
    np.testing.assert_array_equal(ours, out)


def test_transform_errors(model, tmp_path):
    proc = graphlab("transform", "--in_graph", model / "frozen.pb", "--out_graph", tmp_path / "t.pb",
                    "--outputs", "logits", "--transforms", "fold_everything", check=False)
    assert proc.returncode == 2 and "unknown transform 'fold_everything'" in proc.stderr
    assert "frozen.pb" in proc.stderr and "strip_unused_nodes" in proc.stderr
    proc = graphlab("transform", "--in_graph", tmp_path / "missing.pb", "--out_graph", tmp_path / "t.pb",
                    "--outputs", "logits", "--transforms", "sort_by_execution_order", check=False)
    assert proc.returncode == 2 and "missing.pb: no such file" in proc.stderr
    (tmp_path / "junk.pb").write_bytes(b"\xff\xff not a graph")
    proc = graphlab("transform", "--in_graph", tmp_path / "junk.pb", "--out_graph", tmp_path / "t.pb",
                    "--outputs", "logits", "--transforms", "sort_by_execution_order", check=False)
    assert proc.returncode == 2 and "junk.pb" in proc.stderr and "Traceback" not in proc.stderr


def test_sort_by_execution_order_puts_inputs_first():
    from graphlab.formats.protos import graph_def_pb2
    from graphlab.tools.graph_transforms import transform_graph
    gd = graph_def_pb2.GraphDef()
    for name, op, inputs in (("c", "Add", ["a", "b"]), ("b", "Const", []), ("a", "Const", ["^b"])):
        nd = gd.node.add(name=name, op=op)
        nd.input.extend(inputs)
    out = transform_graph(gd, [], ["c"], "sort_by_execution_order")
    assert [n.name for n in out.node] == ["b", "a", "c"]


# --- saved-model --------------------------------------------------------------------------------------

TF_SAVED_MODEL = r'''
d = sys.argv[1]
x = tf.placeholder(tf.float32, [None, 3], name="x")
k = tf.placeholder(tf.int32, [], name="k")
w = tf.Variable([[1., 2.], [3., 4.], [5., 6.]], name="w")
y = tf.matmul(x, w, name="y")
z = tf.identity(y * tf.cast(k, tf.float32), name="z")
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    tf.saved_model.simple_save(sess, d, {"x": x, "k": k}, {"y": y, "scaled": z})
import contextlib, io
from tensorflow.python.tools import saved_model_cli as smc
def cli(fn, *a):  # saved_model_cli's own functions, as its show/run commands call them
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        fn(*a)
    return buf.getvalue()
xv = np.array([[1., 0., 2.]], np.float32)
np.save(d + "_x.npy", xv)
print(json.dumps({
    "tags": cli(smc._show_tag_sets, d),
    "sigs": cli(smc._show_signature_def_map_keys, d, "serve"),
    "sig": cli(smc._show_inputs_outputs, d, "serve", "serving_default"),
    "all": cli(smc._show_all, d),
    "run": cli(smc.run_saved_model_with_feed_dict, d, "serve", "serving_default", {"x": xv, "k": np.array(3)},
               None, False),
}))
'''


def _ops_set(text):
    """saved_model_cli prints the op set as a Python set (unordered): compare it as a set."""
    lines = []
    ops = None
    for line in text.splitlines():
        if line.startswith("The MetaGraph with tag set"):
            ops = set(re.findall(r"'([A-Za-z0-9_]+)'", line.split("ops:", 1)[1]))
            line = line.split("ops:", 1)[0]
        lines.append(line)
    return "\n".join(lines), ops


def test_saved_model_show_and_run_match_saved_model_cli(tmp_path):
    d = tmp_path / "sm"
    tf_out = run_tf_json(TF_SAVED_MODEL, d)
    assert graphlab("saved-model", "show", "--dir", d).stdout == tf_out["tags"]
    assert graphlab("saved-model", "show", "--dir", d, "--tag_set", "serve").stdout == tf_out["sigs"]
    assert graphlab("saved-model", "show", "--dir", d, "--tag_set", "serve", "--signature_def",
                    "serving_default").stdout == tf_out["sig"]
    ours = _ops_set(graphlab("saved-model", "show", "--dir", d, "--all").stdout)
    assert ours == _ops_set(tf_out["all"]) and ours[1]
    run = graphlab("saved-model", "run", "--dir", d, "--tag_set", "serve", "--signature_def", "serving_default",
                   "--inputs", "x=%s_x.npy" % d, "--input_exprs", "k=3")
    assert run.stdout == tf_out["run"]
    graphlab("saved-model", "run", "--dir", d, "--tag_set", "serve", "--inputs", "x=%s_x.npy" % d,
             "--input_exprs", "k=3", "--outdir", tmp_path / "out")
    np.testing.assert_allclose(np.load(tmp_path / "out" / "scaled.npy"), [[33., 42.]])


def test_saved_model_errors(model, tmp_path):
    proc = graphlab("saved-model", "show", "--dir", tmp_path, check=False)
    assert proc.returncode == 2 and "not a SavedModel directory" in proc.stderr and str(tmp_path) in proc.stderr
    d = model / "export" / "1"
    proc = graphlab("saved-model", "run", "--dir", d, "--tag_set", "serve", "--signature_def",
                    "serving_default", "--input_exprs", "x=__import__('os').system('true')", check=False)
    assert proc.returncode == 2 and "not a Python literal" in proc.stderr
    proc = graphlab("saved-model", "show", "--dir", d, "--tag_set", "train", check=False)
    assert proc.returncode == 2 and "no MetaGraphDef with tag-set 'train'" in proc.stderr
    proc = graphlab("saved-model", "run", "--dir", d, "--tag_set", "serve", "--input_exprs", "y=[1]",
                    check=False)
    assert proc.returncode == 2 and '"y" is not a valid input key' in proc.stderr


def test_saved_model_run_on_graphlab_export(model):
    x = np.zeros((1, 8, 8, 3), np.float32)
    np.save(model / "x0.npy", x)
    out = graphlab("saved-model", "run", "--dir", model / "export" / "1", "--tag_set", "serve",
                   "--inputs", "x=%s" % (model / "x0.npy")).stdout
    assert out.startswith("Result for output key logits:\n[[")


# --- show and lint ------------------------------------------------------------------------------------

def test_show_writes_dot_and_svg(model, tmp_path):
    proc = graphlab("show", model / "frozen.pb", "-o", tmp_path / "g.dot", "--fetch", "logits", "--feed", "x")
    text = (tmp_path / "g.dot").read_text()
    assert text.startswith("digraph") and "Conv2D" in text
    assert "wrote" in proc.stdout
    graphlab("show", model / "export" / "1", "-o", tmp_path / "sm.dot")
    assert "unused" not in (tmp_path / "sm.dot").read_text()   # the signature's pruned subgraph
    from graphlab.viz.result import dot_executable
    if dot_executable():
        graphlab("show", model / "model.ckpt-1.meta", "-o", tmp_path / "g.svg")
        assert (tmp_path / "g.svg").read_text().lstrip().startswith(("<?xml", "<svg"))
    proc = graphlab("show", model / "frozen.pb", "-o", tmp_path / "g.jpg", check=False)
    assert proc.returncode == 2 and "name the output .svg, .png or .dot" in proc.stderr
    proc = graphlab("show", model / "frozen.pb", "-o", tmp_path / "g.dot", "--fetch", "nope", check=False)
    assert proc.returncode == 2 and "frozen.pb" in proc.stderr


def test_lint_reports_findings(tmp_path):
    script = tmp_path / "loop.py"
    script.write_text("import graphlab as tf\nx = tf.Variable(1.0)\nfor i in range(30):\n"
                      "    x = x + tf.constant(1.0)\n")
    proc = graphlab("lint", script, check=False)
    assert proc.returncode == 1 and "duplicate earlier ops" in proc.stdout
    clean = tmp_path / "clean.py"
    clean.write_text("import graphlab as tf\nx = tf.constant(1.0)\n")
    assert graphlab("lint", clean).stdout == ""
    proc = graphlab("lint", tmp_path / "missing.py", check=False)
    assert proc.returncode == 2 and "missing.py: no such script" in proc.stderr


TF_FUSED_BN = r'''
d = sys.argv[1]
rng = np.random.RandomState(3)
x = tf.placeholder(tf.float32, [None, 6, 6, 2], name="x")
w = tf.constant(rng.randn(3, 3, 2, 4).astype(np.float32), name="w")
conv = tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME")
y, _, _ = tf.nn.fused_batch_norm(conv, tf.constant(rng.rand(4).astype(np.float32) + 0.5),
                                 tf.constant(rng.randn(4).astype(np.float32)),
                                 mean=tf.constant(rng.randn(4).astype(np.float32)),
                                 variance=tf.constant(rng.rand(4).astype(np.float32) + 0.1),
                                 epsilon=1e-3, is_training=False)
out = tf.nn.relu(y, name="out")
tf.io.write_graph(tf.get_default_graph().as_graph_def(), d, "bn.pb", as_text=False)
print(json.dumps([n.op for n in tf.get_default_graph().as_graph_def().node]))
'''

TF_RUN_OUT = r'''
xv = np.random.RandomState(4).randn(2, 6, 6, 2).astype(np.float32)
res = []
for path in sys.argv[1:]:
    gd = tf.GraphDef()
    with open(path, "rb") as f:
        gd.ParseFromString(f.read())
    with tf.Graph().as_default() as g:
        tf.import_graph_def(gd, name="")
        with tf.Session(graph=g) as sess:
            res.append(sess.run("out:0", {"x:0": xv}).tolist())
print(json.dumps(res))
'''


def test_fold_old_batch_norms_on_a_tf_written_graph(tmp_path):
    """A FusedBatchNormV3 (is_training=False) that TF wrote after a Conv2D folds into the conv's weights and a
    BiasAdd; TF runs the result to the same values."""
    ops = run_tf_json(TF_FUSED_BN, tmp_path)
    assert "FusedBatchNormV3" in ops
    graphlab("transform", "--in_graph", tmp_path / "bn.pb", "--out_graph", tmp_path / "folded.pb",
             "--inputs", "x", "--outputs", "out", "--transforms", "fold_old_batch_norms")
    folded = [n.op for n in _read(tmp_path / "folded.pb").node]
    assert "FusedBatchNormV3" not in folded and "BiasAdd" in folded and folded.count("Conv2D") == 1
    before, after = run_tf_json(TF_RUN_OUT, tmp_path / "bn.pb", tmp_path / "folded.pb")
    np.testing.assert_allclose(after, before, rtol=1e-4, atol=1e-4)
