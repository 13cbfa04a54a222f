"""MetaGraphDef: a GraphDef plus the Saver's SaverDef and the graph's collections, so a program that
never saw the model-building code can rebuild the graph, find its variables and train op, and restore.

``export_meta_graph`` writes what TF writes (variables as VariableDef bytes, ops and tensors as names);
``import_meta_graph`` imports the graph through the op registry and returns a Saver built on the saved
SaverDef. Nothing in the file is executed.
"""
import os

from graphlab.formats import graph_io
from graphlab.framework.graph import prepend_name_scope, strip_name_scope
from graphlab.formats import text_format as tf_text
from graphlab.formats.protos import control_flow_pb2, meta_graph_pb2, variable_pb2

META_GRAPH_VERSION = "v1.0"
# TF parses tensorflow_version as a version number (>= 1.9 changes how it reads collections), so we
# state the TF1 release whose files we follow, and name graphlab in the git-version field.
TENSORFLOW_VERSION = "1.15.0"
TENSORFLOW_GIT_VERSION = "graphlab-0.1.0"

# Collections whose items are Variables, stored as serialized VariableDef protos (TF registers a proto
# function for exactly these keys; a Variable in any other collection is stored by name, and imported as
# the variable's tensor, as TF does).
VARIABLE_COLLECTIONS = ("variables", "trainable_variables", "local_variables", "model_variables",
                        "moving_average_variables", "global_step", "metric_variables")


# The collection whose QueueRunners are stored as serialized QueueRunnerDef protos (TF's registered key).
QUEUE_RUNNERS = "queue_runners"


def _graph_mod():
    from graphlab.framework import graph as graph_mod
    return graph_mod


def _collection_def(key, items, export_scope):
    """CollectionDef for one collection, or None when its items are not serializable (TF skips those)."""
    from graphlab.framework.operation import Operation
    from graphlab.framework.tensor import Tensor
    from graphlab.variables import Variable
    from graphlab.framework.control_flow_context import ControlFlowContext
    from graphlab.train.queue_runner import QueueRunner
    cd = meta_graph_pb2.CollectionDef()
    if not items:
        return None
    if all(isinstance(x, ControlFlowContext) for x in items):     # cond_context / while_context
        from graphlab.ops import control_flow_protos
        protos = [control_flow_protos.to_proto(c, export_scope) for c in items]
        cd.bytes_list.value.extend(p.SerializeToString() for p in protos if p is not None)
    elif key == QUEUE_RUNNERS and all(isinstance(x, QueueRunner) for x in items):
        protos = [qr.to_proto(export_scope) for qr in items]
        cd.bytes_list.value.extend(p.SerializeToString() for p in protos if p is not None)
    elif key in VARIABLE_COLLECTIONS and all(isinstance(x, Variable) for x in items):
        cd.bytes_list.value.extend(graph_io.variable_to_proto(v, export_scope).SerializeToString() for v in items)
    elif all(isinstance(x, (Operation, Tensor, Variable)) for x in items):
        # as TF: with an export scope, only what lies below it
        cd.node_list.value.extend(strip_name_scope(x.name, export_scope) for x in items
                                  if not export_scope or x.name.startswith(export_scope))
    elif all(isinstance(x, bool) for x in items):
        return None
    elif all(isinstance(x, int) for x in items):
        cd.int64_list.value.extend(items)
    elif all(isinstance(x, float) for x in items):
        cd.float_list.value.extend(items)
    elif all(isinstance(x, (str, bytes)) for x in items):
        cd.bytes_list.value.extend(x.encode("utf-8") if isinstance(x, str) else x for x in items)
    else:
        return None
    return cd


def create_meta_graph_def(graph=None, saver_def=None, collection_list=None, export_scope=None,
                          clear_devices=False, graph_def=None):
    graph = graph or _graph_mod().get_default_graph()
    mgd = meta_graph_pb2.MetaGraphDef()
    mgd.meta_info_def.meta_graph_version = META_GRAPH_VERSION
    mgd.meta_info_def.tensorflow_version = TENSORFLOW_VERSION
    mgd.meta_info_def.tensorflow_git_version = TENSORFLOW_GIT_VERSION
    mgd.graph_def.CopyFrom(graph_def if graph_def is not None
                           else graph_io.graph_to_graph_def(graph, export_scope=export_scope))
    if clear_devices:
        for nd in mgd.graph_def.node:
            nd.device = ""
    if saver_def is not None:
        mgd.saver_def.CopyFrom(saver_def)
    keys = collection_list if collection_list is not None else graph.get_all_collection_keys()
    for key in keys:
        if not isinstance(key, str):
            continue
        cd = _collection_def(key, graph.get_collection(key), export_scope)
        if cd is not None:
            mgd.collection_def[key].CopyFrom(cd)
    return mgd


def export_meta_graph(filename=None, graph=None, saver_def=None, collection_list=None, as_text=False,
                      export_scope=None, clear_devices=False, graph_def=None, **_ignored):
    """``tf.train.export_meta_graph``: build the MetaGraphDef, write it to `filename` if given, return it."""
    mgd = create_meta_graph_def(graph, saver_def, collection_list, export_scope, clear_devices, graph_def)
    if filename:
        data = tf_text.to_text(mgd).encode("utf-8") if as_text else mgd.SerializeToString()
        graph_io.write_atomic(os.fspath(filename), data)
        graph_io.notify_export("MetaGraphDef", os.fspath(filename), mgd.graph_def)
    return mgd


