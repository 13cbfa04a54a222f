"""``%step``: a recorded run (graphlab.debug.record) stepped through op by op beside the drawing of its graph.

``StepView`` holds a RunRecord and the pruned graph's SVG. Each drawn box is tagged with a class, and each
step only rewrites a small ``<style>`` block scoped to the view: the current op highlighted, the ops already
run coloured, those with a NaN or Inf red, dead ones (an untaken cond branch, a loop's last pass) grey; the
panel beside it shows the op's loop iteration and its inputs' and outputs' values (numbers for small
tensors, a heat-map picture for matrices and images, a histogram for large ones).

In JupyterLab it is an ipywidgets view (a slider with a play button, previous/next, first NaN/Inf and jump to
an op); its display also carries a static HTML picture of the chosen step for saved notebooks and
viewers without widgets, and a text listing in tfdbg's style. In a terminal ``%step`` prints the listing.
"""
import base64
import html
import io
import itertools
import re

import numpy as np

_VIEW_IDS = itertools.count(1)
_NODE = re.compile(r'<g id="(node\d+)" class="node">\s*<title>([^<]*)</title>')
SMALL_ELEMENTS = 16          # tensors up to this size are shown as numbers only
HEATMAP_PIXELS = 160         # a heat-map's longer side, in pixels

COLOURS = {"done": "#bbf7d0", "current": "#fb923c", "nan": "#fca5a5", "dead": "#e5e7eb"}


def stop_index(record, until):
    """Where ``--until`` stops: ``nan`` the first op with a NaN or an Inf in an output (tfdbg's
    has_inf_or_nan), ``inf`` the first with an Inf, else the first run of the op named ``until``.
    None when nothing matches."""
    for i, r in enumerate(record.ops):
        if r.dead:
            continue
        if until == "nan" and r.has_inf_or_nan:
            return i
        if until == "inf" and any(v.inf_count for v in r.outputs):
            return i
        if until not in ("nan", "inf") and r.name == until:
            return i
    return None


