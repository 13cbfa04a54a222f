"""Graphs to and from TensorFlow's GraphDef protos: ``Graph.as_graph_def``, ``tf.import_graph_def``,
``tf.train.write_graph`` and the VariableDef of a variable.

Exporting writes each op with TF's op type and only the attrs TF's own OpDef declares (the table in
tf_op_attrs.json, taken from TensorFlow's op registry by make_tf_op_attrs.py), so TensorFlow imports the
result. Importing rebuilds ops through the op registry; nothing read from a file is ever executed, and a
node whose op type graphlab lacks is a clear error naming the node.
"""
import json
import os
import re

import numpy as np

from graphlab.formats.atomic import write_atomic
from graphlab.formats import dtypes_map
from graphlab.formats.errors import DataLossError, data_loss
from graphlab.framework import device_spec
from graphlab.framework.graph import strip_name_scope as _strip
from graphlab.formats.protos import (attr_value_pb2, graph_def_pb2, node_def_pb2, tensor_pb2,
                                     tensor_shape_pb2, types_pb2, variable_pb2)

# GraphDef versions we write: any producer >= 22 means "an empty Placeholder shape is a scalar".
GRAPH_DEF_VERSION = 134
GRAPH_DEF_MIN_CONSUMER = 0

# Callables ``listener(kind, path, graph_def)`` told after a graph is written to a file: kind "GraphDef",
# "MetaGraphDef" or "SavedModel" (the IPython extension warns about py_func ops in it). The engine never
# interprets them; a failing listener is ignored.
export_listeners = []


def notify_export(kind, path, graph_def):
    for listener in export_listeners:
        try:
            listener(kind, path, graph_def)
        except Exception:
            pass


with open(os.path.join(os.path.dirname(__file__), "tf_op_attrs.json")) as _f:
    TF_OP_ATTRS = {name: frozenset(attrs) for name, attrs in json.load(_f).items()}


# --- tensors -------------------------------------------------------------------------------------

def _dtypes():
    from graphlab.framework import dtypes
    return dtypes


def _shape_module():
    from graphlab.framework import tensor_shape
    return tensor_shape


def make_tensor_proto(value, dtype_enum=None):
    """TensorProto for a numpy value: several numbers in tensor_content (raw little-endian), one number (or
    one broadcast) in its typed field, strings in string_val, as TF writes them."""
    arr = np.asarray(value)
    enum = dtype_enum if dtype_enum is not None else dtypes_map.numpy_to_enum(arr.dtype)
    if enum is None:
        raise TypeError("Cannot store a numpy %s array in a TensorProto" % arr.dtype)
    proto = tensor_pb2.TensorProto(dtype=enum)
    proto.tensor_shape.SetInParent()
    for d in arr.shape:
        proto.tensor_shape.dim.add(size=int(d))
    if (arr.size == 1 or arr.size > 1 and not any(arr.strides)) and _COMPACT_FIELDS.get(enum):
        # TF's make_tensor_proto: a single value goes in its typed field (float_val: 1), and so does one
        # value broadcast to a shape (tf.constant(0.0, shape=[3]): one value and the shape; how a compact
        # proto is read back); tensor_content is for two or more values
        first = arr.reshape(-1)[:1]
        if enum == types_pb2.DT_HALF:           # half_val holds the 16 bits as an integer
            first = first.view(np.uint16)
        elif enum == types_pb2.DT_STRING:
            first = [x.encode("utf-8") if isinstance(x, str) else bytes(x) for x in first]
        getattr(proto, _COMPACT_FIELDS[enum]).extend(first.tolist() if hasattr(first, "tolist") else first)
        return proto
    if enum == types_pb2.DT_STRING:
        proto.string_val.extend(x.encode("utf-8") if isinstance(x, str) else bytes(x) for x in arr.reshape(-1))
    else:
        np_dt = dtypes_map.enum_to_numpy(enum)
        proto.tensor_content = np.ascontiguousarray(arr, dtype=np_dt.newbyteorder("<")).tobytes()
    return proto


