"""Control-flow contexts to and from TF's CondContextDef / WhileContextDef, the entries of a MetaGraphDef's
"cond_context" and "while_context" collections.

Why: the ops of a loop or cond carry no record of which context built them, yet ``tf.gradients`` needs
exactly that (each op's context, the loop's pivot, enters and exits) to build the gradient loop. TF writes
the contexts into the meta graph so that a program importing it can differentiate through its loops; a meta
graph without them imports and runs, but TF then fails at the first gradient. Tensors are stored by name,
sorted, as TF writes them.
"""
from graphlab.formats.protos import control_flow_pb2
from graphlab.framework import meta_graph
from graphlab.framework.control_flow_context import ControlFlowContext
from graphlab.framework.graph import prepend_name_scope as _prepend, strip_name_scope as _strip


# --- writing -------------------------------------------------------------------------------------------

def _values_def(ctxt, scope):
    values = control_flow_pb2.ValuesDef()
    values.values.extend(sorted(_strip(t.name, scope) for t in ctxt._values))
    for outside, inside in ctxt._external_values.items():
        values.external_values[_strip(outside.name, scope)] = _strip(inside.name, scope)
    return values


def to_proto(ctxt, export_scope=None):
    """The CondContextDef or WhileContextDef of ``ctxt``, or None when it lies outside ``export_scope``."""
    if export_scope and not ctxt.name.startswith(export_scope):
        return None
    nested_defs = []
    for nested in ctxt._nested_contexts:
        entry = control_flow_pb2.ControlFlowContextDef()
        nested_def = to_proto(nested, export_scope)
        if nested_def is None:
            continue
        (entry.while_ctxt if nested.is_while_context else entry.cond_ctxt).CopyFrom(nested_def)
        nested_defs.append(entry)
    if ctxt.is_while_context:
        proto = control_flow_pb2.WhileContextDef(
            context_name=_strip(ctxt.name, export_scope), parallel_iterations=ctxt.parallel_iterations,
            back_prop=ctxt.back_prop, swap_memory=ctxt.swap_memory,
            pivot_for_pred_name=_strip(ctxt._pivot_for_pred.name, export_scope),
            pivot_for_body_name=_strip(ctxt._pivot_for_body.name, export_scope),
            pivot_name=_strip(ctxt.pivot.name, export_scope),
            loop_exit_names=[_strip(t.name, export_scope) for t in ctxt.loop_exits],
            loop_enter_names=[_strip(t.name, export_scope) for t in ctxt.loop_enters])
        if ctxt.maximum_iterations is not None and hasattr(ctxt.maximum_iterations, "name"):
            proto.maximum_iterations_name = _strip(ctxt.maximum_iterations.name, export_scope)
    else:
        proto = control_flow_pb2.CondContextDef(
            context_name=_strip(ctxt.name, export_scope), pred_name=_strip(ctxt.pred.name, export_scope),
            pivot_name=_strip(ctxt.pivot.name, export_scope), branch=ctxt.branch)
    proto.values_def.CopyFrom(_values_def(ctxt, export_scope))
    proto.nested_contexts.extend(nested_defs)
    return proto


# --- reading -------------------------------------------------------------------------------------------

def _restore_common(ctxt, graph, proto, scope):
    """What every context holds, rebuilt from names: its values, and the context of each op made in it."""
    element = graph.as_graph_element
    ctxt.name = _prepend(proto.context_name, scope)
    ctxt._graph = graph
    ctxt.outer_context = graph._control_flow_context
    ctxt._context_stack = []
    ctxt._nested_contexts = []
    if ctxt.outer_context is not None:
        ctxt.outer_context._nested_contexts.append(ctxt)
    values = proto.values_def
    ctxt._values = {element(_prepend(name, scope)) for name in values.values}
    ctxt._external_values = {element(_prepend(k, scope)): element(_prepend(v, scope))
                             for k, v in values.external_values.items()}
    inside = {_prepend(name, scope) for name in values.values} - {
        _prepend(k, scope) for k in values.external_values}
    for op_name in sorted({name.split(":")[0] for name in inside}):
        element(op_name)._control_flow_context = ctxt


def from_proto(proto, graph, import_scope=None):
    """A CondContext or WhileContext (with its nested contexts) for an imported graph's ops."""
    from graphlab.ops.cond import CondContext
    from graphlab.ops.while_loop import WhileContext
    element = graph.as_graph_element
    if isinstance(proto, control_flow_pb2.WhileContextDef):
        ctxt = WhileContext.__new__(WhileContext)
        _restore_common(ctxt, graph, proto, import_scope)
        graph._has_while_loops = True
        ctxt.maximum_iterations = (element(_prepend(proto.maximum_iterations_name, import_scope))
                                   if proto.maximum_iterations_name else None)
        ctxt.parallel_iterations = proto.parallel_iterations
        ctxt._back_prop = proto.back_prop
        ctxt.swap_memory = proto.swap_memory
        ctxt._grad_state = None
        ctxt._pivot_for_pred = element(_prepend(proto.pivot_for_pred_name, import_scope))
        ctxt._pivot_for_body = element(_prepend(proto.pivot_for_body_name, import_scope))
        ctxt.pivot = element(_prepend(proto.pivot_name, import_scope))
        ctxt.loop_exits = [element(_prepend(n, import_scope)) for n in proto.loop_exit_names]
        ctxt.loop_enters = [element(_prepend(n, import_scope)) for n in proto.loop_enter_names]
    else:
        ctxt = CondContext.__new__(CondContext)
        _restore_common(ctxt, graph, proto, import_scope)
        ctxt.pred = element(_prepend(proto.pred_name, import_scope))
        ctxt.pivot = element(_prepend(proto.pivot_name, import_scope))
        ctxt.branch = proto.branch
    ctxt.enter()
    try:
        for nested in proto.nested_contexts:
            from_proto(getattr(nested, nested.WhichOneof("ctxt")), graph, import_scope)
    finally:
        ctxt.exit()
    return ctxt


for _key, _message in (("cond_context", control_flow_pb2.CondContextDef),
                       ("while_context", control_flow_pb2.WhileContextDef)):
    meta_graph.register_proto_function(_key, _message, to_proto,
                                       lambda proto, graph, scope, _rebuilt: from_proto(proto, graph, scope),
                                       ControlFlowContext)
