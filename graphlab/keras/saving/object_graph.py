"""The object graph of a Keras model, as TF's object-based checkpoints name it.

``save_weights`` in TF's checkpoint format does not store a variable under its graph name (``dense/kernel``)
but under the path of Python attributes that leads to it from the model: ``layer_with_weights-0/kernel``,
then ``/.ATTRIBUTES/VARIABLE_VALUE``. The checkpoint also holds the graph of those objects itself (a
``TrackableObjectGraph`` under ``_CHECKPOINTABLE_OBJECT_GRAPH``), and an optimizer's slots hang off the
variable they belong to (``.../.OPTIMIZER_SLOT/optimizer/m/...``). This module walks a model the way TF's
tracking does (breadth first from the model, children in the order TF lists them) and returns both.

What a model is made of is read duck-typed: ``model.layers``, each layer's ``weights``, the layer's
attributes that hold its variables or inner layers (``cell``), and an optimizer's ``iterations``,
hyperparameter variables and ``get_slot``.
"""
import collections

from graphlab.formats.protos import trackable_object_graph_pb2

OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"
VALUE_SUFFIX = ".ATTRIBUTES/VARIABLE_VALUE"
SLOT_MARKER = ".OPTIMIZER_SLOT"


def _escape(name):
    """TF escapes '/' and '.' in a local name (they separate a key's parts): '.S' and '..'."""
    return name.replace(".", "..").replace("/", ".S")


def variable_full_name(variable):
    """``dense/kernel`` for ``dense/kernel:0``: the name a checkpoint's object graph records."""
    name = variable.name
    return name[:-2] if name.endswith(":0") else name.rsplit(":", 1)[0]


def _short_name(variable):
    return variable_full_name(variable).rsplit("/", 1)[-1]


def _weights(obj):
    try:
        return list(getattr(obj, "weights", None) or [])
    except (ValueError, AttributeError):
        return []


def _is_variable(value):
    return hasattr(value, "initializer") and hasattr(value, "dtype") and hasattr(value, "name") \
        and not hasattr(value, "layers") and not callable(getattr(value, "get_config", None))


def _is_layer(value):
    return hasattr(value, "weights") and callable(getattr(value, "get_config", None))


def _model_children(model):
    """A Model's children as tf-keras lists them: layer_with_weights-i beside layer-j for a network,
    its attributes for a subclassed model, then the optimizer, then 'root' (the model itself)."""
    children = []
    layers = list(getattr(model, "layers", []) or [])
    if getattr(model, "_is_graph_network", True) or not _attribute_children(model):
        with_weights = 0
        for index, layer in enumerate(layers):
            if _weights(layer):
                children.append(("layer_with_weights-%d" % with_weights, layer))
                with_weights += 1
            children.append(("layer-%d" % index, layer))
    else:
        children.extend(_attribute_children(model))
    optimizer = getattr(model, "optimizer", None)
    if optimizer is not None:
        children.append(("optimizer", optimizer))
    children.append(("root", model))
    return children


def _attribute_children(obj):
    """Public attributes holding a variable or a layer with weights, in assignment order (as TF tracks them)."""
    out = []
    for name, value in list(vars(obj).items()):
        if name.startswith("_"):
            continue
        if _is_variable(value) or (_is_layer(value) and _weights(value)):
            out.append((name, value))
    return out


def _layer_children(layer):
    """A layer's variables and inner layers by attribute name; a variable no attribute holds is named
    after the last part of its graph name (``kernel``), as the layers that add it name their attribute."""
    children = _attribute_children(layer)
    reached = set()
    for _, value in children:
        if _is_variable(value):
            reached.add(id(value))
        else:
            reached.update(id(w) for w in _weights(value))
    for w in _weights(layer):
        if id(w) not in reached:
            children.append((_short_name(w), w))
            reached.add(id(w))
    return children


def _optimizer_children(optimizer):
    """An optimizer's own variables: ``iter`` first, then its hyperparameters in name order (TF's
    OptimizerV2 creates them so). Slots are not children: they hang off their variable."""
    out = []
    iterations = getattr(optimizer, "_iterations", None)
    if iterations is not None and _is_variable(iterations):
        out.append(("iter", iterations))
    hyper = getattr(optimizer, "_hyper", None) or {}
    for name in sorted(hyper):
        if _is_variable(hyper[name]):
            out.append((name, hyper[name]))
    return out