_VAL_FIELDS = {
    types_pb2.DT_FLOAT: "float_val", types_pb2.DT_DOUBLE: "double_val", types_pb2.DT_INT32: "int_val",
    types_pb2.DT_INT16: "int_val", types_pb2.DT_INT8: "int_val", types_pb2.DT_UINT8: "int_val",
    types_pb2.DT_UINT16: "int_val", types_pb2.DT_INT64: "int64_val", types_pb2.DT_BOOL: "bool_val",
    types_pb2.DT_UINT32: "uint32_val", types_pb2.DT_UINT64: "uint64_val", types_pb2.DT_HALF: "half_val",
    types_pb2.DT_COMPLEX64: "scomplex_val", types_pb2.DT_COMPLEX128: "dcomplex_val",
}
_VAL_FIELDS.update({enum: "int_val" for enum in dtypes_map.QUANTIZED})   # TF keeps quantized values there too


_COMPACT_FIELDS = {enum: field for enum, field in _VAL_FIELDS.items()
                   if enum not in (types_pb2.DT_COMPLEX64, types_pb2.DT_COMPLEX128)
                   and enum not in dtypes_map.QUANTIZED}
_COMPACT_FIELDS[types_pb2.DT_STRING] = "string_val"

PADDING_LIMIT_BYTES = 1 << 28
"""How large a tensor whose file gives fewer values than its shape (TF repeats the last one) may grow when
it holds two or more values. One value (or none) is never copied: the array is that value broadcast."""


def _element_count(shape, where):
    """The number of elements of ``shape``; ValueError, as TF's, when it does not fit in int64."""
    count = 1
    for d in shape:
        count *= d
        if count > 2 ** 63 - 1:
            raise ValueError("%s: shape %s is too large (more than 2**63 - 1 entries)" % (where, shape))
    return count


def _repeat_last(values, count, shape, where, itemsize):
    """TF's rule for a short value list: the last value repeats. A lone value is broadcast (read-only, no
    copy: a 50-byte file may declare gigabytes of zeros); longer lists are padded up to PADDING_LIMIT_BYTES."""
    if values.size <= 1:
        fill = values.reshape(-1)[:1] if values.size else np.zeros(1, dtype=values.dtype)
        return np.broadcast_to(fill.reshape(()), shape)
    if count * itemsize > PADDING_LIMIT_BYTES:
        raise ValueError("%s declares shape %s (%d elements) but holds only %d values; graphlab repeats the "
                         "last value up to %d bytes. The file is corrupt or was not written by TensorFlow."
                         % (where, shape, count, values.size, PADDING_LIMIT_BYTES))
    padded = np.concatenate([values, np.full(count - values.size, values[-1], dtype=values.dtype)])
    return padded.reshape(shape)


def tensor_proto_to_numpy(proto, where="TensorProto"):
    """numpy array of a TensorProto, with TF's rule that a short value list repeats its last element.
    The declared size is checked against the data present before anything is allocated."""
    enum = proto.dtype
    np_dt = dtypes_map.enum_to_numpy(enum)
    if np_dt is None:
        raise ValueError("%s has dtype %s, which graphlab does not support" % (where, dtypes_map.enum_name(enum)))
    shape = [d.size for d in proto.tensor_shape.dim]
    if any(d < 0 for d in shape):
        raise ValueError("%s has a negative or unknown dimension in shape %s" % (where, shape))
    count = _element_count(shape, where)
    if enum == types_pb2.DT_STRING:
        values = np.empty(len(proto.string_val), dtype=object)
        values[:] = list(proto.string_val)
        if len(values) > count:
            raise ValueError("%s holds %d strings for shape %s" % (where, len(values), shape))
        if len(values) < count:
            return _repeat_last(values if len(values) else np.array([b""], dtype=object), count, shape, where, 8)
        return values.reshape(shape)
    if proto.tensor_content:
        if len(proto.tensor_content) != count * np_dt.itemsize:
            raise ValueError("%s has %d bytes of content, shape %s needs %d" % (
                where, len(proto.tensor_content), shape, count * np_dt.itemsize))
        return np.frombuffer(proto.tensor_content, dtype=np_dt.newbyteorder("<")).astype(np_dt).reshape(shape)
    field = _VAL_FIELDS.get(enum)
    values = list(getattr(proto, field)) if field else []
    if enum == types_pb2.DT_HALF:
        values = np.array(values, dtype=np.uint16).view(np.float16)
    elif enum in (types_pb2.DT_COMPLEX64, types_pb2.DT_COMPLEX128):
        pairs = np.array(values, dtype=np.float64).reshape(-1, 2) if len(values) % 2 == 0 else None
        if pairs is None:
            raise ValueError("%s has an odd number of complex parts" % where)
        values = pairs[:, 0] + 1j * pairs[:, 1]
    base = dtypes_map.quantized_base(np_dt)
    values = np.asarray(values, dtype=np_dt) if base is None else np.asarray(values, dtype=base).view(np_dt)
    if values.size > count:
        raise ValueError("%s holds %d values for shape %s" % (where, values.size, shape))
    if values.size < count:
        return _repeat_last(values, count, shape, where, np_dt.itemsize)
    return values.reshape(shape)


