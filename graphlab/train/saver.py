"""``tf.train.Saver``: adds TF's ``save/...`` ops to the graph and runs them to write or read a V2
checkpoint (PREFIX.index + PREFIX.data-00000-of-00001), the ``checkpoint`` state file and PREFIX.meta.

The ops are the ones TF 1.x/2.x builds (BulkSaverBuilder, and its sharded form), with the same names, so a
meta graph written here carries a SaverDef TensorFlow can use, and the other way round.

Saving is crash-safe: each file is renamed into place only when complete (bundle data, then its index,
then the meta graph), then the state file is replaced atomically, and only then are the checkpoints
beyond ``max_to_keep`` deleted (meta graph, index, then data, as TF does). A process that dies between any
two of these steps leaves ``latest_checkpoint()`` naming a complete checkpoint. (TF writes the meta graph
after the state file; writing it first means the listed checkpoint always has its .meta too.)
"""
import numbers
import os
import time

from graphlab.formats.protos import saver_pb2
from graphlab.formats import errors
from graphlab.framework import graph as graph_mod
from graphlab.train import checkpoint_utils


def _meta_graph_filename(checkpoint_filename, meta_graph_suffix="meta"):
    """PREFIX.meta for a checkpoint prefix (a sharded "-?????-of-?????" suffix is dropped, as in TF)."""
    import re
    basename = re.sub(r"-[\d\?]+-of-\d+$", "", checkpoint_filename)
    return ".".join([basename, meta_graph_suffix])


def _checkpoint_files(prefix):
    """Files of the checkpoint at prefix that exist (index, data shards, meta)."""
    directory = os.path.dirname(prefix) or "."
    base = os.path.basename(prefix)
    out = []
    try:
        names = os.listdir(directory)
    except OSError:
        return out
    for name in names:
        if name == base + ".index" or name == base + ".meta" or name.startswith(base + ".data-"):
            out.append(os.path.join(directory, name))
    return out


def _var_name(v):
    """The checkpoint key of a variable: its op's name (``v`` for ``v:0``)."""
    op = getattr(v, "op", None)
    if op is None:
        raise TypeError("Variable to save is not a Variable or Tensor: %r" % (v,))
    return op.name


def _is_variable_like(v):
    from graphlab.framework.tensor import Tensor
    from graphlab.ops.variables import Variable
    return isinstance(v, Variable) or isinstance(v, Tensor)


def _names_to_variables(var_list):
    """{checkpoint name: variable} from a list of variables or a {name: variable} dict."""
    if isinstance(var_list, dict):
        out = {}
        for name, v in var_list.items():
            if not isinstance(name, str):
                raise TypeError("Keys of the var_list dict must be checkpoint names (strings), got %r" % (name,))
            if not _is_variable_like(v):
                raise TypeError("Variable to save is not a Variable: %r" % (v,))
            out[name] = v
        return out
    if isinstance(var_list, (list, tuple, set)):
        out = {}
        for v in var_list:
            if not _is_variable_like(v):
                raise TypeError("Variable to save is not a Variable: %r" % (v,))
            name = _var_name(v)
            if name in out:
                if out[name] is v:
                    raise ValueError("At least one variable is in the var_list twice: %s" % name)
                raise ValueError("At least two variables have the same name: %s" % name)
            out[name] = v
        return out
    raise TypeError("var_list must be a list or a dict of variables, got %s" % type(var_list).__name__)


def _ref_tensor(v):
    """The tensor a value is saved from: a reference variable's ref (VariableV2 output), a resource variable's
    ``v/Read/ReadVariableOp`` (as TF's ResourceVariableSaveable in a graph)."""
    if getattr(v, "_is_resource_variable", False):
        return v._graph_element
    from graphlab.ops.variables import Variable
    return v._variable if isinstance(v, Variable) else v


def _restore_op(graph, v, ref, value):
    """The op that puts a restored tensor into its variable: Assign for a reference variable; for a resource
    variable, TF's Identity then AssignVariableOp on the handle (the shapes checked at build time)."""
    from graphlab.ops import array_ops, resource_variable_ops, state_ops
    if getattr(v, "_is_resource_variable", False):
        with graph.device(v.device):
            value = array_ops.identity(value)
            v.shape.assert_is_compatible_with(value.shape)
            return resource_variable_ops.assign_variable_op(v.handle, value)
    return state_ops.assign(ref, value, validate_shape=True, use_locking=True, name="Assign").op