def read_meta_graph_file(filename):
    """MetaGraphDef from a binary (or, failing that, text) file; DataLossError naming the file if neither."""
    from graphlab.formats.errors import DataLossError, NotFoundError
    filename = os.fspath(filename)
    try:
        with open(filename, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise NotFoundError(None, None, "File %s does not exist." % filename) from None
    try:
        return graph_io.parse_message(meta_graph_pb2.MetaGraphDef, data, filename)
    except DataLossError as binary_error:
        try:
            return tf_text.from_text(data, meta_graph_pb2.MetaGraphDef, filename)
        except DataLossError:
            raise binary_error from None


class _VariableDefView:
    """A VariableDef as Variable(variable_def=...) reads it (proto3 `trainable` has no presence bit)."""

    def __init__(self, vd):
        self._vd = vd

    def __getattr__(self, name):
        return getattr(self._vd, name)

    def HasField(self, name):  # noqa: N802  (protobuf's spelling)
        return True if name == "trainable" else self._vd.HasField(name)


# Collections of control-flow contexts, and the message each entry is (graphlab/ops/control_flow_protos.py).
_CONTEXT_PROTOS = {"cond_context": control_flow_pb2.CondContextDef, "while_context": control_flow_pb2.WhileContextDef}


def _restore_collections(graph, mgd, import_scope, source):
    from graphlab.variables import Variable
    for key, cd in sorted(mgd.collection_def.items()):
        kind = cd.WhichOneof("kind")
        try:
            if kind == "bytes_list" and key in VARIABLE_COLLECTIONS:
                existing = {v.name: v for k in VARIABLE_COLLECTIONS for v in graph.get_collection(k)}
                for raw in cd.bytes_list.value:
                    vd = graph_io.parse_message(variable_pb2.VariableDef, raw, "%s (collection %r)" % (source, key))
                    name = prepend_name_scope(vd.variable_name, import_scope)
                    v = existing.get(name) or Variable(variable_def=_VariableDefView(vd), import_scope=import_scope)
                    existing[name] = v
                    graph.add_to_collection(key, v)
            elif kind == "bytes_list" and key == QUEUE_RUNNERS:
                from graphlab.formats.protos import queue_runner_pb2
                from graphlab.train.queue_runner import QueueRunner
                for raw in cd.bytes_list.value:
                    proto = graph_io.parse_message(queue_runner_pb2.QueueRunnerDef, raw,
                                                   "%s (collection %r)" % (source, key))
                    graph.add_to_collection(key, QueueRunner(queue_runner_def=proto, import_scope=import_scope))
            elif kind == "bytes_list" and key in _CONTEXT_PROTOS:
                from graphlab.ops import control_flow_protos
                for raw in cd.bytes_list.value:
                    proto = graph_io.parse_message(_CONTEXT_PROTOS[key], raw, "%s (collection %r)" % (source, key))
                    graph.add_to_collection(key, control_flow_protos.from_proto(proto, graph, import_scope))
            elif kind == "node_list":
                for name in cd.node_list.value:
                    graph.add_to_collection(key, graph.as_graph_element(prepend_name_scope(name, import_scope)))
            elif kind == "bytes_list":
                for raw in cd.bytes_list.value:
                    graph.add_to_collection(key, raw)
            elif kind == "int64_list":
                for v in cd.int64_list.value:
                    graph.add_to_collection(key, int(v))
            elif kind == "float_list":
                for v in cd.float_list.value:
                    graph.add_to_collection(key, float(v))
        except (KeyError, ValueError, TypeError) as e:
            if isinstance(e, graph_io.DataLossError):
                raise
            raise ValueError("Collection %r of the meta graph refers to something not in its graph: %s"
                             % (key, e)) from None


def import_meta_graph(meta_graph_or_file, clear_devices=False, import_scope=None, input_map=None,
                      return_elements=None, **_ignored):
    """``tf.train.import_meta_graph``: import the graph and collections; return a Saver for its SaverDef
    (None when the meta graph has no SaverDef or no variables)."""
    if isinstance(meta_graph_or_file, meta_graph_pb2.MetaGraphDef):
        mgd = meta_graph_or_file
        source = "<MetaGraphDef>"
    else:
        mgd = read_meta_graph_file(meta_graph_or_file)
        source = os.fspath(meta_graph_or_file)
    graph = _graph_mod().get_default_graph()
    gd = mgd.graph_def
    if clear_devices:
        gd = type(gd)()
        gd.CopyFrom(mgd.graph_def)
        for nd in gd.node:
            nd.device = ""
    elements = graph_io.import_graph_def(gd, input_map=input_map, return_elements=return_elements,
                                         name=import_scope or "")
    _restore_collections(graph, mgd, import_scope, source)
    saver = None
    if mgd.HasField("saver_def") and mgd.saver_def.restore_op_name:
        from graphlab.formats.protos import saver_pb2
        from graphlab.train.saver import Saver
        sd = saver_pb2.SaverDef()
        sd.CopyFrom(mgd.saver_def)
        if import_scope:
            sd.filename_tensor_name = prepend_name_scope(sd.filename_tensor_name, import_scope)
            sd.save_tensor_name = prepend_name_scope(sd.save_tensor_name, import_scope)
            sd.restore_op_name = prepend_name_scope(sd.restore_op_name, import_scope)
        saver = Saver(saver_def=sd)
    if return_elements is not None:
        return saver, elements
    return saver
