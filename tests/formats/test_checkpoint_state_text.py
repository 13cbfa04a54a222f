"""The text-format `checkpoint` state file."""

import os

import pytest

from graphlab.formats import text_format as tf_text
from graphlab.formats.errors import DataLossError, NotFoundError
from graphlab.formats.protos import checkpoint_state_pb2, graph_def_pb2


def test_write_then_read(tmp_path):
    state = tf_text.checkpoint_state("/d/model.ckpt-20", ["/d/model.ckpt-10"], [1.5, 2.25], 1.0)
    path = tf_text.write_checkpoint_state(str(tmp_path), state)
    assert os.listdir(tmp_path) == ["checkpoint"]
    assert open(path).read() == (
        'model_checkpoint_path: "/d/model.ckpt-20"\n'
        'all_model_checkpoint_paths: "/d/model.ckpt-10"\n'
        'all_model_checkpoint_paths: "/d/model.ckpt-20"\n'
        "all_model_checkpoint_timestamps: 1.5\n"
        "all_model_checkpoint_timestamps: 2.25\n"
        "last_preserved_timestamp: 1.0\n")
    assert tf_text.read_checkpoint_state(str(tmp_path)) == state


def test_reads_what_tf_writes(tmp_path):
    (tmp_path / "checkpoint").write_text(
        'model_checkpoint_path: "model.ckpt-2"\nall_model_checkpoint_paths: "model.ckpt-1"\n'
        'all_model_checkpoint_paths: "model.ckpt-2"\n')
    state = tf_text.read_checkpoint_state(str(tmp_path))
    assert list(state.all_model_checkpoint_paths) == ["model.ckpt-1", "model.ckpt-2"]


@pytest.mark.parametrize("garbage", [b"hello world", b"\x00\xff\xfe binary", b"model_checkpoint_path: 3",
                                     b'model_checkpoint_path: "a', b"{{{", b""])
def test_garbage_is_a_clear_error(tmp_path, garbage):
    (tmp_path / "checkpoint").write_bytes(garbage)
    with pytest.raises(DataLossError, match="checkpoint"):
        tf_text.read_checkpoint_state(str(tmp_path))


def test_missing_state_file(tmp_path):
    with pytest.raises(NotFoundError):
        tf_text.read_checkpoint_state(str(tmp_path))


def test_generic_pbtxt_round_trip(tmp_path):
    g = graph_def_pb2.GraphDef()
    n = g.node.add(name="c", op="Const")
    n.attr["dtype"].type = 1
    g.versions.producer = 27
    text = tf_text.to_text(g)
    assert tf_text.from_text(text, graph_def_pb2.GraphDef) == g
    with pytest.raises(DataLossError, match="g.pbtxt"):
        tf_text.from_text("node { nme: 1 }", graph_def_pb2.GraphDef, "g.pbtxt")
    assert isinstance(tf_text.from_text("", checkpoint_state_pb2.CheckpointState),
                      checkpoint_state_pb2.CheckpointState)
