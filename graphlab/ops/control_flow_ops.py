"""Control-flow ops: NoOp, group, tuple, and (in later blocks) cond, case and while_loop.

``group`` returns a NoOp whose control inputs are the grouped ops: running it runs them all.
"""
from graphlab.framework import graph as graph_mod
from graphlab.framework.operation import Operation
from graphlab.ops.registry import NOT_DIFFERENTIABLE, build_op, no_outputs, register_op

# ------------------------------------------------------------------------------------------------ NoOp
register_op(
    "NoOp",
    outputs=no_outputs,
    kernel=lambda ctx: None,
    grad=NOT_DIFFERENTIABLE,
    doc="Does nothing; its control inputs make it a handle for running several ops at once.")


def no_op(name=None):
    return build_op("NoOp", (), name=name)


def group(*inputs, **kwargs):
    """``tf.group``: one NoOp that depends on every input op (tensors count as their ops)."""
    name = kwargs.pop("name", None)
    if kwargs:
        raise TypeError("Unknown keyword arguments: %s" % ", ".join(kwargs))
    ops = []
    for x in _flatten(inputs):
        op = x if isinstance(x, Operation) else getattr(x, "op", None)
        if op is None:
            raise TypeError("Expected an op or tensor in tf.group, got %r" % (x,))
        if op not in ops:
            ops.append(op)
    graph = graph_mod.graph_of(ops)
    with graph.as_default(), graph.name_scope(name or "group_deps") as scope:
        with graph.control_dependencies(ops):
            return build_op("NoOp", (), name=scope)


def _flatten(items):
    for x in items:
        if isinstance(x, (list, tuple)):
            yield from _flatten(x)
        else:
            yield x


def control_dependencies(control_inputs):
    """``tf.control_dependencies``: ops built in the block run after ``control_inputs``."""
    graph = graph_mod.graph_of([c for c in control_inputs or []
                                if isinstance(c, Operation) or hasattr(c, "graph")])
    return graph.control_dependencies(control_inputs)
