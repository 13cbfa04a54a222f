"""``render``: view -> grouping -> overlay -> DOT, with a summary of every simplification made."""
import textwrap

from graphlab import graphview
from graphlab.graphview import nodes as view_mod
from graphlab.viz import devices as devices_mod, dot as dot_mod
from graphlab.viz import fit as fit_mod
from graphlab.viz import grouping, overlay as overlay_mod
from graphlab.viz import variables as variables_mod
from graphlab.viz.result import RenderResult

MAX_LISTED = 8
REASONS = {"width": "to fit the width"}


def make_view(graph_or_graph_def, upto_op_count=None):
    graph_or_graph_def = graphview.adapt(graph_or_graph_def)     # a real tf.Graph: its engine-neutral view
    if hasattr(graph_or_graph_def, "get_operations"):
        return view_mod.from_graph(graph_or_graph_def, upto_op_count)
    if hasattr(graph_or_graph_def, "node") or isinstance(graph_or_graph_def, (bytes, bytearray)):
        return view_mod.from_graph_def(graph_or_graph_def, upto_op_count)
    raise TypeError("graphlab.viz.render draws a graphlab Graph, a TensorFlow tf.Graph or a GraphDef (message or serialized bytes), "
                    "not %s." % type(graph_or_graph_def).__name__)


def render(graph_or_graph_def=None, fetches=None, feeds=None, scope=None, depth=None, collapse="bookkeeping",
           expand=(), group_series=True, hide=(), show_shapes=True, session=None, run_metadata=None,
           max_nodes=200, upto_op_count=None, ops_limit=None, rankdir="TB", width="column", highlight=None,
           fold_loops=None, color_by=None):
    """Draw a graph (default: the default graph) as DOT, ready to become SVG. See the package docstring.
    ``color_by="device"`` fills each box with the colour of its job and task (viz/devices.py)."""
    if graph_or_graph_def is None:
        if session is not None:
            graph_or_graph_def = session.graph
        else:
            from graphlab.framework.graph import get_default_graph
            graph_or_graph_def = get_default_graph()
    if upto_op_count is None:
        upto_op_count = ops_limit
    if isinstance(expand, str):
        expand = [expand]
    expand = [e.strip("/") for e in (expand or ())]
    budget = fit_mod.budget_px(width)
    view = make_view(graph_or_graph_def, upto_op_count)
    grouping.place_in_frames(view)
    variables_mod.place_with_variables(view)
    if isinstance(hide, str):
        hide = [hide]
    unused_phase = variables_mod.unused_learning_phase(view) if not scope else ()
    hide = tuple(hide or ()) + unused_phase
    marks = fit_mod.highlighted(view, highlight)
    overlay = overlay_mod.build(view, fetches, feeds, session, run_metadata)
    wrap = fit_mod.caption_chars(budget)
    hook = None
    if color_by == "device":
        hook = devices_mod.DeviceColours(view)
    elif color_by is not None:
        raise ValueError("color_by is 'device' or None, not %r" % (color_by,))

    # opened to show the highlighted ops (unless the caller closes them by name), closed only to fit
    _, asked_closed = grouping.parse_collapse(collapse)
    holding = frozenset(h for h in fit_mod.holding(view, marks)
                        if not any(h == c or h.startswith(c + "/") for c in asked_closed))

    # the simplifications render may make to fit, each switched on only when the drawing does not fit yet
    how = {"fold": bool(fold_loops), "merge": False, "shapes": show_shapes, "stack": False}

    def make(closed, notes=()):
        layout = grouping.group(view, scope=scope, depth=depth, collapse=collapse, expand=list(expand) + list(holding),
                                group_series=group_series, hide=hide, max_nodes=max_nodes, closed=closed,
                                fold_loops=how["fold"], merge_stubs=how["merge"])
        layout.highlight = marks
        info = _info(view, layout, overlay, max_nodes)
        notes = list(notes)
        if unused_phase:
            notes.append("Keras's learning-phase placeholder left out: nothing in the graph reads it")
        if how["stack"]:
            notes.append("unconnected parts drawn one below the other to fit the width")
        if show_shapes and not how["shapes"]:
            notes.append("tensor shapes left off the edges to fit the width (show_shapes=False)")
        summary = _summary(info, layout, overlay, view, notes)
        if hook is not None:                # the device legend, last
            summary.append(hook.legend())
            info["devices"] = dict(hook.colours)
        caption = "\n".join(_wrapped(summary, wrap))
        text = dot_mod.to_dot(layout, overlay, caption, show_shapes=how["shapes"], rankdir=rankdir,
                              stack=how["stack"], node_hook=hook)
        return text, layout, info, summary

    keep_open = grouping.with_ancestors(expand + ([scope] if scope else []))
    frames = grouping.with_ancestors(n.path.rpartition("/")[0] for n in view.nodes if n.type == "LoopCond")
    # in order, each tried only when the drawing still does not fit (and each time, scopes close to fit):
    # parts that share no edge drawn one below the other; loops' routing ops folded; a focused scope's
    # outside stubs merged into two boxes; tensor shapes left off the edges; loops themselves closed
    stages = [{}, {"stack": rankdir == "TB"}]
    if fold_loops is None and frames:
        stages.append({"fold": True})
    if scope:
        stages.append({"merge": True})
    if show_shapes:
        stages.append({"shapes": False})
    protect = frames
    for k, stage in enumerate(stages + ([{"loops": True}] if frames else [])):
        how.update((key, value) for key, value in stage.items() if key != "loops")
        if stage.get("loops"):
            protect = frozenset()
        last = k == len(stages) - (0 if frames else 1)
        attempt, report = fit_mod.fit(make, budget, keep_open | protect, holding, last=last)
        if report is None or report["fits"]:
            break
    text, layout, info, summary = attempt.drawing
    info["fit"] = report
    if report is not None and not report["fits"]:
        if report["readable"]:
            note = "%d px wide, shown shrunk to the %d-px column" % (report["px"], report["budget_px"])
        else:
            note = ("%d px wide: shrunk to the %d-px column its labels are hard to read; draw one scope "
                    "(scope=...), hide ops (hide=...) or pass width=None" % (report["px"], report["budget_px"]))
        text, layout, info, summary = make(attempt.closed, [note])
        info["fit"] = report
        attempt.svg = None
    result = RenderResult(text, summary, info, fit_to=budget)
    if attempt.svg is not None:
        result._svg = fit_mod.scaled_svg(attempt.svg, budget)
    return result