class StepView:
    """A RunRecord with its drawing; ``index`` is the op shown (a position in ``record.ops``)."""

    def __init__(self, record, svg=None, index=0, note=None):
        self.record = record
        self.index = max(0, min(index, len(record.ops) - 1))
        self.note = note
        self.view_class = "graphlab-step-%d" % next(_VIEW_IDS)
        self.svg, self.box_of = _tag_boxes(svg, [r.name for r in record.ops]) if svg else (None, {})
        self._produced = {}                # tensor name -> [(op index, TensorValue)] in run order
        for i, r in enumerate(record.ops):
            for v in r.outputs:
                self._produced.setdefault(v.name, []).append((i, v))
        self._widget = None

    # --- what a step shows --------------------------------------------------------------------------
    def first_inf_or_nan(self):
        return stop_index(self.record, "nan")

    def find(self, name, after=-1):
        """The next position (after ``after``, wrapping round) of op ``name``, or None."""
        hits = [i for i, r in enumerate(self.record.ops) if r.name == name]
        if not hits:
            return None
        later = [i for i in hits if i > after]
        return later[0] if later else hits[0]

    def input_value(self, tensor_name, index):
        """The value ``tensor_name`` had when op ``index`` read it: its latest production before, or a feed."""
        latest = None
        for i, v in self._produced.get(tensor_name, ()):
            if i >= index:
                break
            latest = v
        if latest is None:
            latest = self.record.feed_values.get(tensor_name)
        return latest

    def css(self, index=None, scoped=True):
        """The style block for step ``index``: box colours by what had happened up to it (scoped to this
        view's element, or for the SVG document itself with ``scoped=False``)."""
        index = self.index if index is None else index
        state = {}
        for i, r in enumerate(self.record.ops[:index + 1]):
            box = self.box_of.get(r.name)
            if box is None:
                continue
            if i == index:
                kind = "current"
            elif r.dead:
                kind = "dead" if state.get(box) is None else state[box]
            elif r.has_inf_or_nan:
                kind = "nan"
            else:
                kind = "nan" if state.get(box) == "nan" else "done"
            state[box] = kind
        scope = "." + self.view_class if scoped else "svg"
        rules = ["%s .gl-box polygon, %s .gl-box ellipse, %s .gl-box path {fill-opacity: 0.45;}" % (
            scope, scope, scope)]
        for box, kind in sorted(state.items()):
            sel = ", ".join("%s .%s %s" % (scope, box, shape) for shape in ("polygon", "ellipse", "path"))
            extra = "stroke: #c2410c; stroke-width: 3px;" if kind == "current" else (
                "stroke-dasharray: 4 2;" if kind == "dead" else "")
            rules.append("%s {fill: %s; fill-opacity: 1; %s}" % (sel, COLOURS[kind], extra))
        return "<style>%s</style>" % "\n".join(rules)

    def caption(self, index=None):
        index = self.index if index is None else index
        if not self.record.ops:
            return "no ops recorded"
        r = self.record.ops[index]
        where = ", %s iteration %s" % (r.frame, ":".join(str(i) for i in r.iterations)) if r.frame else ""
        state = " (dead: an input was not taken)" if r.dead else ""
        return "op %d of %d: %s (%s)%s%s" % (index + 1, len(self.record.ops), r.name, r.type, where, state)

    def panel(self, index=None):
        """HTML beside the drawing: the op, its inputs and outputs with their values."""
        index = self.index if index is None else index
        if not self.record.ops:
            return "<div>nothing was recorded</div>"
        r = self.record.ops[index]
        rows = ["<div class='graphlab-step-current'><b>%s</b></div>" % html.escape(self.caption(index))]
        if r.dead_inputs:
            rows.append("<div>dead inputs: %s</div>" % html.escape(
                ", ".join(r.inputs[i] for i in r.dead_inputs if i < len(r.inputs))))
        rows.append("<div><b>inputs</b></div>")
        for k, name in enumerate(r.inputs):
            if name.startswith("^"):
                continue
            value = self.input_value(name, index)
            dead = k in r.dead_inputs
            rows.append(_value_row(name, None if dead else value, "dead" if dead else None))
        if not r.inputs:
            rows.append("<div>(none)</div>")
        rows.append("<div><b>outputs</b></div>")
        for v in r.outputs:
            rows.append(_value_row(v.name, v))
        if not r.outputs:
            rows.append("<div>%s</div>" % ("(dead: not computed)" if r.dead else "(none watched)"))
        return "<div class='graphlab-step-values'>%s</div>" % "\n".join(rows)

    def listing_lines(self, mark=None):
        lines = self.record.listing().splitlines()
        if mark is not None:
            lines = [("==>" + line[3:] if k == mark + 1 else line) for k, line in enumerate(lines)]
        return lines

    def text(self):
        """The text form (tfdbg's listing around the chosen op), for text-only front ends."""
        lines = self.listing_lines(self.index)
        head = [lines[0]] + ([self.note] if self.note else []) + ["at " + self.caption()]
        body = lines[1:]
        lo, hi = max(0, self.index - 12), min(len(body), self.index + 6)
        window = (["     ... %d ops before" % lo] if lo else []) + body[lo:hi] + (
            ["     ... %d ops after" % (len(body) - hi)] if hi < len(body) else [])
        return "\n".join(head + window)

    def static_html(self):
        """The chosen step as one picture and panel (what a saved notebook shows without widgets)."""
        parts = ["<div class='graphlab-step-static'>",
                 "<div><small>%s</small></div>" % html.escape(self._header())]
        parts.append("<div style='display:flex;gap:12px;align-items:flex-start'>")
        parts.append("<div style='max-width:60%%;overflow:auto'>%s</div>" % (self._picture() or "(no drawing)"))
        parts.append("<div>%s</div></div>" % self.panel())
        parts.append("<details><summary>all %d ops</summary><pre>%s</pre></details></div>" % (
            len(self.record.ops), html.escape("\n".join(self.listing_lines(self.index)))))
        return "".join(parts)

    def _picture(self):
        """The drawing at the chosen step as an ``<img>`` of an SVG with its colours inside it: a notebook
        opened without trusting it strips inline ``<svg>`` and ``<style>`` from HTML, but shows images."""
        if not self.svg:
            return None
        styled = self.svg.replace("<g id=\"graph0\"", self.css(scoped=False) + "\n<g id=\"graph0\"", 1)
        return "<img alt='the pruned graph at this step' src='data:image/svg+xml;base64,%s'/>" % (
            base64.b64encode(styled.encode("utf-8")).decode())

    def _header(self):
        record = self.record
        text = "%d ops recorded (%s run of %s)" % (len(record.ops), record.source, ", ".join(record.fetches))
        if self.note:
            text += "; " + self.note
        return text

    # --- the widget ----------------------------------------------------------------------------------
    def widget(self):
        import ipywidgets as w
        n = max(1, len(self.record.ops))
        self.slider = w.IntSlider(value=self.index, min=0, max=n - 1, description="op", continuous_update=True,
                                  layout=w.Layout(width="60%"))
        self.play = w.Play(value=self.index, min=0, max=n - 1, interval=400, description="play")
        w.jslink((self.play, "value"), (self.slider, "value"))
        self.prev_button = w.Button(description="◀ previous")
        self.next_button = w.Button(description="next ▶")
        self.nan_button = w.Button(description="first NaN/Inf", disabled=self.first_inf_or_nan() is None)
        self.jump_text = w.Text(placeholder="op name", continuous_update=False, layout=w.Layout(width="220px"))
        self.jump_button = w.Button(description="jump to op")
        self.message = w.HTML()
        self.style = w.HTML(self.css())
        self.drawing = w.HTML("<div style='overflow:auto;max-height:640px'>%s</div>" % (self.svg or "(no drawing)"))
        self.values = w.HTML(self.panel())
        for control, cls in ((self.slider, "graphlab-step-slider"), (self.prev_button, "graphlab-step-prev"),
                             (self.next_button, "graphlab-step-next"), (self.nan_button, "graphlab-step-nan"),
                             (self.jump_text, "graphlab-step-jump-name"), (self.jump_button, "graphlab-step-jump"),
                             (self.values, "graphlab-step-panel"), (self.drawing, "graphlab-step-drawing")):
            control.add_class(cls)
        self.slider.observe(lambda change: self.show(change["new"]), names="value")
        self.prev_button.on_click(lambda _: self._go(self.slider.value - 1))
        self.next_button.on_click(lambda _: self._go(self.slider.value + 1))
        self.nan_button.on_click(lambda _: self._go(self.first_inf_or_nan()))
        self.jump_button.on_click(lambda _: self._jump())
        self.jump_text.observe(lambda change: self._jump() if change["new"].strip() else None, names="value")
        header = w.HTML("<small>%s</small>" % html.escape(self._header()))
        controls = w.HBox([self.play, self.slider])
        buttons = w.HBox([self.prev_button, self.next_button, self.nan_button, self.jump_text, self.jump_button])
        body = w.HBox([self.drawing, self.values])
        self.drawing.layout = w.Layout(width="60%")
        self.values.layout = w.Layout(width="40%")
        box = w.VBox([header, controls, buttons, self.message, self.style, body])
        box.add_class("graphlab-step")
        box.add_class(self.view_class)
        self._widget = box
        return box

    def _go(self, index):
        if index is None:
            return
        self.slider.value = max(0, min(index, self.slider.max))

    def _jump(self):
        name = self.jump_text.value.strip().split(":")[0]
        found = self.find(name, self.slider.value)
        if found is None:
            self.message.value = "<small>no op named %s was recorded</small>" % html.escape(name)
            return
        self.message.value = ""
        self._go(found)

    def show(self, index):
        """Move the view to op ``index`` (the slider's callback)."""
        self.index = index
        if self._widget is not None:
            self.style.value = self.css(index)
            self.values.value = self.panel(index)

    def _repr_mimebundle_(self, include=None, exclude=None):
        data = {"text/plain": self.text(), "text/html": self.static_html()}
        if self._widget is not None:
            data.update({k: v for k, v in self._widget._repr_mimebundle_().items() if k != "text/plain"})
        return data

    def __repr__(self):
        return self.text()


