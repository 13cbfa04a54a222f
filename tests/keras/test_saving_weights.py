"""save_weights / load_weights against live tf-keras: each side loads the other's TF checkpoints and HDF5
files and predicts the same; the checkpoint's keys, object graph and state file, and the HDF5 file's
attributes and datasets, are the ones tf-keras writes for the same model."""
import json

import numpy as np
import pytest

import graphlab as tf
from tests.tfref import run_tf

X = (np.arange(8, dtype=np.float32).reshape(2, 4) / 8).tolist()

# One model-building snippet, run by both engines (tf is graphlab or tensorflow.compat.v1).
BUILD = """
def build(kind):
    if kind == "sequential":
        return tf.keras.Sequential([tf.keras.layers.Dense(3, input_shape=(4,), activation="relu"),
                                    tf.keras.layers.Dropout(0.5), tf.keras.layers.Dense(2)])
    inp = tf.keras.Input((4,), name="x")
    h = tf.keras.layers.Dense(3, activation="tanh")(inp)
    h = tf.keras.layers.Dropout(0.25)(h)
    return tf.keras.Model(inp, tf.keras.layers.Dense(2, name="out")(h))

def predict(m, x):
    sess = tf.keras.backend.get_session()
    return sess.run(m.outputs[0], {m.inputs[0]: np.array(x, np.float32)}).tolist()
"""

DUMP = """
import h5py
def h5_dump(path):
    out = {}
    def attrs(obj):
        d = {}
        for k in obj.attrs:
            a = obj.attrs.get_id(k)
            info = h5py.check_string_dtype(a.dtype)
            v = obj.attrs[k]
            v = v.tolist() if hasattr(v, "tolist") else v
            v = [x.decode() if isinstance(x, bytes) else x for x in v] if isinstance(v, list) else v
            d[k] = [str(a.dtype) if info is None else "str:%s" % info.encoding, list(a.shape), v]
        return d
    out["/"] = attrs
    with h5py.File(path, "r") as f:
        out = {"/": attrs(f)}
        def visit(name, obj):
            entry = {"attrs": attrs(obj)}
            if isinstance(obj, h5py.Dataset):
                entry["dataset"] = [str(obj.dtype), list(obj.shape)]
            out[name] = entry
        f.visititems(visit)
    return out

def ckpt_dump(prefix, reader):
    return {"keys": sorted((k, list(s)) for k, s in reader.items())}
"""

TF_WRITES = BUILD + DUMP + """
d, kind = sys.argv[1], sys.argv[2]
m = build(kind)
if kind == "sequential":
    m.compile("adam", "mse")
    m.fit(np.ones((4, 4), np.float32), np.ones((4, 2), np.float32), verbose=0)
m.save_weights(d + "/tf_ckpt")
m.save_weights(d + "/tf.h5")
r = tf.train.NewCheckpointReader(d + "/tf_ckpt")
print(json.dumps({"predict": predict(m, %s), "h5": h5_dump(d + "/tf.h5"),
                  "keys": sorted([k, v] for k, v in r.get_variable_to_shape_map().items()),
                  "state": open(d + "/checkpoint").read(),
                  "object_graph": list(r.get_tensor("_CHECKPOINTABLE_OBJECT_GRAPH"))}))
""" % (X,)

TF_LOADS = BUILD + """
d, kind = sys.argv[1], sys.argv[2]
out = {}
for name in ("gl_ckpt", "gl.h5"):
    m = build(kind)
    m.load_weights(d + "/" + name)
    out[name] = predict(m, %s)
print(json.dumps(out))
""" % (X,)


def _graphlab_build():
    scope = {"tf": tf, "np": np}
    exec(BUILD, scope)
    return scope["build"], scope["predict"]


def _h5_dump(path):
    scope = {}
    exec(DUMP, scope)
    return json.loads(json.dumps(scope["h5_dump"](path)))


