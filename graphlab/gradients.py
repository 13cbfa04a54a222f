"""Symbolic differentiation: ``gradients(ys, xs)`` adds gradient ops to the graph, under a ``gradients/`` name
scope, by walking back from ``ys`` to ``xs`` and calling each op's gradient rule from the registry.

The walk follows TensorFlow's own order (a queue of ops whose consumers are all done), so the ops it adds get
the names TensorFlow gives them: ``gradients/grad_ys_0``, ``gradients/add_grad/Sum``, ``gradients/AddN``.

Gradient rules return gradients shaped like the op's output; for broadcasting binary ops this module undoes
the broadcasting in one place (graphlab/ops/broadcast_ops.py ``reduce_broadcast``) with Shape,
BroadcastGradientArgs, Sum and Reshape. The rules themselves live beside their ops in graphlab/ops.
"""
import collections
import sys

import numpy as np

from graphlab.framework import control_flow_util, dtypes, graph as graph_mod, registry, source_info
from graphlab.framework.indexed_slices import IndexedSlices
from graphlab.framework.operation import Operation
from graphlab.framework.tensor import Tensor
from graphlab.ops import array_ops, custom_gradient, math_ops
from graphlab.ops.broadcast_ops import BROADCASTING_OPS, reduce_broadcast

# ---------------------------------------------------------------------------------------- gradients()

_TRAINABLE = None


def _is_trainable(t):
    global _TRAINABLE
    if _TRAINABLE is None:
        _TRAINABLE = {dtypes.float16, dtypes.float32, dtypes.float64, dtypes.complex64, dtypes.complex128,
                      dtypes.bfloat16, dtypes.resource, dtypes.variant}
    return t._dtype.base_dtype in _TRAINABLE


def _as_list(x):
    if x is None:
        return []
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _as_tensor(x, as_ref=False):
    if isinstance(x, Tensor):
        return x
    return registry.convert_to_tensor(x, as_ref=as_ref)


def gradients(ys, xs, grad_ys=None, name="gradients", colocate_gradients_with_ops=False,
              gate_gradients=False, aggregation_method=None, stop_gradients=None,
              unconnected_gradients="none"):
    """``tf.gradients``: symbolic d(sum of ys)/d(x) for each x in ``xs``, as new ops in the graph.

    Returns one tensor per x (``None`` where x does not influence ys, or zeros with
    ``unconnected_gradients="zero"``). ``stop_gradients`` are treated as constants."""
    ys = _as_list(ys)
    xs = [x.handle if getattr(x, "_is_resource_variable", False) else x for x in _as_list(xs)]
    stop_gradients = _as_list(stop_gradients)
    grad_ys = [None] * len(ys) if grad_ys is None else _as_list(grad_ys)
    unconnected = getattr(unconnected_gradients, "value", unconnected_gradients)
    if unconnected not in ("none", "zero"):
        raise ValueError("Unknown value for unconnected_gradients: '%s'" % unconnected)
    if len(grad_ys) != len(ys):
        raise ValueError("Length mismatch. Passed %d grad_ys for %d ys" % (len(grad_ys), len(ys)))
    values = [v for v in ys + xs + stop_gradients + grad_ys if v is not None]
    graph = graph_mod.graph_of([v for v in values if isinstance(v, (Tensor, Operation))
                                or hasattr(v, "_as_graph_element")]) if values else \
        graph_mod.get_default_graph()
    # every gradient op belongs to the line that called tf.gradients (or minimize): found once, not per op
    with graph.as_default(), graph.name_scope(name or "gradients"), source_info.pinned_from(sys._getframe(1)):
        ys = [_as_tensor(y) for y in ys]
        xs = [_as_tensor(x, as_ref=True) for x in xs]
        stop_ops = {_as_tensor(t).op for t in stop_gradients}
        grad_ys = _default_grad_ys(grad_ys, ys)
        return _gradients_helper(ys, xs, grad_ys, stop_ops, gate_gradients, unconnected)


