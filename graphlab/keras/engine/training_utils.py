"""Small pieces the losses, metrics and training share.

``smart_cond`` decides a condition at build time when TF would: tf-keras calls TF's smart_cond, whose
``constant_value`` asks the C++ graph evaluator to fold the condition when every op it depends on is a
pure op over constants (``tf.reduce_all(tf.equal(const, 0))`` folds, anything reading a placeholder or a
variable does not). Folding here runs that little subgraph once in a throwaway session.
"""
from graphlab.framework.registry import const_value, get_opdef
from graphlab.ops import control_flow_ops

_MAX_FOLD_OPS = 200
_NOT_FOLDABLE = {"Placeholder", "PlaceholderWithDefault", "PlaceholderV2"}


def fold_constant(tensor):
    """The value of ``tensor`` when its whole input subgraph is pure ops over constants, else None."""
    value = const_value(tensor)
    if value is not None:
        return value
    seen, stack = set(), [tensor.op]
    while stack:
        op = stack.pop()
        if op in seen:
            continue
        seen.add(op)
        if len(seen) > _MAX_FOLD_OPS or op.type in _NOT_FOLDABLE or op.control_inputs:
            return None
        try:
            opdef = get_opdef(op.type)
        except Exception:
            return None
        if opdef.stateful or opdef.kernel is None:
            return None
        stack.extend(t.op for t in op.inputs)
    from graphlab.runtime.session import Session
    with Session(graph=tensor.graph) as sess:
        return sess.run(tensor)


def smart_cond(pred, true_fn, false_fn, name=None):
    """Call one branch when ``pred`` is known at build time (a bool, or a foldable tensor), else a cond."""
    if isinstance(pred, bool):
        return true_fn() if pred else false_fn()
    if hasattr(pred, "op"):
        value = fold_constant(pred)
        if value is None:
            return control_flow_ops.cond(pred, true_fn, false_fn, name=name)
        return true_fn() if bool(value) else false_fn()
    return true_fn() if pred else false_fn()
