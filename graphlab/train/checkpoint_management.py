"""TF1's checkpoint file management: the files of a checkpoint prefix, their mtimes, removing one, building a
``checkpoint`` state proto, and ``checkpoints_iterator`` waiting for new checkpoints in a directory."""
import os
import time

from graphlab.formats import tensor_bundle
from graphlab.train.checkpoint_utils import (latest_checkpoint)


def _checkpoint_files(prefix):
    return [tensor_bundle.index_path(prefix)] + [p for p in _data_files(prefix)] + [prefix + ".meta"]


def _data_files(prefix):
    folder = os.path.dirname(prefix) or "."
    base = os.path.basename(prefix) + ".data-"
    return [os.path.join(folder, f) for f in os.listdir(folder) if f.startswith(base)] if os.path.isdir(folder) else []


def get_checkpoint_mtimes(checkpoint_prefixes):
    """``tf.train.get_checkpoint_mtimes``: the modification time of each checkpoint's index file (those
    that exist)."""
    return [os.path.getmtime(tensor_bundle.index_path(p)) for p in checkpoint_prefixes
            if os.path.exists(tensor_bundle.index_path(p))]


def remove_checkpoint(checkpoint_prefix, checkpoint_format_version=2, meta_graph_suffix="meta"):
    """``tf.train.remove_checkpoint``: delete a checkpoint's index, data and meta-graph files."""
    for path in [tensor_bundle.index_path(checkpoint_prefix)] + _data_files(checkpoint_prefix) + [
            checkpoint_prefix + "." + meta_graph_suffix]:
        if os.path.exists(path):
            os.remove(path)


def generate_checkpoint_state_proto(save_dir, model_checkpoint_path, all_model_checkpoint_paths=None,
                                    all_model_checkpoint_timestamps=None, last_preserved_timestamp=None):
    """``tf.train.generate_checkpoint_state_proto``: the CheckpointState a ``checkpoint`` file holds (paths
    inside ``save_dir`` made relative, as TF writes them)."""
    from graphlab.formats import text_format
    paths = list(all_model_checkpoint_paths or [])
    if not paths or paths[-1] != model_checkpoint_path:
        paths.append(model_checkpoint_path)
    if not os.path.isabs(save_dir):
        model_checkpoint_path = os.path.relpath(model_checkpoint_path, save_dir) if os.path.isabs(
            model_checkpoint_path) else model_checkpoint_path
        paths = [os.path.relpath(p, save_dir) if os.path.isabs(p) else p for p in paths]
    return text_format.checkpoint_state(model_checkpoint_path, paths, all_model_checkpoint_timestamps,
                                        last_preserved_timestamp)


def checkpoints_iterator(checkpoint_dir, min_interval_secs=0, timeout=None, timeout_fn=None):
    """``tf.train.checkpoints_iterator``: yield each new latest checkpoint of ``checkpoint_dir`` as it
    appears; stop after ``timeout`` seconds without one (unless ``timeout_fn()`` says to keep waiting)."""
    last = None
    while True:
        start = time.time()
        found = None
        while found is None:
            path = latest_checkpoint(checkpoint_dir)
            if path is not None and path != last:
                found = path
                break
            if timeout is not None and time.time() - start >= timeout:
                break
            time.sleep(min(1.0, timeout or 1.0))
        if found is None:
            if timeout_fn is None or timeout_fn():
                return
            continue
        last = found
        yield found
        wait = min_interval_secs - (time.time() - start)
        if wait > 0:
            time.sleep(wait)
