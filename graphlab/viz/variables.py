"""Resource variables drawn as the variables they are, and Keras's backend ops kept out of the way.

A reference variable (``VariableV2``) is read through one ``w/read`` Identity beside it, so its scope
``w/`` already holds the variable, its initializer, its Assign and its read. A resource variable
(``VarHandleOp``, what tf.keras and ``use_resource=True`` make) is read by a ``ReadVariableOp`` at every
use, named after the reader (``dense/MatMul/ReadVariableOp``), and Keras's session adds unscoped
``VarIsInitializedOp_N`` checks and ``K.set_value``'s ``Placeholder``/``AssignVariableOp`` pairs. Drawn
where their names put them, those ops scatter one variable over many boxes (a ``MatMul`` scope holding a
read, 19 ``VarIsInitializedOp`` at the top level). Here they are drawn inside their variable's scope
(their names are unchanged; only the drawing path moves), so ``dense/kernel`` is one place holding
everything about the kernel and, collapsed, one cylinder ``kernel / variable [4,8]``.

Keras's ``keras_learning_phase`` placeholder exists in every Keras graph but feeds only layers that act
differently in training (Dropout, BatchNormalization); when nothing reads it, it is left out of the
drawing and the caption says so.
"""

VARIABLE_TYPES = frozenset(["VarHandleOp", "VariableV2", "Variable"])
# ops that only look at a variable: they belong with it in a drawing
_READS = frozenset(["ReadVariableOp", "VarIsInitializedOp", "IsVariableInitialized"])
LEARNING_PHASE = "keras_learning_phase"


def _handle_source(node):
    """The VarHandleOp a node's first input comes from, or None."""
    if not node._inputs:
        return None
    producer = node._inputs[0]._op
    return producer if producer.type == "VarHandleOp" else None


def place_with_variables(view):
    """Move the drawing path of each read of a resource variable (and of Keras's unscoped checks and
    assignments of one) into the variable's scope. Ops inside a loop frame stay in their frame."""
    moved = {}
    for n in view.nodes:
        if n.frame:
            continue
        var = _handle_source(n)
        if var is None or var.frame:
            continue
        unscoped = "/" not in n.name
        if n.type in _READS or (unscoped and n.type == "AssignVariableOp"):
            if not n.path.startswith(var.path + "/"):
                n.path = var.path + "/" + n.name.replace("/", "|")
                moved[n.name] = var
    # K.set_value's unscoped Placeholder feeds only its AssignVariableOp: it goes along
    consumers = {}
    for n in view.nodes:
        for t in n._inputs:
            consumers.setdefault(t._op.name, []).append(n)
    for n in view.nodes:
        if "/" in n.name or n.type != "Placeholder" or n.frame:
            continue
        readers = consumers.get(n.name, [])
        if readers and all(r.name in moved and r.type == "AssignVariableOp" for r in readers):
            n.path = moved[readers[0].name].path + "/" + n.name
    return view


def is_learning_phase(name):
    return name == LEARNING_PHASE or name.startswith(LEARNING_PHASE + "/")


def unused_learning_phase(view):
    """Names of Keras's learning-phase ops when no op outside them reads the placeholder, else ()."""
    ops = [n for n in view.nodes if is_learning_phase(n.name)]
    if not any(n.name == LEARNING_PHASE for n in ops):
        return ()
    names = {n.name for n in ops}
    for n in view.nodes:
        if n.name in names:
            continue
        if any(t._op.name in names for t in n._inputs) or any(c.name in names for c in n._control_inputs):
            return ()
    return tuple(sorted(names))


def variable_of(unit):
    """The VarHandleOp of a collapsed scope that is a resource variable's own scope (``dense/kernel``), or None.
    A reference variable's closed scope keeps its folder box ("w, 5 ops"), as the lessons' stored drawings
    show it."""
    for m in unit.members:
        if m.name == unit.name and m.type == "VarHandleOp":
            return m
    return None


def variable_shape(unit, var):
    """The variable's shape as a label (``[4,8]``), from the op itself or a read of it; None if unknown."""
    if var.type != "VarHandleOp" and var.outputs and var.outputs[0].shape:
        return var.outputs[0].shape
    source = getattr(var, "source", None)
    if source is not None:
        try:
            from graphlab.graphview.nodes import shape_label
            return shape_label(source.get_attr("shape"))
        except Exception:   # a view without attrs: fall back to a read's output
            pass
    for m in unit.members:
        if m.type == "ReadVariableOp" and m.outputs and m.outputs[0].shape:
            return m.outputs[0].shape
    return None