def shape_to_proto(shape):
    proto = tensor_shape_pb2.TensorShapeProto()
    if shape.ndims is None:
        proto.unknown_rank = True
    else:
        for d in shape.as_list():
            proto.dim.add(size=-1 if d is None else int(d))
    return proto


def proto_to_shape(proto):
    ts = _shape_module()
    if proto.unknown_rank:
        return ts.TensorShape(None)
    return ts.TensorShape([None if d.size < 0 else d.size for d in proto.dim])


# --- attrs ---------------------------------------------------------------------------------------

def attr_to_proto(value):
    """AttrValue for a Python attr value (DType, TensorShape, ndarray, bool, int, float, str/bytes, lists)."""
    dtypes, ts = _dtypes(), _shape_module()
    av = attr_value_pb2.AttrValue()
    if hasattr(value, "attr_value"):          # a function of the graph's library (tf.data)
        return value.attr_value()
    if isinstance(value, dtypes.DType):
        av.type = value.as_datatype_enum
    elif isinstance(value, ts.TensorShape):
        av.shape.CopyFrom(shape_to_proto(value))
    elif isinstance(value, np.ndarray):
        av.tensor.CopyFrom(make_tensor_proto(value))
    elif isinstance(value, (bool, np.bool_)):
        av.b = bool(value)
    elif isinstance(value, (int, np.integer)):
        av.i = int(value)
    elif isinstance(value, (float, np.floating)):
        av.f = float(value)
    elif isinstance(value, str):
        av.s = value.encode("utf-8")
    elif isinstance(value, bytes):
        av.s = value
    elif isinstance(value, (list, tuple)):
        av.list.SetInParent()
        for item in value:
            if isinstance(item, dtypes.DType):
                av.list.type.append(item.as_datatype_enum)
            elif isinstance(item, ts.TensorShape):
                av.list.shape.add().CopyFrom(shape_to_proto(item))
            elif isinstance(item, np.ndarray):
                av.list.tensor.add().CopyFrom(make_tensor_proto(item))
            elif isinstance(item, (bool, np.bool_)):
                av.list.b.append(bool(item))
            elif isinstance(item, (int, np.integer)):
                av.list.i.append(int(item))
            elif isinstance(item, (float, np.floating)):
                av.list.f.append(float(item))
            elif isinstance(item, (str, bytes)):
                av.list.s.append(item.encode("utf-8") if isinstance(item, str) else item)
            else:
                raise TypeError("Cannot store a list item of type %s in an AttrValue" % type(item).__name__)
    else:
        raise TypeError("Cannot store an attr of type %s in an AttrValue" % type(value).__name__)
    return av


def _text(b):
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        return b


def attr_from_proto(av, where):
    """Python value of an AttrValue (the inverse of attr_to_proto; strings come back as str)."""
    dtypes = _dtypes()
    kind = av.WhichOneof("value")
    if kind == "type":
        return _dtype(av.type, where)
    if kind == "shape":
        return proto_to_shape(av.shape)
    if kind == "tensor":
        return tensor_proto_to_numpy(av.tensor, where)
    if kind in ("b", "i", "f"):
        return getattr(av, kind)
    if kind == "s":
        return _text(av.s)
    if kind == "list":
        lst = av.list
        if lst.type:
            return [_dtype(t, where) for t in lst.type]
        if lst.shape:
            return [proto_to_shape(s) for s in lst.shape]
        if lst.tensor:
            return [tensor_proto_to_numpy(t, where) for t in lst.tensor]
        for name in ("s", "i", "f", "b"):
            values = list(getattr(lst, name))
            if values:
                return [_text(v) for v in values] if name == "s" else values
        return []
    if kind is None:
        return None
    if kind == "func":                 # a function of the GraphDef's library (tf.data), resolved on import
        from graphlab.framework.function_library import FuncRef
        return FuncRef(av)
    del dtypes
    raise ValueError("%s uses an attr kind (%s) that graphlab does not support" % (where, kind))


