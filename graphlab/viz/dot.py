"""DOT text for a grouped graph: boxes styled by role, scopes as nested clusters, data edges labelled with
shapes, control edges dashed, the pruned overlay as highlight / fade / cut marks, and a caption that says
what was collapsed. Pure string building, no graphviz needed; output is deterministic for a given graph."""
from graphlab.viz.roles import BIG_CONSTANT, QUEUE_TYPES, STYLES
from graphlab.viz.variables import VARIABLE_TYPES, variable_of, variable_shape
from graphlab.graphview.nodes import MIB

FADED = {"fillcolor": "#f9fafb", "color": "#d1d5db", "fontcolor": "#9ca3af"}
# executed control-flow ops (Switch, Merge, NoOp...) must not keep the pale control grey: it reads as "faded"
ACTIVE_CONTROL = {"color": "#374151", "fillcolor": "#ffffff", "fontcolor": "#111827"}
UNFED = {"color": "#dc2626", "penwidth": "2.5", "fontcolor": "#991b1b"}
FED_EDGE = {"color": "#2563eb", "fontcolor": "#2563eb", "style": "bold", "arrowhead": "tee"}
CTRL_EDGE = {"style": "dashed", "color": "#9ca3af", "arrowhead": "odot"}
# a while loop's back edge: drawn, but left out of the ranking so the loop still reads top to bottom
NEXT_EDGE = {"style": "dashed", "color": "#7c3aed", "fontcolor": "#7c3aed", "constraint": "false"}
# highlight=: the ops asked for stand out (amber, thick border), everything else is faded
HIGHLIGHT = {"fillcolor": "#fef3c7", "color": "#d97706", "fontcolor": "#78350f", "penwidth": "3"}
LOOP_CLUSTER = {"color": "#7c3aed", "fontcolor": "#5b21b6", "fillcolor": "#f5f3ff"}


def quote(text):
    """A DOT double-quoted string: backslashes and quotes escaped, newlines kept as line breaks."""
    return '"%s"' % str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def ops_text(n):
    return "%d op%s" % (n, "" if n == 1 else "s")


def human_bytes(n):
    for unit, size in (("GiB", 1 << 30), ("MiB", MIB), ("KiB", 1 << 10)):
        if n >= size:
            return "%.1f %s" % (n / size, unit)
    return "%d B" % n


def human_micros(us):
    if us >= 1_000_000:
        return "%.2f s" % (us / 1e6)
    if us >= 1000:
        return "%.1f ms" % (us / 1e3)
    return "%d µs" % us


def _attrs(d):
    return "[%s]" % ", ".join("%s=%s" % (k, quote(v)) for k, v in d.items())


def _leaf(path, container):
    if container and path.startswith(container + "/"):
        return path[len(container) + 1:]
    return path.rpartition("/")[2] if container is not None else path


def queue_runner_threads(node):
    """How many enqueue threads the graph's queue runners start for this queue node (0: none, or not a
    queue). Only for live graphs: a GraphDef does not hold its queue runners."""
    op = node.source
    if op is None or node.type not in QUEUE_TYPES:
        return 0
    return sum(len(qr.enqueue_ops) for qr in op.graph.get_collection("queue_runners")
               if qr._queue_op is op)


def _edge_label(tensor):
    """A tensor's shape, or "handle" for a resource variable's handle (a scalar that stands for the variable:
    its shape would read as the variable's)."""
    if tensor.source is not None and tensor.dtype == "resource":
        return "handle"
    return tensor.shape


