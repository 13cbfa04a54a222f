"""Smaller parts of TF1's tf.train: checkpoint file management (mtimes, removal, waiting for new ones,
state protos), initializing variables from a checkpoint (init_from_checkpoint, warm_start), the deprecated
input helpers (match_filenames_once, maybe_*_join), noisy_linear_cosine_decay and LooperThread."""
import collections
import os
import re
import threading
import time

from graphlab.formats import tensor_bundle
from graphlab.framework.graph import GraphKeys, get_default_graph
from graphlab.train.checkpoint_utils import (_prefix, get_checkpoint_state, latest_checkpoint,
                                             load_checkpoint)


# ------------------------------------------------------------------------------------- checkpoint files
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


# ----------------------------------------------------------------------------- initializing from a checkpoint
def _set_checkpoint_initializer(variable, ckpt_file, tensor_name):
    from graphlab.ops import io_ops, state_ops
    restore = io_ops.restore_v2(ckpt_file, [tensor_name], [""], [variable.dtype.base_dtype],
                                name="checkpoint_initializer")[0]
    restore.set_shape(variable.shape)
    variable._initializer_op = state_ops.assign(variable._ref(), restore).op
    variable._initial_value = restore


def init_from_checkpoint(ckpt_dir_or_file, assignment_map):
    """``tf.train.init_from_checkpoint``: make variables' initializers read their first values from a
    checkpoint. ``assignment_map`` maps checkpoint names (or "scope/") to variables, variable names in the
    variable store, or "scope/" (every get_variable variable below it)."""
    from graphlab.ops.variable_scope import _get_default_variable_store
    ckpt_file = _prefix(ckpt_dir_or_file)
    shapes = load_checkpoint(ckpt_dir_or_file).get_variable_to_shape_map()
    items = assignment_map.items() if isinstance(assignment_map, dict) else assignment_map
    store = _get_default_variable_store()._vars
    for tensor_name, current in sorted(items, key=lambda kv: kv[0]):
        var = current if hasattr(current, "_initializer_op") else store.get(current)
        if var is not None:
            if tensor_name not in shapes:
                raise ValueError("Tensor %s is not found in %s checkpoint %s" % (tensor_name, ckpt_dir_or_file,
                                                                                 shapes))
            if not var.get_shape().is_compatible_with(shapes[tensor_name]):
                raise ValueError("Shape of variable %s (%s) doesn't match with shape of tensor %s (%s) from "
                                 "checkpoint reader." % (var.name, var.get_shape(), tensor_name,
                                                         shapes[tensor_name]))
            _set_checkpoint_initializer(var, ckpt_file, tensor_name)
            continue
        scopes = current[:current.rindex("/")] if "/" in current else ""
        if not tensor_name.endswith("/"):
            raise ValueError("Assignment map with scope only name {} should map to scope only {}. Should be "
                             "'scope/': 'other_scope/'.".format(scopes, tensor_name))
        for var_name in sorted(n for n in store if not scopes or n.startswith(scopes + "/")):
            full = var_name[len(scopes):]
            if current != "/":
                full = full[1:]
            if tensor_name != "/":
                full = tensor_name + full
            if full not in shapes:
                raise ValueError("Tensor %s (%s in %s) is not found in %s checkpoint" % (
                    full, var_name[len(scopes) + 1:], tensor_name, ckpt_dir_or_file))
            _set_checkpoint_initializer(store[var_name], ckpt_file, full)


VocabInfo = collections.namedtuple("VocabInfo", ["new_vocab", "new_vocab_size", "num_oov_buckets", "old_vocab",
                                                 "old_vocab_size", "backup_initializer", "axis"])
VocabInfo.__new__.__defaults__ = (-1, None, 0)
VocabInfo.__doc__ = "``tf.train.VocabInfo``: how warm_start should remap an embedding's rows between vocabularies."


def warm_start(ckpt_to_initialize_from, vars_to_warm_start=".*", var_name_to_vocab_info=None,
               var_name_to_prev_var_name=None):
    """``tf.train.warm_start``: initialize the trainable variables matching ``vars_to_warm_start`` (a regex,
    or a list of regexes or variables) from a checkpoint, under their names or ``var_name_to_prev_var_name``'s.
    Vocabulary remapping (``var_name_to_vocab_info``) is not implemented in graphlab."""
    if var_name_to_vocab_info:
        raise NotImplementedError("graphlab's tf.train.warm_start does not remap vocabularies "
                                  "(var_name_to_vocab_info); warm-start those variables yourself")
    renames = dict(var_name_to_prev_var_name or {})
    graph = get_default_graph()
    if isinstance(vars_to_warm_start, str) or vars_to_warm_start is None:
        pattern = re.compile(vars_to_warm_start or ".*")
        chosen = [v for v in graph.get_collection(GraphKeys.TRAINABLE_VARIABLES) if pattern.match(v.op.name)]
    else:
        chosen = []
        for item in vars_to_warm_start:
            if isinstance(item, str):
                pattern = re.compile(item)
                chosen.extend(v for v in graph.get_collection(GraphKeys.GLOBAL_VARIABLES) if pattern.match(v.op.name))
            else:
                chosen.append(item)
    init_from_checkpoint(ckpt_to_initialize_from, {renames.get(v.op.name, v.op.name): v for v in chosen})