def _dtype(enum, where):
    try:
        return _dtypes().as_dtype(enum)
    except (TypeError, ValueError, KeyError):
        raise ValueError("%s has unknown dtype %s" % (where, dtypes_map.enum_name(enum))) from None


# --- export --------------------------------------------------------------------------------------

def _input_name(tensor):
    return tensor.op.name if tensor.value_index == 0 else "%s:%d" % (tensor.op.name, tensor.value_index)


def _exported_attrs(op):
    wanted = TF_OP_ATTRS.get(op.type)
    for key in sorted(op._attrs):
        if wanted is not None and key not in wanted and not key.startswith("_"):
            continue  # python-only attrs of our ops (e.g. Tlist where TF calls it dtypes)
        value = op._attrs[key]
        if value is None:
            continue
        yield key, value


def node_def(op, export_scope=None, sort_control_inputs=False):
    """NodeDef of one Operation: TF op type, data inputs then "^control" inputs, TF's attrs. An op's own
    NodeDef (``op.node_def``, print(op)) keeps its control inputs in the order they were added; TF's
    GraphDef lists them sorted by name (``sort_control_inputs``)."""
    nd = node_def_pb2.NodeDef(name=_strip(op.name, export_scope), op=op.type)
    nd.input.extend(_strip(_input_name(t), export_scope) for t in op._inputs)
    controls = [c.name for c in op._control_inputs]
    nd.input.extend("^" + _strip(name, export_scope) for name in (sorted(controls) if sort_control_inputs
                                                                   else controls))
    if op.device:
        nd.device = op.device
    for key, value in _exported_attrs(op):
        try:
            nd.attr[key].CopyFrom(attr_to_proto(value))
        except TypeError as e:
            raise TypeError("Cannot export attr '%s' of op '%s' (%s): %s" % (key, op.name, op.type, e)) from None
    return nd


def graph_to_graph_def(graph, add_shapes=False, export_scope=None):
    gd = graph_def_pb2.GraphDef()
    gd.versions.producer = GRAPH_DEF_VERSION
    gd.versions.min_consumer = GRAPH_DEF_MIN_CONSUMER
    for op in graph.get_operations():
        if export_scope and not op.name.startswith(export_scope + "/"):
            continue
        nd = node_def(op, export_scope, sort_control_inputs=True)
        if add_shapes and op.outputs:     # TF leaves the attr off ops without outputs
            nd.attr["_output_shapes"].CopyFrom(attr_to_proto([t.shape for t in op.outputs]))
        gd.node.append(nd)
    from graphlab.framework.function_library import library_proto
    lib = library_proto(graph)
    if lib is not None:
        gd.library.CopyFrom(lib)
    return gd


def variable_to_proto(variable, export_scope=None):
    """VariableDef naming the variable's ops (what the "variables" collection of a meta graph holds); a
    resource variable writes its own (``is_resource``)."""
    if getattr(variable, "_is_resource_variable", False):
        return variable.to_proto(export_scope)
    vd = variable_pb2.VariableDef(
        variable_name=_strip(variable._variable.name, export_scope),
        initializer_name=_strip(variable._initializer_op.name, export_scope),
        snapshot_name=_strip(variable._snapshot.name, export_scope))
    if getattr(variable, "_initial_value", None) is not None:
        vd.initial_value_name = _strip(variable._initial_value.name, export_scope)
    vd.trainable = bool(variable.trainable)
    return vd


# --- parsing files -------------------------------------------------------------------------------

def parse_message(cls, data, path):
    """Parse binary proto bytes; DataLossError naming `path` instead of protobuf's DecodeError."""
    msg = cls()
    try:
        msg.ParseFromString(bytes(data))
    except Exception as e:  # DecodeError, or RuntimeError/ValueError from some protobuf runtimes
        raise data_loss(path, "not a valid %s (%s)" % (cls.__name__, e)) from None
    return msg


def read_message(cls, path):
    from graphlab.formats.errors import NotFoundError
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise NotFoundError(None, None, "%s; No such file or directory" % path) from None
    return parse_message(cls, data, path)


