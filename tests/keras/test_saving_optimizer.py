"""A compiled, trained model's optimizer state in both files, against live tf-keras: Adam's iter and
hyperparameters and its m/v slots under TF's object-based keys (each side restores the other's slots with
load_weights), and the HDF5 model's training_config and optimizer_weights (load_model compiles the model and
restores them)."""
import json

import numpy as np

import graphlab as tf
from tests.tfref import run_tf

TRAIN = """
def build_and_train(steps):
    m = tf.keras.Sequential([tf.keras.layers.Dense(3, input_shape=(4,), activation="tanh"),
                             tf.keras.layers.Dense(2)])
    m.compile(tf.keras.optimizers.Adam(0.01), "mse", metrics=["mae"])
    rng = np.random.RandomState(0)
    x, y = rng.rand(8, 4).astype("float32"), rng.rand(8, 2).astype("float32")
    for _ in range(steps):
        m.train_on_batch(x, y)
    return m

def state(m):
    sess = tf.keras.backend.get_session()
    return {"weights": [v.tolist() for v in sess.run(m.weights)],
            "optimizer": [np.asarray(v).tolist() for v in sess.run(m.optimizer.weights)],
            "optimizer_names": [v.name for v in m.optimizer.weights]}
"""

TF_SIDE = TRAIN + """
d = sys.argv[1]
m = build_and_train(3)
m.save_weights(d + "/tf_ckpt")
m.save(d + "/tf.h5")
import h5py
with h5py.File(d + "/tf.h5", "r") as f:
    config = f.attrs["training_config"]
out = {"written": state(m), "training_config": config if isinstance(config, str) else config.decode()}
with tf.Graph().as_default():
    m = build_and_train(1)
    m.load_weights(d + "/gl_ckpt")
    out["ckpt"] = state(m)
with tf.Graph().as_default():
    m = tf.keras.models.load_model(d + "/gl.h5")
    out["h5"] = state(m)
print(json.dumps(out))
"""


def _graphlab():
    scope = {"tf": tf, "np": np}
    exec(TRAIN, scope)
    return scope


def _close(a, b):
    assert len(a) == len(b)
    for x, y in zip(a, b):
        np.testing.assert_allclose(np.asarray(x, dtype=float), np.asarray(y, dtype=float), rtol=1e-6, atol=1e-7)


def test_optimizer_state_both_ways(tmp_path):
    g = _graphlab()
    with tf.Graph().as_default():
        m = g["build_and_train"](3)
        m.save_weights(str(tmp_path / "gl_ckpt"))
        m.save(str(tmp_path / "gl.h5"))
        ours = g["state"](m)
        import h5py
        with h5py.File(str(tmp_path / "gl.h5"), "r") as f:
            our_config = f.attrs["training_config"]
    ref = json.loads(run_tf(TF_SIDE, tmp_path).strip().splitlines()[-1])
    # files as tf-keras writes them
    assert json.loads(our_config) == json.loads(ref["training_config"])
    assert ours["optimizer_names"] == ref["written"]["optimizer_names"]
    # tf-keras restores graphlab's weights and optimizer state, from the checkpoint and the HDF5 model
    for kind in ("ckpt", "h5"):
        _close(ref[kind]["weights"], ours["weights"])
        _close(ref[kind]["optimizer"], ours["optimizer"])
    # graphlab restores tf-keras's
    with tf.Graph().as_default():
        m = g["build_and_train"](1)
        m.load_weights(str(tmp_path / "tf_ckpt"))
        got = g["state"](m)
    _close(got["weights"], ref["written"]["weights"])
    _close(got["optimizer"], ref["written"]["optimizer"])
    with tf.Graph().as_default():
        m = tf.keras.models.load_model(str(tmp_path / "tf.h5"))
        assert type(m.optimizer).__name__ == "Adam"
        got = g["state"](m)
    _close(got["weights"], ref["written"]["weights"])
    _close(got["optimizer"], ref["written"]["optimizer"])