class Saver:
    """Saves and restores variables. ``Saver()`` takes every global variable present *now*; a dict
    ``var_list={"old_name": var}`` maps checkpoint names to variables of this graph."""

    def __init__(self, var_list=None, reshape=False, sharded=False, max_to_keep=5,
                 keep_checkpoint_every_n_hours=10000.0, name=None, restore_sequentially=False,
                 saver_def=None, builder=None, defer_build=False, allow_empty=False,
                 write_version=saver_pb2.SaverDef.V2, pad_step_number=False, save_relative_paths=False,
                 filename=None):
        if reshape:
            raise NotImplementedError("graphlab's Saver does not support reshape=True")
        self._sharded = sharded
        self._max_to_keep = max_to_keep
        self._keep_checkpoint_every_n_hours = keep_checkpoint_every_n_hours
        self._next_preserve = time.time() + keep_checkpoint_every_n_hours * 3600
        self._last_checkpoints = []
        self._checkpoints_to_be_deleted = []
        self._pad_step_number = pad_step_number
        self._save_relative_paths = save_relative_paths
        self._filename = filename
        self._name = name
        self._allow_empty = allow_empty
        self._is_empty = False
        self._var_list = var_list
        self.saver_def = saver_def
        if saver_def is not None:
            self._check_saver_def(saver_def)
            self._max_to_keep = saver_def.max_to_keep
            self._sharded = saver_def.sharded
            return
        if not defer_build:
            self.build()

    # --- building the graph ops -------------------------------------------------------------------
    def build(self):
        if self.saver_def is not None:
            return
        graph = graph_mod.get_default_graph()
        if self._var_list is None:
            from graphlab.framework.graph import GraphKeys
            self._var_list = graph.get_collection(GraphKeys.GLOBAL_VARIABLES) + \
                graph.get_collection("saveable_objects")
        if not self._var_list:
            if self._allow_empty:
                self._is_empty = True
                return
            raise ValueError("No variables to save")
        names = _names_to_variables(self._var_list)
        self.saver_def = _build_saver_ops(graph, names, self._name, self._filename, self._max_to_keep,
                                          self._keep_checkpoint_every_n_hours, self._sharded)

    def _check_saver_def(self, saver_def):
        if not saver_def.filename_tensor_name or not saver_def.save_tensor_name or \
                not saver_def.restore_op_name:
            raise ValueError("saver_def must name the filename tensor, the save tensor and the restore op")

    def as_saver_def(self):
        return self.saver_def

    def to_proto(self, export_scope=None):
        return self.saver_def

    @staticmethod
    def from_proto(saver_def, import_scope=None):
        return Saver(saver_def=saver_def, name=import_scope)

    # --- bookkeeping of old checkpoints --------------------------------------------------------------
    @property
    def last_checkpoints(self):
        return [p for p, _ in self._last_checkpoints]

    def set_last_checkpoints(self, last_checkpoints):
        self._last_checkpoints = [(p, None) for p in last_checkpoints]

    def set_last_checkpoints_with_time(self, last_checkpoints_with_time):
        self._last_checkpoints = list(last_checkpoints_with_time)

    def recover_last_checkpoints(self, checkpoint_paths):
        self._last_checkpoints = [(p, os.path.getmtime(p + ".index")) for p in checkpoint_paths
                                  if checkpoint_utils.checkpoint_exists(p)]

    def _record(self, path):
        """Remember ``path``; the oldest beyond max_to_keep moves to the list of checkpoints to delete
        (deleted only after the state file no longer lists it). TF keeps no list when max_to_keep is 0."""
        if not self._max_to_keep:
            return
        self._last_checkpoints = [(p, t) for p, t in self._last_checkpoints if p != path]
        self._last_checkpoints.append((path, time.time()))
        if len(self._last_checkpoints) > self._max_to_keep:
            self._checkpoints_to_be_deleted.append(self._last_checkpoints.pop(0))

    def _delete_old_checkpoints(self, meta_graph_suffix):
        """Delete the files of the checkpoint that left the list, unless keep_checkpoint_every_n_hours keeps it.
        Meta graph first, then the index, then the data, so a checkpoint whose index exists still has its data."""
        if not self._checkpoints_to_be_deleted:
            return
        old, stamp = self._checkpoints_to_be_deleted.pop(0)
        if stamp is not None and stamp > self._next_preserve:
            self._next_preserve += self._keep_checkpoint_every_n_hours * 3600
            return
        from graphlab.formats import tensor_bundle
        doomed = [_meta_graph_filename(old, meta_graph_suffix), tensor_bundle.index_path(old)]
        doomed += sorted(f for f in _checkpoint_files(old) if f not in doomed)   # the data shards
        for f in doomed:
            try:
                os.remove(f)
            except OSError:
                pass

    # --- save / restore --------------------------------------------------------------------------
    def save(self, sess, save_path, global_step=None, latest_filename=None, meta_graph_suffix="meta",
             write_meta_graph=True, write_state=True, strip_default_attrs=False, save_debug_info=False):
        """Write the variables' values to ``save_path`` (``-<global_step>`` appended when given); returns
        the checkpoint prefix. Also writes PREFIX.meta and updates the ``checkpoint`` file."""
        if latest_filename is None:
            latest_filename = "checkpoint"
        if os.path.split(latest_filename)[0]:
            raise ValueError("'latest_filename' must not contain path components")
        save_path = os.fspath(save_path)
        if global_step is not None:
            if not isinstance(global_step, numbers.Integral):   # a step fetched earlier (numpy int) is one too
                from graphlab.train.training_util import global_step as _gs
                global_step = _gs(sess, global_step)
            checkpoint_file = "%s-%08d" % (save_path, global_step) if self._pad_step_number \
                else "%s-%d" % (save_path, global_step)
        else:
            checkpoint_file = save_path
        save_dir = os.path.dirname(save_path)
        if self._is_empty:
            if write_meta_graph:
                self.export_meta_graph(_meta_graph_filename(checkpoint_file, meta_graph_suffix),
                                       strip_default_attrs=strip_default_attrs, graph=sess.graph)
            return None
        sd = self.saver_def
        try:   # the SaveV2 op creates the prefix's directory when only that one level is missing, as TF's
            model_checkpoint_path = sess.run(sd.save_tensor_name, {sd.filename_tensor_name: checkpoint_file})
        except (errors.FailedPreconditionError, errors.NotFoundError):
            if not os.path.isdir(save_dir or "."):
                raise ValueError("Parent directory of %s doesn't exist, can't save." % save_path) from None
            raise
        if isinstance(model_checkpoint_path, bytes):
            model_checkpoint_path = model_checkpoint_path.decode("utf-8")
        model_checkpoint_path = str(model_checkpoint_path)
        if write_meta_graph:
            self.export_meta_graph(_meta_graph_filename(checkpoint_file, meta_graph_suffix),
                                   strip_default_attrs=strip_default_attrs, graph=sess.graph)
        if write_state:
            self._record(model_checkpoint_path)
            save_dir = save_dir or "."
            # TF's Saver passes no timestamps, so the file has no all_model_checkpoint_timestamps lines
            checkpoint_utils.update_checkpoint_state(
                save_dir, self._state_path(model_checkpoint_path, save_dir),
                [self._state_path(p, save_dir) for p in self.last_checkpoints], latest_filename)
            self._delete_old_checkpoints(meta_graph_suffix)
        return model_checkpoint_path

    def _state_path(self, path, save_dir):
        """A path as TF writes it in the ``checkpoint`` file: relative to the save directory when that
        directory is given relatively ("./m" and "sub/m" saved from "." list "m"; earlier ones "../m1"),
        or when ``save_relative_paths`` asks for it; absolute paths saved into an absolute directory stay
        absolute. Readers (latest_checkpoint, get_checkpoint_state) join relative paths to the directory."""
        if self._save_relative_paths and os.path.isabs(path):
            path = os.path.relpath(path, save_dir)
        if not os.path.isabs(save_dir) and not os.path.isabs(path):
            path = os.path.relpath(path, save_dir)
        return path

    def restore(self, sess, save_path):
        """Load the variables from the checkpoint at ``save_path`` into ``sess`` (no initializer needed)."""
        if self._is_empty:
            return
        if save_path is None:
            raise ValueError("Can't load save_path when it is None.")
        save_path = os.fspath(save_path)
        if not checkpoint_utils.checkpoint_exists(save_path):
            raise ValueError("The passed save_path is not a valid checkpoint: " + save_path)
        sd = self.saver_def
        try:
            sess.run(sd.restore_op_name, {sd.filename_tensor_name: save_path})
        except errors.NotFoundError as err:
            raise errors.NotFoundError(
                err.node_def, err.op,
                "Restoring from checkpoint failed. This is most likely due to a Variable name or other graph "
                "key that is missing from the checkpoint. Please ensure that you have not altered the graph "
                "expected based on the checkpoint. Original error:\n\n" + err.message) from None
        except errors.InvalidArgumentError as err:
            raise errors.InvalidArgumentError(
                err.node_def, err.op,
                "Restoring from checkpoint failed. This is most likely due to a mismatch between the current "
                "graph and the graph from the checkpoint. Please ensure that you have not altered the graph "
                "expected based on the checkpoint. Original error:\n\n" + err.message) from None

    def export_meta_graph(self, filename=None, collection_list=None, as_text=False, export_scope=None,
                          clear_devices=False, clear_extraneous_savers=False, strip_default_attrs=False,
                          save_debug_info=False, graph=None):
        from graphlab.framework import meta_graph
        return meta_graph.export_meta_graph(filename=filename, graph=graph, saver_def=self.saver_def,
                                            collection_list=collection_list, as_text=as_text,
                                            export_scope=export_scope, clear_devices=clear_devices)