def _slots(optimizer, variables):
    """[(slot_name, original_variable, slot_variable)] in TF's order: slot names outer, variables inner."""
    names = getattr(optimizer, "get_slot_names", None)
    get = getattr(optimizer, "get_slot", None)
    if names is None or get is None:
        return []
    out = []
    for slot_name in names():
        for var in variables:
            try:
                slot = get(var, slot_name)
            except (KeyError, ValueError, AttributeError):
                slot = None
            if slot is not None:
                out.append((slot_name, var, slot))
    return out


Entry = collections.namedtuple("Entry", "key variable full_name")


def build(model):
    """(TrackableObjectGraph proto, [Entry(checkpoint key, variable, full name)]) for ``model``."""
    nodes = []            # [(object, [(local_name, node_id)], is_variable)]
    ids = {}
    paths = {}
    queue = collections.deque()

    def visit(obj, path):
        if id(obj) in ids:
            return ids[id(obj)]
        ids[id(obj)] = len(nodes)
        nodes.append([obj, [], _is_variable(obj)])
        paths[id(obj)] = path
        queue.append(obj)
        return ids[id(obj)]

    optimizer = getattr(model, "optimizer", None)
    visit(model, "")
    while queue:
        obj = queue.popleft()
        node = nodes[ids[id(obj)]]
        if node[2]:
            continue
        if obj is model:
            children = _model_children(model)
        elif obj is optimizer:
            children = _optimizer_children(obj)
        else:
            children = _layer_children(obj)
        for local, child in children:
            child_path = (paths[id(obj)] + "/" if paths[id(obj)] else "") + _escape(local)
            node[1].append((local, visit(child, child_path)))

    variables = [n[0] for n in nodes if n[2]]
    slot_refs = []
    if optimizer is not None:
        optimizer_path = paths.get(id(optimizer), "optimizer")
        for slot_name, var, slot in _slots(optimizer, variables):
            if id(slot) in ids:
                continue
            ids[id(slot)] = len(nodes)
            nodes.append([slot, [], True])
            paths[id(slot)] = "%s/%s/%s/%s" % (paths[id(var)], SLOT_MARKER, optimizer_path, _escape(slot_name))
            slot_refs.append((ids[id(var)], slot_name, ids[id(slot)]))

    proto = trackable_object_graph_pb2.TrackableObjectGraph()
    entries = []
    for obj, children, is_var in nodes:
        p = proto.nodes.add()
        for local, node_id in children:
            ref = p.children.add()
            ref.node_id = node_id
            ref.local_name = local
        if is_var:
            key = paths[id(obj)] + "/" + VALUE_SUFFIX
            attr = p.attributes.add()
            attr.name = "VARIABLE_VALUE"
            attr.full_name = variable_full_name(obj)
            attr.checkpoint_key = key
            entries.append(Entry(key, obj, attr.full_name))
    if optimizer is not None and id(optimizer) in ids:
        opt_node = proto.nodes[ids[id(optimizer)]]
        for original, slot_name, slot_id in slot_refs:
            ref = opt_node.slot_variables.add()
            ref.original_variable_node_id = original
            ref.slot_name = slot_name
            ref.slot_variable_node_id = slot_id
    _mark_values(proto)
    return proto, entries


def _mark_values(proto):
    """has_checkpoint_values on every node: true where the node or something below it holds a value."""
    memo = {}

    def has(i, stack=()):
        if i in memo:
            return memo[i]
        if i in stack:
            return False
        node = proto.nodes[i]
        value = bool(node.attributes) or bool(node.slot_variables) or any(
            has(c.node_id, stack + (i,)) for c in node.children if c.node_id != i)
        memo[i] = value
        return value

    for i, node in enumerate(proto.nodes):
        node.has_checkpoint_values.value = has(i)


def parse(data, path):
    """The TrackableObjectGraph in a checkpoint's ``_CHECKPOINTABLE_OBJECT_GRAPH`` entry."""
    from google.protobuf.message import DecodeError
    proto = trackable_object_graph_pb2.TrackableObjectGraph()
    if hasattr(data, "reshape"):          # the bundle's scalar string tensor: a 0-d object array
        data = data.reshape(-1)[0] if data.size == 1 else b""
    try:
        proto.ParseFromString(bytes(data))
    except DecodeError as e:
        raise ValueError("The checkpoint %s has a damaged object graph (%s entry): %s"
                         % (path, OBJECT_GRAPH_KEY, e)) from None
    return proto
