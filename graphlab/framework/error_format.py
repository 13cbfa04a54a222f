"""How TF 2.21 shows a node in an error message, so a learner reads the same text from graphlab as from TF.

Build time: a shape or dtype rule that fails names the node as TF's ``SummarizeNodeDef`` does,
``{{node add}} = AddV2[T=DT_FLOAT](Const, Const_1)``: the op's name, type, sorted attrs and data inputs.
Run time: ``Session.run`` rewrites a kernel's message as TF's ``error_interpolation.interpolate_graph``
does (``Graph execution error:``, where the node was defined, ``Node: 'add'``, the kernel's text and the
``[[{{node add}}]]`` tag); ``str()`` of the error adds the node's definition frames after it
(graphlab/formats/errors.py).
graphlab records one frame per op (the user's line), where TF records the whole stack.
"""
import numpy as np

_MAX_STRING = 80      # TF's kMaxStringSummarySize: longer strings keep 10 characters at each end


def _c_escape(raw):
    out = []
    for b in raw:
        c = chr(b)
        if c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == "\t":
            out.append("\\t")
        elif c in "\"'\\":
            out.append("\\" + c)
        elif 32 <= b < 127:
            out.append(c)
        else:
            out.append("\\%03o" % b)
    return "".join(out)


def _string(raw):
    text = _c_escape(raw)
    if len(text) >= _MAX_STRING:
        text = text[:10] + "..." + text[-10:]
    return '"%s"' % text


def _float(value):
    """The shortest of %.6g .. %.9g that reads back as the same float32 (TF's FloatToBuffer)."""
    f = np.float32(value)
    if np.isnan(f):
        return "nan"
    if np.isinf(f):
        return "inf" if f > 0 else "-inf"
    for digits in (6, 9):
        text = "%.*g" % (digits, f)
        if np.float32(float(text)) == f:
            return text
    return "%.9g" % f


def _shape(proto):
    if proto.unknown_rank:
        return "<unknown>"
    return "[%s]" % ",".join("?" if d.size < 0 else str(d.size) for d in proto.dim)


def _dtype_name(enum):
    from graphlab.formats import dtypes_map
    return dtypes_map.enum_name(enum)


def _tensor(proto):
    from graphlab.framework import graph_io
    try:
        value = graph_io.tensor_proto_to_numpy(proto, "attr")
    except Exception:
        return "<tensor>"
    flat = np.asarray(value).reshape(-1)
    shown = " ".join(str(v) for v in flat[:3].tolist()) + ("..." if flat.size > 3 else "")
    return "Tensor<type: %s shape: [%s] values: %s>" % (
        _dtype_name(proto.dtype)[3:].lower(), ",".join(str(d) for d in np.shape(value)), shown)


def _attr_value(av):
    """TF's SummarizeAttrValue."""
    kind = av.WhichOneof("value")
    if kind == "s":
        return _string(av.s)
    if kind == "i":
        return str(av.i)
    if kind == "f":
        return _float(av.f)
    if kind == "b":
        return "true" if av.b else "false"
    if kind == "type":
        return _dtype_name(av.type)
    if kind == "shape":
        return _shape(av.shape)
    if kind == "tensor":
        return _tensor(av.tensor)
    if kind == "func":
        return av.func.name + "[]"
    if kind == "placeholder":
        return "$" + av.placeholder
    if kind == "list":
        lst = av.list
        items = ([_string(s) for s in lst.s] + [str(i) for i in lst.i] + [_float(f) for f in lst.f]
                 + ["true" if b else "false" for b in lst.b] + [_dtype_name(t) for t in lst.type]
                 + [_shape(s) for s in lst.shape] + [_tensor(t) for t in lst.tensor]
                 + [f.name + "[]" for f in lst.func])
        return "[%s]" % ", ".join(items)
    return "<Unknown AttrValue type>"


def summarize_node(op):
    """``{{node NAME}} = TYPE[attr=value, ...](input, ...)``: how TF's shape-inference errors name a node
    (attrs sorted by name, data inputs only, as TF's NodeDef holds them when its shape rule runs: before
    colocation and the other "_" attrs are added)."""
    nd = op.node_def
    attrs = ", ".join("%s=%s" % (key, _attr_value(nd.attr[key])) for key in sorted(nd.attr)
                      if not key.startswith("_"))
    inputs = ", ".join(i for i in nd.input if not i.startswith("^"))
    return "{{node %s}} = %s[%s](%s)" % (op.name, op.type, attrs, inputs)


def _frames(op):
    where = getattr(op, "source_line", None)
    return [where] if where is not None else []


def run_error_message(message, op, tag="[[{{node %s}}]]"):
    """A kernel's message as ``Session.run`` reports it in TF 2.21 (``interpolate_graph``); the placer's
    errors tag the node as ``[[add]]``."""
    lines = ["Graph execution error:", "",
             "Detected at node %r defined at (most recent call last):" % op.name]
    for frame in _frames(op):
        lines.append('    File "%s", line %d, in %s' % (frame.filename, frame.lineno, frame.function))
    lines.append("Node: %r" % op.name)
    lines.append(("%s\n\t %s" % (message, tag % op.name)).strip())
    return "\n".join(lines)


def as_run_error(error, graph):
    """A kernel's error from a run of ``graph`` as ``Session.run`` raises it in TF 2.21 (``_do_call``):
    a new error of the same class with ``run_error_message``. Errors without a node of this graph, and
    those reported that way already (a run inside a kernel), are returned as they are."""
    op = error.op
    if op is None or getattr(op, "_graph", None) is not graph or error.message.startswith("Graph execution error:"):
        return error
    return type(error)(error.node_def, op, run_error_message(error.message, op))