def _build_saver_ops(graph, names_to_vars, name, filename, max_to_keep, keep_hours, sharded=False):
    """The save/... ops exactly as TF's BulkSaverBuilder names them; returns the SaverDef. ``sharded``
    builds TF's sharded form (one shard: graphlab runs every op on one device): SaveV2 writes
    PREFIX_temp/part-00000-of-00001, MergeV2Checkpoints moves it to PREFIX."""
    from graphlab.ops import array_ops, control_flow_ops, io_ops
    from graphlab.framework.registry import constant
    items = sorted(names_to_vars.items())
    with graph.as_default(), graph.control_dependencies(None), graph.name_scope(name or "save"):
        default = constant(filename or "model", name="filename/input")
        fname = array_ops.placeholder_with_default(default, shape=[], name="filename")
        filename_tensor = array_ops.placeholder_with_default(fname, shape=[], name="Const")
        refs = [_ref_tensor(v) for _, v in items]
        keys = [k for k, _ in items]
        if sharded:
            save_tensor = _sharded_save(graph, filename_tensor, keys, refs)
        else:
            save_op = _save_op(graph, filename_tensor, keys, refs)
            with graph.control_dependencies([save_op]), graph.colocate_with(filename_tensor):
                save_tensor = array_ops.identity(filename_tensor, name="control_dependency")
        with graph.device("cpu:0"):      # TF's bulk_restore reads on the CPU
            with graph.name_scope("RestoreV2") as restore_scope:
                rnames = constant(keys, name="tensor_names")
                rslices = constant([""] * len(keys), name="shape_and_slices")
            restored = io_ops.restore_v2(filename_tensor, rnames, rslices, [r.dtype.base_dtype for r in refs],
                                         name=restore_scope)
        assigns = [_restore_op(graph, v, ref, value) for (_, v), ref, value in zip(items, refs, restored)]
        if sharded:
            shard = control_flow_ops.group(*assigns, name="restore_shard")
            restore_op = control_flow_ops.group(shard, name="restore_all")
        else:   # tf.group: on a cluster graph, one NoOp per device of the assigns (as TF)
            restore_op = control_flow_ops.group(*assigns, name="restore_all")
    return saver_pb2.SaverDef(filename_tensor_name=filename_tensor.name, save_tensor_name=save_tensor.name,
                              restore_op_name=restore_op.name, max_to_keep=max_to_keep, sharded=sharded,
                              keep_checkpoint_every_n_hours=keep_hours, version=saver_pb2.SaverDef.V2)


