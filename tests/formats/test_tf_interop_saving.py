"""Saving and loading across graphlab and real TensorFlow, in both directions.

graphlab builds a small model (the same source runs under TF: `import graphlab as tf` is the point),
trains it one Adam step and writes a checkpoint + .meta, a GraphDef, a frozen GraphDef and a SavedModel.
One TensorFlow subprocess then reads all of those and computes the model's outputs, and writes the same
four kinds of files itself, which graphlab then reads and runs. Outputs must agree.
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
    """A two-variable model with an Adam train op; identical source under TF and graphlab."""
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    W = tf.Variable(np.arange(6, dtype=np.float32).reshape(3, 2) / 10 - 0.2, name="W")
    with tf.variable_scope("layer"):
        b = tf.get_variable("b", [2], initializer=tf.constant_initializer(0.5))
    h = tf.nn.relu(tf.matmul(x, W) + b)
    y = tf.nn.softmax(h * 2.0, name="y")
    loss = tf.reduce_sum(tf.square(y - 0.25), name="loss")
    train = tf.train.AdamOptimizer(0.1).minimize(loss)
    tf.add_to_collection("train_op", train)
    return x, y, train


BUILD = inspect.getsource(build_model)

TF_SCRIPT = BUILD + r'''
gl, out_dir, X_json = sys.argv[1:4]
X = np.array(json.loads(X_json), np.float32)
res = {}

# --- TF reads graphlab's files -------------------------------------------------------------------
res["list"] = [[n, s] for n, s in tf.train.list_variables(gl + "/ckpt/model-1")]
res["latest"] = tf.train.latest_checkpoint(gl + "/ckpt")

g = tf.Graph()
with g.as_default():
    x, y, train = build_model(tf, np)
    saver = tf.train.Saver()
    with tf.Session() as s:
        saver.restore(s, gl + "/ckpt/model-1")
        res["restore_y"] = s.run(y, {x: X}).tolist()
        res["restore_W"] = s.run("W:0").tolist()

g = tf.Graph()
with g.as_default():
    saver = tf.train.import_meta_graph(gl + "/ckpt/model-1.meta")
    with tf.Session() as s:
        saver.restore(s, gl + "/ckpt/model-1")
        res["meta_y"] = s.run("y:0", {"x:0": X}).tolist()
        res["meta_vars"] = sorted(v.name for v in tf.global_variables())
        res["meta_trainable"] = sorted(v.name for v in tf.trainable_variables())
        s.run(tf.get_collection("train_op")[0], {"x:0": X})
        res["meta_step_W"] = s.run("W:0").tolist()

for name in ("graph.pb", "frozen.pb"):
    gd = tf.GraphDef()
    with open(gl + "/" + name, "rb") as f:
        gd.ParseFromString(f.read())
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(gd, name="")
        with tf.Session() as s:
            if name == "graph.pb":
                s.run("init")
            res[name] = s.run("y:0", {"x:0": X}).tolist()

g = tf.Graph()
with g.as_default(), tf.Session() as s:
    mg = tf.saved_model.loader.load(s, ["serve"], gl + "/saved")
    sig = mg.signature_def["serving_default"]
    res["saved_y"] = s.run(sig.outputs["probs"].name, {sig.inputs["features"].name: X}).tolist()
    res["saved_method"] = sig.method_name

# --- TF writes its own files -----------------------------------------------------------------------
g = tf.Graph()
with g.as_default():
    x, y, train = build_model(tf, np)
    saver = tf.train.Saver()
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        s.run(train, {x: X})
        res["tf_y"] = s.run(y, {x: X}).tolist()
        res["tf_vars"] = {v.op.name: s.run(v).tolist() for v in tf.global_variables()}
        saver.save(s, out_dir + "/ckpt/model", global_step=1)
        frozen = tf.graph_util.convert_variables_to_constants(s, g.as_graph_def(), ["y"])
        with open(out_dir + "/frozen.pb", "wb") as f:
            f.write(frozen.SerializeToString())
        tf.saved_model.simple_save(s, out_dir + "/saved", {"features": x}, {"probs": y})
        s.run(train, {x: X})
        res["tf_step2_W"] = s.run("W:0").tolist()
print(json.dumps(res))
'''


def _build():
    exec(BUILD, globals())
    return build_model(tf, np)


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    """graphlab writes its files, then one TF process reads them and writes its own."""
    tfref.require_tf()
    gl = str(tmp_path_factory.mktemp("gl"))
    out = str(tmp_path_factory.mktemp("tf"))
    g = tf.Graph()
    ours = {}
    with g.as_default():
        x, y, train = _build()
        init = tf.global_variables_initializer()
        saver = tf.train.Saver()
        s = tf.Session()
        s.run(init)
        s.run(train, {x: X})
        ours["y"] = s.run(y, {x: X})
        ours["vars"] = {v.op.name: s.run(v) for v in tf.global_variables()}
        os.makedirs(gl + "/ckpt")
        ours["path"] = saver.save(s, gl + "/ckpt/model", global_step=1)
        tf.train.write_graph(g, gl, "graph.pb", as_text=False)
        frozen = tf.graph_util.convert_variables_to_constants(s, g.as_graph_def(), ["y"])
        tf.train.write_graph(frozen, gl, "frozen.pb", as_text=False)
        tf.saved_model.simple_save(s, gl + "/saved", {"features": x}, {"probs": y})
        s.run(train, {x: X})
        ours["step2_W"] = s.run("W:0")
    res = tfref.run_tf_json(TF_SCRIPT, gl, out, json.dumps(X))
    return ours, res, gl, out


# --- TF reads graphlab's files ---------------------------------------------------------------------

def test_tf_lists_our_checkpoint_with_adam_slots(both):
    ours, res, gl, _ = both
    names = [n for n, _ in res["list"]]
    assert names == sorted(ours["vars"])
    assert {"W/Adam", "W/Adam_1", "layer/b/Adam", "beta1_power", "beta2_power"} <= set(names)
    assert res["latest"] == gl + "/ckpt/model-1" == ours["path"]


def test_tf_restores_our_checkpoint_into_its_own_graph(both):
    ours, res, _, _ = both
    np.testing.assert_allclose(res["restore_W"], ours["vars"]["W"], rtol=1e-6)
    np.testing.assert_allclose(res["restore_y"], ours["y"], rtol=1e-5)


def test_tf_imports_our_meta_graph_restores_and_trains(both):
    ours, res, _, _ = both
    np.testing.assert_allclose(res["meta_y"], ours["y"], rtol=1e-5)
    assert "W:0" in res["meta_vars"] and "W/Adam:0" in res["meta_vars"]
    assert res["meta_trainable"] == ["W:0", "layer/b:0"]
    np.testing.assert_allclose(res["meta_step_W"], ours["step2_W"], rtol=1e-5, atol=1e-7)


def test_tf_imports_our_graph_def_and_frozen_graph(both):
    ours, res, _, _ = both
    np.testing.assert_allclose(res["frozen.pb"], ours["y"], rtol=1e-5)
    assert np.asarray(res["graph.pb"]).shape == (2, 2)  # initial values: the GraphDef carries no checkpoint


def test_tf_serves_our_saved_model(both):
    ours, res, _, _ = both
    assert res["saved_method"] == "tensorflow/serving/predict"
    np.testing.assert_allclose(res["saved_y"], ours["y"], rtol=1e-5)


# --- graphlab reads TF's files ---------------------------------------------------------------------

def test_we_list_and_load_tf_checkpoint(both):
    _, res, _, out = both
    prefix = tf.train.latest_checkpoint(out + "/ckpt")
    assert prefix == out + "/ckpt/model-1"
    assert [n for n, _ in tf.train.list_variables(prefix)] == sorted(res["tf_vars"])
    for name, value in res["tf_vars"].items():
        np.testing.assert_allclose(tf.train.load_variable(prefix, name), value, rtol=1e-6)


def test_we_restore_tf_checkpoint_into_our_graph(both):
    _, res, _, out = both
    with tf.Graph().as_default():
        x, y, _ = _build()
        saver = tf.train.Saver()
        with tf.Session() as s:
            saver.restore(s, out + "/ckpt/model-1")
            np.testing.assert_allclose(s.run(y, {x: X}), res["tf_y"], rtol=1e-5)


def test_we_import_tf_meta_graph_restore_and_train(both):
    _, res, _, out = both
    with tf.Graph().as_default():
        saver = tf.train.import_meta_graph(out + "/ckpt/model-1.meta")
        with tf.Session() as s:
            saver.restore(s, out + "/ckpt/model-1")
            np.testing.assert_allclose(s.run("y:0", {"x:0": X}), res["tf_y"], rtol=1e-5)
            assert sorted(v.name for v in tf.trainable_variables()) == ["W:0", "layer/b:0"]
            s.run(tf.get_collection("train_op")[0], {"x:0": X})
            np.testing.assert_allclose(s.run("W:0"), res["tf_step2_W"], rtol=1e-5, atol=1e-7)


def test_we_run_tf_frozen_graph(both):
    _, res, _, out = both
    gd = tf.framework.graph_io.load_graph_def(out + "/frozen.pb")
    with tf.Graph().as_default():
        x, y = tf.import_graph_def(gd, return_elements=["x:0", "y:0"], name="")
        with tf.Session() as s:
            np.testing.assert_allclose(s.run(y, {x: X}), res["tf_y"], rtol=1e-5)


def test_we_load_tf_saved_model(both):
    _, res, _, out = both
    with tf.Graph().as_default(), tf.Session() as s:
        mg = tf.saved_model.loader.load(s, [tf.saved_model.tag_constants.SERVING], out + "/saved")
        sig = mg.signature_def["serving_default"]
        got = s.run(sig.outputs["probs"].name, {sig.inputs["features"].name: X})
        np.testing.assert_allclose(got, res["tf_y"], rtol=1e-5)
