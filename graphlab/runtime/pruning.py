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
    needed = _walk([t._op for t in fetch_tensors if t not in fed] + list(target_ops), fed)
    if fed:
        needed = _as_tf_optimizer_leaves_it(fetch_tensors, target_ops, fed, needed)
    return topological_order(needed)


def _walk(start, fed, control_inputs=None, as_noops=()):
    """Every op ``start`` needs through data inputs (cut at ``fed`` tensors) and control inputs (the ops'
    own, or ``control_inputs[op]``); an op of ``as_noops`` counts its data inputs as control inputs."""
    needed = set()
    stack = list(start)
    while stack:
        op = stack.pop()
        if op in needed:
            continue
        needed.add(op)
        for t in op._inputs:
            if (op in as_noops or t not in fed) and t._op not in needed:
                stack.append(t._op)
        for c in (op._control_inputs if control_inputs is None else control_inputs[op]):
            if c not in needed:
                stack.append(c)
    return needed


_ENTER_TYPES = frozenset(("Enter", "RefEnter"))
_EXIT_TYPES = frozenset(("Exit", "RefExit"))


def _as_tf_optimizer_leaves_it(fetch_tensors, target_ops, fed, needed):
    """The ops a run with feeds executes after TensorFlow's graph optimizer has rewritten the control edges.

    TF 2.x's session optimizes the graph (grappler) before it replaces fed tensors, and its dependency
    optimizer changes which producers of fed tensors still run: a control input on an op that is also a data
    input is dropped (``y = tf.identity(r)`` under ``control_dependencies([r.op])``), a NoOp (``tf.group``,
    the gate of ``tf.tuple``) with few edges is bypassed, its consumers taking its control inputs unless they
    already depend on them, and a side-effect-free op whose outputs only control edges use becomes a NoOp whose
    data inputs turn into control inputs. So ``tf.tuple([r])[0]`` with ``r`` fed does not run ``r``'s op,
    while ``r * 2`` used only as a control dependency does run it. Without feeds these rewrites keep every
    path, so ``prune`` only asks here when something is fed. Ops inside while loops keep their edges (the
    frames rely on them). Bypassed NoOps stay in the plan: they do nothing, and their deadness in an untaken
    cond branch still reaches the ops after them."""
    from graphlab.framework import registry
    preserve = {t._op for t in fetch_tensors} | set(target_ops) | {t._op for t in fed}
    graph_ops = _walk(preserve, ())          # the optimizer's graph: all that the kept ops depend on
    order = topological_order(graph_ops)
    producers = {op: {t._op for t in op._inputs} for op in order}
    in_loop = _in_while_loops(order)
    control = {op: set(op._control_inputs) - (producers[op] if op not in in_loop else set()) for op in order}
    data_users = {op: set() for op in order}
    control_users = {op: set() for op in order}
    for op in order:
        for p in producers[op]:
            data_users[p].add(op)
        for c in control[op]:
            control_users[c].add(op)
    as_noops = set()
    for op in reversed(order):               # consumers first, so a chain only feeding a control edge goes
        if (op in preserve or op in in_loop or op.type == "NoOp" or not op.outputs or data_users[op]
                or not _may_skip(op, registry)):
            continue
        as_noops.add(op)
        for p in producers[op]:
            data_users[p].discard(op)
            if p not in control[op]:
                control[op].add(p)
                control_users[p].add(op)
        producers[op] = set()
    bypassed = set()
    changed = True
    while changed:
        changed = False
        for n in order:
            if n in bypassed or n in preserve or n in in_loop or not (n.type == "NoOp" or n in as_noops):
                continue
            ins, outs = control[n], control_users[n]
            if len(ins) * len(outs) > len(ins) + len(outs) or not _same_device_crossings(n, ins, outs):
                continue
            for c in outs:
                for x in ins:
                    if x not in control[c] and x not in producers[c]:
                        control[c].add(x)
                        control_users[x].add(c)
                control[c].discard(n)
            for x in ins:
                control_users[x].discard(n)
            control_users[n] = set()
            bypassed.add(n)
            changed = True
    start = [t._op for t in fetch_tensors if t not in fed] + list(target_ops)
    return _walk(start, fed, control, as_noops) | (needed & bypassed)


def _in_while_loops(order):
    """The ops of ``order`` (inputs first) that run inside a while loop's frame: after an Enter, before
    its Exit, counting nested loops."""
    depth = {}
    for op in order:
        d = max([depth.get(t._op, 0) for t in op._inputs if not is_back_edge(op, t)] +
                [depth.get(c, 0) for c in op._control_inputs] + [0])
        if op.type in _ENTER_TYPES:
            d = depth.get(op._inputs[0]._op, 0) + 1 if op._inputs else 1
        elif op.type in _EXIT_TYPES:
            d = max(d - 1, 0)
        depth[op] = d
    return {op for op, d in depth.items() if d > 0}


def _same_device_crossings(n, ins, outs):
    """Grappler bypasses a NoOp only if that adds no control edge between devices."""
    dev = n.device
    if (len(ins) == 1 and len(outs) > 1 and next(iter(ins)).device != dev) or \
            (len(ins) > 1 and len(outs) == 1 and next(iter(outs)).device != dev):
        return False
    before = sum(x.device != dev for x in ins) + sum(c.device != dev for c in outs)
    after = sum(x.device != c.device for x in ins for c in outs)
    return after <= before


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