def _save_op(graph, prefix, keys, refs):
    """save/SaveV2 with its tensor_names and shape_and_slices Consts (TF makes them in the op's scope)."""
    from graphlab.ops import io_ops
    from graphlab.framework.registry import constant
    with graph.name_scope("SaveV2") as save_scope:
        names_t = constant(keys, name="tensor_names")
        slices_t = constant([""] * len(keys), name="shape_and_slices")
    return io_ops.save_v2(prefix, names_t, slices_t, refs, name=save_scope)


def _sharded_save(graph, checkpoint_prefix, keys, refs):
    """TF's _AddShardedSaveOpsForV2 for one shard: the save tensor (save/Identity) yields the prefix once
    the shard is written and merged."""
    from graphlab.ops import array_ops, io_ops
    from graphlab.framework.registry import constant
    from graphlab.framework.device_spec import DeviceSpec
    with graph.device("CPU"):
        is_s3 = io_ops.static_regex_full_match(checkpoint_prefix, "^s3://.*")
        suffix = array_ops.where(is_s3, constant(".part"), constant("_temp/part"))
        tmp_prefix = io_ops.string_join([checkpoint_prefix, suffix])
    num_shards = constant(1, name="num_shards")
    # TF's set_cpu0: the shard's device (its variables'), on CPU 0
    cpu0 = DeviceSpec.from_string(refs[0].device if refs else "").replace(device_type="CPU", device_index=0)
    with graph.device(cpu0.to_string()):
        shard_name = io_ops.sharded_filename(tmp_prefix, constant(0, name="ShardedFilename/shard"), num_shards)
        with graph.control_dependencies([_save_op(graph, shard_name, keys, refs)]), \
                graph.colocate_with(shard_name):
            saved = array_ops.identity(shard_name, name="control_dependency")
    with graph.control_dependencies([saved]), graph.device(cpu0.to_string()):
        prefixes = array_ops.stack([shard_name], name="MergeV2Checkpoints/checkpoint_prefixes")
        merge = io_ops.merge_v2_checkpoints(prefixes, checkpoint_prefix, delete_old_dirs=True)
        with graph.control_dependencies([merge]):
            return array_ops.identity(checkpoint_prefix)


