"""Fitting a drawing to a width: lay it out with Graphviz, measure it, and close scopes into boxes until it
is no wider than the budget (the notebook column by default), so labels keep a size a learner can read
instead of being shrunk with the whole picture.

Graphviz's SVG gives sizes in points (1 pt = 4/3 CSS px), at the font sizes ``dot.py`` sets (11 pt boxes,
9 pt edge labels), so a drawing that fits is shown at its own size: 11 pt labels are 14.7 px on screen.

What closes first: the deepest open scopes (a cell inside a loop before the loop), the biggest first among
them; scopes the caller asked to open (``expand``) never; scopes holding a highlighted op only when the
drawing cannot fit otherwise."""
import fnmatch
import re

from graphlab.viz.result import GraphvizNotFoundError, dot_executable, run_dot

# JupyterLab 4.6 in a 1280-px-wide window (file browser closed): a cell's output area is 848 px wide, 832 px
# inside its padding; 1440 px windows give 1008 px. Measured with Chromium (see tests/browser).
COLUMN_PX = 832
PX_PER_PT = 4.0 / 3.0
CAPTION_PT_PER_CHAR = 5.6           # Helvetica at the caption's 10 pt, a wide average (digits, capitals)
SMALLEST_PT = 9                     # edge labels (dot.py); box labels are 11 pt, constants' and stubs' 10
MIN_TEXT_PX = 9                     # smallest text a learner reads without zooming
MAX_STEPS = 12                      # layouts tried one scope at a time before closing a whole level

_FONT = re.compile(r'font-size="([\d.]+)"')
_SVG_WIDTH = re.compile(r'<svg\b[^>]*?\bwidth="([\d.]+)pt"')


def smallest_text_px(svg, budget):
    """The smallest text of ``svg`` on screen, in px, once a column ``budget`` px wide shrinks it to fit."""
    sizes = [float(v) for v in _FONT.findall(svg)] or [SMALLEST_PT]
    scale = min(1.0, budget / max(svg_width_px(svg), 1.0))
    return min(sizes) * PX_PER_PT * scale


def readable(attempt, budget):
    """Whether the attempt's drawing, shrunk to the column, keeps all its text at least MIN_TEXT_PX high."""
    return attempt.svg is not None and smallest_text_px(attempt.svg, budget) >= MIN_TEXT_PX


def scaled_svg(svg, budget):
    """The SVG with its width/height attributes scaled down to ``budget`` px (its viewBox unchanged), so a
    page that shows it at its own size (an HTML export, GitHub) shows all of it, not its left part."""
    m = re.search(r'<svg\b[^>]*?\bwidth="([\d.]+)pt" height="([\d.]+)pt"', svg)
    if not m:
        return svg
    w, h = float(m.group(1)), float(m.group(2))
    if w * PX_PER_PT <= budget:
        return svg
    k = budget / (w * PX_PER_PT)
    head = m.group(0).replace('width="%s"' % (m.group(1) + "pt"), 'width="%.0fpt"' % (w * k)).replace(
        'height="%s"' % (m.group(2) + "pt"), 'height="%.0fpt"' % (h * k))
    return svg[:m.start()] + head + svg[m.end():]


def budget_px(width):
    """``"column"`` (the default): COLUMN_PX; a number: that many px; None/False: no fitting."""
    if width is None or width is False:
        return None
    if isinstance(width, str):
        if width != "column":
            raise ValueError("width=%r: give a number of pixels, \"column\" (the notebook column, %d px) or None "
                             "(no fitting)." % (width, COLUMN_PX))
        return COLUMN_PX
    if isinstance(width, bool) or not isinstance(width, (int, float)) or width <= 0:
        raise ValueError("width=%r: give a positive number of pixels, \"column\" or None." % (width,))
    return float(width)


def caption_chars(budget):
    """How many caption characters fit on one line of a drawing ``budget`` px wide."""
    if budget is None:
        return None
    return max(40, int(budget / PX_PER_PT / CAPTION_PT_PER_CHAR))


def svg_width_px(svg):
    m = _SVG_WIDTH.search(svg)
    return float(m.group(1)) * PX_PER_PT if m else 0.0