def node_attrs(unit, overlay, show_shapes, marks=None):
    """Label and style of one box; the overlay fades it or marks it as run / fetched / fed; ``marks`` (the
    highlighted ops' names) draws the boxes holding them in amber and fades the others."""
    a = dict(STYLES[unit.role])
    n = len(unit.members)
    first = unit.members[0]
    if unit.kind == "op":
        leaf = first.name.rpartition("/")[2]
        lines = [leaf] if leaf == first.type else [leaf, first.type]
        if first.const is not None:
            shape, dtype, nbytes = first.const
            lines = [leaf, "%s %s" % (shape, dtype), human_bytes(nbytes)]
            if nbytes >= MIB:
                lines[2] = "LARGE " + lines[2]
                a.update(BIG_CONSTANT)
        tooltip = "%s (%s)" % (first.name, first.type)
        runners = queue_runner_threads(first)
        if runners:
            lines.append("QueueRunner: %d thread%s" % (runners, "s" if runners > 1 else ""))
            a.update({"penwidth": "2"})
    elif unit.kind == "scope" and unit.op_type in VARIABLE_TYPES:
        leaf = unit.name.rpartition("/")[2]
        shape = variable_shape(unit, variable_of(unit))
        lines = [leaf, "variable " + shape if shape else "variable"]
        tooltip = "variable %s (%s) with its initializer, assignment and reads: %s, collapsed (%s)" % (
            unit.name, unit.op_type, ops_text(n), unit.reason)
    elif unit.kind == "scope":
        leaf = unit.name.rpartition("/")[2]
        lines = [leaf, ops_text(n)]
        a.update({"shape": "folder", "style": "filled"})
        tooltip = "scope %s: %s, collapsed (%s)" % (unit.name, ops_text(n), unit.reason)
        loop = loop_kind(unit.name, loop_frames(unit.members))
        if loop:
            lines[0] = "%s ↻ %s" % (leaf, loop)
            a.update({"color": LOOP_CLUSTER["color"]})
            tooltip += "; a %s: its ops run once per iteration" % loop
        big = sum(m.const[2] for m in unit.members if m.const is not None and m.const[2] >= MIB)
        if big:
            lines.append("LARGE consts " + human_bytes(big))
            a.update(BIG_CONSTANT)
    elif unit.kind == "series":
        label = "%s ×%d" % (unit.name, unit.count)
        if unit.op_type is None:
            lines = [label, "scopes, %s" % ops_text(n)]
            if unit.like:
                lines.append("each like %s" % unit.like.rpartition("/")[2])
            a.update({"shape": "folder", "style": "filled"})
        else:
            lines = [label] if unit.name == unit.op_type else [label, unit.op_type]
        a["peripheries"] = "2"
        tooltip = "series %s: %d members" % (unit.name, unit.count)
    elif unit.kind == "bucket":
        if unit.op_type is None:
            lines = [unit.name, "%d scopes, %s" % (unit.count, ops_text(n))]
            a.update({"shape": "folder", "style": "filled,dashed"})
        else:
            lines = ["%s ×%d" % (unit.name, n), "(grouped by type)"]
        a["style"] = a.get("style", "filled") + ",dashed"
        tooltip = "%d ops (%s) in %s, grouped to keep the drawing small" % (
            n, unit.name, unit.container or "top level")
    elif unit.kind == "loop":
        kinds = []
        for m in unit.members:
            if m.type not in kinds:
                kinds.append(m.type)
        lines = ["↻ loop routing", ops_text(n) + ": " + ", ".join(kinds[:3]), ", ".join(kinds[3:])]
        lines = [line for line in lines if line]
        a.update({"shape": "octagon", "style": "filled,dashed", "color": LOOP_CLUSTER["color"],
                  "fontcolor": LOOP_CLUSTER["fontcolor"], "fillcolor": "#ffffff", "fontsize": "10"})
        tooltip = ("%s: the loop's %s (%s), drawn as one box: they carry each loop variable into, around and "
                   "out of the frame" % (unit.name, ops_text(n), ", ".join(kinds)))
    else:  # external stub with a focus scope: its last two name parts (the tooltip has the whole name)
        def short(name):
            parts = name.split("/")
            return name if len(parts) <= 2 else "…/" + "/".join(parts[-2:])
        lines = [short(first.name)]
        if n > 1:       # merged stubs: the ops outside the focused scope that feed it, or that read from it
            shown = [short(m.name) for m in unit.members[:6]]
            lines = ["%s (%d, outside)" % (unit.name, n)] + shown + (["and %d more" % (n - 6)] if n > 6 else [])
        a.update({"style": "dashed", "fontsize": "10", "fontcolor": "#6b7280", "color": "#9ca3af"})
        a.pop("fillcolor", None)
        tooltip = "%s, outside the focused scope" % ", ".join("%s (%s)" % (m.name, m.type) for m in unit.members)
    if overlay is not None and unit.kind != "external":
        ran = sum(1 for m in unit.members if m.name in overlay.active)
        if ran == 0:
            a.update(FADED)
            a.pop("penwidth", None)
            if any(m.name in overlay.skipped for m in unit.members):
                lines.append("skipped: unread")
                tooltip += "; pruned in but skipped: stateless, and only control edges lead to it"
            elif any(m.name in overlay.dead for m in unit.members):
                lines.append("dead: branch not taken")
                tooltip += "; pruned in but dead: on the side of a tf.cond this run did not take"
        else:
            if unit.role == "control" and unit.kind != "loop":
                a.update(ACTIVE_CONTROL)
            a["penwidth"] = a.get("penwidth", "2")
            if n > 1:
                lines.append("%d/%d run" % (ran, n))
            us = sum(overlay.times.get(m.name, 0) for m in unit.members)
            if any(m.name in overlay.times for m in unit.members):
                lines.append(human_micros(us))
        if any(m.name in overlay.fetched for m in unit.members):
            a["peripheries"] = "2"
            a["color"] = "#b91c1c"
            lines.append("fetched")
        if any(t.name in overlay.fed for m in unit.members for t in m.outputs):
            lines.append("fed")
            a["color"] = FED_EDGE["color"]
        if overlay.unfed and any(m.name in overlay.unfed for m in unit.members):
            lines.append("NOT FED")
            a.update(UNFED)
            a["style"] = a.get("style", "filled") + ",dashed"
    if marks is not None and unit.kind != "external":
        hits = [m for m in unit.members if m.name in marks]
        if hits:
            a.update(HIGHLIGHT)
            if unit.kind != "op":
                types = {}
                for m in hits:
                    types[m.type] = types.get(m.type, 0) + 1
                lines.append("holds " + ", ".join("%d %s" % (k, t) for t, k in sorted(types.items())))
        else:
            a.update(FADED)
            a.pop("penwidth", None)
    a["label"] = "\n".join(lines)
    a["tooltip"] = tooltip
    return a


