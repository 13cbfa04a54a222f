"""The graph ops through which tf-keras writes and reads an object-based checkpoint in graph mode.

When graph building, tf-keras's ``save_weights`` does not read variables from Python: it adds save ops to
the model's graph once (TF's functional saver, at the top level, no ``save/`` scope) and runs them with the
file prefix and the serialized object graph fed into two Consts:

    Const (object graph), Const_1 (prefix), StaticRegexFullMatch, Const_2 '.part', Const_3 '_temp/part',
    Select, StringJoin, per variable Read/ReadVariableOp + Identity + Identity_1, num_shards,
    ShardedFilename/shard, ShardedFilename, SaveV2 (+tensor_names, shape_and_slices), the Pack
    MergeV2Checkpoints/checkpoint_prefixes, MergeV2Checkpoints, and an Identity of the prefix after it.

``load_weights`` adds a RestoreV2 (prefix in a Const, keys in name order) and an Identity and an assign per
variable. A learner who draws the graph after saving sees these ops, as in TF; they are built once per set
of variables and reused by later saves. The same ops, with a ``saver_filename`` placeholder, are the save and
restore of a SavedModel (saved_model_export.py).
"""
from graphlab.formats.protos import saver_pb2
from graphlab.framework import registry
from graphlab.framework.registry import constant
from graphlab.ops import array_ops, control_flow_ops, io_ops

OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"


def _has_op(op_type):
    try:
        registry.get_opdef(op_type)
        return True
    except (KeyError, LookupError, ValueError):
        return False


def _read(graph, variable):
    """The value to save: TF reads a resource variable in a ``Read`` scope, then copies it twice."""
    handle = getattr(variable, "handle", None)
    if handle is not None and hasattr(variable, "_read_variable_op"):
        with graph.name_scope("Read"):
            if _has_op("DisableCopyOnRead"):
                registry.build_op("DisableCopyOnRead", [handle], name="DisableCopyOnRead")
            value = variable._read_variable_op()
    else:
        value = variable
    return array_ops.identity(array_ops.identity(value))


class SaveOps:
    """Save ops for [(key, variable)] plus the object graph, built in ``graph`` at the top level."""

    def __init__(self, graph, entries, object_graph=b"", prefix=None):
        self.variables = tuple(v for _, v in entries)
        with graph.as_default(), graph.name_scope(None), graph.control_dependencies(None):
            self.object_graph = constant(object_graph)
            self.prefix = constant(b"") if prefix is None else prefix
            is_s3 = io_ops.static_regex_full_match(self.prefix, "^s3://.*")
            suffix = array_ops.where(is_s3, constant(".part"), constant("_temp/part"))
            tmp_prefix = io_ops.string_join([self.prefix, suffix])
            values = [_read(graph, v) for _, v in entries]
            num_shards = constant(1, name="num_shards")
            with graph.name_scope("ShardedFilename") as scope:     # the op's inputs are made in its scope
                shard = io_ops.sharded_filename(tmp_prefix, constant(0, name="shard"), num_shards, name=scope)
            keys = [k for k, _ in entries] + [OBJECT_GRAPH_KEY]
            with graph.name_scope("SaveV2") as scope:
                names = constant(keys, name="tensor_names")
                slices = constant([""] * len(keys), name="shape_and_slices")
            save = io_ops.save_v2(shard, names, slices, values + [self.object_graph], name=scope)
            with graph.name_scope("MergeV2Checkpoints") as scope:
                with graph.control_dependencies([save]):
                    prefixes = array_ops.stack([shard], name="checkpoint_prefixes")
                merge = io_ops.merge_v2_checkpoints(prefixes, self.prefix, delete_old_dirs=True, name=scope)
            with graph.control_dependencies([merge]):
                self.done = array_ops.identity(self.prefix)

    def run(self, session, prefix, object_graph):
        session.run(self.done, {self.prefix: prefix, self.object_graph: object_graph})


class RestoreOps:
    """RestoreV2 of ``keys`` (in name order, as TF sorts them) and an assign into each variable."""

    def __init__(self, graph, pairs, prefix=None):
        pairs = sorted(pairs, key=lambda kv: kv[0])
        with graph.as_default(), graph.name_scope(None), graph.control_dependencies(None):
            self.prefix = constant(b"") if prefix is None else prefix
            with graph.name_scope("RestoreV2") as scope:
                names = constant([k for k, _ in pairs], name="tensor_names")
                slices = constant([""] * len(pairs), name="shape_and_slices")
            restored = io_ops.restore_v2(self.prefix, names, slices, [v.dtype.base_dtype for _, v in pairs],
                                         name=scope)
            if not isinstance(restored, (list, tuple)):
                restored = [restored]
            assigns = []
            for (_, variable), value in zip(pairs, restored):
                value = array_ops.identity(value)
                op = variable.assign(value, read_value=False)
                assigns.append(op if hasattr(op, "type") else op.op)
            self.assigns = assigns

    def run(self, session, prefix):
        session.run(self.assigns, {self.prefix: prefix})


def cached(model, graph, kind, key, build):
    """Ops of ``kind`` for ``key`` built once per model and graph (TF caches its saver's ops the same way)."""
    cache = model.__dict__.setdefault("_graphlab_checkpoint_ops", {})
    slot = (id(graph), kind)
    found = cache.get(slot)
    if found is not None and found[0] == key:
        return found[1]
    ops = build()
    cache[slot] = (key, ops)
    return ops


class SavedModelSaver:
    """What SavedModelBuilder needs of a Saver (save() and saver_def) over SaveOps/RestoreOps with a
    ``saver_filename`` placeholder, as tf-keras's SavedModels name their filename tensor."""

    def __init__(self, graph, entries, object_graph, write=None):
        from graphlab.framework import dtypes
        with graph.as_default(), graph.name_scope(None):
            filename = array_ops.placeholder(dtypes.string, shape=[], name="saver_filename")
        self._save = SaveOps(graph, entries, object_graph=object_graph, prefix=filename)
        restore = RestoreOps(graph, entries, prefix=filename)
        with graph.as_default(), graph.name_scope(None):
            restore_op = control_flow_ops.group(*restore.assigns, name="restore_all")
        self.saver_def = saver_pb2.SaverDef(
            filename_tensor_name=filename.name, save_tensor_name=self._save.done.name,
            restore_op_name=restore_op.name, max_to_keep=5, keep_checkpoint_every_n_hours=10000.0,
            version=saver_pb2.SaverDef.V2)
        self._filename = filename
        self._write = write

    def save(self, sess, save_path, **unused):
        """Write the variables: by ``write(save_path)`` when given (the model's own save ops in its graph,
        as tf-keras writes a SavedModel's variables), else by this graph's save ops."""
        if self._write is not None:
            self._write(save_path)
        else:
            sess.run(self._save.done, {self._filename: save_path})
        return save_path