def write_graph(graph_or_graph_def, logdir, name, as_text=True):
    """``tf.train.write_graph``: write a GraphDef as text (.pbtxt) or binary (.pb); returns the path."""
    from google.protobuf import text_format
    gd = graph_or_graph_def
    if not isinstance(gd, graph_def_pb2.GraphDef):
        gd = gd.as_graph_def()
    path = os.path.join(logdir, name)
    data = text_format.MessageToString(gd).encode("utf-8") if as_text else gd.SerializeToString()
    write_atomic(path, data)
    notify_export("GraphDef", path, gd)
    return path


def load_graph_def(path):
    """GraphDef from a .pb (binary) or .pbtxt (text) file; DataLossError naming the file when corrupt."""
    from graphlab.formats import text_format as tf_text
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith((".pbtxt", ".txt")):
        return tf_text.from_text(data, graph_def_pb2.GraphDef, path)
    return parse_message(graph_def_pb2.GraphDef, data, path)


# --- import --------------------------------------------------------------------------------------

_INPUT_INDEX = re.compile(r"^(.+):([0-9]+)$")


def _parse_input(name):
    """("op", index, is_control) of a NodeDef input string. As TF: the index is ASCII digits only, so
    "x:-1", "x: 1", "x:+1", "x:0_1" or "x:abc" name no op ("Unknown input node"), never output -1 or 1."""
    if name.startswith("^"):
        return name[1:], -1, True
    m = _INPUT_INDEX.match(name)
    if m:
        return m.group(1), int(m.group(2)), False
    return name, 0, False


_MERGES = ("Merge", "RefMerge")
_NEXT_ITERATIONS = ("NextIteration", "RefNextIteration")


def _is_back_edge(node, source):
    """A while loop's back edge: a NextIteration feeding its loop's Merge (the Merge is made first)."""
    return node.op in _MERGES and source.op in _NEXT_ITERATIONS


def _topo_order(nodes):
    """Nodes in an order where every input comes first, a while loop's back edges aside; ValueError on
    other cycles."""
    by_name = {}
    for nd in nodes:
        if nd.name in by_name:
            raise ValueError("Node '%s' appears twice in the GraphDef" % nd.name)
        by_name[nd.name] = nd
    order, state = [], {}
    for root in nodes:
        if root.name in state:
            continue
        stack = [(root, iter(root.input))]
        state[root.name] = 1
        while stack:
            nd, it = stack[-1]
            for inp in it:
                src = _parse_input(inp)[0]
                if src not in by_name or _is_back_edge(nd, by_name[src]):
                    continue  # resolved by input_map, reported when building, or a loop's back edge
                if state.get(src) == 1:
                    raise ValueError("The GraphDef has a cycle through node '%s' that is not a while loop's "
                                     "back edge (NextIteration into Merge)" % src)
                if src not in state:
                    state[src] = 1
                    stack.append((by_name[src], iter(by_name[src].input)))
                    break
            else:
                stack.pop()
                state[nd.name] = 2
                order.append(nd)
    return order


def _group_inputs(opdef, flat, attrs, node_name):
    """Split a flat input list into the registry's per-argument structure (lists for list args)."""
    grouped, i = [], 0
    args = opdef.inputs
    for k, arg in enumerate(args):
        if arg.any_list:
            later = len(args) - k - 1
            n = len(flat) - i - later
        elif arg.list_attr:
            n = attrs.get(arg.list_attr)
            if isinstance(n, list):
                n = len(n)
            if n is None:
                raise ValueError("Node '%s' lacks the list-length attr '%s'" % (node_name, arg.list_attr))
        else:
            n = 1
        if n < 0 or i + n > len(flat):
            raise ValueError("Node '%s' (op %s) has %d inputs, which does not fit its signature (%s)" % (
                node_name, opdef.type, len(flat), ", ".join(a.name for a in args)))
        grouped.append(flat[i:i + n] if (arg.any_list or arg.list_attr) else flat[i])
        if arg.any_list:
            attrs.setdefault("Tlist", [t.dtype.base_dtype for t in flat[i:i + n]])
        i += n
    if i != len(flat):
        raise ValueError("Node '%s' (op %s) has %d inputs, its signature takes %d" % (
            node_name, opdef.type, len(flat), i))
    return grouped


