"""TF's graph transforms on GraphDef protos, by TF's names and parameters (tensorflow/tools/graph_transforms):
strip_unused_nodes, remove_nodes, fold_constants, fold_batch_norms (and fold_old_batch_norms),
quantize_weights, sort_by_execution_order. ``transform_graph(graph_def, inputs, outputs, "a b(k=v)")`` runs
them in order; ``parse_transforms`` reads TF's --transforms syntax. The results are GraphDefs TF runs with
the same outputs (quantize_weights within its 8-bit error)."""
import re

import numpy as np

from graphlab.framework import graph_io
from graphlab.formats.protos import attr_value_pb2, graph_def_pb2, types_pb2


class TransformError(ValueError):
    """A transform's parameters or the graph do not fit; the message says which and what to do."""


def node_name(name):
    return name[1:].split(":")[0] if name.startswith("^") else name.split(":")[0]


def _copy_graph(gd, nodes):
    out = graph_def_pb2.GraphDef()
    out.node.extend(nodes)
    out.library.CopyFrom(gd.library)
    out.versions.CopyFrom(gd.versions)
    return out


def _needed(gd, inputs, outputs):
    """Names of the nodes the outputs need, walking inputs (data and control) back, stopping at `inputs`."""
    by_name = {nd.name: nd for nd in gd.node}
    keep, stack = set(), [node_name(o) for o in outputs]
    while stack:
        n = stack.pop()
        if n in keep:
            continue
        if n not in by_name:
            raise TransformError("the graph has no node named %r (from --inputs/--outputs or a node's input)" % n)
        keep.add(n)
        if n not in inputs:
            stack.extend(node_name(i) for i in by_name[n].input)
    return keep


# --- parsing TF's --transforms ------------------------------------------------------------------------

_TOKEN = re.compile(r"""\s*([A-Za-z_][A-Za-z0-9_]*)\s*(\(([^()]*)\))?""")
_PARAM = re.compile(r"""\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*("([^"]*)"|'([^']*)'|[^,\s)]+)\s*,?""")


def parse_transforms(text):
    """[(name, {param: [values]})] from TF's syntax: ``strip_unused_nodes(type=float, shape="1,2") fold_x``."""
    out, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise TransformError("cannot read the transforms at %r: write names separated by spaces, each "
                                 "with optional (key=value, ...)" % text[pos:pos + 30])
        params = {}
        body = m.group(3) or ""
        p = 0
        while p < len(body.strip()):
            pm = _PARAM.match(body, p)
            if not pm:
                raise TransformError("cannot read the parameters of %s at %r: write key=value, quoting values "
                                     "that hold commas" % (m.group(1), body[p:]))
            value = pm.group(3) if pm.group(3) is not None else pm.group(4) if pm.group(4) is not None \
                else pm.group(2)
            params.setdefault(pm.group(1), []).append(value)
            p = pm.end()
        out.append((m.group(1), params))
        pos = m.end()
        while pos < len(text) and text[pos] in " \t\n\\":
            pos += 1
    return out


def _one(params, key, default):
    values = params.get(key)
    return values[-1] if values else default


def _bool(params, key, default=False):
    return str(_one(params, key, default)).lower() in ("1", "true", "yes")


# --- strip_unused_nodes -------------------------------------------------------------------------------

def _dtype_enum(name):
    from graphlab.formats import dtypes_map
    name = name.strip()
    enum = getattr(types_pb2, "DT_" + name.upper(), None)
    if enum is None:
        from graphlab.framework import dtypes
        try:
            enum = dtypes.as_dtype(name).as_datatype_enum
        except (TypeError, KeyError, ValueError):
            raise TransformError("unknown type %r (write float, int32, ...)" % name) from None
    dtypes_map.enum_name(enum)
    return enum