def _wrapped(lines, chars):
    """Caption lines broken at spaces so the caption is no wider than the drawing may be."""
    if not chars:
        return list(lines)
    out = []
    for line in lines:
        out.extend(textwrap.wrap(line, chars, subsequent_indent="  ", break_long_words=False,
                                 break_on_hyphens=False) or [""])
    return out


def _info(view, layout, overlay, max_nodes):
    collapsed = [{"scope": u.name, "ops": len(u.members), "reason": u.reason}
                 for u in layout.units if u.kind == "scope"]
    series = [{"name": u.name, "type": u.op_type, "count": u.count, "ops": len(u.members),
               "container": u.container, "like": u.like} for u in layout.units if u.kind == "series"]
    buckets = [{"type": u.op_type, "ops": len(u.members), "container": u.container}
               for u in layout.units if u.kind == "bucket" and u.op_type is not None]
    ranges = [{"scopes": u.name, "count": u.count, "ops": len(u.members), "container": u.container}
              for u in layout.units if u.kind == "bucket" and u.op_type is None]
    info = {"ops": len(view.nodes), "total_ops": view.total, "drawn_ops": layout.members,
            "boxes": len(layout.units), "collapsed": collapsed, "series": series, "buckets": buckets, "ranges": ranges,
            "hidden": [n.name for n in layout.hidden], "auto_level": layout.auto_level,
            "max_nodes": max_nodes, "focus": layout.focus}
    if overlay is not None:
        info["overlay"] = {"active": sorted(overlay.active), "fed": sorted(overlay.fed),
                           "fetched": sorted(overlay.fetched), "cached": overlay.cached,
                           "times": dict(overlay.times), "source": overlay.source,
                           "unfed": list(overlay.unfed), "skipped": sorted(overlay.skipped)}
    return info