def _add_imported_op(graph, op_type, name, grouped, attrs, control_inputs):
    """Add an op with exactly `name` (already unique), through the registry's output rule."""
    from graphlab.framework.tensor import Tensor
    from graphlab.framework import registry
    opdef = registry.get_opdef(op_type)
    flat = []
    for g in grouped:
        flat.extend(g if isinstance(g, list) else [g])
    for arg, g in zip(opdef.inputs, grouped):
        for t in (g if isinstance(g, list) else [g]):
            if arg.is_ref and not t.dtype.is_ref_dtype:
                raise ValueError("Input '%s' of node '%s' (op %s) must be a variable (a ref tensor), got %s"
                                 % (arg.name, name, op_type, t.name))
            if arg.type_attr and arg.type_attr not in attrs and not arg.list_attr:
                attrs[arg.type_attr] = t.dtype.base_dtype
    # devices are set once the whole GraphDef is in (device_spec.place_imported), as TF's importer does
    saved = graph._name_stack, graph._device_stack
    graph._name_stack, graph._device_stack = "", []
    try:
        op = graph._add_op(op_type, name, flat, attrs, control_inputs)
    finally:
        graph._name_stack, graph._device_stack = saved
    try:
        specs = opdef.outputs(op)
    except Exception as e:  # noqa: BLE001  (any attr a file got wrong: one clear error naming the node)
        raise ValueError("Cannot import node '%s' (op %s): %s" % (name, op_type, e or type(e).__name__)) from None
    dtypes, ts = _dtypes(), _shape_module()
    for i, (dt, shape) in enumerate(specs):
        if not isinstance(dt, dtypes.DType) or not isinstance(shape, ts.TensorShape):
            raise ValueError("Cannot import node '%s' (op %s): its attrs make output %d of type %r and shape %r; "
                             "an attr that should hold a type or a shape holds something else"
                             % (name, op_type, i, dt, shape))
    op._outputs = [Tensor(op, i, dt, shape) for i, (dt, shape) in enumerate(specs)]
    graph._register_op(op)
    return op


def _check_const_attrs(node_name, attrs):
    """TF's checks of a Const's attrs, in its words: the value must be there and be a tensor."""
    if "value" not in attrs or attrs["value"] is None:
        raise ValueError("NodeDef missing attr 'value' from Op<name=Const>; NodeDef: node '%s'" % node_name)
    if not isinstance(attrs["value"], np.ndarray):
        raise ValueError("AttrValue had value with type '%s' when 'tensor' expected for attr 'value'; "
                         "NodeDef: node '%s'" % (type(attrs["value"]).__name__, node_name))


def _mark_names_used(graph, name):
    """Reserve `name` and its scopes, so later ops in this graph get fresh names as TF would give."""
    parts = name.split("/")
    for k in range(1, len(parts) + 1):
        key = "/".join(parts[:k]).lower()
        graph._names_in_use.setdefault(key, 1)


