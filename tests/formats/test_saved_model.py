"""SavedModel: simple_save and SavedModelBuilder layouts, loader tag matching and signatures."""
import os

import numpy as np
import pytest

import graphlab as tf


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield


def _model():
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    w = tf.Variable([[1.0, 0.0], [0.0, 2.0]], name="w")
    return x, tf.matmul(x, w, name="y")


def test_simple_save_layout_and_load(tmp_path):
    x, y = _model()
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    d = str(tmp_path / "export")
    tf.saved_model.simple_save(sess, d, {"x": x}, {"y": y})
    assert sorted(os.listdir(d)) == ["saved_model.pb", "variables"]
    assert sorted(os.listdir(d + "/variables")) == ["variables.data-00000-of-00001", "variables.index"]
    with tf.Graph().as_default(), tf.Session() as s:
        mg = tf.saved_model.loader.load(s, [tf.saved_model.tag_constants.SERVING], d)
        sig = mg.signature_def[tf.saved_model.signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY]
        assert sig.method_name == "tensorflow/serving/predict"
        assert sig.inputs["x"].name == "x:0" and sig.outputs["y"].name == "y:0"
        assert [d.size for d in sig.inputs["x"].tensor_shape.dim] == [-1, 2]
        np.testing.assert_array_equal(s.run("y:0", {"x:0": [[1.0, 1.0]]}), [[1.0, 2.0]])


def test_builder_with_tags_and_wrong_tags(tmp_path):
    x, y = _model()
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    d = str(tmp_path / "b")
    b = tf.saved_model.builder.SavedModelBuilder(d)
    sig = tf.saved_model.signature_def_utils.predict_signature_def({"in": x}, {"out": y})
    b.add_meta_graph_and_variables(sess, ["serve", "gpu"], signature_def_map={"pred": sig})
    assert b.save().endswith(b"saved_model.pb")
    with tf.Graph().as_default(), tf.Session() as s:
        with pytest.raises(RuntimeError, match="MetaGraphDef associated with tags 'serve' could not be found"):
            tf.saved_model.loader.load(s, ["serve"], d)
        tf.saved_model.loader.load(s, ["gpu", "serve"], d)
    with pytest.raises(AssertionError, match="Export directory already exists, and isn't empty"):
        tf.saved_model.builder.SavedModelBuilder(d)