def loop_frames(nodes):
    """Scopes that are a while loop's frame: where a LoopCond is drawn (``while/LoopCond``; a gradient loop's
    LoopCond, ``gradients/b_count_2``, is drawn inside ``gradients/while``, the frame it runs in)."""
    return frozenset(n.path.rpartition("/")[0] for n in nodes if n.type == "LoopCond")


def loop_kind(scope, frames):
    """"while loop" when ``scope`` is a loop frame, "gradient loop" for the gradient of one (TF names the
    gradient loop after the forward loop, under ``gradients``), else None."""
    if scope not in frames:
        return None
    return "gradient loop" if scope.partition("/")[0].startswith("gradients") else "while loop"


def edge_attrs(src, dst, kind, items, overlay, show_shapes, marks=None):
    if kind == "ctrl":
        a = dict(CTRL_EDGE)
    elif kind == "next":
        a = dict(NEXT_EDGE)
        a["label"] = "next iteration"
        a["tooltip"] = "NextIteration -> Merge: the value the loop's next iteration starts from"
    else:
        a = {}
        seen = {}
        for t in items:
            seen.setdefault(t.name, t)
        tensors = list(seen.values())
        if show_shapes:
            shapes = sorted({_edge_label(t) for t in tensors if _edge_label(t) is not None})
            if len(tensors) == 1:
                if _edge_label(tensors[0]) is not None:
                    a["label"] = _edge_label(tensors[0])
            elif len(shapes) == 1:
                a["label"] = "%d× %s" % (len(tensors), shapes[0])
            else:
                a["label"] = "%d tensors" % len(tensors)
        if overlay is not None:
            fed = [t for t in tensors if t.name in overlay.fed]
            if fed and _feeds_active(fed, dst, overlay):
                a.update(FED_EDGE)
                a["label"] = "cut: fed " + ", ".join(t.name for t in fed[:2]) + (
                    " " + a["label"] if "label" in a else "")
                return a
    if dst.kind == "loop" and src.kind != "loop" and (src.container or "").startswith(dst.name) and kind != "ctrl":
        # a value the loop body hands back to the frame's routing (NextIteration, LoopCond): a back edge,
        # left out of the ranking so the loop reads top to bottom
        a["constraint"] = "false"
    if overlay is not None:
        src_on = any(m.name in overlay.active for m in src.members)
        dst_on = any(m.name in overlay.active for m in dst.members)
        if not (src_on and dst_on):
            a["color"] = "#e5e7eb"
            a["fontcolor"] = "#d1d5db"
        else:
            a["penwidth"] = "1.6"
    if marks is not None:
        src_on = any(m.name in marks for m in src.members)
        dst_on = any(m.name in marks for m in dst.members)
        if src_on or dst_on:
            a["color"] = HIGHLIGHT["color"]
            a["penwidth"] = "2"
        else:
            a["color"] = "#e5e7eb"
            a["fontcolor"] = "#d1d5db"
    return a


def _feeds_active(fed, dst, overlay):
    """Whether an op that runs consumes one of these fed tensors: only those edges are drawn as cuts, a fed
    tensor's edges into ops outside the run stay faded like the rest."""
    names = set(t.name for t in fed)
    return any(m.name in overlay.active and any(t.name in names for t in m._inputs) for m in dst.members)


