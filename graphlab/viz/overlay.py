"""The pruned view: which ops a run executes. Fetches and feeds go through the same normalisation, the
same ``prune`` and the same skipping of unread ops the Session uses, so the highlighted ops are exactly the
ones that would run; with a session,
its last run (what actually executed, whether the plan came from the cache) and a RunMetadata's per-op
times are shown instead or on top."""
from graphlab.graphview import TFGraph
from graphlab.runtime.pruning import prune, unread_ops


class Overlay:
    """Names of active (executed) ops, fed tensors (cut points), fetched ops, per-op µs, plan cache state."""

    def __init__(self):
        self.active = set()
        self.fed = set()
        self.fetched = set()
        self.times = {}
        self.cached = None
        self.source = ""            # "prune" or "last run"
        self.unfed = []             # Placeholders the pruned run needs but nobody feeds: the run would fail
        self.skipped = set()        # pruned in, but skipped: stateless, and only control edges lead to them
        self.dead = set()           # last run: pruned in, but on the side of a tf.cond the run did not take
        self.iterations = {}        # last run: loop scope ("while") -> iteration count of each run of the loop

    def describe(self, total):
        text = "%s: %d of %d ops execute" % (
            "last run" if self.source == "last run" else "pruned for the fetches", len(self.active), total)
        if self.skipped:
            text += "; %d skipped (nothing reads their results)" % len(self.skipped)
        if self.dead:
            text += "; %d dead (the tf.cond branch not taken)" % len(self.dead)
        if self.fed:
            text += "; fed (cut): %s" % ", ".join(sorted(self.fed))
        if self.cached is not None:
            text += "; plan %s" % ("cached" if self.cached else "new")
        if self.times:
            text += "; traced %d ops, %d µs in kernels" % (len(self.times), sum(self.times.values()))
        if self.iterations:
            text += "; loops: " + ", ".join("%s %s" % (scope, iterations_text(counts))
                                            for scope, counts in sorted(self.iterations.items()))
        return text

    def unfed_text(self):
        """The caption line that warns before the user runs it, or None."""
        if not self.unfed:
            return None
        return ("unfed placeholder(s) on the path: %s — this run would fail with 'You must feed a value for "
                "placeholder tensor'" % ", ".join(self.unfed))


def iterations_text(counts):
    """"×10" for a loop that ran once, "×2, 2, 2 (3 runs)" for one nested in another loop."""
    if len(counts) == 1:
        return "×%d" % counts[0]
    shown = ", ".join(str(c) for c in counts[:6]) + (", ..." if len(counts) > 6 else "")
    return "×%s (%d runs)" % (shown, len(counts))


# a PlaceholderWithDefault needs no feed; these do
NEEDS_FEED = frozenset(["Placeholder", "PlaceholderV2"])


def _as_list(x):
    if x is None:
        return []
    if isinstance(x, dict):
        return list(x.keys())
    if isinstance(x, (list, tuple, set, frozenset)):
        return list(x)
    return [x]


def build(view, fetches=None, feeds=None, session=None, run_metadata=None):
    """The overlay for ``render``, or None when nothing asks for one."""
    if fetches is None and session is None and run_metadata is None:
        if feeds:
            raise ValueError("feeds= needs fetches=: say what the run computes, then which tensors are fed.")
        return None
    overlay = Overlay()
    graph = view.source
    # graphlab's own graphs go through the Session's normalisation; a TF graph's view or a GraphDef by name
    live = hasattr(graph, "get_operations") and not isinstance(graph, TFGraph)
    if fetches is not None:
        overlay.source = "prune"
        if live:
            _prune_live(overlay, graph, fetches, feeds)
        else:
            _prune_view(overlay, view, fetches, feeds)
        if session is not None and live:
            overlay.cached = _plan_cached(session, graph, fetches, feeds)
    elif session is not None:
        last = getattr(session, "last_run", None)
        if last is None:
            raise ValueError("This session has not run anything yet; pass fetches= to see what a run would "
                             "execute, or render after sess.run(...).")
        overlay.source = "last run"
        overlay.active = set(last.executed)
        overlay.skipped = set(getattr(last, "skipped", ()))
        overlay.dead = set(getattr(last, "dead", ()))
        overlay.fed = set(last.feeds)
        overlay.fetched = set(n.partition(":")[0] for n in last.fetches) | set(last.targets)
        overlay.cached = last.cached
        # a loop's frame is named after its scope: while/while_context is the loop in scope "while"
        overlay.iterations = {frame.rpartition("/")[0]: counts
                              for frame, counts in getattr(last, "iterations", {}).items()}
    if run_metadata is not None:
        overlay.times = op_times(run_metadata)
        if fetches is None and session is None:
            overlay.source = "last run"
            overlay.active = set(overlay.times)
    overlay.active &= set(view.by_name)
    if overlay.source == "prune":
        # a fed placeholder is cut off the path, so an active one is a placeholder nobody feeds
        overlay.unfed = [n.name for n in view.nodes if n.name in overlay.active and n.type in NEEDS_FEED]
    return overlay


