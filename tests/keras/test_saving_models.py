"""model.save / load_model against live tf-keras: HDF5 whole models both ways (the file's attributes,
model_config JSON and datasets as tf-keras writes them), and save_format='tf' SavedModels that TF's loader,
tf-keras's load_weights and `graphlab serve` accept, with the signature tf-keras gives the same model."""
import json

import numpy as np
import pytest

import graphlab as tf
from tests.keras.test_saving_weights import BUILD, DUMP, X, _graphlab_build, _h5_dump
from tests.tfref import run_tf

TF_MODEL_FILES = BUILD + DUMP + """
d, kind = sys.argv[1], sys.argv[2]
m = build(kind)
m.save(d + "/tf_plain.h5")
plain = h5_dump(d + "/tf_plain.h5")
m.compile("sgd", "mse")
m.fit(np.ones((4, 4), np.float32), np.ones((4, 2), np.float32), verbose=0)
m.save(d + "/tf_trained.h5")
m.save(d + "/tf_sm", save_format="tf")
from tensorflow.core.protobuf import saved_model_pb2
sm = saved_model_pb2.SavedModel()
sm.ParseFromString(open(d + "/tf_sm/saved_model.pb", "rb").read())
sig = sm.meta_graphs[0].signature_def["serving_default"]
def info(m):
    return {k: [v.dtype, [x.size for x in v.tensor_shape.dim]] for k, v in m.items()}
print(json.dumps({"predict": predict(m, %s), "h5": plain, "sig": [info(sig.inputs), info(sig.outputs),
                  sig.method_name], "tags": list(sm.meta_graphs[0].meta_info_def.tags)}))
""" % (X,)

TF_LOADS = BUILD + """
d, kind = sys.argv[1], sys.argv[2]
out = {}
m = tf.keras.models.load_model(d + "/gl.h5")
out["h5"] = predict(m, %s)
out["h5_layers"] = [l.name for l in m.layers]
with tf.Session(graph=tf.Graph()) as s:
    meta = tf.saved_model.loader.load(s, ["serve"], d + "/gl_sm")
    sig = meta.signature_def["serving_default"]
    (ikey, i), = sig.inputs.items()
    (okey, o), = sig.outputs.items()
    out["sm"] = s.run(o.name, {i.name: np.array(%s, np.float32)}).tolist()
m = build(kind)
m.load_weights(d + "/gl_sm")
out["sm_weights"] = predict(m, %s)
print(json.dumps(out))
""" % (X, X, X)


@pytest.fixture(scope="module", params=["sequential", "functional"])
def files(request, tmp_path_factory):
    """Both engines' files for one architecture: tf-keras's (with its reference values), then graphlab's."""
    d = tmp_path_factory.mktemp("models_" + request.param)
    ref = json.loads(run_tf(TF_MODEL_FILES, d, request.param).strip().splitlines()[-1])
    build, predict = _graphlab_build()
    with tf.Graph().as_default():
        m = build(request.param)
        m.save(str(d / "gl.h5"))
        m.save(str(d / "gl_sm"), save_format="tf")
        ours = predict(m, X)
    return {"dir": d, "kind": request.param, "ref": ref, "ours": ours}


def test_h5_model_file_as_tf_keras_writes_it(files):
    assert _h5_dump(files["dir"] / "gl.h5") == files["ref"]["h5"]


