"""Pruning: which ops a run must execute. One function serves the Session, the renderer and the lessons,
so what a picture highlights is exactly what runs.

Walk back from the fetched tensors and target ops through data and control inputs; a fed tensor cuts the
walk (its producer only runs if something else needs it). Order the result so every op follows its inputs.
"""


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
    """Ops sorted so that inputs come first. Graphs are append-only, so creation order already is one,
    unless a control input was added to an op after it was created; then sort properly (no recursion)."""
    ordered = sorted(ops, key=_op_id)
    for op in ordered:
        for c in op._control_inputs:
            if c._id > op._id:
                return _kahn(ordered, set(ops))
    return ordered


def _op_id(op):
    return op._id


def _kahn(ordered, members):
    pending = {}
    users = {op: [] for op in ordered}
    for op in ordered:
        deps = {t._op for t in op._inputs if t._op in members} | {c for c in op._control_inputs if c in members}
        pending[op] = len(deps)
        for d in deps:
            users[d].append(op)
    ready = [op for op in ordered if pending[op] == 0]
    result = []
    while ready:
        ready.sort(key=_op_id, reverse=True)
        op = ready.pop()
        result.append(op)
        for u in users[op]:
            pending[u] -= 1
            if pending[u] == 0:
                ready.append(u)
    if len(result) != len(ordered):
        stuck = [op.name for op in ordered if pending[op] > 0][:5]
        raise ValueError("The graph has a cycle through control inputs; involved ops include %s" % stuck)
    return result
