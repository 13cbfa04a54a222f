"""Files of models with resource variables, across graphlab and real TensorFlow in both directions.

graphlab builds a small model whose variables are resource variables (``use_resource=True`` and a resource
variable_scope), trains it one Adam step and writes a checkpoint + .meta, a frozen GraphDef
(``graph_util.convert_variables_to_constants``) and one frozen by ``graphlab freeze``'s code from the
checkpoint. One TensorFlow subprocess reads them all, runs them, and writes the same files itself, which
graphlab then reads and runs. Values, checkpoint contents and the frozen graphs' nodes must agree.
"""
import inspect
import json
import os

import numpy as np
import pytest

import graphlab as tf
import tfref

X = [[1.0, -2.0, 0.5], [0.25, 3.0, -1.0]]


def build_model(tf, np):
    """Resource variables, a gather (ResourceGather) and an Adam train op; identical source under TF."""
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    W = tf.Variable(np.arange(6, dtype=np.float32).reshape(3, 2) / 10 - 0.2, name="W", use_resource=True)
    with tf.variable_scope("layer", use_resource=True):
        b = tf.get_variable("b", [2], initializer=tf.constant_initializer(0.5))
        emb = tf.get_variable("emb", [4, 2], initializer=tf.constant_initializer(0.25))
    h = tf.nn.relu(tf.matmul(x, W) + b + tf.reduce_sum(tf.gather(emb, [1, 3]), 0))
    y = tf.identity(h * 2.0, name="y")
    loss = tf.reduce_sum(tf.square(y - 0.25), name="loss")
    train = tf.train.AdamOptimizer(0.1).minimize(loss)
    tf.add_to_collection("train_op", train)
    return x, y, train


BUILD = inspect.getsource(build_model)

TF_SCRIPT = BUILD + r'''
gl, out_dir, X_json = sys.argv[1:4]
X = np.array(json.loads(X_json), np.float32)
res = {}

def nodes(gd):
    return [[n.name, n.op, list(n.input)] for n in gd.node]

# --- TF reads graphlab's files -------------------------------------------------------------------
res["list"] = [[n, s] for n, s in tf.train.list_variables(gl + "/ckpt/model")]
g = tf.Graph()
with g.as_default():
    x, y, train = build_model(tf, np)
    saver = tf.train.Saver()
    with tf.Session() as s:
        saver.restore(s, gl + "/ckpt/model")
        res["restore_y"] = s.run(y, {x: X}).tolist()
g = tf.Graph()
with g.as_default():
    saver = tf.train.import_meta_graph(gl + "/ckpt/model.meta")
    with tf.Session() as s:
        saver.restore(s, gl + "/ckpt/model")
        res["meta_vars"] = sorted(v.name for v in tf.global_variables())
        s.run(tf.get_collection("train_op")[0], {"x:0": X})
        res["meta_step_y"] = s.run("y:0", {"x:0": X}).tolist()
for name in ("frozen.pb", "frozen_cli.pb"):
    gd = tf.GraphDef()
    with open(gl + "/" + name, "rb") as f:
        gd.ParseFromString(f.read())
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(gd, name="")
        with tf.Session() as s:
            res[name] = s.run("y:0", {"x:0": X}).tolist()

# --- TF writes the same files ---------------------------------------------------------------------
g = tf.Graph()
with g.as_default():
    x, y, train = build_model(tf, np)
    saver = tf.train.Saver()
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        s.run(train, {x: X})
        saver.save(s, out_dir + "/ckpt/model")
        res["tf_y"] = s.run(y, {x: X}).tolist()
        frozen = tf.graph_util.convert_variables_to_constants(s, g.as_graph_def(), ["y"])
        res["tf_frozen_nodes"] = nodes(frozen)
        with open(out_dir + "/frozen.pb", "wb") as f:
            f.write(frozen.SerializeToString())
print(json.dumps(res))
'''