def test_tf_keras_loads_graphlab_models(files):
    got = json.loads(run_tf(TF_LOADS, files["dir"], files["kind"]).strip().splitlines()[-1])
    np.testing.assert_allclose(got["h5"], files["ours"], rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(got["sm"], files["ours"], rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(got["sm_weights"], files["ours"], rtol=1e-6, atol=1e-6)


def test_graphlab_loads_tf_keras_h5_model(files, caplog):
    _, predict = _graphlab_build()
    with tf.Graph().as_default():
        m = tf.keras.models.load_model(str(files["dir"] / "tf_trained.h5"), compile=False)
        np.testing.assert_allclose(predict(m, X), files["ref"]["predict"], rtol=1e-6, atol=1e-6)
        assert type(m).__name__ == ("Sequential" if files["kind"] == "sequential" else "Model")


def test_graphlab_loads_keras_saved_models(files):
    """load_model of a SavedModel directory: tf-keras's (its keras_metadata.pb and object-based variables)
    and graphlab's own."""
    _, predict = _graphlab_build()
    with tf.Graph().as_default():
        m = tf.keras.models.load_model(str(files["dir"] / "tf_sm"), compile=False)
        np.testing.assert_allclose(predict(m, X), files["ref"]["predict"], rtol=1e-6, atol=1e-6)
    with tf.Graph().as_default():
        m = tf.keras.models.load_model(str(files["dir"] / "gl_sm"), compile=False)
        np.testing.assert_allclose(predict(m, X), files["ours"], rtol=1e-6, atol=1e-6)


def test_saved_model_signature_as_tf_keras(files):
    from graphlab.saved_model import loader
    meta = loader.read_saved_model(str(files["dir"] / "gl_sm")).meta_graphs[0]
    sig = meta.signature_def["serving_default"]

    def info(m):
        return {k: [v.dtype, [x.size for x in v.tensor_shape.dim]] for k, v in m.items()}
    assert [info(sig.inputs), info(sig.outputs), sig.method_name] == files["ref"]["sig"]
    assert list(meta.meta_info_def.tags) == files["ref"]["tags"]
    with tf.Graph().as_default(), tf.Session() as sess:
        loaded = tf.saved_model.loader.load(sess, ["serve"], str(files["dir"] / "gl_sm"))
        s = loaded.signature_def["serving_default"]
        (_, i), = s.inputs.items()
        (_, o), = s.outputs.items()
        np.testing.assert_allclose(sess.run(o.name, {i.name: np.array(X, np.float32)}), files["ours"], rtol=1e-6, atol=1e-6)


def test_graphlab_serve_answers_with_the_models_predictions(files, tmp_path):
    requests = pytest.importorskip("requests")
    pytest.importorskip("aiohttp")
    import shutil
    from graphlab.serving.process import Server
    base = tmp_path / "models"
    base.mkdir()
    shutil.copytree(files["dir"] / "gl_sm", base / "1")
    with Server("keras", base) as server:
        r = requests.post(server.url + "/v1/models/keras:predict", json={"instances": X}, timeout=60)
        assert r.status_code == 200, r.text
        np.testing.assert_allclose(r.json()["predictions"], files["ours"], rtol=1e-6, atol=1e-6)


MIXED = """
def build():
    inp = tf.keras.Input((6, 6, 2), name="img")
    h = tf.keras.layers.Conv2D(3, 3, activation="relu")(inp)
    h = tf.keras.layers.BatchNormalization()(h)
    h = tf.keras.layers.Flatten()(tf.keras.layers.MaxPooling2D()(h))
    tok = tf.keras.Input((5,), name="tok", dtype="int32")
    e = tf.keras.layers.Flatten()(tf.keras.layers.Embedding(10, 4)(tok))
    return tf.keras.Model([inp, tok], tf.keras.layers.Dense(2, name="out")(tf.keras.layers.concatenate([h, e])))

def inputs():
    rng = np.random.RandomState(0)
    return [rng.rand(2, 6, 6, 2).astype("float32"), rng.randint(0, 10, (2, 5)).astype("int32")]

def run(m):
    return tf.keras.backend.get_session().run(m.outputs[0], dict(zip(m.inputs, inputs()))).tolist()
"""

TF_LOADS_MIXED = MIXED + """
d = sys.argv[1]
out = {}
for name in ("w", "w.h5"):
    m = build()
    m.load_weights(d + "/" + name)
    out[name] = run(m)
out["m.h5"] = run(tf.keras.models.load_model(d + "/m.h5"))
with tf.Session(graph=tf.Graph()) as s:
    sig = tf.saved_model.loader.load(s, ["serve"], d + "/sm").signature_def["serving_default"]
    out["sm"] = s.run(sig.outputs["out"].name, {sig.inputs["img"].name: inputs()[0],
                                                 sig.inputs["tok"].name: inputs()[1]}).tolist()
print(json.dumps(out))
"""


def test_conv_batchnorm_embedding_two_inputs_both_ways(tmp_path):
    """Non-trainable weights (BatchNormalization's moving statistics, set away from their initial values),
    integer inputs and a merge: tf-keras loads graphlab's checkpoint, HDF5 weights, HDF5 model and
    SavedModel and predicts what graphlab predicts."""
    scope = {"tf": tf, "np": np}
    exec(MIXED, scope)
    with tf.Graph().as_default():
        m = scope["build"]()
        sess = tf.keras.backend.get_session()
        for v in m.weights:
            if "moving" in v.name:
                v.load(np.linspace(0.2, 0.9, v.shape.as_list()[0]).astype("float32"), sess)
        m.save_weights(str(tmp_path / "w"))
        m.save_weights(str(tmp_path / "w.h5"))
        m.save(str(tmp_path / "m.h5"))
        m.save(str(tmp_path / "sm"), save_format="tf")
        ours = scope["run"](m)
    got = json.loads(run_tf(TF_LOADS_MIXED, tmp_path).strip().splitlines()[-1])
    for name in ("w", "w.h5", "m.h5", "sm"):
        np.testing.assert_allclose(got[name], ours, rtol=1e-5, atol=1e-5, err_msg=name)  # float32 conv sums


RNN = """
def build():
    return tf.keras.Sequential([tf.keras.layers.Embedding(10, 3, input_length=5),
                                tf.keras.layers.LSTM(4, return_sequences=True), tf.keras.layers.GRU(2),
                                tf.keras.layers.Dense(1)])

def run(m):
    xs = np.array([[1, 2, 3, 4, 5], [0, 9, 8, 7, 6]], np.int32)
    return tf.keras.backend.get_session().run(m.outputs[0], {m.inputs[0]: xs}).tolist()
"""


def test_recurrent_layers_cells_both_ways(tmp_path):
    """LSTM and GRU weights live in their cell (layer_with_weights-1/cell/kernel): each side loads the other's
    checkpoint and HDF5 weights and predicts the same."""
    scope = {"tf": tf, "np": np}
    exec(RNN, scope)
    with tf.Graph().as_default():
        m = scope["build"]()
        m.save_weights(str(tmp_path / "gl"))
        m.save_weights(str(tmp_path / "gl.h5"))
        ours = scope["run"](m)
    ref = json.loads(run_tf(RNN + """
d = sys.argv[1]
out = {}
for name in ("gl", "gl.h5"):
    with tf.Graph().as_default():
        m = build()
        m.load_weights(d + "/" + name)
        out[name] = run(m)
with tf.Graph().as_default():
    m = build()
    m.save_weights(d + "/tf")
    m.save_weights(d + "/tf.h5")
    out["written"] = run(m)
print(json.dumps(out))
""", tmp_path).strip().splitlines()[-1])
    for name in ("gl", "gl.h5"):
        np.testing.assert_allclose(ref[name], ours, rtol=1e-5, atol=1e-6, err_msg=name)
    for name in ("tf", "tf.h5"):
        with tf.Graph().as_default():
            m = scope["build"]()
            m.load_weights(str(tmp_path / name))
            np.testing.assert_allclose(scope["run"](m), ref["written"], rtol=1e-5, atol=1e-6, err_msg=name)
