"""``%graph --live``: an ipywidgets view of a graph that redraws after every cell, with controls for scope,
depth, collapsing, series grouping, fetches (the pruned view) and a history slider (the graph as it was after
any earlier execution; graphs are append-only, so that is a prefix of its ops).

The drawing is an inline SVG in an HTML widget's state (a comm message), never sent through ``display``
inside ``with output:``: that routes by message id and, without a widget front end (nbclient, nbval), would
land as SVG and clear codes in whichever cell happens to run. ``%graph --live off`` (or ``--stop``) closes the
views.

Click a closed scope's box to open it, click an open scope's name (its frame's top strip) to close it:
ipywidgets has no click events inside an SVG, so each such place gets a transparent button laid over it, placed
from the coordinates Graphviz wrote into the SVG. The cell's output also carries the drawing as
``image/svg+xml``: a saved or exported notebook, which has no widget, shows that picture."""
import html
import re

from graphlab_ipython import drawing

PX_PER_PT = 4.0 / 3.0
LABEL_STRIP_PX = 20         # the top of an open scope's frame, where its name is written: a click closes it
STYLE = """<style>
.graphlab-live-stage {position: relative !important; display: block !important; overflow: visible;}
.graphlab-live-stage > .graphlab-live-hit {position: absolute !important; margin: 0 !important; padding: 0;
  background: transparent !important; border: 0 !important; box-shadow: none !important; cursor: pointer;
  min-width: 0; z-index: 2;}
.graphlab-live-stage > .graphlab-live-hit:hover {outline: 2px solid #d97706; outline-offset: 1px;}
.graphlab-live-picture svg {display: block;}
</style>"""

_TRANSFORM = re.compile(r'<g id="graph0" class="graph" transform="scale\(([\d.]+) ([\d.]+)\) rotate\(0\) '
                        r'translate\(([-\d.]+) ([-\d.]+)\)"')
_SIZE = re.compile(r'<svg\b[^>]*?\bwidth="([\d.]+)pt" height="([\d.]+)pt"[^>]*?viewBox="([-\d. ]+)"')
_GROUP = re.compile(r'<g id="[^"]*" class="(node|cluster)">\s*<title>([^<]*)</title>(.*?)</g>', re.S)
_POINT = re.compile(r'(-?[\d.]+),(-?[\d.]+)')
_ELLIPSE = re.compile(r'<ellipse[^>]*cx="(-?[\d.]+)" cy="(-?[\d.]+)" rx="([\d.]+)" ry="([\d.]+)"')


def clickable_boxes(svg):
    """``[(action, scope, left, top, width, height)]`` in CSS px of the SVG as drawn: ("open", path) for a
    closed scope's box, ("close", path) for the name strip of an open scope's frame."""
    size, transform = _SIZE.search(svg), _TRANSFORM.search(svg)
    if size is None or transform is None:
        return []
    view_w = float(size.group(3).split()[2]) or 1.0
    k = float(size.group(1)) * PX_PER_PT / view_w            # CSS px per SVG user unit
    sx, sy, tx, ty = (float(v) for v in transform.groups())
    out = []
    for kind, title, body in _GROUP.findall(svg):
        title = html.unescape(title)
        if kind == "node" and title.startswith("scope:"):
            action, path = "open", title[len("scope:"):]
        elif kind == "cluster" and title.startswith("cluster_"):
            action, path = "close", title[len("cluster_"):]
        else:
            continue
        xs, ys = [], []
        for x, y in _POINT.findall(" ".join(re.findall(r'(?:points|d)="([^"]*)"', body))):
            xs.append(float(x))
            ys.append(float(y))
        for cx, cy, rx, ry in _ELLIPSE.findall(body):
            xs += [float(cx) - float(rx), float(cx) + float(rx)]
            ys += [float(cy) - float(ry), float(cy) + float(ry)]
        if not xs:
            continue
        left, top = (min(xs) * sx + tx) * k, (min(ys) * sy + ty) * k
        width, height = (max(xs) - min(xs)) * sx * k, (max(ys) - min(ys)) * sy * k
        if action == "close":
            height = min(height, LABEL_STRIP_PX)
        out.append((action, path, round(left, 1), round(top, 1), round(width, 1), round(height, 1)))
    return out


def has_widget_frontend(shell):
    """A kernel with comms (ipykernel) and ipywidgets: a plain or terminal InteractiveShell has no ``kernel``."""
    if getattr(shell, "kernel", None) is None:
        return False
    try:
        import ipywidgets  # noqa: F401
    except Exception:
        return False
    return True


def stop_all(watcher):
    """Close every live view of ``watcher``; returns how many were open."""
    views = [listener.__self__ for listener in list(watcher.listeners)
             if isinstance(getattr(listener, "__self__", None), LiveGraph)]
    for view in views:
        view.close()
    return len(views)


