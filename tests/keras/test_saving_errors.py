"""Saving's error cases: TF's errors where tf-keras raises them, a clear error naming the file otherwise;
code in a file is never run; a save that fails leaves the previous file as it was."""
import json
import os

import numpy as np
import pytest

import graphlab as tf
from graphlab.keras.saving import hdf5_format, saved_model_export
from tests.tfref import run_tf


def _model(units=3, name=None):
    return tf.keras.Sequential([tf.keras.layers.Dense(units, input_shape=(4,)), tf.keras.layers.Dense(2)],
                               name=name)


TF_ERRORS = """
d = sys.argv[1]
def mk(n=3):
    return tf.keras.Sequential([tf.keras.layers.Dense(n, input_shape=(4,)), tf.keras.layers.Dense(2)])
out = {}
def attempt(label, f):
    try:
        f()
        out[label] = None
    except Exception as e:
        out[label] = [type(e).__name__, str(e)]
m = mk()
m.save_weights(d + "/ckpt")
attempt("missing", lambda: mk().load_weights(d + "/nope"))
attempt("by_name_tf", lambda: mk().load_weights(d + "/ckpt", by_name=True))
attempt("skip_without_by_name", lambda: mk().load_weights(d + "/ckpt", skip_mismatch=True))
attempt("bad_format", lambda: m.save_weights(d + "/x", save_format="zip"))
attempt("tf_format_h5_path", lambda: m.save_weights(d + "/x.h5", save_format="tf"))
attempt("load_model_missing", lambda: tf.keras.models.load_model(d + "/nope.h5"))
m.save_weights(d + "/w.h5")
unbuilt = tf.keras.Sequential([tf.keras.layers.Dense(3)], name="unbuilt")
attempt("unbuilt_save", lambda: unbuilt.save_weights(d + "/u"))
attempt("unbuilt_save_h5", lambda: unbuilt.save_weights(d + "/u.h5"))
attempt("unbuilt_load_h5", lambda: unbuilt.load_weights(d + "/w.h5"))
attempt("layer_count", lambda: tf.keras.Sequential([tf.keras.layers.Dense(3, input_shape=(4,))]).load_weights(
    d + "/w.h5"))
lam = tf.keras.Sequential([tf.keras.layers.Lambda(lambda x: x * 2, input_shape=(4,))])
lam.save(d + "/lambda.h5")
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def tf_errors(tmp_path_factory):
    d = tmp_path_factory.mktemp("errors")
    return d, json.loads(run_tf(TF_ERRORS, d).strip().splitlines()[-1])


def _error(f):
    try:
        f()
    except Exception as e:
        return [type(e).__name__, str(e)]
    return None


def test_errors_as_tf_keras(tf_errors, tmp_path):
    d, want = tf_errors
    with tf.Graph().as_default():
        m = _model()
        m.save_weights(str(tmp_path / "ckpt"))
        m.save_weights(str(tmp_path / "w.h5"))
        unbuilt = tf.keras.Sequential([tf.keras.layers.Dense(3)], name="unbuilt")
        got = {
            "missing": _error(lambda: _model().load_weights(str(d / "nope"))),
            "by_name_tf": _error(lambda: _model().load_weights(str(tmp_path / "ckpt"), by_name=True)),
            "skip_without_by_name": _error(lambda: _model().load_weights(str(tmp_path / "ckpt"),
                                                                         skip_mismatch=True)),
            "bad_format": _error(lambda: m.save_weights(str(d / "x"), save_format="zip")),
            "tf_format_h5_path": _error(lambda: m.save_weights(str(d / "x.h5"), save_format="tf")),
            "load_model_missing": _error(lambda: tf.keras.models.load_model(str(d / "nope.h5"))),
            "unbuilt_save": _error(lambda: unbuilt.save_weights(str(tmp_path / "u"))),
            "unbuilt_save_h5": _error(lambda: unbuilt.save_weights(str(tmp_path / "u.h5"))),
            "unbuilt_load_h5": _error(lambda: unbuilt.load_weights(str(tmp_path / "w.h5"))),
            "layer_count": _error(lambda: tf.keras.Sequential([tf.keras.layers.Dense(3, input_shape=(4,))])
                                  .load_weights(str(tmp_path / "w.h5"))),
        }
    assert got == want


def test_lambda_bytecode_in_an_h5_model_is_refused(tf_errors):
    d, _ = tf_errors
    with tf.Graph().as_default():
        with pytest.raises(ValueError) as e:
            tf.keras.models.load_model(str(d / "lambda.h5"))
    message = str(e.value)
    assert "Lambda layer with a Python `lambda`" in message and str(d / "lambda.h5") in message
    assert "load_weights" in message


def test_damaged_and_foreign_files_name_the_file(tmp_path):
    garbage = tmp_path / "garbage.h5"
    garbage.write_bytes(b"this is not HDF5")
    with tf.Graph().as_default():
        m = _model()
        with pytest.raises(OSError, match="Unable to open .*garbage.h5 as an HDF5 file"):
            m.load_weights(str(garbage))
        with pytest.raises(OSError, match="garbage.h5"):
            tf.keras.models.load_model(str(garbage))
        m.save_weights(str(tmp_path / "weights_only.h5"))
        with pytest.raises(ValueError, match="No model config found in the file at .*weights_only.h5"):
            tf.keras.models.load_model(str(tmp_path / "weights_only.h5"))
        m.save_weights(str(tmp_path / "ckpt"))
        # the object graph entry overwritten with bytes that are not a TrackableObjectGraph
        from graphlab.formats import tensor_bundle
        reader = tensor_bundle.BundleReader(str(tmp_path / "ckpt"))
        tensors = {k: reader.read(k) for k in reader.keys()}
        tensors["_CHECKPOINTABLE_OBJECT_GRAPH"] = np.array(b"\xff\xff\xff", dtype=object)
        tensor_bundle.write_bundle(str(tmp_path / "bad"), tensors)
        with pytest.raises(ValueError, match="The checkpoint .*bad has a damaged object graph"):
            m.load_weights(str(tmp_path / "bad"))
        with pytest.raises(ValueError, match="Cannot load .*ckpt into dense_2/kernel:0: the checkpoint holds "
                                             r"layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE with "
                                             r"shape \(4, 3\), the variable's shape is \(4, 5\)"):
            _model(5).load_weights(str(tmp_path / "ckpt"))
        # a checkpoint of tf.train.Saver (no object graph), as tf-keras refuses it in graph mode
        v = tf.Variable(1.0, name="v")
        with tf.Session() as sess:
            sess.run(v.initializer)
            tf.train.Saver([v]).save(sess, str(tmp_path / "named"), write_meta_graph=False)
        with pytest.raises(NotImplementedError, match="Streaming restore not supported from name-based "
                                                      "checkpoints when graph building"):
            m.load_weights(str(tmp_path / "named"))
        # a SavedModel that Keras did not write: no model to rebuild
        with tf.Graph().as_default(), tf.Session() as sess:
            x = tf.placeholder(tf.float32, [None], name="x")
            tf.saved_model.simple_save(sess, str(tmp_path / "plain_sm"), {"x": x}, {"y": x * 2})
        with pytest.raises(ValueError, match="plain_sm is a SavedModel without keras_metadata.pb"):
            tf.keras.models.load_model(str(tmp_path / "plain_sm"))


def test_failed_save_leaves_the_previous_file(tmp_path, monkeypatch):
    with tf.Graph().as_default():
        m = _model()
        m.save(str(tmp_path / "m.h5"))
        m.save(str(tmp_path / "sm"), save_format="tf")
        m.save_weights(str(tmp_path / "w.h5"))
        before = {p: (tmp_path / p).read_bytes() for p in ("m.h5", "w.h5", "sm/saved_model.pb")}

        def fail(*args, **kwargs):
            raise RuntimeError("disk full (simulated)")
        monkeypatch.setattr(hdf5_format, "_write_subset", fail)
        with pytest.raises(RuntimeError, match="simulated"):
            m.save(str(tmp_path / "m.h5"))
        with pytest.raises(RuntimeError, match="simulated"):
            m.save_weights(str(tmp_path / "w.h5"))
        monkeypatch.setattr(saved_model_export, "_signature", fail)
        with pytest.raises(RuntimeError, match="simulated"):
            m.save(str(tmp_path / "sm"), save_format="tf")
    after = {p: (tmp_path / p).read_bytes() for p in before}
    assert after == before
    assert sorted(os.listdir(tmp_path)) == ["m.h5", "sm", "w.h5"]     # no temporary files left behind
    assert sorted(os.listdir(tmp_path / "sm")) == ["assets", "keras_metadata.pb", "saved_model.pb",
                                                  "variables"]
