"""Initializing variables from a checkpoint instead of their initializers: ``tf.train.init_from_checkpoint``
and ``tf.train.warm_start`` (with ``VocabInfo``), as TF1 builds them."""
import collections
import re

from graphlab.framework.graph import GraphKeys, get_default_graph
from graphlab.train.checkpoint_utils import (_prefix, load_checkpoint)


def _set_checkpoint_initializer(variable, ckpt_file, tensor_name):
    from graphlab.ops import io_ops, state_ops
    restore = io_ops.restore_v2(ckpt_file, [tensor_name], [""], [variable.dtype.base_dtype],
                                name="checkpoint_initializer")[0]
    restore.set_shape(variable.shape)
    if getattr(variable, "_is_resource_variable", False):      # as TF: the variable's own assign
        variable._initializer_op = variable.assign(restore, read_value=False)
    else:
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
