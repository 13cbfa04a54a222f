"""Scope listing for pickers (the extension's live widget offers these as choices)."""


def list_scopes(graph, upto_op_count=None):
    """``[(scope path, op count)]`` for every name scope holding ops, in first-creation order."""
    ops = graph.get_operations() if hasattr(graph, "get_operations") else list(graph.node)
    if upto_op_count is not None:
        ops = ops[:upto_op_count]
    counts = {}
    for op in ops:
        parts = op.name.split("/")[:-1]
        path = ""
        for p in parts:
            path = p if not path else path + "/" + p
            counts[path] = counts.get(path, 0) + 1
    return list(counts.items())
