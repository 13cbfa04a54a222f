"""Meta graphs: export with collections and SaverDef, import without the building code, restore, train."""
import numpy as np
import pytest

import graphlab as tf
from graphlab.formats.protos import variable_pb2


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield


def test_export_holds_collections_and_saver_def(tmp_path):
    w = tf.Variable(1.0, name="w")
    tf.Variable(2.0, name="steps", trainable=False)
    loss = tf.square(w - 3.0, name="loss")
    train = tf.assign_sub(w, 0.1 * (w - 3.0), name="train").op
    tf.add_to_collection("train_op", train)
    tf.add_to_collection("loss", loss)
    saver = tf.train.Saver()
    mgd = saver.export_meta_graph(str(tmp_path / "m.meta"))
    cd = mgd.collection_def
    vd = variable_pb2.VariableDef.FromString(cd["variables"].bytes_list.value[0])
    assert (vd.variable_name, vd.initializer_name, vd.snapshot_name) == ("w:0", "w/Assign", "w/read:0")
    assert len(cd["trainable_variables"].bytes_list.value) == 1
    assert list(cd["train_op"].node_list.value) == ["train"]
    assert list(cd["loss"].node_list.value) == ["loss:0"]
    assert mgd.saver_def.restore_op_name == "save/restore_all"
    assert (tmp_path / "m.meta").read_bytes() == mgd.SerializeToString()


def test_import_restores_collections_and_a_working_saver(tmp_path):
    w = tf.Variable(1.0, name="w")
    tf.add_to_collection("train_op", tf.assign_add(w, 1.0, name="train").op)
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    sess.run("train")
    path = tf.train.Saver().save(sess, str(tmp_path / "model"))
    tf.reset_default_graph()
    saver = tf.train.import_meta_graph(path + ".meta")
    assert [v.name for v in tf.global_variables()] == ["w:0"]
    assert tf.get_collection("train_op")[0].name == "train"
    sess = tf.Session()
    saver.restore(sess, path)
    assert sess.run("w:0") == 2.0
    sess.run(tf.get_collection("train_op")[0])
    assert saver.save(sess, str(tmp_path / "again")) == str(tmp_path / "again")
    assert tf.train.load_variable(str(tmp_path / "again"), "w") == 3.0


def test_import_with_scope(tmp_path):
    tf.Variable(np.float32(4.0), name="w")
    mgd = tf.train.export_meta_graph(saver_def=tf.train.Saver().saver_def)
    tf.reset_default_graph()
    saver = tf.train.import_meta_graph(mgd, import_scope="m")
    assert [v.name for v in tf.global_variables()] == ["m/w:0"]
    assert saver.saver_def.restore_op_name == "m/save/restore_all"