def import_meta_graph(meta_graph_or_file, clear_devices=False, import_scope=None, input_map=None,
                      return_elements=None, **_ignored):
    """``tf.train.import_meta_graph``: import the graph and collections; return a Saver for its SaverDef
    (None when the meta graph has no SaverDef or no variables)."""
    from graphlab.framework import meta_graph
    mgd, elements = meta_graph.import_scoped_meta_graph(meta_graph_or_file, clear_devices=clear_devices,
                                                        import_scope=import_scope, input_map=input_map,
                                                        return_elements=return_elements)
    saver = None
    if mgd.HasField("saver_def") and mgd.saver_def.restore_op_name:
        sd = saver_pb2.SaverDef()
        sd.CopyFrom(mgd.saver_def)
        if import_scope:
            sd.filename_tensor_name = graph_mod.prepend_name_scope(sd.filename_tensor_name, import_scope)
            sd.save_tensor_name = graph_mod.prepend_name_scope(sd.save_tensor_name, import_scope)
            sd.restore_op_name = graph_mod.prepend_name_scope(sd.restore_op_name, import_scope)
        saver = Saver(saver_def=sd)
    if return_elements is not None:
        return saver, elements
    return saver


def export_meta_graph(filename=None, meta_info_def=None, graph_def=None, saver_def=None, collection_list=None,
                      as_text=False, graph=None, export_scope=None, clear_devices=False,
                      clear_extraneous_savers=False, strip_default_attrs=False, save_debug_info=False, **kwargs):
    from graphlab.framework import meta_graph
    return meta_graph.export_meta_graph(filename=filename, graph=graph, saver_def=saver_def,
                                        collection_list=collection_list, as_text=as_text,
                                        export_scope=export_scope, clear_devices=clear_devices)