def _default_grad_ys(grad_ys, ys):
    out = []
    for i, (y, g) in enumerate(zip(ys, grad_ys)):
        if g is None:
            if y._dtype.is_complex:
                raise TypeError("Gradients of complex tensors (%s) must set grad_ys (y.dtype = %s)" %
                                (y, y._dtype.base_dtype.name))
            if not (y._dtype.is_floating or y._dtype.is_integer):
                raise TypeError("Tensor %s with type %s must be numeric to obtain a default gradient" %
                                (y, y._dtype.base_dtype.name))
            shape = array_ops.shape(y)
            graph = y.graph
            with graph.name_scope("grad_ys_%d" % i) as scope:
                one = registry.constant(np.ones((), y._dtype.base_dtype.as_numpy_dtype), name="Const")
                out.append(array_ops.fill(shape, one, name=scope))
            continue
        if isinstance(g, IndexedSlices):      # as TF: each given gradient gets an Identity in the gradient scope
            out.append(IndexedSlices(
                g.values if not isinstance(g.values, Tensor) else array_ops.identity(g.values,
                                                                                     name="grad_ys_%d_values" % i),
                g.indices if not isinstance(g.indices, Tensor) else array_ops.identity(
                    g.indices, name="grad_ys_%d_indices" % i), g.dense_shape))
            continue
        g = registry.convert_to_tensor(g, dtype=y._dtype.base_dtype, name="grad_y")
        out.append(array_ops.identity(g, name="grad_ys_%d" % i))
    return out


def _reached_from(from_ops):
    """Ops reachable forward from ``from_ops`` through trainable tensors."""
    reached = set()
    queue = collections.deque(from_ops)
    while queue:
        op = queue.popleft()
        if op in reached:
            continue
        reached.add(op)
        for out in op._outputs:
            if _is_trainable(out):
                queue.extend(out._consumers)
    return reached


def _pending_counts(to_ops, from_ops):
    """The ops between ``from_ops`` and ``to_ops`` and, for each, how many of them read its outputs (the
    gradient walk handles an op once all its readers are done). Also the loops' gradient state, when the
    walk goes through a while loop (graphlab/ops/control_flow_state.py)."""
    from graphlab.ops import control_flow_state
    reached = _reached_from(from_ops)
    reachable_to = {op for op in to_ops if op in reached}
    between, between_list = set(), []
    queue = collections.deque(to_ops)
    while queue:
        op = queue.popleft()
        if op in reached:
            between.add(op)
            between_list.append(op)
            reached.discard(op)
            queue.extend(t._op for t in op._inputs)
    loop_state = control_flow_state.maybe_create_control_flow_state(between_list, between)
    pending = collections.defaultdict(int)
    for op in between_list:
        for t in op._inputs:
            if t._op in between:
                pending[t._op] += 1
    return reachable_to, pending, loop_state


