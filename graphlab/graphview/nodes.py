"""A lightweight, read-only view of a graph for drawing: one ``NodeView`` per op with its type, inputs,
control inputs and output shapes. Built from a live ``Graph`` (optionally only its first N ops: graphs are
append-only, so a prefix is the graph as it was earlier) or from a ``GraphDef`` loaded from a file.

The views carry ``_inputs`` / ``_control_inputs`` / ``_id`` / ``_op`` like the engine's objects, so the
engine's own pruning function can walk a GraphDef view too.
"""
import numpy as np

from graphlab.framework import dtypes

MIB = 1 << 20


class TensorView:
    """One op output as seen by a drawing: producer, index and a short shape label ("?" for unknown)."""

    __slots__ = ("_op", "index", "_shape", "_dtype", "source")

    def __init__(self, op, index, shape, dtype, source=None):
        self._op = op
        self.index = index
        self._shape = shape         # label text, or None when not recorded (GraphDef) or not yet computed
        self._dtype = dtype         # dtype name or None
        self.source = source        # the engine Tensor, when drawn from a live graph

    @property
    def shape(self):
        """Computed on first use: only the few edges that get drawn need their label."""
        if self._shape is None and self.source is not None:
            self._shape = shape_label(self.source._shape)
        return self._shape

    @property
    def dtype(self):
        if self._dtype is None and self.source is not None:
            self._dtype = self.source._dtype.name
        return self._dtype

    @property
    def name(self):
        return "%s:%d" % (self._op.name, self.index)


class NodeView:
    """One op: name, type, inputs (TensorViews), control inputs (NodeViews), outputs, constant info."""

    __slots__ = ("name", "type", "_id", "_inputs", "_control_inputs", "outputs", "const", "source", "device", "path",
                 "frame")

    def __init__(self, name, op_type, index, source=None):
        self.name = name
        self.type = op_type
        self._id = index
        self._inputs = []
        self._control_inputs = []
        self.outputs = []
        self.const = None           # (shape label, dtype name, bytes) for Const ops
        self.source = source        # the engine Operation, when drawn from a live graph
        self.device = ""
        self.path = name            # where a drawing places the op (viz places ops in their loop frames)
        self.frame = None           # the scope of the while loop whose frame the op runs in

    def __repr__(self):
        return "<NodeView %s %s>" % (self.name, self.type)


class GraphView:
    """Nodes in creation order plus a name index; ``total`` is the size of the whole graph."""

    def __init__(self, nodes, total, source):
        self.nodes = nodes
        self.by_name = {n.name: n for n in nodes}
        self.total = total
        self.source = source        # the Graph or GraphDef drawn


def shape_label(shape):
    """``[2,3]``, ``[?,3]``, ``scalar`` (rank 0: ``[]`` reads as "nothing" to a newcomer), ``?`` for unknown
    rank."""
    dims = getattr(shape, "_dims", shape)
    if dims is None:
        return "?"
    if len(dims) == 0:
        return "scalar"
    out = []
    for d in dims:
        v = getattr(d, "_value", d)
        out.append("?" if v is None or (isinstance(v, int) and v < 0) else str(v))
    return "[%s]" % ",".join(out)


def from_graph(graph, upto_op_count=None):
    """The view of a live graph, or of its first ``upto_op_count`` ops (the graph as it was then)."""
    ops = graph.get_operations()
    total = len(ops)
    if upto_op_count is not None:
        if upto_op_count < 0:
            raise ValueError("upto_op_count must be >= 0, got %d" % upto_op_count)
        ops = ops[:upto_op_count]
    views = {}
    nodes = []
    for i, op in enumerate(ops):
        # private fields on purpose: this loop runs once per op of graphs with 10k+ ops
        node = NodeView(op._name, op._type, i, op)
        node.outputs = [TensorView(node, k, None, None, t) for k, t in enumerate(op._outputs)]
        if op._type == "Const":
            node.const = _const_info(op._attrs["value"], op._attrs["dtype"])
        node.frame = loop_frame(op)
        views[op] = node
        nodes.append(node)
    # inputs in a second pass: an op may read one made after it (a loop's back edge, a cond's Switch)
    for op, node in zip(ops, nodes):
        for t in op._inputs:
            producer = views.get(t._op)
            if producer is not None and t._value_index < len(producer.outputs):
                node._inputs.append(producer.outputs[t._value_index])
        for c in op._control_inputs:
            producer = views.get(c)
            if producer is not None:   # a control input added later may point past the prefix
                node._control_inputs.append(producer)
    return GraphView(nodes, total, graph)