def _ops(n):
    return "%d op%s" % (n, "" if n == 1 else "s")


def _listed(items):
    shown = items[:MAX_LISTED]
    more = len(items) - len(shown)
    return ", ".join(shown) + (", and %d more" % more if more > 0 else "")


def _level_words(level, focus):
    """Which scopes auto-collapse closed, in words: level 0 is the top level (or the focus scope's children)."""
    if level == 0:
        return "every scope directly inside %s" % focus if focus else "every top-level scope"
    inside = "inside %s " % focus if focus else ""
    return "every scope %snested %d or more levels deep (the first %d level%s stay open)" % (
        inside, level + 1, level, "" if level == 1 else "s")


def _summary(info, layout, overlay, view, notes=()):
    """The caption's lines; ``notes`` (how the drawing was fitted) go before the run overlay's line, which
    stays last."""
    head = _ops(info["ops"])
    if info["ops"] != info["total_ops"]:
        head = "first %d of %d ops" % (info["ops"], info["total_ops"])
    if layout.focus:
        head += ", scope %s (%s)" % (layout.focus, _ops(layout.members))
    lines = ["%s drawn as %d box%s" % (head, info["boxes"], "" if info["boxes"] == 1 else "es")]
    scopes = [c for c in info["collapsed"] if c["reason"] != "variable"]
    if scopes:
        lines.append("collapsed: " + _listed(["%s (%s, %s)" % (c["scope"], _ops(c["ops"]), REASONS.get(
            c["reason"], c["reason"])) for c in scopes]))
    variables = [c["scope"] for c in info["collapsed"] if c["reason"] == "variable"]
    if variables:
        lines.append("variables drawn as one box each, with their initializers and reads: %s (expand=[%r] "
                     "opens one)" % (_listed(variables), variables[0]))
    if info["series"]:
        lines.append("series: " + _listed([
            "%s ×%d" % ((s["container"] + "/" if s["container"] else "") + s["name"], s["count"]) +
            (" (each like %s)" % s["like"] if s["like"] else "") for s in info["series"]]))
    if layout.auto_level is not None:
        lines.append("to stay under %d boxes, collapsed %s" % (
            info["max_nodes"], _level_words(layout.auto_level, layout.focus)))
    if info["buckets"]:
        lines.append("to stay under %d boxes, grouped ops by type: %s" % (
            info["max_nodes"], _listed(["%s ×%d" % (b["type"], b["ops"]) for b in info["buckets"]])))
    if info["ranges"]:
        lines.append("to stay under %d boxes, merged neighbouring scopes: %s" % (
            info["max_nodes"], _listed(["%s (%d scopes)" % (r["scopes"], r["count"]) for r in info["ranges"]])))
    hidden = [n for n in info["hidden"] if not variables_mod.is_learning_phase(n)]   # said in a note of its own
    if hidden:
        lines.append("hidden: %d ops" % len(hidden))
    if layout.folded:
        lines.append("each loop's Enter/Merge/Switch/Exit/NextIteration/LoopCond ops drawn as one box "
                     "(fold_loops=False draws them)")
    if layout.highlight is not None:
        types = {}
        for n in view.nodes:
            if n.name in layout.highlight:
                types[n.type] = types.get(n.type, 0) + 1
        lines.append("highlighted: %s; the rest faded" % ", ".join(
            "%s ×%d" % (t, k) if k > 1 else t for t, k in sorted(types.items())))
    lines.extend(notes)
    if overlay is not None:
        lines.append(overlay.describe(len(view.nodes)))
        if overlay.unfed:
            lines.append(overlay.unfed_text())
    return lines