def _gradients_helper(ys, xs, grad_ys, stop_gradient_ops, gate_gradients, unconnected):
    from graphlab.ops import control_flow_state
    to_ops = [t._op for t in ys]
    from_ops = [t._op for t in xs]
    reachable_to, pending, loop_state = _pending_counts(to_ops, from_ops)
    grads = {}
    for y, g in zip(ys, grad_ys):
        _set_grad(grads, y, g)
    queue = collections.deque()
    to_ops_set = set()
    for op in to_ops:
        if pending[op] == 0 and op not in to_ops_set and op in reachable_to:
            to_ops_set.add(op)
            queue.append(op)
    if loop_state is not None:
        for y in loop_state.process_unused_loop_exits(pending, to_ops_set):
            if _is_trainable(y):
                _set_grad(grads, y, loop_state.zeros_like_for_exit(y))
                queue.append(y._op)
    stop_ops = set(stop_gradient_ops)
    for op in from_ops:
        if all(pending[t._op] == 0 for t in op._inputs):
            stop_ops.add(op)
    graph = ys[0].graph if ys else graph_mod.get_default_graph()
    while queue:
        op = queue.popleft()
        if loop_state is not None:
            loop_state.enter_grad_while_context(op, before=True)
        out_grads = _aggregated_grads(grads, op, loop_state)
        if loop_state is not None:
            loop_state.exit_grad_while_context(op, before=True)
        has_grads = False
        for g in out_grads:      # a loop, not any(<generator>): one object less per op
            if g is not None:
                has_grads = True
                break
        rule, user_rule = _rule_for(op) if has_grads and op not in stop_ops else (None, False)
        if loop_state is not None:
            loop_state.enter_grad_while_context(op, before=False)
        if (control_flow_util.is_switch(op) and op._control_flow_context is not None
                and op._control_flow_context.is_while_context
                and op._control_flow_context is graph._control_flow_context):
            _raise_no_grad_wrt_initial_loop_value(op, from_ops)
        in_grads = None
        if rule is not None:
            for i, g in enumerate(out_grads):
                if g is None and _is_trainable(op._outputs[i]):
                    if loop_state is not None:
                        out_grads[i] = loop_state.zeros_like_in_loop(op, i)
                    else:
                        out_grads[i] = control_flow_state.zeros_like_outside_loops(op, i)
            with graph.name_scope(op.name + "_grad"):
                if user_rule:       # the ops a user's rule builds belong to the user's lines
                    with source_info.unpinned():
                        in_grads = _as_list(rule(op, *out_grads))
                else:
                    in_grads = _as_list(rule(op, *out_grads))
                if op._type in BROADCASTING_OPS and len(op._inputs) == 2 and len(in_grads) == 2:
                    in_grads = list(reduce_broadcast(op._inputs[0], op._inputs[1], *in_grads, op_type=op._type,
                                                     incoming=out_grads[0]))
                elif op._type == "SelectV2" and len(in_grads) == 3:   # each branch against the output
                    z = op._outputs[0]
                    in_grads[1] = reduce_broadcast(op._inputs[1], z, in_grads[1], None, op._type)[0]
                    in_grads[2] = reduce_broadcast(op._inputs[2], z, in_grads[2], None, op._type)[0]
                if len(in_grads) != len(op._inputs):
                    raise ValueError("Num gradients %d generated for op %s do not match num inputs %d" %
                                     (len(in_grads), op.name, len(op._inputs)))
                if gate_gradients and len([g for g in in_grads if g is not None]) > 1:
                    from graphlab.ops import control_flow_ops
                    in_grads = control_flow_ops.tuple(in_grads)
        if in_grads is None:
            in_grads = [None] * len(op._inputs)
        for i, (t_in, g) in enumerate(zip(op._inputs, in_grads)):
            if g is None:
                continue
            if isinstance(g, IndexedSlices):     # handed on as is (TF checks only dense gradients' shapes)
                _set_grad(grads, t_in, g)
                continue
            g = _as_tensor(g)
            # shapes are shared (tensor_shape.TensorShape): the same object is the same shape, nothing to check
            if g._shape is not t_in._shape and t_in._dtype.base_dtype is not dtypes.resource:
                if not g._shape.is_compatible_with(t_in._shape):
                    raise ValueError("Incompatible shapes between op input and calculated input gradient. "
                                     "Forward operation: %s. Input index: %d. Original input shape: %s. "
                                     "Calculated input gradient shape: %s" % (op.name, i, t_in._shape, g._shape))
                g._shape = g._shape.merge_with(t_in._shape)
            _set_grad(grads, t_in, g)
        if loop_state is not None:
            loop_state.exit_grad_while_context(op, before=False)
        _update_pending_and_enqueue_ready(grads, op, queue, pending, loop_state)
    if loop_state is not None:
        loop_state.post_processing()
    result = []
    for x in xs:
        g = grads.get(x._op)
        g = g[x._value_index] if g else None
        if isinstance(g, list):
            g = g[0] if len(g) == 1 else None
        if g is None and unconnected == "zero":
            g = array_ops.zeros_like(x)
        result.append(g)
    return result


def _update_pending_and_enqueue_ready(grads, op, queue, pending, loop_state):
    """One reader of each of ``op``'s inputs is done; queue those inputs whose readers are all done. A loop
    Switch is queued each time (its gradient is built in two visits); a loop's Exits wait for each other,
    and those no gradient reached get zeros once one did."""
    for t in op._inputs:
        x_op = t._op
        pending[x_op] -= 1
        ready = pending[x_op] == 0
        if loop_state is not None and not ready:
            ready = pending[x_op] > 0 and control_flow_util.is_loop_switch(x_op)
        if not ready:
            continue
        if control_flow_util.is_loop_exit(x_op):
            grad_state = loop_state.get_grad_state(x_op, before=False)
            grad_state.deferred_exits.append(t)
            grad_state.pending_exits_count -= 1
            if grad_state.pending_exits_count == 0:
                has_real_grad = False
                for y in grad_state.deferred_exits:
                    if _has_any_grad(grads, y._op):
                        has_real_grad = True
                        queue.append(y._op)
                    else:
                        grad_state.unused_exits.append(y)
                for y in grad_state.unused_exits:
                    if has_real_grad and _is_trainable(y):
                        _set_grad(grads, y, loop_state.zeros_like_for_exit(y))
                    queue.append(y._op)
        else:
            queue.append(x_op)


def _has_any_grad(grads, op):
    for g in grads.get(op, ()):
        if isinstance(g, list):
            if any(x is not None for x in g):
                return True
        elif g is not None:
            return True
    return False