def op_times(run_metadata):
    """Op name -> µs in its kernel: graphlab's RunMetadata, or TensorFlow's (its step stats say which ops
    actually ran: a traced ``sess.run(..., options=RunOptions(trace_level=FULL_TRACE), run_metadata=md)``)."""
    if hasattr(run_metadata, "op_times"):
        return dict(run_metadata.op_times())
    times = {}
    for device in run_metadata.step_stats.dev_stats:
        for node in device.node_stats:
            name = node.node_name
            if name.startswith("_"):          # TF's _SOURCE and _SINK, and its inserted _Send/_Recv
                continue
            micros = max(0, node.op_end_rel_micros - node.op_start_rel_micros)
            times[name] = times.get(name, 0) + micros
    return times


def _prune_live(overlay, graph, fetches, feeds):
    from graphlab.framework.tensor import Tensor
    from graphlab.runtime import fetches as fetches_mod
    elements, _ = fetches_mod.flatten_fetches(graph, fetches)
    tensors = [e for e in elements if isinstance(e, Tensor)]
    targets = [e for e in elements if not isinstance(e, Tensor)]
    fed = [graph.as_graph_element(k, allow_operation=False) for k in _as_list(feeds)]
    _set_active(overlay, prune(tensors, targets, set(fed)), tensors, targets, fed)
    overlay.fed = set(t.name for t in fed)
    overlay.fetched = set(t.op.name for t in tensors) | set(op.name for op in targets)


def _set_active(overlay, pruned, tensors, targets, fed):
    """What runs is what the Session's plan runs: the pruned ops minus those it skips as unread."""
    skipped = unread_ops(pruned, tensors, targets, set(fed))
    overlay.active = set(op.name for op in pruned if op not in skipped)
    overlay.skipped = set(op.name for op in skipped)


def _plan_cached(session, graph, fetches, feeds):
    """Whether the session already holds the pruned plan for these fetches and feeds."""
    from graphlab.framework.tensor import Tensor
    from graphlab.runtime import fetches as fetches_mod
    plans = getattr(session, "_plans", None)
    if plans is None:
        return None
    elements, _ = fetches_mod.flatten_fetches(graph, fetches)
    fed = tuple(sorted({graph.as_graph_element(k, allow_operation=False) for k in _as_list(feeds)},
                       key=fetches_mod.feed_order))
    key = (tuple(e for e in elements if isinstance(e, Tensor)),
           tuple(e for e in elements if not isinstance(e, Tensor)), fed)
    return key in plans


def _resolve_view(view, name, allow_op=True):
    name = getattr(name, "name", name)
    op_name, colon, index = name.partition(":")
    node = view.by_name.get(op_name)
    if node is None:
        raise KeyError("The name %r refers to an op that is not in this GraphDef." % name)
    if colon:
        i = int(index)
        if i >= len(node.outputs):
            from graphlab.graphview.nodes import TensorView
            while len(node.outputs) <= i:
                node.outputs.append(TensorView(node, len(node.outputs), None, None))
        return node.outputs[i]
    return node if allow_op else (node.outputs[0] if node.outputs else None)


def _prune_view(overlay, view, fetches, feeds):
    """GraphDef views carry the attributes ``prune`` walks, so the same function serves files too."""
    from graphlab.graphview.nodes import TensorView
    tensors, targets = [], []
    for f in _as_list(fetches):
        e = _resolve_view(view, f)
        (tensors if isinstance(e, TensorView) else targets).append(e)
    fed = []
    for k in _as_list(feeds):
        e = _resolve_view(view, getattr(k, "name", k) if ":" in getattr(k, "name", k) else
                          getattr(k, "name", k) + ":0")
        fed.append(e)
    _set_active(overlay, prune(tensors, targets, set(fed)), tensors, targets, fed)
    overlay.fed = set(t.name for t in fed)
    overlay.fetched = set(t._op.name for t in tensors) | set(n.name for n in targets)
