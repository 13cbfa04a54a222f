"""Inspecting checkpoints and the ``checkpoint`` state file without building a graph:
``tf.train.list_variables``, ``load_variable``, ``NewCheckpointReader``, ``latest_checkpoint``,
``get_checkpoint_state``, ``checkpoint_exists``, ``update_checkpoint_state``.

A "checkpoint" argument may be a prefix (``dir/model.ckpt-10``) or a directory, in which case the
latest checkpoint listed in its ``checkpoint`` file is used, as TF does.
"""
import os

from graphlab.formats import tensor_bundle
from graphlab.formats import text_format as tf_text
from graphlab.formats.errors import NotFoundError
from graphlab.formats.protos import checkpoint_state_pb2


def get_checkpoint_state(checkpoint_dir, latest_filename=None):
    """The CheckpointState in ``checkpoint_dir/checkpoint``, or None when there is no such file.

    Relative paths in the file are taken relative to ``checkpoint_dir``, as TF does."""
    path = os.path.join(os.fspath(checkpoint_dir), latest_filename or tf_text.CHECKPOINT_STATE_FILENAME)
    if not os.path.exists(path):
        return None
    state = tf_text.read_text(path, checkpoint_state_pb2.CheckpointState)
    if not state.model_checkpoint_path:
        from graphlab.formats.errors import data_loss
        raise data_loss(path, "the checkpoint state has no model_checkpoint_path")
    if not os.path.isabs(state.model_checkpoint_path):
        state.model_checkpoint_path = os.path.join(checkpoint_dir, state.model_checkpoint_path)
    for i, p in enumerate(state.all_model_checkpoint_paths):
        if not os.path.isabs(p):
            state.all_model_checkpoint_paths[i] = os.path.join(checkpoint_dir, p)
    return state


def checkpoint_exists(checkpoint_prefix):
    """True if a V2 checkpoint (its .index file) exists at the prefix."""
    prefix = os.fspath(checkpoint_prefix)
    return os.path.exists(tensor_bundle.index_path(prefix))


checkpoint_exists_internal = checkpoint_exists


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """Prefix of the newest checkpoint in ``checkpoint_dir``, or None if there is none (or its files are
    gone)."""
    state = get_checkpoint_state(checkpoint_dir, latest_filename)
    if state and state.model_checkpoint_path and checkpoint_exists(state.model_checkpoint_path):
        return state.model_checkpoint_path
    return None


def update_checkpoint_state(save_dir, model_checkpoint_path, all_model_checkpoint_paths=None,
                            latest_filename=None, all_model_checkpoint_timestamps=None,
                            last_preserved_timestamp=None):
    """Rewrite ``save_dir/checkpoint`` atomically (a crash leaves the old file or the new one)."""
    state = tf_text.checkpoint_state(model_checkpoint_path, all_model_checkpoint_paths,
                                     all_model_checkpoint_timestamps, last_preserved_timestamp)
    path = os.path.join(os.fspath(save_dir), latest_filename or tf_text.CHECKPOINT_STATE_FILENAME)
    if os.path.normpath(path) == os.path.normpath(model_checkpoint_path):
        raise RuntimeError("Save path '%s' conflicts with path used for checkpoint state.  Please use a "
                           "different save path." % model_checkpoint_path)
    tf_text.write_text_atomic(path, tf_text.to_text(state))


def _prefix(ckpt_dir_or_file):
    """A checkpoint prefix from a prefix or a directory holding a ``checkpoint`` file."""
    path = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(path):
        latest = latest_checkpoint(path)
        if latest is None:
            raise ValueError("Couldn't find 'checkpoint' file or checkpoints in given directory %s" % path)
        return latest
    return path


class CheckpointReader:
    """``tf.train.NewCheckpointReader``: names, shapes, dtypes and values of a checkpoint's tensors."""

    def __init__(self, prefix):
        prefix = os.fspath(prefix)
        if not checkpoint_exists(prefix):
            raise NotFoundError(None, None, "Unsuccessful TensorSliceReader constructor: Failed to find any "
                                "matching files for %s" % prefix)
        self._reader = tensor_bundle.BundleReader(prefix)

    def get_variable_to_shape_map(self):
        return {name: shape for name, shape in self._reader.list_variables()}

    def get_variable_to_dtype_map(self):
        from graphlab.framework import dtypes
        return {name: dtypes.as_dtype(self._reader.dtype_enum(name)) for name in self._reader.keys()}

    def has_tensor(self, name):
        return name in self._reader

    def get_tensor(self, name):
        return self._reader.read(name)

    def debug_string(self):
        from graphlab.formats import dtypes_map
        out = ["%s (%s) %s" % (name, dtypes_map.enum_name(self._reader.dtype_enum(name)), shape)
               for name, shape in self._reader.list_variables()]
        return ("\n".join(out) + "\n").encode()


def NewCheckpointReader(filepattern):  # noqa: N802  (TF's name)
    return CheckpointReader(filepattern)


def load_checkpoint(ckpt_dir_or_file):
    return CheckpointReader(_prefix(ckpt_dir_or_file))


def list_variables(ckpt_dir_or_file):
    """Sorted [(name, shape)] of every tensor in the checkpoint (shapes as lists of ints)."""
    reader = load_checkpoint(ckpt_dir_or_file)
    return sorted(reader.get_variable_to_shape_map().items())


def load_variable(ckpt_dir_or_file, name):
    """The value (numpy array) of one tensor; a trailing ":0" in the name is ignored, as in TF."""
    if name.endswith(":0"):
        name = name[:-2]
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)
