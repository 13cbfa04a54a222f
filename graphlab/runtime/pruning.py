"""Pruning: which ops a run must execute. One function serves the Session, the renderer and the lessons,
so what a picture highlights is exactly what runs.

Walk back from the fetched tensors and target ops through data and control inputs; a fed tensor cuts the
walk (its producer only runs if something else needs it). Order the result so every op follows its inputs.
Then ``unread_ops`` names the pruned ops a run may skip (stateless, and only control edges lead to them),
as TensorFlow's graph optimizer does.
"""
import heapq


def prune(fetch_tensors, target_ops, fed_tensors):
    """The ops needed to compute ``fetch_tensors`` and run ``target_ops`` given ``fed_tensors``,
    in an order where each op comes after all its inputs and control inputs."""
    fed = fed_tensors if isinstance(fed_tensors, (set, frozenset)) else set(fed_tensors)
    needed = set()
    stack = [t._op for t in fetch_tensors if t not in fed]
    stack.extend(target_ops)
    while stack:
        op = stack.pop()
        if op in needed:
            continue
        needed.add(op)
        for t in op._inputs:
            if t not in fed and t._op not in needed:
                stack.append(t._op)
        for c in op._control_inputs:
            if c not in needed:
                stack.append(c)
    return topological_order(needed)


def topological_order(ops):
    """Ops sorted so that inputs come first. Graphs mostly grow by ops whose inputs exist, so creation order
    already is one, unless an input was rewired to a later op (a loop's back edge, an input routed through
    a cond's Switch or a loop's Enter made after its reader) or a control input added later; then sort
    properly, without recursion. A loop's back edges (NextIteration into Merge) do not count as inputs."""
    ordered = sorted(ops, key=_op_id)
    for op in ordered:
        op_id = op._id
        for c in op._control_inputs:
            if c._id > op_id:
                return _kahn(ordered, set(ops))
        for t in op._inputs:
            if t._op._id > op_id and not is_back_edge(op, t):
                return _kahn(ordered, set(ops))
    return ordered


_MERGE_TYPES = frozenset(("Merge", "RefMerge"))
_NEXT_ITERATION_TYPES = frozenset(("NextIteration", "RefNextIteration"))


def is_back_edge(op, tensor):
    """Whether ``tensor`` reaches ``op`` along a loop's back edge (a NextIteration into the loop's Merge)."""
    return op.type in _MERGE_TYPES and tensor._op.type in _NEXT_ITERATION_TYPES   # (also for viz views)


def _op_id(op):
    return op._id


def _kahn(ordered, members):
    pending = {}
    users = {op: [] for op in ordered}
    for op in ordered:
        deps = {t._op for t in op._inputs if t._op in members and not is_back_edge(op, t)}
        deps.update(c for c in op._control_inputs if c in members)
        pending[op] = len(deps)
        for d in deps:
            users[d].append(op)
    ready = [(op._id, op) for op in ordered if pending[op] == 0]   # ops have distinct ids: never compared
    heapq.heapify(ready)
    result = []
    while ready:
        _, op = heapq.heappop(ready)
        result.append(op)
        for u in users[op]:
            pending[u] -= 1
            if pending[u] == 0:
                heapq.heappush(ready, (u._id, u))
    if len(result) != len(ordered):
        stuck = [op.name for op in ordered if pending[op] > 0][:5]
        raise ValueError("The graph has a cycle that is not a while loop's back edge; involved ops include %s"
                         % stuck)
    return result


# Ops that run even when nothing reads their result, as TensorFlow's graph optimizer keeps them: control
# flow (its outputs carry which branch or iteration is live), placeholders and loop arguments (an unfed one
# must still fail the run), and ops that exist for the error they raise.
ALWAYS_RUN = frozenset([
    "Switch", "RefSwitch", "Merge", "RefMerge", "Enter", "RefEnter", "Exit", "RefExit", "NextIteration",
    "RefNextIteration", "LoopCond", "Placeholder", "PlaceholderV2", "NoOp", "ControlTrigger",
    "Assert", "CheckNumerics"])
_VARIABLE_TYPES = frozenset(["VariableV2", "Variable", "VarHandleOp"])
_SWITCH_TYPES = frozenset(["Switch", "RefSwitch"])


def unread_ops(ops, fetch_tensors, target_ops, fed_tensors=()):
    """The ops of a pruned, ordered ``ops`` list that a run can skip: stateless ops whose results no running
    op reads, because only control edges lead to them.

    Running such an op changes nothing, so TensorFlow's graph optimizer (grappler's dependency optimizer)
    turns it into a NoOp, and the session here skips it the same way. The classic case is training: TF1's
    gradient gating (``tf.tuple`` in ``gradients``) ties the gradient with respect to the input placeholder
    to the others by a control edge only, so that MatMul is built but never computed. An op stays in the run
    when it is fetched or a target, is stateful, has a ref input, is one of ``ALWAYS_RUN``, or is an
    Identity reading a variable or a Switch (a variable's snapshot, a cond's pivot). Its own inputs still run
    unless they too are left unread (a stateless chain that only ends in a control edge goes entirely)."""
    from graphlab.framework import registry
    fed = fed_tensors if isinstance(fed_tensors, (set, frozenset)) else set(fed_tensors)
    wanted = {t._op for t in fetch_tensors if t not in fed}   # a fed fetch is the fed value, not its op
    wanted.update(target_ops)
    read = set()
    skipped = set()
    for op in reversed(ops):                   # consumers before producers
        if op not in wanted and op not in read and _may_skip(op, registry):
            skipped.add(op)
            continue
        for t in op._inputs:
            if t not in fed:
                read.add(t._op)
    return skipped


def _may_skip(op, registry):
    op_type = op.type
    if op_type in ALWAYS_RUN:
        return False
    opdef = registry._REGISTRY.get(op_type)
    if opdef is None or opdef.stateful:     # an op graphlab does not know is assumed to have effects
        return False
    for t in op._inputs:
        producer_type = t._op.type
        if producer_type in _VARIABLE_TYPES or (op_type == "Identity" and producer_type in _SWITCH_TYPES):
            return False
        dtype = t._dtype           # a DType, or a dtype name in a GraphDef view
        if getattr(dtype, "is_ref_dtype", False) or (isinstance(dtype, str) and dtype.endswith("_ref")):
            return False
    return True