def strip_unused_nodes(gd, inputs, outputs, params):
    """Keep what the outputs need; each input node becomes a Placeholder (type=, shape= as in TF, one per
    input or one for all)."""
    types = params.get("type", [])
    shapes = params.get("shape", [])
    keep = _needed(gd, set(inputs), outputs)
    nodes = []
    input_list = [node_name(i) for i in inputs]
    for nd in gd.node:
        if nd.name not in keep:
            continue
        if nd.name in input_list:
            k = input_list.index(nd.name)
            ph = graph_def_pb2.GraphDef().node.add()
            ph.name, ph.op = nd.name, "Placeholder"
            ph.device = nd.device
            if types:
                enum = _dtype_enum(types[min(k, len(types) - 1)])
            elif "dtype" in nd.attr:
                enum = nd.attr["dtype"].type
            elif "T" in nd.attr:
                enum = nd.attr["T"].type
            else:
                enum = types_pb2.DT_FLOAT
            ph.attr["dtype"].type = enum
            if shapes:
                text = shapes[min(k, len(shapes) - 1)]
                dims = [int(d) for d in text.split(",") if d.strip()]
                shape = ph.attr["shape"].shape
                for d in dims:
                    shape.dim.add(size=d)
            elif nd.op == "Placeholder" and "shape" in nd.attr:
                ph.attr["shape"].CopyFrom(nd.attr["shape"])
            nodes.append(ph)
        else:
            nodes.append(nd)
    return _copy_graph(gd, nodes)


# --- remove_nodes -------------------------------------------------------------------------------------

def remove_nodes(gd, inputs, outputs, params):
    """Drop nodes of the given op types (op=Identity, op=CheckNumerics) that have one data input and no
    control inputs, wiring their consumers to that input; inputs and outputs are never removed."""
    types = set(params.get("op", []))
    if not types:
        raise TransformError("remove_nodes needs op=TYPE (repeatable), e.g. remove_nodes(op=Identity)")
    protected = set(node_name(n) for n in list(inputs) + list(outputs))
    forward = {}
    for nd in gd.node:
        if nd.op in types and nd.name not in protected and len(nd.input) == 1 and not nd.input[0].startswith("^"):
            forward[nd.name] = nd.input[0]

    def resolve(inp):
        control = inp.startswith("^")
        base = inp[1:] if control else inp
        seen = set()
        while node_name(base) in forward and (":" not in base or base.endswith(":0")) and base not in seen:
            seen.add(base)
            base = forward[node_name(base)]
        return "^" + node_name(base) if control else base

    nodes = []
    for nd in gd.node:
        if nd.name in forward:
            continue
        new = graph_def_pb2.GraphDef().node.add()
        new.CopyFrom(nd)
        del new.input[:]
        seen = []
        for i in nd.input:
            r = resolve(i)
            if r.startswith("^") and (r in seen or r[1:] in seen):
                continue
            seen.append(r)
        new.input.extend(seen)
        nodes.append(new)
    return _copy_graph(gd, nodes)


# --- fold_constants -----------------------------------------------------------------------------------

_NEVER_FOLD = {"Placeholder", "PlaceholderWithDefault", "PlaceholderV2", "VariableV2", "Variable",
               "VarHandleOp", "ReadVariableOp", "NoOp", "Enter", "Exit", "Merge", "Switch", "NextIteration",
               "LoopCond", "Assert", "Print", "PrintV2", "PyFunc", "PyFuncStateless", "EagerPyFunc"}