def _raise_no_grad_wrt_initial_loop_value(op, from_ops):
    """TF's error for a gradient with respect to the value a loop variable started from, asked through
    the loop: names the nearest of the xs behind the loop's Switch."""
    target, queue, visited = None, collections.deque([op]), set()
    while queue:
        current = queue.popleft()
        if current in visited:
            continue
        visited.add(current)
        if current in from_ops:
            target = current
            break
        queue.extend(t._op for t in current._inputs)
    raise ValueError(
        "Cannot compute gradient inside while loop with respect to op '%s'. We do not support taking the "
        "gradient wrt or through the initial value of a loop variable. Gradients can be computed through "
        "loop invariants or wrt the input parameters to the loop body." % (target or op).name)


def _rule_for(op):
    """The op's gradient rule and whether the user registered it: the one registered under its
    ``_gradient_op_type`` (set by ``gradient_override_map``) or its type; TF's LookupError when there is none."""
    found, rule, user = custom_gradient.gradient_rule(op)
    if not found:
        raise LookupError(
            "No gradient defined for operation'%s' (op type: %s). In general every operation must have an "
            "associated `@tf.RegisterGradient` for correct autodiff, which this op is lacking. If you want to "
            "pretend this operation is a constant in your program, you may insert `tf.stop_gradient`. This can "
            "be useful to silence the error in cases where you know gradients are not needed, e.g. the forward "
            "pass of tf.custom_gradient. Please see more details in "
            "https://www.tensorflow.org/api_docs/python/tf/custom_gradient." % (op.name, op._type))
    return (rule, user) if rule is not None else (_no_grads, False)


def _no_grads(op, *grads):
    return [None] * len(op._inputs)


def _set_grad(grads, t, g):
    op_grads = grads.get(t._op)
    if op_grads is None:
        op_grads = grads[t._op] = [[] for _ in t._op._outputs]
    slot = op_grads[t._value_index]
    if isinstance(slot, list):
        slot.append(g)
    else:   # a loop Switch visited once already: its aggregated gradients stand in the slots
        op_grads[t._value_index] = g


def _aggregated_grads(grads, op, loop_state=None):
    """One gradient per output of ``op``: the sum (one AddN, named in the ``gradients/`` scope) of all
    the gradients that reached that output along different paths. The sums replace the lists in ``grads``
    (a loop Switch's second visit finds its first visit's gradients there). IndexedSlices are summed as TF
    does: with any dense gradient among them, AddN densifies each (``AddN/inputs_0`` ...); among themselves
    they are concatenated (values and indices), staying sparse."""
    op_grads = grads.get(op)
    if op_grads is None:
        return [None] * len(op._outputs)
    for i, gs in enumerate(op_grads):
        if not isinstance(gs, list):          # already aggregated (a loop Switch)
            continue
        if len(gs) == 1 and gs[0] is not None:   # the commonest case: one gradient reached the output
            op_grads[i] = gs[0]
            continue
        gs = [g for g in gs if g is not None]
        if not gs:
            op_grads[i] = None
        elif len(gs) == 1:
            op_grads[i] = gs[0]
        elif all(isinstance(g, Tensor) for g in gs):
            op_grads[i] = _multi_device_add_n(gs)
        elif any(isinstance(g, Tensor) for g in gs):
            op_grads[i] = math_ops.add_n(gs)
        else:
            op_grads[i] = _concat_indexed_slices(gs)
    return op_grads


def _multi_device_add_n(tensors):
    """TF's _MultiDeviceAddN: one AddN per device of the gradients, colocated with the first of them."""
    on_device = {}
    for t in tensors:
        on_device.setdefault(t.device, []).append(t)
    summands = []
    for device in sorted(on_device):
        group = on_device[device]
        with group[0].graph.colocate_with(group[0].op, ignore_existing=True):
            summands.append(math_ops.add_n(group))
    return summands[0] if len(summands) == 1 else math_ops.add_n(summands)


def _concat_indexed_slices(slices):
    """TF's AggregateIndexedSlicesGradients for slices only: indices made one type (int64 if they mix
    int32 and int64), then values and indices concatenated along axis 0."""
    int32 = [s for s in slices if s.indices.dtype.base_dtype == dtypes.int32]
    if int32 and len(int32) != len(slices):
        slices = [IndexedSlices(s.values, math_ops.cast(s.indices, dtypes.int64), s.dense_shape)
                  if s.indices.dtype.base_dtype == dtypes.int32 else s for s in slices]
    return IndexedSlices(array_ops.concat([s.values for s in slices], axis=0),
                         array_ops.concat([s.indices for s in slices], axis=0), slices[0].dense_shape)


registry.install_gradients(gradients)   # for gradient rules that differentiate a subgraph

__all__ = ["gradients"]