def import_graph_def(graph_def, input_map=None, return_elements=None, name=None, op_dict=None,
                     producer_op_list=None):
    """``tf.import_graph_def``: add the GraphDef's nodes to the default graph under the scope `name`
    ("import" by default), replacing inputs listed in `input_map`; returns the `return_elements`."""
    from graphlab.framework import graph as graph_mod
    from graphlab.framework.tensor import Tensor
    from graphlab.framework import registry
    if not isinstance(graph_def, graph_def_pb2.GraphDef):
        raise TypeError("graph_def must be a GraphDef proto, got %s." % type(graph_def).__name__)
    graph = graph_mod.get_default_graph()
    input_map = dict(input_map or {})
    for key, value in input_map.items():
        if not isinstance(value, Tensor) and not hasattr(value, "_as_graph_element"):
            raise TypeError("input_map values must be Tensors, got %r for %r" % (value, key))
    if name is None:
        name = "import"
    if name:
        with graph.name_scope(name) as scope:
            prefix = scope
    else:
        prefix = ""
    if prefix == "" and graph.get_name_scope():
        prefix = graph.get_name_scope() + "/"
    for nd in graph_def.node:
        registry_type = nd.op
        if registry_type not in registry._REGISTRY:
            raise ValueError("Node '%s' uses op type '%s', which graphlab does not implement, so this GraphDef "
                             "cannot be imported (op types graphlab has: tf.raw_ops-style names such as "
                             "MatMul, AddV2, VariableV2). It was probably written by code using ops beyond "
                             "graphlab's set." % (nd.name, nd.op))
    created = {}
    used_keys = set()

    def lookup(src, index, is_control, for_node):
        key = src if is_control else "%s:%d" % (src, index)
        if not is_control and key in input_map:
            used_keys.add(key)
            return graph.as_graph_element(input_map[key], allow_operation=False)
        if is_control and ("^" + src) in input_map:
            used_keys.add("^" + src)
            return graph.as_graph_element(input_map["^" + src], allow_tensor=False)
        op = created.get(src)
        if op is None:
            raise ValueError("Node '%s': Unknown input node '%s'" % (for_node, src))
        if is_control:
            return op
        if index >= len(op.outputs):
            raise ValueError("Node '%s': input '%s:%d' does not exist; '%s' has %d outputs" % (
                for_node, src, index, src, len(op.outputs)))
        return op.outputs[index]

    back_edges = []      # (Merge op, input index, NextIteration node name, output index), wired at the end
    next_iterations = {n.name for n in graph_def.node if n.op in _NEXT_ITERATIONS}
    for nd in _topo_order(list(graph_def.node)):
        where = "attr of node '%s'" % nd.name
        attrs = {}
        for key, av in nd.attr.items():
            if key == "_output_shapes":
                continue
            attrs[key] = attr_from_proto(av, "%s '%s'" % (where, key))
        data, controls, deferred = [], [], []
        for inp in nd.input:
            src, index, is_control = _parse_input(inp)
            if not is_control and nd.op in _MERGES and src in next_iterations and src not in created:
                deferred.append((len(data), src, index))    # a loop's back edge: made later
                data.append(None)
                continue
            element = lookup(src, index, is_control, nd.name)
            (controls if is_control else data).append(element)
        if deferred:
            stand_in = next((t for t in data if t is not None), None)
            if stand_in is None:
                raise ValueError("Node '%s' (op %s) has only back edges as inputs" % (nd.name, nd.op))
            data = [stand_in if t is None else t for t in data]
        if "_class" in attrs and prefix:
            attrs["_class"] = [("loc:@" + prefix + c[5:]) if isinstance(c, str) and c.startswith("loc:@") else c
                               for c in attrs["_class"]]
        if nd.op == "Const":
            _check_const_attrs(nd.name, attrs)
        if any(type(v).__name__ == "FuncRef" for v in attrs.values()):
            from graphlab.framework.function_library import resolve_functions
            resolve_functions(graph, attrs, graph_def.library, "Node '%s'" % nd.name)
        opdef = registry.get_opdef(nd.op)
        grouped = _group_inputs(opdef, data, attrs, nd.name)
        full_name = prefix + nd.name
        if graph._get_operation_or_none(full_name) is not None:
            raise ValueError("Cannot import node '%s': the graph already has an op named '%s'" % (nd.name, full_name))
        _mark_names_used(graph, full_name)
        created[nd.name] = _add_imported_op(graph, nd.op, full_name, grouped, attrs, controls)
        back_edges.extend((created[nd.name], i, src, index) for i, src, index in deferred)
    for merge_op, i, src, index in back_edges:
        merge_op._update_input(i, lookup(src, index, False, merge_op.name))
    device_spec.place_imported(graph, [(created[nd.name], nd.device) for nd in graph_def.node if nd.name in created])
    unused = [k for k in input_map if k not in used_keys and k.split(":")[0].lstrip("^") not in created]
    if unused:
        raise ValueError("Attempted to map inputs that were not found in graph_def: [%s]" % ", ".join(unused))
    if return_elements is None:
        return None
    out = []
    for el in return_elements:
        if ":" in el:
            src, idx, _ = _parse_input(el)
            if src not in created:
                raise ValueError("Requested return_element %r not found in graph_def." % el)
            out.append(lookup(src, idx, False, "return_elements"))
        else:
            if el not in created:
                raise ValueError("Requested return_element %r not found in graph_def." % el)
            out.append(created[el])
    return out


__all__ = ["graph_to_graph_def", "node_def", "variable_to_proto", "import_graph_def", "write_graph",
           "make_tensor_proto", "tensor_proto_to_numpy", "load_graph_def", "parse_message", "read_message",
           "DataLossError"]