def fold_constants(gd, inputs, outputs, params):
    """Replace each subgraph computed from constants alone by one Const holding its value (run by graphlab),
    then drop what the outputs no longer need. ignore_errors=true leaves the graph as it was when the
    constants cannot be evaluated."""
    from graphlab.framework import graph as graph_mod
    from graphlab.framework import registry
    from graphlab.runtime.session import Session
    input_set = set(node_name(i) for i in inputs)
    try:
        g = graph_mod.Graph()
        with g.as_default():
            graph_io.import_graph_def(gd, name="")
    except Exception as e:  # an op graphlab does not know, a bad attr...
        if _bool(params, "ignore_errors"):
            return gd
        raise TransformError("fold_constants could not load the graph into graphlab to evaluate it: %s (pass "
                             "fold_constants(ignore_errors=true) to skip folding)" % e) from None
    by_name = {nd.name: nd for nd in gd.node}
    foldable = {}

    def can_fold(name):
        if name in foldable:
            return foldable[name]
        foldable[name] = False  # cycles (loops) never fold
        nd = by_name[name]
        ok = nd.name not in input_set and nd.op not in _NEVER_FOLD
        if ok and nd.op != "Const":
            opdef = registry.get_opdef(nd.op)
            ok = (bool(nd.input) and not getattr(opdef, "stateful", False)
                  and len(g.get_operation_by_name(name).outputs) == 1
                  and all(can_fold(node_name(i)) for i in nd.input))
        foldable[name] = ok
        return ok

    consumers_unfoldable = set(node_name(o) for o in outputs)
    for nd in gd.node:
        if not can_fold(nd.name):
            consumers_unfoldable.update(node_name(i) for i in nd.input if not i.startswith("^"))
    targets = [nd.name for nd in gd.node if nd.op != "Const" and nd.name in consumers_unfoldable
               and can_fold(nd.name)]
    values = {}
    if targets:
        try:
            with Session(graph=g) as sess:
                results = sess.run([t + ":0" for t in targets])
            values = dict(zip(targets, results))
        except Exception as e:
            if _bool(params, "ignore_errors"):
                return gd
            raise TransformError("fold_constants could not evaluate %s: %s" % (", ".join(targets[:5]), e)) \
                from None
    nodes = []
    for nd in gd.node:
        if nd.name in values:
            enum = g.get_operation_by_name(nd.name).outputs[0].dtype.as_datatype_enum
            c = graph_def_pb2.GraphDef().node.add()
            c.name, c.op, c.device = nd.name, "Const", nd.device
            c.attr["dtype"].type = enum
            c.attr["value"].CopyFrom(attr_value_pb2.AttrValue(
                tensor=graph_io.make_tensor_proto(values[nd.name], enum)))
            nodes.append(c)
        else:
            new = graph_def_pb2.GraphDef().node.add()
            new.CopyFrom(nd)
            if can_fold(nd.name) or nd.op == "Const":
                del new.input[:]  # a folded or constant node keeps no control inputs
            nodes.append(new)
    folded = _copy_graph(gd, nodes)
    keep = _needed(folded, input_set, outputs) | input_set
    return _copy_graph(folded, [nd for nd in folded.node if nd.name in keep])


# --- fold_batch_norms ---------------------------------------------------------------------------------

_LINEAR = ("Conv2D", "MatMul", "DepthwiseConv2dNative")


def _const_value(nd):
    return graph_io.tensor_proto_to_numpy(nd.attr["value"].tensor, nd.name)


def _const_node(name, value, enum, device=""):
    c = graph_def_pb2.GraphDef().node.add()
    c.name, c.op, c.device = name, "Const", device
    c.attr["dtype"].type = enum
    c.attr["value"].CopyFrom(attr_value_pb2.AttrValue(tensor=graph_io.make_tensor_proto(value, enum)))
    return c


def _scale_weights(conv, weights, scale):
    """The conv/matmul weights with each output channel multiplied by scale (1-D over output channels)."""
    if conv.op == "MatMul" and conv.attr["transpose_b"].b:
        return weights * scale[:, None]
    if conv.op == "DepthwiseConv2dNative":
        return weights * scale.reshape(weights.shape[2], weights.shape[3])
    return weights * scale


def _channels(conv, weights):
    if conv.op == "MatMul":
        return weights.shape[0] if conv.attr["transpose_b"].b else weights.shape[-1]
    if conv.op == "DepthwiseConv2dNative":
        return weights.shape[2] * weights.shape[3]
    return weights.shape[-1]


