"""The ``checkpoint`` state file lists paths as TF 2.21's compat.v1 Saver writes them (texts copied from TF)."""
import os

import pytest

import graphlab as tf


@pytest.fixture
def saved(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    tf.Variable(1.0, name="v")
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    return sess, tmp_path


def test_relative_save_directory_gives_paths_relative_to_it(saved):
    sess, root = saved
    saver = tf.train.Saver()
    assert saver.save(sess, "./m1") == "./m1"
    assert (root / "checkpoint").read_text() == 'model_checkpoint_path: "m1"\nall_model_checkpoint_paths: "m1"\n'
    saver.save(sess, "m2")
    saver.save(sess, "sub/m3")
    assert (root / "sub" / "checkpoint").read_text() == (
        'model_checkpoint_path: "m3"\n'
        'all_model_checkpoint_paths: "../m1"\nall_model_checkpoint_paths: "../m2"\n'
        'all_model_checkpoint_paths: "m3"\n')
    assert tf.train.latest_checkpoint("sub") == os.path.join("sub", "m3")
    assert tf.train.latest_checkpoint(".") == os.path.join(".", "m2")
    state = tf.train.get_checkpoint_state("sub")
    assert list(state.all_model_checkpoint_paths) == [os.path.join("sub", p) for p in ("../m1", "../m2", "m3")]


def test_absolute_save_directory_keeps_paths_as_given(saved):
    sess, root = saved
    saver = tf.train.Saver()
    saver.save(sess, "sub/m3")
    saver.save(sess, str(root / "sub" / "m5"))
    assert (root / "sub" / "checkpoint").read_text() == (
        'model_checkpoint_path: "%s/sub/m5"\n'
        'all_model_checkpoint_paths: "sub/m3"\nall_model_checkpoint_paths: "%s/sub/m5"\n' % (root, root))
    assert tf.train.latest_checkpoint("sub") == str(root / "sub" / "m5")


def test_save_relative_paths(saved):
    sess, root = saved
    tf.train.Saver(save_relative_paths=True).save(sess, str(root / "sub" / "m6"), global_step=3)
    assert (root / "sub" / "checkpoint").read_text() == (
        'model_checkpoint_path: "m6-3"\nall_model_checkpoint_paths: "m6-3"\n')
    assert tf.train.latest_checkpoint(str(root / "sub")) == str(root / "sub" / "m6-3")
