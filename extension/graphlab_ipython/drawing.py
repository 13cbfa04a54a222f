"""The one place the extension calls graphlab.viz: ``draw(graph, **options)`` passes only the options the
renderer accepts, and falls back to a plain op listing when the renderer is unavailable."""
import collections
import html
import inspect

_HISTORY_NAMES = ("upto_op_count", "op_count", "upto", "prefix")


def _renderer():
    try:
        from graphlab.viz import render
    except Exception:
        return None
    return render


def draw(graph, upto=None, **options):
    """A displayable rendering of ``graph`` (its first ``upto`` ops when given)."""
    render = _renderer()
    if render is None:
        return Listing(graph, upto, options)
    try:
        params = inspect.signature(render).parameters
    except (TypeError, ValueError):
        params = {}
    accepts_any = any(p.kind == p.VAR_KEYWORD for p in params.values())
    kwargs = {k: v for k, v in options.items() if v is not None and (accepts_any or k in params)}
    collapse = kwargs.get("collapse")
    if isinstance(collapse, str):     # "none" collapses nothing; "a,b" is a list of scopes/roles
        kwargs["collapse"] = None if collapse.lower() == "none" else (
            [c.strip() for c in collapse.split(",") if c.strip()] if "," in collapse else collapse)
    if upto is not None:
        for name in _HISTORY_NAMES:
            if name in params:
                kwargs[name] = upto
                break
    return render(graph, **kwargs)


class Listing:
    """Fallback view: op count by type and the ops in creation order (text and HTML)."""

    def __init__(self, graph, upto, options):
        self.ops = graph.get_operations()[:upto] if upto is not None else graph.get_operations()
        scope = options.get("scope")
        if scope:
            self.ops = [op for op in self.ops if op.name.startswith(scope.rstrip("/") + "/")]

    def _lines(self):
        types = collections.Counter(op.type for op in self.ops)
        head = "%d ops: %s" % (len(self.ops), ", ".join("%d %s" % (n, t) for t, n in types.most_common()))
        return [head] + ["  %s (%s) <- %s" % (op.name, op.type, ", ".join(t.name for t in op.inputs))
                         for op in self.ops[:200]]

    def __repr__(self):
        return "\n".join(self._lines())

    def _repr_html_(self):
        return "<pre>%s</pre>" % html.escape("\n".join(self._lines()))