def _tag_boxes(svg, op_names):
    """The SVG with each drawn box given the class ``gl-box gl-bN``, and op name -> that class (an op in a
    collapsed scope maps to the scope's box)."""
    found = {}

    def tag(match):
        title = html.unescape(match.group(2))
        cls = "gl-b%d" % len(found)
        found[title] = cls
        return '<g id="%s" class="node gl-box %s">\n<title>%s</title>' % (match.group(1), cls, match.group(2))
    svg = _NODE.sub(tag, svg)
    svg = re.sub(r"^\s*<\?xml[^>]*>\s*(<!DOCTYPE[^>]*>)?", "", svg)
    scopes = sorted((t[len("scope:"):] for t in found if t.startswith("scope:")), key=len, reverse=True)
    box_of = {}
    for name in set(op_names):
        cls = found.get("op:" + name)
        if cls is None:
            scope = next((s for s in scopes if name.startswith(s + "/")), None)
            cls = found.get("scope:" + scope) if scope else None
        if cls is not None:
            box_of[name] = cls
    return svg, box_of


def _value_row(name, value, text=None):
    label = "<code>%s</code>" % html.escape(name)
    if text is not None or value is None:
        return "<div>%s: %s</div>" % (label, html.escape(text or "(not recorded)"))
    if value.text is not None:
        return "<div>%s: %s</div>" % (label, html.escape(value.text))
    head = "%s %s %s" % (label, html.escape(value.dtype or ""), list(value.shape or ()))
    flags = ""
    if value.nan_count or value.inf_count:
        flags = " <span style='color:#b91c1c'><b>%s</b></span>" % html.escape(", ".join(
            t for t in ("%d NaN" % value.nan_count if value.nan_count else "",
                        "%d Inf" % value.inf_count if value.inf_count else "") if t))
    arr = value.value
    if arr is not None and arr.size <= SMALL_ELEMENTS or arr is not None and arr.ndim < 2 and arr.size <= 64:
        body = "<pre style='margin:0'>%s</pre>" % html.escape(np.array2string(np.asarray(arr), precision=4,
                                                                              threshold=64))
    elif arr is not None and arr.dtype.kind in "biuf":
        body = _heatmap(arr) + "<div><small>%s</small></div>" % html.escape(_stats(value))
    elif value.histogram is not None:
        body = _histogram(value) + "<div><small>%s; first %s</small></div>" % (
            html.escape(_stats(value)), html.escape(", ".join("%.4g" % v for v in value.first[:6])))
    else:
        body = "<div><small>%s</small></div>" % html.escape(value.brief())
    return "<div style='margin:2px 0 6px 0'>%s%s%s</div>" % (head, flags, body)