def loop_frame(op):
    """The scope of the while loop whose frame ``op`` runs in (``while``, ``gradients/while``), or None: its
    control flow context's name without ``/while_context``. A loop's gradient puts ops into the forward frame
    under ``gradients/...`` names (the stack pushes, the iteration counter)."""
    context = getattr(op, "_control_flow_context", None)
    name = getattr(context, "name", None) or ""
    if name.endswith("/while_context"):
        return name[:-len("/while_context")]
    return None


def _const_info(value, dtype):
    value = np.asarray(value)
    itemsize = value.dtype.itemsize if value.dtype != object else 1
    if value.dtype == object:  # strings: count their bytes
        nbytes = sum(len(v) if isinstance(v, (bytes, str)) else 8 for v in value.reshape(-1))
    else:
        nbytes = value.size * itemsize
    name = dtype.name if hasattr(dtype, "name") else str(dtype)
    return (shape_label(list(value.shape)), name, int(nbytes))


def from_graph_def(graph_def, upto_op_count=None):
    """The view of a ``GraphDef`` (protobuf message or serialized bytes), from NodeDef fields only:
    inputs ``"op"``, ``"op:k"`` and ``"^ctrl"``; shapes from ``_output_shapes`` when the file has them."""
    from graphlab.formats.protos import graph_def_pb2
    if isinstance(graph_def, (bytes, bytearray)):
        parsed = graph_def_pb2.GraphDef()
        parsed.ParseFromString(bytes(graph_def))
        graph_def = parsed
    node_defs = list(graph_def.node)
    total = len(node_defs)
    if upto_op_count is not None:
        node_defs = node_defs[:upto_op_count]
    nodes = []
    by_name = {}
    for i, nd in enumerate(node_defs):
        node = NodeView(nd.name, nd.op, i)
        node.device = nd.device
        by_name[nd.name] = node
        nodes.append(node)
    for nd, node in zip(node_defs, nodes):
        shapes = []
        if "_output_shapes" in nd.attr:
            shapes = [_proto_shape_label(s) for s in nd.attr["_output_shapes"].list.shape]
        dtype = None
        for key in ("dtype", "T", "out_type"):
            if key in nd.attr and nd.attr[key].HasField("type"):
                dtype = _dtype_name(nd.attr[key].type)
                break
        for k, s in enumerate(shapes):
            node.outputs.append(TensorView(node, k, s, dtype))
        if nd.op == "Const" and "value" in nd.attr:
            node.const = _proto_const_info(nd.attr["value"].tensor)
            if not node.outputs:
                node.outputs.append(TensorView(node, 0, node.const[0], node.const[1]))
        for name in nd.input:
            if name.startswith("^"):
                producer = by_name.get(name[1:])
                if producer is not None:
                    node._control_inputs.append(producer)
                continue
            op_name, _, index = name.partition(":")
            producer = by_name.get(op_name)
            if producer is None:
                continue
            index = int(index) if index.isdigit() else 0
            while len(producer.outputs) <= index:
                producer.outputs.append(TensorView(producer, len(producer.outputs), None, None))
            node._inputs.append(producer.outputs[index])
    return GraphView(nodes, total, graph_def)


def _proto_shape_label(proto):
    if proto.unknown_rank:
        return "?"
    return shape_label([d.size for d in proto.dim])


def _dtype_name(enum):
    try:
        return dtypes.as_dtype(enum).name
    except Exception:  # an enum our dtype table does not know: still draw it
        return "dtype%d" % enum


def _proto_const_info(tensor):
    dtype = _dtype_name(tensor.dtype)
    dims = [d.size for d in tensor.tensor_shape.dim]
    count = int(np.prod(dims)) if dims else 1
    try:
        itemsize = dtypes.as_dtype(tensor.dtype).size
    except Exception:
        itemsize = 1
    if tensor.tensor_content:
        nbytes = len(tensor.tensor_content)
    elif tensor.string_val:
        nbytes = sum(len(s) for s in tensor.string_val)
    else:
        nbytes = count * itemsize
    return (shape_label(dims), dtype, int(nbytes))