def maybe_batch_join(tensors_list, keep_input, batch_size, capacity=32, enqueue_many=False, shapes=None,
                     dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None, name=None):
    """``tf.train.maybe_batch_join``: batch_join, enqueuing only elements whose ``keep_input`` is true."""
    from graphlab.train.input import _batch
    return _batch(list(tensors_list), batch_size, len(tensors_list), capacity, enqueue_many, shapes, dynamic_pad,
                  allow_smaller_final_batch, shared_name, name, keep_input, "batch_join", True)


def maybe_shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, keep_input, seed=None,
                             enqueue_many=False, shapes=None, allow_smaller_final_batch=False, shared_name=None,
                             name=None):
    """``tf.train.maybe_shuffle_batch_join``: shuffle_batch_join, keeping only elements with ``keep_input``."""
    from graphlab.train.input import _batch
    return _batch(list(tensors_list), batch_size, len(tensors_list), capacity, enqueue_many, shapes, False,
                  allow_smaller_final_batch, shared_name, name, keep_input, "shuffle_batch_join", True,
                  min_after_dequeue, seed)


# ---------------------------------------------------------------------------------------- learning rate
def noisy_linear_cosine_decay(learning_rate, global_step, decay_steps, initial_variance=1.0, variance_decay=0.55,
                              num_periods=0.5, alpha=0.0, beta=0.001, name=None):
    """``tf.train.noisy_linear_cosine_decay``: linear_cosine_decay whose linear term gets Gaussian noise of
    variance initial_variance / (1 + step) ** variance_decay."""
    import math
    from graphlab.framework.graph import name_scope
    from graphlab.ops import math_ops, random_ops
    from graphlab.framework.registry import constant, convert_to_tensor
    if global_step is None:
        raise ValueError("global_step is required for noisy_linear_cosine_decay.")
    with name_scope(name, "NoisyLinearCosineDecay", [learning_rate, global_step]) as scope:
        lr = convert_to_tensor(learning_rate, name="learning_rate")
        dtype = lr.dtype.base_dtype
        decay_steps = math_ops.cast(decay_steps, dtype)
        initial_variance = math_ops.cast(initial_variance, dtype)
        variance_decay = math_ops.cast(variance_decay, dtype)
        num_periods = math_ops.cast(num_periods, dtype)
        alpha = math_ops.cast(alpha, dtype)
        beta = math_ops.cast(beta, dtype)
        step = math_ops.minimum(math_ops.cast(global_step, dtype), decay_steps)
        linear_decayed = (decay_steps - step) / decay_steps
        variance = initial_variance / (math_ops.pow(1.0 + step, variance_decay))
        std = math_ops.sqrt(variance)
        noisy_linear_decayed = linear_decayed + random_ops.random_normal(linear_decayed.shape, stddev=std)
        completed_fraction = step / decay_steps
        fraction = 2.0 * num_periods * completed_fraction
        cosine_decayed = 0.5 * (1.0 + math_ops.cos(constant(math.pi, dtype=dtype) * fraction))
        noisy_linear_cosine_decayed = (alpha + noisy_linear_decayed) * cosine_decayed + beta
        return math_ops.multiply(lr, noisy_linear_cosine_decayed, name=scope)


# ------------------------------------------------------------------------------------------- LooperThread
class LooperThread(threading.Thread):
    """``tf.train.LooperThread``: calls ``target(*args, **kwargs)`` every ``timer_interval_secs`` (or as
    fast as it can when None) until the Coordinator says stop."""

    def __init__(self, coord, timer_interval_secs, target=None, args=None, kwargs=None):
        super().__init__(daemon=True)
        self._coord = coord
        self._timer_interval_secs = timer_interval_secs
        self._target = target
        self._args, self._kwargs = args or (), kwargs or {}
        if target is None and type(self).run_loop is LooperThread.run_loop:
            raise ValueError("'target' must be given, or run_loop overridden")
        coord.register_thread(self)

    @staticmethod
    def loop(coord, timer_interval_secs, target, args=None, kwargs=None):
        looper = LooperThread(coord, timer_interval_secs, target=target, args=args, kwargs=kwargs)
        looper.start()
        return looper

    def run(self):
        with self._coord.stop_on_exception():
            self.start_loop()
            if self._timer_interval_secs is None:
                while not self._coord.should_stop():
                    self.run_loop()
            else:
                next_time = time.time()
                while not self._coord.wait_for_stop(max(0, next_time - time.time())):
                    next_time += self._timer_interval_secs
                    self.run_loop()
            self.stop_loop()

    def start_loop(self):
        pass

    def stop_loop(self):
        pass

    def run_loop(self):
        if self._target:
            self._target(*self._args, **self._kwargs)


del get_checkpoint_state, _checkpoint_files