def fold_batch_norms(gd, inputs, outputs, params):
    """Fold a batch normalisation that follows a Conv2D, MatMul or DepthwiseConv2dNative with constant
    weights into those weights: Mul(conv, C) (what fold_constants leaves of tf.nn.batch_normalization) and
    FusedBatchNorm/V2/V3 with is_training=false (the conv with scaled weights, then a BiasAdd of the offset
    under the batch norm's name). Consumers are unchanged."""
    nodes = [_copy(nd) for nd in gd.node]
    by_name = {nd.name: nd for nd in nodes}
    protected = set(node_name(n) for n in list(inputs) + list(outputs))
    uses = {}
    for nd in nodes:
        for i in nd.input:
            uses[node_name(i)] = uses.get(node_name(i), 0) + 1
    removed, extra = set(), []

    def linear_with_const_weights(name):
        conv = by_name.get(node_name(name))
        if conv is None or conv.op not in _LINEAR or conv.name in protected or uses.get(conv.name) != 1 \
                or ":" in name and not name.endswith(":0"):
            return None, None
        w = by_name.get(node_name(conv.input[1]))
        if w is None or w.op != "Const" or conv.input[1].startswith("^"):
            return None, None
        return conv, w

    def put_weights(owner, w, new_weights):
        """Name of a Const holding new_weights: w itself when nothing else reads it, else a new node."""
        uses[w.name] -= 1
        enum = w.attr["dtype"].type
        if uses[w.name] == 0:
            w.attr["value"].CopyFrom(attr_value_pb2.AttrValue(
                tensor=graph_io.make_tensor_proto(new_weights.astype(_const_value(w).dtype), enum)))
            return w.name
        c = _const_node(owner + "/folded_weights", new_weights.astype(_const_value(w).dtype), enum, w.device)
        extra.append(c)
        return c.name

    for nd in nodes:
        if nd.op == "Mul" and len(nd.input) == 2:
            for a, b in ((0, 1), (1, 0)):
                conv, w = linear_with_const_weights(nd.input[a])
                c = by_name.get(node_name(nd.input[b]))
                if conv is None or c is None or c.op != "Const":
                    continue
                scale, weights = _const_value(c), _const_value(w)
                channels = _channels(conv, weights)
                if scale.size not in (1, channels) or (scale.ndim > 0 and scale.shape[-1] != scale.size):
                    continue
                scale = np.broadcast_to(scale.reshape(-1), (channels,))
                wname = put_weights(nd.name, w, _scale_weights(conv, weights, scale))
                uses[c.name] -= 1
                if uses[c.name] == 0:
                    removed.add(c.name)
                removed.add(conv.name)
                nd.op = conv.op
                del nd.input[:]
                nd.input.extend([conv.input[0], wname] + list(conv.input[2:]))
                nd.attr.clear()
                for k, v in conv.attr.items():
                    nd.attr[k].CopyFrom(v)
                break
        elif nd.op in ("FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3") and \
                not nd.attr["is_training"].b:
            conv, w = linear_with_const_weights(nd.input[0])
            consts = [by_name.get(node_name(i)) for i in nd.input[1:5]]
            if conv is None or any(c is None or c.op != "Const" for c in consts):
                continue
            if any(node_name(i) == nd.name and ":" in i and not i.endswith(":0")
                   for other in nodes for i in other.input):
                continue  # its other outputs (batch mean, variance) are used
            gamma, beta, mean, var = (_const_value(c).astype(np.float64) for c in consts)
            eps = nd.attr["epsilon"].f if "epsilon" in nd.attr else 1e-3
            mult = gamma / np.sqrt(var + eps)
            weights = _const_value(w)
            wname = put_weights(nd.name, w, _scale_weights(conv, weights.astype(np.float64), mult))
            conv.input[1] = wname
            for c in consts:
                uses[c.name] -= 1
                if uses[c.name] == 0:
                    removed.add(c.name)
            off = _const_node(nd.name + "/folded_offset", (beta - mean * mult).astype(weights.dtype),
                              w.attr["dtype"].type, w.device)
            extra.append(off)
            dtype = nd.attr["T"]
            fmt = nd.attr["data_format"].s if "data_format" in nd.attr else b"NHWC"
            nd.op = "BiasAdd"
            del nd.input[:]
            nd.input.extend([conv.name, off.name])
            nd.attr.clear()
            nd.attr["T"].CopyFrom(dtype)
            nd.attr["data_format"].s = fmt
    kept = [nd for nd in nodes if nd.name not in removed or nd.name in protected] + extra
    return sort_by_execution_order(_copy_graph(gd, kept), inputs, outputs, {})


def _copy(nd):
    new = graph_def_pb2.GraphDef().node.add()
    new.CopyFrom(nd)
    return new


# --- quantize_weights ---------------------------------------------------------------------------------

def quantize_float(values):
    """(quint8 codes, min, max) as TF's quantize_weights: range widened to hold 0, MIN_FIRST rounding."""
    lo = min(float(values.min()), 0.0)
    hi = max(float(values.max()), 0.0)
    if lo == hi:
        hi = lo + 1.0
    steps = 256
    range_scale = steps / ((hi - lo) * (steps / (steps - 1.0)))
    q = np.round(values.astype(np.float64) * range_scale) - np.round(lo * range_scale)
    return np.clip(q, 0, 255).astype(np.uint8), np.float32(lo), np.float32(hi)