def _stats(value):
    if value.min is None:
        return "no finite values"
    return "min %.4g, max %.4g, mean %.4g" % (value.min, value.max, value.mean)


def _heatmap(arr):
    """A matrix or image as a PNG heat-map (blue low, white middle, red high; NaN black), inline."""
    from PIL import Image
    a = np.asarray(arr, dtype=np.float64)
    if a.ndim == 4:                    # a batch of images: the first one
        a = a[0]
    if a.ndim == 3 and a.shape[-1] in (1, 3, 4):
        a = a.mean(axis=-1)            # an image's channels, averaged into one
    a = a.reshape(-1, a.shape[-1]) if a.ndim != 2 else a
    finite = np.isfinite(a)
    lo, hi = (float(a[finite].min()), float(a[finite].max())) if finite.any() else (0.0, 1.0)
    t = np.where(finite, (a - lo) / (hi - lo) if hi > lo else 0.5, 0.5)
    rgb = np.empty(a.shape + (3,), dtype=np.uint8)
    below = t < 0.5
    s = np.where(below, t * 2, (t - 0.5) * 2)
    rgb[..., 0] = np.where(below, 59 + s * 196, 255).astype(np.uint8)
    rgb[..., 1] = np.where(below, 130 + s * 125, 255 - s * 200).astype(np.uint8)
    rgb[..., 2] = np.where(below, 246 + s * 9, 255 - s * 200).astype(np.uint8)
    rgb[~finite] = 0
    image = Image.fromarray(rgb, "RGB")
    scale = max(1, HEATMAP_PIXELS // max(a.shape))
    image = image.resize((a.shape[1] * scale, a.shape[0] * scale), Image.NEAREST)
    out = io.BytesIO()
    image.save(out, "PNG")
    return "<img alt='heat-map' src='data:image/png;base64,%s'/>" % base64.b64encode(out.getvalue()).decode()


def _histogram(value):
    """The summary's histogram of a large tensor as small SVG bars."""
    counts, edges = value.histogram
    top = max(counts) or 1
    width, height = 200, 60
    bar = width / len(counts)
    rects = "".join("<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='#60a5fa'/>" % (
        k * bar, height - c * height / top, bar - 1, c * height / top) for k, c in enumerate(counts))
    picture = ("<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d'>%s</svg>" % (width, height, rects))
    return ("<img class='graphlab-histogram' alt='histogram' src='data:image/svg+xml;base64,%s'/>"
            "<div><small>%.4g … %.4g</small></div>" % (base64.b64encode(picture.encode()).decode(), edges[0],
                                                       edges[-1]))