def _graphlab_files(out):
    from graphlab.cli.freeze import freeze_graph_def
    tf.reset_default_graph()
    x, y, train = build_model(tf, np)
    saver = tf.train.Saver()
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        s.run(train, {x: X})
        saver.save(s, os.path.join(out, "ckpt", "model"))
        ours = {"y": s.run(y, {x: X}).tolist(), "vars": sorted(v.name for v in tf.global_variables())}
        frozen = tf.graph_util.convert_variables_to_constants(s, tf.get_default_graph().as_graph_def(), ["y"])
        s.run(train, {x: X})
        ours["step_y"] = s.run(y, {x: X}).tolist()
    ours["list"] = [[n, list(shape)] for n, shape in tf.train.list_variables(os.path.join(out, "ckpt", "model"))]
    ours["frozen_nodes"] = [[n.name, n.op, list(n.input)] for n in frozen.node]
    with open(os.path.join(out, "frozen.pb"), "wb") as f:
        f.write(frozen.SerializeToString())
    cli_frozen, count = freeze_graph_def(tf.get_default_graph().as_graph_def(), os.path.join(out, "ckpt", "model"),
                                         ["y"])
    ours["cli_count"] = count
    with open(os.path.join(out, "frozen_cli.pb"), "wb") as f:
        f.write(cli_frozen.SerializeToString())
    return ours


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    gl = str(tmp_path_factory.mktemp("graphlab_files"))
    theirs_dir = str(tmp_path_factory.mktemp("tf_files"))
    ours = _graphlab_files(gl)
    theirs = json.loads(tfref.run_tf(TF_SCRIPT, gl, theirs_dir, json.dumps(X)).strip().splitlines()[-1])
    return ours, theirs, theirs_dir


def test_tf_reads_graphlabs_checkpoint_and_meta_graph(both):
    ours, theirs, _ = both
    assert theirs["list"] == ours["list"]                   # the same keys and shapes, as TF reads them
    np.testing.assert_allclose(theirs["restore_y"], ours["y"], rtol=1e-5, atol=1e-6)
    assert theirs["meta_vars"] == ours["vars"]              # every variable comes back from the meta graph
    np.testing.assert_allclose(theirs["meta_step_y"], ours["step_y"], rtol=1e-5, atol=1e-6)


def test_tf_runs_graphlabs_frozen_graphs(both):
    ours, theirs, _ = both
    np.testing.assert_allclose(theirs["frozen.pb"], ours["y"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(theirs["frozen_cli.pb"], ours["y"], rtol=1e-5, atol=1e-6)
    assert ours["cli_count"] == 3


def test_frozen_graph_has_tfs_nodes(both):
    """ReadVariableOp became Identity, ResourceGather a GatherV2 with its axis Const, as TF freezes them."""
    ours, theirs, _ = both
    assert ours["frozen_nodes"] == theirs["tf_frozen_nodes"]


def test_graphlab_reads_tfs_files(both):
    ours, theirs, tf_dir = both
    np.testing.assert_allclose(ours["y"], theirs["tf_y"], rtol=1e-5, atol=1e-6)     # the same training step
    tf.reset_default_graph()
    x, y, train = build_model(tf, np)
    saver = tf.train.Saver()
    with tf.Session() as s:
        saver.restore(s, tf_dir + "/ckpt/model")
        np.testing.assert_allclose(s.run(y, {x: X}), theirs["tf_y"], rtol=1e-5, atol=1e-6)
    graph = tf.Graph()
    with graph.as_default():
        saver = tf.train.import_meta_graph(tf_dir + "/ckpt/model.meta")
        assert all(type(v).__name__ == "ResourceVariable" for v in tf.global_variables())
        with tf.Session() as s:
            saver.restore(s, tf_dir + "/ckpt/model")
            s.run(tf.get_collection("train_op")[0], {"x:0": X})
            np.testing.assert_allclose(s.run("y:0", {"x:0": X}), theirs["meta_step_y"], rtol=1e-5, atol=1e-6)
    gd = tf.GraphDef()
    with open(tf_dir + "/frozen.pb", "rb") as f:
        gd.ParseFromString(f.read())
    with tf.Graph().as_default():
        tf.import_graph_def(gd, name="")
        with tf.Session() as s:
            np.testing.assert_allclose(s.run("y:0", {"x:0": X}), theirs["tf_y"], rtol=1e-5, atol=1e-6)