class LiveGraph:
    """The widget and its refresh callback; the callback is registered with the watcher while displayed."""

    def __init__(self, watcher, graph=None, options=None):
        import ipywidgets as w
        self.watcher = watcher
        self.fixed_graph = graph
        self._cell_graph = None
        options = options or {}
        self.scope = w.Text(value=options.get("scope") or "", description="scope")
        self.depth = w.IntSlider(value=options.get("depth") or 0, min=0, max=8, description="depth (0=all)")
        self.collapse = w.Text(value=options.get("collapse") or "bookkeeping", description="collapse")
        self.series = w.Checkbox(value=options.get("group_series") is not False, description="group series")
        self.fetches = w.Text(value="", description="fetches", placeholder="names, comma separated")
        self.history = w.IntSlider(value=0, min=0, max=0, description="after run")
        self.caption = w.HTML()
        self.picture = w.HTML()
        self.picture.add_class("graphlab-live-picture")
        self.stage = w.Box([self.picture])
        self.stage.add_class("graphlab-live-stage")
        self.opened = set(options.get("expand") or ())     # scopes opened (--expand, or a click)
        self.closed = set()         # scopes closed by a click (collapse=)
        self.highlight = options.get("highlight")
        self.width = options.get("width")
        self.svg = None             # the drawing shown now: also the static fallback of the cell's output
        self.result = None
        controls = w.VBox([w.HBox([self.scope, self.depth]), w.HBox([self.collapse, self.series]),
                           w.HBox([self.fetches, self.history]), self.caption])
        self.widget = w.VBox([controls, self.stage])
        self.widget.add_class("graphlab-live")          # stable hooks for styling and browser tests
        self.caption.add_class("graphlab-live-caption")
        for control in (self.scope, self.depth, self.collapse, self.series, self.fetches):
            control.observe(lambda change: self.redraw(), names="value")
        self.history.observe(lambda change: self.redraw(), names="value")
        self._follow = True
        self.error = None
        watcher.listeners.append(self.refresh)

    @property
    def graph(self):
        """The graph drawn: a fixed one, else the notebook's default graph as of the last cell. Clicks and
        control changes arrive on the kernel's comm thread, whose default graph (one per thread, as TF's) is
        not the cells' one: they redraw the graph the last cell left."""
        if self.fixed_graph is not None:
            return self.fixed_graph
        if self._cell_graph is None:
            self._cell_graph = self.watcher.default_graph()
        return self._cell_graph

    def runs(self):
        return self.watcher.runs_of(self.graph)

    def refresh(self):
        """After a cell: extend the history slider and, when it was at the latest run, follow the graph."""
        self._cell_graph = self.watcher.default_graph()     # called after each cell, on the cells' thread
        runs = self.runs()
        follow = self.history.value >= self.history.max
        self.history.max = len(runs)
        if follow or self._follow:
            self._follow = False
            self.history.value = len(runs)      # triggers redraw when it changes
        self.redraw()

    def options(self):
        fetches = [f.strip() for f in self.fetches.value.split(",") if f.strip()]
        graph = self.graph
        elements = []
        for name in fetches:
            try:
                elements.append(graph.as_graph_element(name))
            except (KeyError, ValueError, TypeError):
                pass
        words = [c.strip() for c in (self.collapse.value or "").split(",") if c.strip()]
        words = [c for c in words if c.lower() != "none"] + sorted(self.closed)
        return dict(scope=self.scope.value or None, depth=self.depth.value or None,
                    collapse=words or None, group_series=self.series.value,
                    fetches=elements or None, expand=sorted(self.opened) or None,
                    highlight=self.highlight, width=self.width)

    def toggle(self, action, path):
        """A click: open a closed scope's box, or close an open scope (and what was opened inside it)."""
        if action == "open":
            self.closed.discard(path)
            self.opened.add(path)
        else:
            self.opened = {p for p in self.opened if p != path and not p.startswith(path + "/")}
            self.closed.add(path)
        self.redraw()

    def upto(self):
        runs = self.runs()
        if self.history.value >= len(runs) or not runs:
            return None
        if self.history.value == 0:
            return runs[0].start
        return runs[self.history.value - 1].end

    def redraw(self):
        upto = self.upto()
        graph = self.graph
        runs = self.runs()
        at = "latest" if upto is None else "after In [%s]" % (
            runs[self.history.value - 1].execution_count if self.history.value else "start")
        self.caption.value = "<small>%d ops in the graph; showing %s</small>" % (len(graph._ops), at)
        try:
            result = drawing.draw(graph, upto=upto, **self.options())
            svg = result.svg() if hasattr(result, "svg") else None
        except Exception as e:   # a drawing problem must not break the cell that triggered the refresh
            # shown in the widget's caption only (it stays there while the problem lasts, no repeated output)
            self.error = "%s: %s" % (type(e).__name__, e)
            self.caption.value += "<br><small>cannot draw (%s)</small>" % html.escape(self.error)
            return
        self.error = None
        self.result, self.svg = result, svg
        if svg is None:         # no renderer: the op listing
            self.picture.value = result._repr_html_() if hasattr(result, "_repr_html_") else html.escape(repr(result))
            self.stage.children = (self.picture,)
            return
        self.caption.value += "<br><small>click a box to open it, a frame's name to close it</small>"
        self.picture.value = STYLE + svg[svg.index("<svg"):]
        self.stage.children = (self.picture,) + tuple(self._hit(*box) for box in clickable_boxes(svg))

    def _hit(self, action, path, left, top, width, height):
        import ipywidgets as w
        button = w.Button(description="", tooltip="%s %s" % (action, path), layout=w.Layout(
            left="%.1fpx" % left, top="%.1fpx" % top, width="%.1fpx" % width, height="%.1fpx" % height))
        button.add_class("graphlab-live-hit")
        button.add_class("graphlab-live-" + action)
        button.on_click(lambda _: self.toggle(action, path))
        return button

    def _repr_mimebundle_(self, include=None, exclude=None):
        """The widget, and the drawing as SVG and text beside it: a notebook saved or exported without the
        widget's state (nbconvert, GitHub) shows the picture instead of a line of text."""
        bundle = dict(self.widget._repr_mimebundle_(include=include, exclude=exclude) or {})
        if self.svg is not None:
            bundle["image/svg+xml"] = self.svg
        if self.result is not None and hasattr(self.result, "text"):
            bundle["text/plain"] = "graphlab live view: " + self.result.text()
        return bundle

    def close(self):
        if self.refresh in self.watcher.listeners:
            self.watcher.listeners.remove(self.refresh)
        self.widget.close()

    def show(self):
        self.refresh()
        return self
