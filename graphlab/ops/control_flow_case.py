"""``tf.case`` as TF builds it: nested ``tf.cond``s, with TF's Asserts for a missing default and for
``exclusive``."""
import collections

from graphlab.framework import dtypes, graph as graph_mod
from graphlab.framework.tensor import Tensor
from graphlab.framework import registry
from graphlab.ops.cond import cond

def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name="case"):
    """``tf.case``: the fn of the first pair whose predicate is true, else ``default``, as nested conds
    (built in reverse so the predicates are tested in order). Built as TF builds it: without a default the
    last pair's fn becomes one, guarded by Asserts that no other predicate and its own predicate hold; with
    ``exclusive`` an Assert (under a control dependency of the whole case) fails the run when more than one
    predicate is true. A dict of pairs is taken in the order of its predicates' names."""
    if not isinstance(pred_fn_pairs, (list, tuple, dict)):
        raise TypeError("'pred_fn_pairs' must be a list, tuple, or dict. Received: %s" % type(pred_fn_pairs))
    if isinstance(pred_fn_pairs, collections.OrderedDict):
        pred_fn_pairs = list(pred_fn_pairs.items())
    elif isinstance(pred_fn_pairs, dict):
        pred_fn_pairs = sorted(pred_fn_pairs.items(), key=lambda item: item[0].name)
    for pair in pred_fn_pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError("Each entry in 'pred_fn_pairs' must be a 2-tuple. Received %s." % (pair,))
        pred, fn = pair
        if not isinstance(pred, Tensor):
            raise TypeError("pred must be a Tensor, got: %s" % pred)
        if pred.dtype != dtypes.bool:
            raise TypeError("pred must be Tensor of type bool: %s" % pred.name)
        if not callable(fn):
            raise TypeError("fn for pred %s must be callable." % pred.name)
    predicates = [p for p, _ in pred_fn_pairs]
    actions = [f for _, f in pred_fn_pairs]
    with graph_mod.name_scope(name, "case", [predicates]):
        if default is None:
            default, predicates, actions = _default_from_last_pair(predicates, actions)
        fn = default
        for pred, action in reversed(list(zip(predicates, actions))):
            fn = _bind_cond(pred, action, fn, strict)
        if not exclusive:
            return fn()
        with graph_mod.get_default_graph().control_dependencies(
                [_assert_at_most_n_true(predicates, 1, "Input error: exclusive=True")]):
            return fn()


def _bind_cond(pred, true_fn, false_fn, strict):
    return lambda: cond(pred, true_fn, false_fn, strict=strict)


def _assert_at_most_n_true(predicates, n, message):
    """An Assert that at most ``n`` of the boolean scalars ``predicates`` are true (TF's names)."""
    from graphlab.ops import array_ops, logging_ops, math_ops
    preds_c = array_ops.stack(predicates, name="preds_c")
    num_true = math_ops.reduce_sum(math_ops.cast(preds_c, dtypes.int32), name="num_true_conds")
    condition = math_ops.less_equal(num_true, registry.constant(n, name="n_true_conds"))
    names = ", ".join(getattr(p, "name", "?") for p in predicates)
    return logging_ops.Assert(condition, ["%s: more than %d conditions (%s) evaluated as True:" % (
        message, n, names), preds_c], summarize=len(predicates))


def _default_from_last_pair(predicates, actions):
    """Without a default, TF makes the last pair the default, checked when it runs: none of the other
    predicates may hold, and its own must."""
    from graphlab.ops import array_ops, logging_ops
    k = len(predicates) - 1
    predicate, action = predicates[k], actions[k]

    def default_action():
        others = ("Implementation error: selected default action #%d was called, but some of other "
                  "predicates are True: " % k)
        none_true = ("Input error: None of conditions evaluated as True:",
                     array_ops.stack(predicates, name="preds_c"))
        with graph_mod.get_default_graph().control_dependencies([
                _assert_at_most_n_true(predicates[:k], 0, others),
                logging_ops.Assert(predicate, list(none_true))]):
            return action()
    return default_action, predicates[:k], actions[:k]