def highlighted(view, highlight):
    """Names of the ops ``highlight`` picks: op types (``"StackPushV2"``), op names, scopes (every op
    inside) or glob patterns on names. None when nothing is asked for; an error when a word matches nothing."""
    if highlight is None:
        return None
    if isinstance(highlight, str):
        highlight = [highlight]
    names = set()
    for word in highlight:
        word = getattr(word, "name", word)          # a Tensor or an Operation
        word = word.split(":")[0] if ":" in word and "*" not in word else word
        hits = [n.name for n in view.nodes
                if n.type == word or n.name == word or n.name.startswith(word.rstrip("/") + "/")
                or (any(c in word for c in "*?[") and fnmatch.fnmatchcase(n.name, word))]
        if not hits:
            types = sorted({n.type for n in view.nodes})
            raise ValueError("highlight=%r: no op has that type or name (this graph's op types: %s)." % (
                word, ", ".join(types[:25]) + (", ..." if len(types) > 25 else "")))
        names.update(hits)
    return frozenset(names)


class Attempt:
    """One layout tried: what ``make(closed)`` returned, and its measured width once laid out."""

    def __init__(self, closed, drawing):
        self.closed = closed
        self.drawing = drawing      # (dot text, layout, ...) as the caller's make() returns it
        self.svg = None
        self.px = None

    def measure(self):
        """Width in px; infinite when Graphviz cannot lay this attempt out (dot has layouts it refuses,
        "trouble in init_rank"): the fitting then goes on with other attempts."""
        if self.px is None:
            try:
                self.svg = run_dot(self.drawing[0], "svg").decode("utf-8")
                self.px = svg_width_px(self.svg)
            except GraphvizNotFoundError:
                raise
            except RuntimeError:
                self.px = float("inf")
        return self.px


def fit(make, budget, keep_open=frozenset(), holding=frozenset(), last=True):
    """Close scopes until ``make(closed)``'s drawing is at most ``budget`` px wide.

    ``holding``: scopes closed only when nothing else makes it fit, and only when ``last`` (render
    tries other simplifications first). ``make(closed)`` returns ``(dot text, layout, ...)``; ``layout.open_scopes`` names the scopes drawn open.
    Returns ``(attempt, report)``: the chosen attempt (its SVG already made when it was measured) and
    ``{"budget_px", "px", "fits", "closed"}``, or None when no fitting was asked for or Graphviz is missing."""
    first = Attempt(frozenset(), make(frozenset()))
    if budget is None or dot_executable() is None:
        return first, None
    try:
        first.measure()
    except GraphvizNotFoundError:
        return first, None
    best = first
    if first.px > budget:
        layout = first.drawing[1]
        best = _shrink(make, budget, first, keep_open | holding, layout.open_scopes)
        if not readable(best, budget) and holding and last:   # highlighted ops' scopes: only if need be
            trial = _shrink(make, budget, best, keep_open, layout.open_scopes)
            if trial.px <= budget:
                best = trial
    return best, {"budget_px": budget, "px": round(best.px, 1), "fits": best.px <= budget,
                  "readable": readable(best, budget), "closed": sorted(best.closed)}


def holding(view, marks):
    """Scopes that hold a highlighted op where it is drawn: closed last."""
    if not marks:
        return frozenset()
    out = set()
    for n in view.nodes:
        if n.name in marks:
            path = n.path             # an op named like a scope (StackPopV2 next to StackPopV2/Enter) too
            while path:
                out.add(path)
                path = path.rpartition("/")[0]
    return frozenset(out)


def _shrink(make, budget, start, protect, open_scopes):
    # a one-op scope is as wide closed as open: closing it would only hide the op's type
    candidates = {p: v for p, v in open_scopes.items() if p not in protect and v[1] > 1}
    if not candidates:
        return start
    levels = sorted({rel for rel, _ in candidates.values()}, reverse=True)
    wider = start                                   # the last attempt still too wide
    narrowest = start
    for level in levels:
        closed = frozenset(p for p, (rel, _) in candidates.items() if rel >= level)
        attempt = Attempt(closed, make(closed))
        if attempt.measure() <= budget:
            return _refine(make, budget, wider, attempt, level, candidates)
        if attempt.px < float("inf"):
            wider = attempt
        if attempt.px < narrowest.px:
            narrowest = attempt
    return narrowest                                # still too wide: the narrowest drawing Graphviz made


def _refine(make, budget, wider, fits, level, candidates):
    """Between a level that fits closed and the one below it: close that level's scopes one at a time,
    biggest first, and keep the first attempt that fits (fewer boxes closed than the whole level)."""
    order = sorted((p for p, (rel, _) in candidates.items() if rel == level),
                   key=lambda p: (-candidates[p][1], p))
    closed = set(wider.closed)
    for step, path in enumerate(order[:-1]):
        if step >= MAX_STEPS:
            break
        closed.add(path)
        attempt = Attempt(frozenset(closed), make(frozenset(closed)))
        if attempt.measure() <= budget:
            return attempt
    return fits