def quantize_weights(gd, inputs, outputs, params):
    """Store each float Const of at least minimum_size (default 1024) elements as 8 bits: a quint8 Const,
    its min and max, and a Dequantize (MIN_FIRST) under the Const's name, so consumers are unchanged.
    The file shrinks about 4x; each value moves by at most (max-min)/255."""
    minimum = int(_one(params, "minimum_size", 1024))
    nodes = []
    for nd in gd.node:
        if nd.op != "Const" or nd.attr["dtype"].type != types_pb2.DT_FLOAT:
            nodes.append(nd)
            continue
        value = _const_value(nd)
        if value.size < minimum:
            nodes.append(nd)
            continue
        codes, lo, hi = quantize_float(value)
        q = graph_def_pb2.GraphDef().node.add()
        q.name, q.op, q.device = nd.name + "_quantized_const", "Const", nd.device
        q.attr["dtype"].type = types_pb2.DT_QUINT8
        t = q.attr["value"].tensor
        t.dtype = types_pb2.DT_QUINT8
        for d in value.shape:
            t.tensor_shape.dim.add(size=int(d))
        t.tensor_content = codes.tobytes()
        mn = _const_node(nd.name + "_quantized_min", np.float32(lo), types_pb2.DT_FLOAT, nd.device)
        mx = _const_node(nd.name + "_quantized_max", np.float32(hi), types_pb2.DT_FLOAT, nd.device)
        dq = graph_def_pb2.GraphDef().node.add()
        dq.name, dq.op, dq.device = nd.name, "Dequantize", nd.device
        dq.input.extend([q.name, mn.name, mx.name])
        dq.attr["T"].type = types_pb2.DT_QUINT8
        dq.attr["mode"].s = b"MIN_FIRST"
        nodes.extend([q, mn, mx, dq])
    return _copy_graph(gd, nodes)


# --- sort_by_execution_order --------------------------------------------------------------------------

def sort_by_execution_order(gd, inputs, outputs, params):
    """Order the nodes so each comes after all its inputs (data and control), keeping the file's order among
    nodes that are ready together; a loop's NextIteration -> Merge back edge does not count."""
    nodes = list(gd.node)
    by_name = {nd.name: nd for nd in nodes}
    pending, consumers = {}, {}
    for nd in nodes:
        deps = set()
        for i in nd.input:
            src = node_name(i)
            if src not in by_name:
                raise TransformError("node %r reads %r, which is not in the graph" % (nd.name, i))
            if nd.op in ("Merge", "RefMerge") and by_name[src].op in ("NextIteration", "RefNextIteration"):
                continue
            deps.add(src)
        pending[nd.name] = len(deps)
        for d in deps:
            consumers.setdefault(d, []).append(nd.name)
    order = {nd.name: k for k, nd in enumerate(nodes)}
    import heapq
    ready = [(order[n], n) for n, c in pending.items() if c == 0]
    heapq.heapify(ready)
    out = []
    while ready:
        _, n = heapq.heappop(ready)
        out.append(by_name[n])
        for c in consumers.get(n, ()):
            pending[c] -= 1
            if pending[c] == 0:
                heapq.heappush(ready, (order[c], c))
    if len(out) != len(nodes):
        stuck = sorted(n for n, c in pending.items() if c > 0)[:5]
        raise TransformError("the graph has a cycle that is not a while loop (through %s)" % ", ".join(stuck))
    return _copy_graph(gd, out)


TRANSFORMS = {
    "strip_unused_nodes": strip_unused_nodes,
    "remove_nodes": remove_nodes,
    "fold_constants": fold_constants,
    "fold_batch_norms": fold_batch_norms,
    "fold_old_batch_norms": fold_batch_norms,
    "quantize_weights": quantize_weights,
    "sort_by_execution_order": sort_by_execution_order,
}


def transform_graph(graph_def, inputs, outputs, transforms, progress=None):
    """TF's TransformGraph: apply the transforms (a string in TF's syntax, or [(name, params)]) in order."""
    steps = parse_transforms(transforms) if isinstance(transforms, str) else list(transforms)
    for name, _ in steps:
        if name not in TRANSFORMS:
            raise TransformError("unknown transform %r; graphlab has %s" % (name, ", ".join(sorted(TRANSFORMS))))
    names = set(nd.name for nd in graph_def.node)
    for n in list(inputs) + list(outputs):
        if node_name(n) not in names:
            raise TransformError("the graph has no node named %r (check --inputs/--outputs)" % node_name(n))
    gd = graph_def
    for name, params in steps:
        if progress:
            progress("%s (%d nodes)" % (name, len(gd.node)))
        gd = TRANSFORMS[name](gd, list(inputs), list(outputs), params)
    return gd