def to_dot(layout, overlay, caption, show_shapes=True, rankdir="TB", stack=False, node_hook=None):
    """DOT text; ``node_hook(unit, attrs)``, when given, may restyle each box after the usual styling
    (``render(color_by="device")`` fills boxes by device with one); ``stack``: see stacking_edges."""
    out = ['digraph graphlab {',
           '  graph %s;' % _attrs({"rankdir": rankdir, "nodesep": "0.25", "ranksep": "0.35", "fontname":
                                  "Helvetica", "fontsize": "10", "labelloc": "t", "labeljust": "l",
                                  "label": caption, "compound": "true"}),
           '  node [fontname="Helvetica", fontsize="11", margin="0.08,0.03", height="0.3"];',
           '  edge [fontname="Helvetica", fontsize="9", fontcolor="#6b7280", arrowsize="0.6"];']
    root = ""
    children = {}           # cluster path -> child cluster paths, in first-seen order
    known = {root}
    units_in = {}           # cluster path -> units drawn directly inside it
    containers = set()
    for u in layout.units:
        c = u.container
        while c and c not in containers:
            containers.add(c)
            c = c.rpartition("/")[0]
    for u in layout.units:
        c = u.container if u.container is not None else root
        if u.kind == "op" and u.name in containers:
            c = u.name      # the op `y` is drawn inside the cluster of scope `y/`, as TensorBoard does
        units_in.setdefault(c, []).append(u)
        while c not in known:
            known.add(c)
            parent = root if (layout.focus and c == layout.focus) else c.rpartition("/")[0]
            children.setdefault(parent, []).append(c)
            c = parent
    types = loop_frames(m for u in layout.units for m in u.members)
    _emit(out, root, children, units_in, layout, overlay, show_shapes, "  ", types, node_hook)
    by_id = {u.id: u for u in layout.units}
    marks = getattr(layout, "highlight", None)
    for (src, dst, kind), items in layout.edges.items():
        attrs = edge_attrs(by_id[src], by_id[dst], kind, items, overlay, show_shapes, marks)
        out.append("  %s -> %s %s;" % (quote(src), quote(dst), _attrs(attrs)))
    if stack:
        for src, dst in stacking_edges(layout):
            out.append("  %s -> %s [style=\"invis\"];" % (quote(src), quote(dst)))
    out.append("}")
    return "\n".join(out) + "\n"


def stacking_edges(layout):
    """Invisible edges that put the parts of a drawing sharing no edge one below the other (Graphviz puts
    them side by side): from the last box of each part to the first box of the next, parts in creation
    order. Small parts (a lone placeholder) are gathered first so they stack as one row, not a tall column."""
    parent = {u.id: u.id for u in layout.units}

    def root(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i
    for src, dst, _ in layout.edges:
        parent[root(src)] = root(dst)
    parts = {}
    for u in layout.units:
        parts.setdefault(root(u.id), []).append(u)
    groups = sorted(parts.values(), key=lambda us: min(u.order for u in us))
    if len(groups) < 2:
        return []
    singles = [g for g in groups if len(g) == 1]
    rows = [g for g in groups if len(g) > 1]
    if singles:
        rows.insert(0, [g[0] for g in singles])         # lone boxes: one row on top
    has_in = {dst for _, dst, _ in layout.edges}
    has_out = {src for src, _, _ in layout.edges}
    out = []
    for upper, lower in zip(rows, rows[1:]):
        sinks = [u for u in upper if u.id not in has_out] or upper
        sources = [u for u in lower if u.id not in has_in] or lower
        for s in sinks[:3]:
            out.append((s.id, min(sources, key=lambda u: u.order).id))
    return out


def _emit(out, path, tree, units_in, layout, overlay, show_shapes, indent, types, node_hook=None):
    for u in units_in.get(path, ()):
        attrs = node_attrs(u, overlay, show_shapes, getattr(layout, "highlight", None))
        if node_hook is not None:
            node_hook(u, attrs)
        out.append("%s%s %s;" % (indent, quote(u.id), _attrs(attrs)))
    for child in tree.get(path, ()):
        leaf = _leaf(child, path)
        style = {"label": leaf, "tooltip": child, "style": "rounded,filled", "fillcolor": "#f8fafc",
                 "color": "#cbd5e1", "fontcolor": "#475569"}
        loop = loop_kind(child, types)
        if loop:     # a loop's frame: one cluster, marked (TensorBoard draws a loop as one group too)
            style.update(LOOP_CLUSTER)
            style["label"] = "%s  ↻ %s" % (leaf, loop)
            if overlay is not None and child in overlay.iterations:
                from graphlab.viz.overlay import iterations_text
                style["label"] += ", ran " + iterations_text(overlay.iterations[child])
            style["tooltip"] = "%s: a %s frame; its ops run once per iteration" % (child, loop)
        out.append("%ssubgraph %s {" % (indent, quote("cluster_" + child)))
        out.append("%s  graph %s;" % (indent, _attrs(style)))
        _emit(out, child, tree, units_in, layout, overlay, show_shapes, indent + "  ", types, node_hook)
        out.append("%s}" % indent)
