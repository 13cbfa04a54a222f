"""``render``: view -> grouping -> overlay -> DOT, with a summary of every simplification made."""
from graphlab import graphview
from graphlab.viz import devices as devices_mod, dot as dot_mod
from graphlab.graphview import nodes as view_mod
from graphlab.viz import grouping, overlay as overlay_mod
from graphlab.viz.result import RenderResult

MAX_LISTED = 8


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
           max_nodes=200, upto_op_count=None, ops_limit=None, rankdir="TB", color_by=None):
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
    view = make_view(graph_or_graph_def, upto_op_count)
    layout = grouping.group(view, scope=scope, depth=depth, collapse=collapse, expand=expand,
                            group_series=group_series, hide=hide, max_nodes=max_nodes)
    overlay = overlay_mod.build(view, fetches, feeds, session, run_metadata)
    info = _info(view, layout, overlay, max_nodes)
    summary = _summary(info, layout, overlay, view)
    hook = None
    if color_by == "device":
        hook = devices_mod.DeviceColours(view)
        summary.append(hook.legend())
        info["devices"] = dict(hook.colours)
    elif color_by is not None:
        raise ValueError("color_by is 'device' or None, not %r" % (color_by,))
    text = dot_mod.to_dot(layout, overlay, "\n".join(summary), show_shapes=show_shapes, rankdir=rankdir,
                          node_hook=hook)
    return RenderResult(text, summary, info)


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


def _summary(info, layout, overlay, view):
    head = _ops(info["ops"])
    if info["ops"] != info["total_ops"]:
        head = "first %d of %d ops" % (info["ops"], info["total_ops"])
    if layout.focus:
        head += ", scope %s (%s)" % (layout.focus, _ops(layout.members))
    lines = ["%s drawn as %d box%s" % (head, info["boxes"], "" if info["boxes"] == 1 else "es")]
    if info["collapsed"]:
        lines.append("collapsed: " + _listed(["%s (%s, %s)" % (c["scope"], _ops(c["ops"]), c["reason"])
                                              for c in info["collapsed"]]))
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
    if info["hidden"]:
        lines.append("hidden: %d ops" % len(info["hidden"]))
    if overlay is not None:
        lines.append(overlay.describe(len(view.nodes)))
        if overlay.unfed:
            lines.append(overlay.unfed_text())
    return lines
