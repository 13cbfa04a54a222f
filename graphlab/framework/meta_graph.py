"""MetaGraphDef: a GraphDef plus the Saver's SaverDef and the graph's collections, so a program that
never saw the model-building code can rebuild the graph, find its variables and train op, and restore.

``export_meta_graph`` writes what TF writes (variables as VariableDef bytes, ops and tensors as names);
``import_scoped_meta_graph`` imports the graph through the op registry and its collections (the Saver built
on the saved SaverDef is train/saver.py's ``import_meta_graph``). Nothing in the file is executed.

Collections whose items are stored as protos (variables, queue runners, cond and while contexts) are not
known here: each kind registers its own conversion with ``register_proto_function``, as in TF, so this module
needs nothing from the layers above it.
"""
import os

from graphlab.framework import graph as graph_mod, graph_io
from graphlab.framework.graph import prepend_name_scope, strip_name_scope
from graphlab.framework.operation import Operation
from graphlab.framework.tensor import Tensor
from graphlab.formats import text_format as tf_text
from graphlab.formats.errors import DataLossError, NotFoundError
from graphlab.formats.protos import meta_graph_pb2

META_GRAPH_VERSION = "v1.0"
# TF parses tensorflow_version as a version number (>= 1.9 changes how it reads collections), so we
# state the TF1 release whose files we follow, and name graphlab in the git-version field.
TENSORFLOW_VERSION = "1.15.0"
TENSORFLOW_GIT_VERSION = "graphlab-0.1.0"

class _ProtoFunctions:
    """How one collection's items are stored: ``to_proto(item, export_scope)`` gives a message (or None to
    leave the item out), ``from_proto(proto, graph, import_scope, existing)`` rebuilds the item;
    ``item_type`` is the class the collection holds."""

    __slots__ = ("proto_type", "to_proto", "from_proto", "item_type")

    def __init__(self, proto_type, to_proto, from_proto, item_type):
        self.proto_type, self.to_proto, self.from_proto, self.item_type = proto_type, to_proto, from_proto, item_type


_PROTO_FUNCTIONS = {}     # collection key -> _ProtoFunctions
_NAMED_ITEM_TYPES = [Operation, Tensor]   # stored by name in any other collection (Variables join them)


def register_proto_function(collection_name, proto_type, to_proto, from_proto, item_type, by_name_elsewhere=False):
    """TF's ``ops.register_proto_function``: store ``collection_name``'s items as ``proto_type`` messages.

    ``by_name_elsewhere``: in collections without a proto function such items are stored by name and come
    back as the graph element of that name (what TF does with a Variable in a collection of its own)."""
    _PROTO_FUNCTIONS[collection_name] = _ProtoFunctions(proto_type, to_proto, from_proto, item_type)
    if by_name_elsewhere and item_type not in _NAMED_ITEM_TYPES:
        _NAMED_ITEM_TYPES.append(item_type)


def _collection_def(key, items, export_scope):
    """CollectionDef for one collection, or None when its items are not serializable (TF skips those)."""
    cd = meta_graph_pb2.CollectionDef()
    if not items:
        return None
    functions = _PROTO_FUNCTIONS.get(key)
    if functions is not None and all(isinstance(x, functions.item_type) for x in items):
        protos = [functions.to_proto(x, export_scope) for x in items]
        cd.bytes_list.value.extend(p.SerializeToString() for p in protos if p is not None)
    elif all(isinstance(x, tuple(_NAMED_ITEM_TYPES)) for x in items):
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
    graph = graph or graph_mod.get_default_graph()
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


def _restore_collections(graph, mgd, import_scope, source):
    # items rebuilt so far, by kind: a variable listed in "variables" and "trainable_variables" is one object
    rebuilt = {}
    for key, cd in sorted(mgd.collection_def.items()):
        kind = cd.WhichOneof("kind")
        functions = _PROTO_FUNCTIONS.get(key)
        try:
            if kind == "bytes_list" and functions is not None:
                existing = rebuilt.setdefault(functions.item_type, {})
                for raw in cd.bytes_list.value:
                    proto = graph_io.parse_message(functions.proto_type, raw, "%s (collection %r)" % (source, key))
                    graph.add_to_collection(key, functions.from_proto(proto, graph, import_scope, existing))
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


def import_scoped_meta_graph(meta_graph_or_file, clear_devices=False, import_scope=None, input_map=None,
                             return_elements=None):
    """Import a meta graph's graph and collections into the default graph (TF's
    ``meta_graph.import_scoped_meta_graph_with_return_elements``); returns the MetaGraphDef and the elements
    asked for. ``tf.train.import_meta_graph`` (train/saver.py) adds the Saver."""
    if isinstance(meta_graph_or_file, meta_graph_pb2.MetaGraphDef):
        mgd = meta_graph_or_file
        source = "<MetaGraphDef>"
    else:
        mgd = read_meta_graph_file(meta_graph_or_file)
        source = os.fspath(meta_graph_or_file)
    graph = graph_mod.get_default_graph()
    gd = mgd.graph_def
    if clear_devices:
        gd = type(gd)()
        gd.CopyFrom(mgd.graph_def)
        for nd in gd.node:
            nd.device = ""
    elements = graph_io.import_graph_def(gd, input_map=input_map, return_elements=return_elements,
                                         name=import_scope or "")
    _restore_collections(graph, mgd, import_scope, source)
    return mgd, elements
