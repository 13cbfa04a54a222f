"""A Keras model's weights in TF's checkpoint format, object-based, as tf-keras's ``save_weights`` writes it.

Each variable is stored under its object path (object_graph.py), beside the object graph itself and an
optimizer's slots; the ``checkpoint`` state file in the same directory names the new prefix alone (tf-keras
passes ``all_model_checkpoint_paths=[filepath]``), so ``tf.train.latest_checkpoint`` finds it.

Loading matches the checkpoint's object graph with the model's, child name by child name from the root, as
TF's restore does: the keys in the file are followed, not recomputed. A checkpoint without an object graph
(written by ``tf.train.Saver``) is refused as tf-keras refuses it when building graphs.
"""
import os

import numpy as np

from graphlab.formats import tensor_bundle, text_format
from graphlab.formats.errors import NotFoundError
from graphlab.keras.saving import checkpoint_ops, object_graph


def save(model, filepath, session):
    """Write the model's (and its optimizer's) variables at ``filepath`` (a prefix), then the state file."""
    write(model, filepath, session)
    # TF records the prefix relative to its directory (save_relative_paths=True): 'w', not '/tmp/x/w'.
    rel = os.path.basename(filepath)
    state = text_format.checkpoint_state(rel, [rel])
    text_format.write_checkpoint_state(os.path.dirname(filepath) or ".", state)


def write(model, filepath, session):
    """The checkpoint files alone, through the save ops (checkpoint_ops.py) in the model's graph, built once
    and run as tf-keras runs them."""
    proto, entries = object_graph.build(model)
    graph = session.graph
    pairs = [(e.key, e.variable) for e in entries]
    ops = checkpoint_ops.cached(model, graph, "save", tuple((k, id(v)) for k, v in pairs),
                                lambda: checkpoint_ops.SaveOps(graph, pairs))
    parent = os.path.dirname(filepath)
    if parent:
        os.makedirs(parent, exist_ok=True)
    ops.run(session, filepath, proto.SerializeToString())


def is_readable(filepath):
    """True when ``filepath`` is a checkpoint prefix (its .index file exists)."""
    return os.path.isfile(tensor_bundle.index_path(filepath))


def open_reader(filepath):
    if not is_readable(filepath):
        raise NotFoundError(None, None, "Unsuccessful TensorSliceReader constructor: Failed to find any "
                                        "matching files for %s" % filepath)
    return tensor_bundle.BundleReader(filepath)


def _match(ours, theirs):
    """{our node id: their node id}, following children by local name from both roots."""
    mapping = {0: 0}
    queue = [0]
    while queue:
        a = queue.pop(0)
        b = mapping[a]
        by_name = {c.local_name: c.node_id for c in theirs.nodes[b].children}
        for child in ours.nodes[a].children:
            if child.node_id in mapping or child.local_name not in by_name:
                continue
            mapping[child.node_id] = by_name[child.local_name]
            queue.append(child.node_id)
    # slot variables: their optimizer node lists (original variable, slot name) -> slot node
    for a, b in list(mapping.items()):
        theirs_slots = {(s.original_variable_node_id, s.slot_name): s.slot_variable_node_id
                        for s in theirs.nodes[b].slot_variables}
        for s in ours.nodes[a].slot_variables:
            original = mapping.get(s.original_variable_node_id)
            key = (original, s.slot_name)
            if original is not None and key in theirs_slots:
                mapping[s.slot_variable_node_id] = theirs_slots[key]
    return mapping


def load(model, filepath, session):
    """Assign every variable of ``model`` that the checkpoint at ``filepath`` holds; returns how many."""
    reader = open_reader(filepath)
    if object_graph.OBJECT_GRAPH_KEY not in reader:
        raise NotImplementedError(
            "Streaming restore not supported from name-based checkpoints when graph building. "
            "%s was written by tf.train.Saver (it has no object graph); restore it with "
            "tf.train.Saver(model.weights).restore(sess, path) instead." % filepath)
    theirs = object_graph.parse(reader.read(object_graph.OBJECT_GRAPH_KEY), filepath)
    ours, entries = object_graph.build(model)
    by_key = {}
    for i, node in enumerate(ours.nodes):
        for attr in node.attributes:
            by_key[attr.checkpoint_key] = i
    mapping = _match(ours, theirs)
    assignments = []
    for entry in entries:
        their_node = mapping.get(by_key[entry.key])
        if their_node is None:
            continue
        attrs = [a for a in theirs.nodes[their_node].attributes if a.name == "VARIABLE_VALUE"]
        if not attrs:
            continue
        key = attrs[0].checkpoint_key
        if key not in reader:
            raise ValueError("The checkpoint %s is damaged: its object graph names the key %r, which it "
                             "does not hold." % (filepath, key))
        shape, _ = reader.shape_and_dtype(key)
        value_shape = tuple(shape)
        expected = tuple(entry.variable.shape.as_list()) if hasattr(entry.variable.shape, "as_list") \
            else tuple(entry.variable.shape)
        if None not in expected and value_shape != expected:
            raise ValueError("Cannot load %s into %s: the checkpoint holds %s with shape %s, the variable's "
                             "shape is %s. The model must be built as the one that saved the weights."
                             % (filepath, entry.variable.name, key, value_shape, expected))
        assignments.append((entry.variable, key))
    if entries and not assignments:
        raise AssertionError("No checkpointed values were matched in %s: its objects %s do not match the "
                             "model's %s." % (filepath, _top_names(theirs), _top_names(ours)))
    restore(model, assignments, filepath, session)
    return len(assignments)


def _top_names(proto):
    return sorted(c.local_name for c in proto.nodes[0].children) if proto.nodes else []


def restore(model, pairs, filepath, session):
    """Run RestoreV2 of [(variable, key)] and the assigns, built once per model, graph and key set."""
    graph = session.graph
    wanted = [(key, variable) for variable, key in pairs]
    ops = checkpoint_ops.cached(model, graph, "restore", tuple((k, id(v)) for k, v in wanted),
                                lambda: checkpoint_ops.RestoreOps(graph, wanted))
    ops.run(session, filepath)


def assign(pairs, session):
    """Write (variable, value) pairs in ``session`` as Keras's backend does (batch_set_value: one assign
    placeholder per variable, made once); a variable outside Keras by its ``load``."""
    try:
        from graphlab.keras import backend
        setter = backend.batch_set_value
    except (ImportError, AttributeError):
        setter = None
    if setter is not None and pairs:
        setter([(variable, np.asarray(value)) for variable, value in pairs])
        return
    for variable, value in pairs:
        dtype = getattr(getattr(variable, "dtype", None), "as_numpy_dtype", None)
        variable.load(np.asarray(value, dtype=dtype) if dtype is not None else value, session)