@pytest.mark.parametrize("kind", ["sequential", "functional"])
def test_graphlab_writes_tf_keras_loads(tmp_path, kind):
    build, predict = _graphlab_build()
    with tf.Graph().as_default():
        m = build(kind)
        m.save_weights(str(tmp_path / "gl_ckpt"))
        m.save_weights(str(tmp_path / "gl.h5"))
        ours = predict(m, X)
    theirs = json.loads(run_tf(TF_LOADS, tmp_path, kind).strip().splitlines()[-1])
    np.testing.assert_allclose(theirs["gl_ckpt"], ours, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(theirs["gl.h5"], ours, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("kind", ["sequential", "functional"])
def test_tf_keras_writes_graphlab_loads_and_files_match(tmp_path, kind):
    ref = json.loads(run_tf(TF_WRITES, tmp_path, kind).strip().splitlines()[-1])
    build, predict = _graphlab_build()
    for name in ("tf_ckpt", "tf.h5"):
        with tf.Graph().as_default():
            m = build(kind)
            m.load_weights(str(tmp_path / name))     # the compiled model's Adam slots are in the checkpoint
            np.testing.assert_allclose(predict(m, X), ref["predict"], rtol=1e-6, atol=1e-6)
    # our files for the same (uncompiled) architecture: the same layout as tf-keras's
    with tf.Graph().as_default():
        m = build(kind)
        m.save_weights(str(tmp_path / "gl_ckpt"))
        m.save_weights(str(tmp_path / "gl.h5"))
    assert _h5_dump(tmp_path / "gl.h5") == ref["h5"]
    reader = tf.train.NewCheckpointReader(str(tmp_path / "gl_ckpt"))
    ours = sorted([k, v] for k, v in reader.get_variable_to_shape_map().items())
    theirs = [kv for kv in ref["keys"] if "OPTIMIZER_SLOT" not in kv[0] and not kv[0].startswith("optimizer/")]
    assert ours == theirs
    assert (tmp_path / "checkpoint").read_text() == ref["state"].replace("tf_ckpt", "gl_ckpt")
    if kind == "functional":   # no optimizer: the whole object graph is tf-keras's, byte for byte
        graph = np.asarray(reader.get_tensor("_CHECKPOINTABLE_OBJECT_GRAPH")).item()
        assert list(graph) == ref["object_graph"]


def test_h5_by_name_and_skip_mismatch(tmp_path, caplog):
    with tf.Graph().as_default():
        a = tf.keras.Sequential([tf.keras.layers.Dense(3, input_shape=(4,), name="first"),
                                 tf.keras.layers.Dense(2, name="second")])
        a.save_weights(str(tmp_path / "a.h5"))
        sess = tf.keras.backend.get_session()
        first = sess.run(a.layers[0].kernel)
    with tf.Graph().as_default():
        # by name: 'first' matches, 'second' has another shape, 'third' is not in the file
        b = tf.keras.Sequential([tf.keras.layers.Dense(3, input_shape=(4,), name="first"),
                                 tf.keras.layers.Dense(5, name="second"), tf.keras.layers.Dense(1, name="third")])
        with pytest.raises(ValueError, match=r"Shape mismatch in layer #1 \(named second\) for weight "
                                             r"second/kernel:0. Weight expects shape \(3, 5\). Received saved "
                                             r"weight with shape \(3, 2\)"):
            b.load_weights(str(tmp_path / "a.h5"), by_name=True)
        b.load_weights(str(tmp_path / "a.h5"), by_name=True, skip_mismatch=True)
        sess = tf.keras.backend.get_session()
        np.testing.assert_array_equal(sess.run(b.layers[0].kernel), first)
        assert "Skipping loading weights for layer #1 (named second)" in caplog.text
        with pytest.raises(ValueError, match="Layer count mismatch when loading weights from file. Model "
                                             "expected 3 layers, found 2 saved layers."):
            b.load_weights(str(tmp_path / "a.h5"))


OPS_SCRIPT = """
m = tf.keras.Sequential([tf.keras.layers.Dense(3, input_shape=(4,)), tf.keras.layers.Dense(2)])
g = tf.get_default_graph()
tf.keras.backend.get_session()

def new_ops(start):
    return [[o.name, o.type, [t.name for t in o.inputs] + ["^" + c.name for c in o.control_inputs]]
            for o in g.get_operations()[start:]]

out = {}
n = len(g.get_operations())
m.save_weights(sys.argv[1] + "/a")
out["save"] = new_ops(n)
n = len(g.get_operations())
m.save_weights(sys.argv[1] + "/b")
out["save_again"] = new_ops(n)
n = len(g.get_operations())
m.load_weights(sys.argv[1] + "/a")
out["load"] = new_ops(n)
m2 = tf.keras.Sequential([tf.keras.layers.Dense(3, input_shape=(4,))])
tf.keras.backend.get_session()
n = len(g.get_operations())
m2.save(sys.argv[1] + "/sm", save_format="tf")
out["saved_model"] = new_ops(n)
print(json.dumps(out))
"""


def test_save_and_restore_ops_as_tf_keras_builds_them(tmp_path):
    """save_weights builds TF's functional-saver ops at the top level once (a second save adds none) and
    runs them; load_weights adds RestoreV2 and an assign per variable; model.save(save_format='tf') writes
    the SavedModel's variables through the same ops in the model's graph."""
    want = json.loads(run_tf(OPS_SCRIPT, tmp_path / "tf").strip().splitlines()[-1])
    scope = {"tf": tf, "json": json, "sys": type("S", (), {"argv": ["", str(tmp_path / "gl")]})}
    import contextlib
    import io
    out = io.StringIO()
    with tf.Graph().as_default(), contextlib.redirect_stdout(out):
        exec(OPS_SCRIPT, scope)
    got = json.loads(out.getvalue().strip().splitlines()[-1])
    from graphlab.framework import registry
    try:
        registry.get_opdef("DisableCopyOnRead")
    except (KeyError, LookupError, ValueError):
        # graphlab has no DisableCopyOnRead op yet (a no-op on the read path of TF's resource variables)
        want = {k: [o for o in v if o[1] != "DisableCopyOnRead"] for k, v in want.items()}
    assert got == want


SUBCLASSED = """
class Sub(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.d1 = tf.keras.layers.Dense(3, activation="relu")
        self.bn = tf.keras.layers.BatchNormalization()
        self.d2 = tf.keras.layers.Dense(2)

    def call(self, x, training=None):
        return self.d2(self.bn(self.d1(x), training=training))

def run_sub(load=None, save=None):
    m = Sub()
    y = m(tf.constant(np.arange(8, dtype=np.float32).reshape(2, 4) / 8))
    if load:
        m.load_weights(load)
    if save:
        m.save_weights(save)
    err = None
    if save:
        try:
            m.save(save + ".h5")
        except Exception as e:
            err = [type(e).__name__, str(e)]
    return tf.keras.backend.get_session().run(y).tolist(), err
"""


def test_subclassed_model_weights_by_attribute_names(tmp_path):
    """A subclassed model's checkpoint keys are its attributes' names (d1/kernel, bn/moving_mean): each side
    loads the other's; saving it as HDF5 is tf-keras's NotImplementedError."""
    scope = {"tf": tf, "np": np}
    exec(SUBCLASSED, scope)
    with tf.Graph().as_default():
        ours, our_error = scope["run_sub"](save=str(tmp_path / "gl"))
    ref = json.loads(run_tf(SUBCLASSED + """
d = sys.argv[1]
loaded, _ = run_sub(load=d + "/gl")
with tf.Graph().as_default():
    written, err = run_sub(save=d + "/tf")
print(json.dumps({"loaded": loaded, "written": written, "error": err}))
""", tmp_path).strip().splitlines()[-1])
    np.testing.assert_allclose(ref["loaded"], ours, rtol=1e-6, atol=1e-6)
    assert our_error == ref["error"]
    with tf.Graph().as_default():
        got, _ = scope["run_sub"](load=str(tmp_path / "tf"), save=str(tmp_path / "again"))
    np.testing.assert_allclose(got, ref["written"], rtol=1e-6, atol=1e-6)
