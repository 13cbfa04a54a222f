"""Deciding what becomes a box: each op is drawn alone, inside a collapsed scope node, inside a series node
(``Const ×12``), or, for huge flat graphs, inside a per-type bucket. The decisions follow the caller's options
first (focus scope, depth, collapse/expand lists, bookkeeping scopes), then shrink the picture to about
``max_nodes`` boxes by collapsing deeper scope levels, and record every collapse so the caption can say it."""
import fnmatch
import re

from graphlab.viz.roles import bookkeeping_kind, role_of, scope_role
from graphlab.viz.variables import variable_of

SERIES_MIN = 5                      # TensorBoard groups a series of 5 or more same-type, numbered ops
SMALL_SCOPE = 4                     # scopes this small stay open when the box budget allows it
_SUFFIX = re.compile(r"^(.*?)_(\d+)$")
_SCOPE_SUFFIX = re.compile(r"^(.*?)_?(\d+)$")   # scopes: `block7` as well as `add_7`


class Unit:
    """One box in the drawing and the ops it stands for."""

    __slots__ = ("id", "kind", "name", "members", "container", "role", "reason", "op_type", "count", "order",
                 "like")

    def __init__(self, uid, kind, name, container, role, reason=None, op_type=None):
        self.id = uid              # stable DOT id, e.g. "op:a/b", "scope:gradients", "series:/Const:Const"
        self.kind = kind           # "op", "scope", "series", "bucket" or "external"
        self.name = name           # full op name, scope path, or series base name
        self.members = []
        self.container = container  # scope path of the cluster this box sits in ("" = top level)
        self.role = role
        self.reason = reason       # why a scope is collapsed: requested, bookkeeping, depth, auto
        self.op_type = op_type
        self.count = 0             # for series of scopes: how many scopes
        self.order = 0
        self.like = None           # a series of repeated scopes: the open scope they all look like


class Layout:
    """The result of grouping: boxes in a stable order, node name -> box, and the edges between boxes."""

    def __init__(self):
        self.units = []
        self.unit_of = {}
        self.edges = {}            # (src id, dst id, "data"|"next"|"ctrl") -> [TensorView...] or [None...]
        self.hidden = []
        self.focus = None
        self.auto_level = None     # relative scope depth auto-collapse used, None when not needed
        self.bucketed = False
        self.folded = False        # loop frames' routing ops drawn as one box each
        self.members = 0           # ops inside the drawn part of the graph
        self.open_scopes = {}      # scope path -> (relative level, op count) of every scope drawn as a cluster
        self.highlight = None      # names of the ops to emphasise (None: no emphasis, nothing faded)


def parse_collapse(collapse):
    """``collapse``: "bookkeeping" (default), True, a scope name, or a list of scope names that may include
    "bookkeeping"; None/False/() collapse nothing explicitly. Returns (bookkeeping?, explicit scopes)."""
    if collapse is None or collapse is False:
        return False, frozenset()
    if collapse is True:
        return True, frozenset()
    if isinstance(collapse, str):
        collapse = [collapse]
    names = set(s.strip("/") for s in collapse)
    bookkeeping = "bookkeeping" in names
    names.discard("bookkeeping")
    return bookkeeping, frozenset(names)


def _hidden(node, role, hide):
    for h in hide:
        if h == role or h == node.type:
            return True
        if h == "init" and (node.name == "init" or "/Initializer/" in node.name + "/"
                            or node.name.endswith("/Assign") and node.type == "Assign"):
            return True
        if "*" in h or "?" in h or "[" in h:
            if fnmatch.fnmatchcase(node.name, h):
                return True
        elif node.name == h.rstrip("/") or node.name.startswith(h.rstrip("/") + "/"):
            return True
    return False


def place_in_frames(view):
    """Draw each op in the loop frame it runs in, as TensorBoard draws frames: an op whose name is outside
    its frame's scope (``gradients/while/mul_grad/Mul_1/StackPushV2`` runs in ``while``) gets the drawing
    path ``while/gradients/StackPushV2``; the ops a gradient puts into a forward frame stay together under
    its bookkeeping scope's name, so they collapse like the rest of the gradient."""
    for n in view.nodes:
        frame = n.frame
        if frame and not n.name.startswith(frame + "/"):
            head, _, rest = n.name.partition("/")
            group = rest and bookkeeping_kind(head) and not frame.startswith(head + "/")
            n.path = frame + "/" + (head + "/" if group else "") + n.name.rpartition("/")[2]


def with_ancestors(paths):
    """``gradients/while`` opens ``gradients`` too: a scope can only be drawn open inside open parents."""
    out = set()
    for p in paths:
        p = p.strip("/")
        while p:
            out.add(p)
            p = p.rpartition("/")[0]
    return frozenset(out)


def group(view, scope=None, depth=None, collapse="bookkeeping", expand=(), group_series=True, hide=(),
          max_nodes=200, closed=(), fold_loops=False, merge_stubs=False):
    """``closed``: more scopes to draw as one box (render's width fitting chooses them; reason "width").
    ``fold_loops``: each loop frame's Enter/Merge/Switch/Exit/NextIteration/LoopCond ops become one box.
    ``merge_stubs``: with a focus scope, the ops outside it become two boxes (feeding it, reading from it)."""
    layout = Layout()
    bookkeeping, explicit = parse_collapse(collapse)
    if isinstance(expand, str):
        expand = [expand]
    expand = with_ancestors(expand or ())
    closed = frozenset(closed or ())
    if isinstance(hide, str):
        hide = [hide]
    hide = tuple(hide or ())
    roles = {}
    visible = []
    for n in view.nodes:
        r = role_of(n)
        roles[n.name] = r
        if hide and _hidden(n, r, hide):
            layout.hidden.append(n)
        else:
            visible.append(n)

    focus = scope.strip("/") if scope else None
    base = 0
    if focus:
        base = focus.count("/") + 1
        prefix = focus + "/"
        members = [n for n in visible if n.path.startswith(prefix)]
        if not members:
            tops = sorted({n.name.split("/")[0] for n in visible if "/" in n.name})
            raise ValueError("No ops in scope %r; scopes at the top level are: %s" % (
                focus, ", ".join(tops[:30]) or "(none)"))
    else:
        members = visible
    layout.focus = focus
    layout.members = len(members)

    # per node: its scope prefixes below the focus, as (path, component, relative level)
    chains = []
    max_rel = 0
    chain_of_scope = {}     # many ops share a scope: build each scope's chain once
    for n in members:
        parent = n.path.rpartition("/")[0]
        chain = chain_of_scope.get(parent)
        if chain is None:
            parts = n.path.split("/")
            chain = []
            path = focus or ""
            for i in range(base, len(parts) - 1):
                path = parts[i] if not path else path + "/" + parts[i]
                chain.append((path, bookkeeping_kind(parts[i]), i - base))
            chain_of_scope[parent] = chain
        chains.append(chain)
    # an op named like a scope (`y` next to `y/y`, a slot variable `v/Adam` next to `v/Adam/read`) belongs
    # to that scope: when the scope collapses, the op goes into the same box
    scope_paths = set(p for chain in chain_of_scope.values() for p, _, _ in chain)
    for k, n in enumerate(members):
        if n.path in scope_paths and (not focus or n.path != focus):
            leaf = n.path.rpartition("/")[2]
            chains[k] = chains[k] + [(n.path, bookkeeping_kind(leaf), len(chains[k]))]
    for chain in chains:
        if len(chain) > max_rel:
            max_rel = len(chain)
    # a resource variable's own scope (its VarHandleOp, initializer, checks and every read) starts closed
    # with the bookkeeping, drawn as the variable: Keras makes one per weight, each a dozen ops
    resource_vars = frozenset(n.path for n in members if n.type == "VarHandleOp") if bookkeeping else frozenset()
    signature = _Signatures(members, chains)
    repeated_first = _repeated_scopes(chains, signature) if group_series else {}
    repeated = frozenset(repeated_first)

    def assign(cap, keep_open=frozenset()):
        keys = []
        for chain in chains:
            key = None
            for path, kind, rel in chain:
                if path in closed:              # render's width fitting; never a scope the caller opened
                    key = (path, "width")
                elif path in expand:
                    continue
                elif path in explicit:
                    key = (path, "requested")
                elif bookkeeping and kind:
                    key = (path, "bookkeeping")
                elif path in resource_vars:
                    key = (path, "variable")
                elif path in repeated:
                    key = (path, "repeated")
                elif depth is not None and rel >= depth:
                    key = (path, "depth")
                elif cap is not None and rel >= cap and path not in keep_open:
                    key = (path, "auto")
                else:
                    continue
                break
            keys.append(key)
        return keys

    def series_of(keys):
        """Group numbered ops / collapsed scopes of one kind in one container: key -> series key."""
        candidates = {}
        seen_scopes = set()
        for n, key in zip(members, keys):
            if key is None:
                leaf_path, kind, t = n.path, "op", n.type
            else:
                if key[0] in seen_scopes:
                    continue
                seen_scopes.add(key[0])
                leaf_path, kind, t = key[0], "scope", None
            container, _, leaf = leaf_path.rpartition("/")
            if kind == "scope":
                # scopes of a series also share their contents (the multiset of their op types)
                m = _SCOPE_SUFFIX.match(leaf)
                t = signature(leaf_path)
            else:
                m = _SUFFIX.match(leaf)
            stem = m.group(1) if m else leaf
            candidates.setdefault((container, kind, t, stem), []).append(leaf_path)
        series = {}
        for skey, paths in candidates.items():
            if len(paths) >= SERIES_MIN - (skey[1] == "scope" and paths[0] in repeated) and \
                    len(set(paths)) == len(paths):
                numbered = sum(1 for p in paths if (_SCOPE_SUFFIX if skey[1] == "scope" else _SUFFIX).match(
                    p.rpartition("/")[2]))
                if numbered >= SERIES_MIN - 1:
                    for p in paths:
                        series[(skey[1], p)] = skey
        return series

    def count(keys, series):
        boxes = set()
        for n, key in zip(members, keys):
            if key is None:
                boxes.add(series.get(("op", n.path)) or ("op", n.name))
            else:
                boxes.add(series.get(("scope", key[0])) or key[0])
        return len(boxes)

    keys = assign(None)
    series = series_of(keys) if group_series else {}
    if max_nodes is not None and count(keys, series) > max_nodes:
        chosen = None
        for cap in range(max_rel - 1, -1, -1):
            trial = assign(cap)
            trial_series = series_of(trial) if group_series else {}
            if count(trial, trial_series) <= max_nodes:
                chosen = (cap, trial, trial_series)
                break
        if chosen is None:
            trial = assign(0)
            chosen = (0, trial, series_of(trial) if group_series else {})
        layout.auto_level, keys, series = chosen
        if max_rel == 0 and layout.auto_level == 0:
            layout.auto_level = None
        keys, series = _reopen_small(keys, series, members, assign, series_of, count, max_nodes,
                                     layout.auto_level, group_series)

    for chain, key in zip(chains, keys):
        for path, _, rel in chain:
            if key is not None and path == key[0]:
                break
            if path not in layout.open_scopes:
                layout.open_scopes[path] = (rel, signature.size(path))

    units = {}
    scope_sets = {}
    series_uids = {}
    for n, key in zip(members, keys):
        if key is None:
            skey = series.get(("op", n.path))
            if skey is None:
                uid = "op:" + n.name
                unit = units.get(uid)
                if unit is None:
                    unit = units[uid] = Unit(uid, "op", n.name, n.path.rpartition("/")[0], roles[n.name],
                                             op_type=n.type)
            else:
                container, _, t, stem = skey
                uid = "series:%s/%s:%s" % (container, stem, t)
                unit = units.get(uid)
                if unit is None:
                    unit = units[uid] = Unit(uid, "series", stem, container, roles[n.name], op_type=t)
                unit.count += 1
        else:
            path, reason = key
            skey = series.get(("scope", path))
            if skey is None:
                uid = "scope:" + path
                unit = units.get(uid)
                if unit is None:
                    kind = bookkeeping_kind(path.rpartition("/")[2])
                    unit = units[uid] = Unit(uid, "scope", path, path.rpartition("/")[0],
                                             scope_role(kind), reason)
            else:
                container, _, _, stem = skey
                uid = series_uids.get(skey)
                if uid is None:     # two series with one stem but other contents get distinct ids
                    uid = base = "series:%s/%s:scope" % (container, stem)
                    while uid in units:
                        uid = "%s#%d" % (base, len(series_uids) + 1)
                    series_uids[skey] = uid
                unit = units.get(uid)
                if unit is None:
                    unit = units[uid] = Unit(uid, "series", stem, container, "compute", reason)
                    unit.like = repeated_first.get(path)
                scope_sets.setdefault(uid, set()).add(path)
                unit.count = len(scope_sets[uid])
        unit.members.append(n)
        layout.unit_of[n.name] = unit

    for unit in units.values():     # a variable's own scope, closed, is drawn as the variable
        if unit.kind == "scope" and unit.role == "compute":
            var = variable_of(unit)
            if var is not None:
                unit.role, unit.op_type = "state", var.type
    if fold_loops:
        _fold_loop_control(layout, units, members)
    if max_nodes is not None and len(units) > max_nodes:
        _bucket(layout, units, max_nodes)

    ordered = sorted(units.values(), key=lambda u: u.members[0]._id)
    for i, u in enumerate(ordered):
        u.order = i
    layout.units = ordered
    if focus:
        _externals(layout, visible, members, merge_stubs)
    _edges(layout, view)
    return layout


class _Signatures:
    """What a scope holds, as the multiset of its op types: scopes built by one function in a loop share it.
    Counted once for every scope (one pass over the ops), turned into a hashable tuple on demand."""

    def __init__(self, members, chains):
        self.counts = {}
        for n, chain in zip(members, chains):
            for path, _, _ in chain:
                c = self.counts.get(path)
                if c is None:
                    c = self.counts[path] = {}
                c[n.type] = c.get(n.type, 0) + 1
        self.cache = {}

    def __call__(self, path):
        sig = self.cache.get(path)
        if sig is None:
            sig = self.cache[path] = tuple(sorted(self.counts.get(path, {}).items()))
        return sig

    def size(self, path):
        return sum(self.counts.get(path, {}).values())


def _repeated_scopes(chains, signature):
    """Sibling scopes that repeat one structure (``block0 … block49``, ``add, add_1 … add_2499``: same stem,
    same op types): 5 or more of them become one series box, even when there is room to draw them all, because
    fifty copies side by side make a strip nobody can read. The first stays open as the example.
    Returns {scope path: first scope of its series} for the scopes to group (the first is not included)."""
    groups = {}
    seen = set()
    for chain in chains:
        for path, kind, _ in chain:
            if path in seen:
                continue
            seen.add(path)
            if kind:            # bookkeeping scopes have their own rule
                continue
            container, _, leaf = path.rpartition("/")
            m = _SCOPE_SUFFIX.match(leaf)
            stem = m.group(1) if m else leaf
            groups.setdefault((container, stem), []).append(path)
    out = {}
    for paths in groups.values():
        if len(paths) < SERIES_MIN:
            continue
        by_sig = {}
        for p in paths:
            by_sig.setdefault(signature(p), []).append(p)
        for same in by_sig.values():
            numbered = sum(1 for p in same if _SCOPE_SUFFIX.match(p.rpartition("/")[2]))
            if len(same) >= SERIES_MIN and numbered >= SERIES_MIN - 1:
                for p in same[1:]:
                    out[p] = same[0]
    return out


def _reopen_small(keys, series, members, assign, series_of, count, max_nodes, cap, group_series):
    """After collapsing to fit ``max_nodes``: scopes of at most SMALL_SCOPE ops cost about as many boxes open as
    closed, and a folder saying "4 ops" hides the very thing drawn; reopen them when the budget allows."""
    if cap is None:
        return keys, series
    small = set()
    for key in keys:
        if key is not None and key[1] == "auto" and key[0] not in small:
            small.add(key[0])
    sizes = {}
    for n, key in zip(members, keys):
        if key is not None and key[0] in small:
            sizes[key[0]] = sizes.get(key[0], 0) + 1
    small = frozenset(p for p, k in sizes.items() if k <= SMALL_SCOPE)
    if not small:
        return keys, series
    trial = assign(cap, small)
    trial_series = series_of(trial) if group_series else {}
    if count(trial, trial_series) <= max_nodes:
        return trial, trial_series
    return keys, series


LOOP_CONTROL = frozenset(["Enter", "RefEnter", "Merge", "RefMerge", "Switch", "RefSwitch", "Exit", "RefExit",
                          "NextIteration", "RefNextIteration", "LoopCond"])


def _fold_loop_control(layout, units, members):
    """A loop frame's routing ops (one Enter, Merge, Switch, Exit and NextIteration per loop variable, and
    the LoopCond) become one box inside the frame, so the drawing shows what the loop computes; the frame's
    cluster still says it is a loop. Ops of a frame nested inside are folded into that frame's box."""
    frames = sorted({n.path.rpartition("/")[0] for n in members if n.type == "LoopCond"}, key=len, reverse=True)
    if not frames:
        return
    for uid, u in sorted(units.items(), key=lambda kv: kv[1].members[0]._id):
        if u.kind not in ("op", "series") or u.op_type not in LOOP_CONTROL:
            continue
        path = u.members[0].path
        frame = next((f for f in frames if path.startswith(f + "/")), None)
        if frame is None:
            continue
        fid = "loop:" + frame
        box = units.get(fid)
        if box is None:
            box = units[fid] = Unit(fid, "loop", frame, frame, "control")
        del units[uid]
        box.members.extend(u.members)
        for m in u.members:
            layout.unit_of[m.name] = box
    for u in units.values():
        if u.kind == "loop":
            u.members.sort(key=lambda m: m._id)
            u.count = len(u.members)
    layout.folded = True


def _bucket(layout, units, max_nodes):
    """Last resort for flat graphs: merge single ops of one type in one container, biggest groups first."""
    groups = {}
    for u in units.values():
        if u.kind == "op":
            groups.setdefault((u.container, u.op_type), []).append(u)
    excess = len(units) - max_nodes
    for (container, t), group_units in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        if excess <= 0 or len(group_units) < 2:
            break
        uid = "bucket:%s/%s" % (container, t)
        bucket = Unit(uid, "bucket", t, container, group_units[0].role, "auto", op_type=t)
        for u in group_units:
            del units[u.id]
            bucket.members.extend(u.members)
        bucket.members.sort(key=lambda m: m._id)
        bucket.count = len(bucket.members)
        for m in bucket.members:
            layout.unit_of[m.name] = bucket
        units[uid] = bucket
        excess -= len(group_units) - 1
        layout.bucketed = True
    if excess > 0:
        _bucket_scopes(layout, units, excess)


def _bucket_scopes(layout, units, excess):
    """Still too many boxes (hundreds of distinct scopes side by side): merge neighbouring collapsed scopes
    of one container, in creation order, into ranges ``first … last``."""
    groups = {}
    for u in sorted(units.values(), key=lambda u: u.members[0]._id):
        if u.kind in ("scope", "series") and u.reason is not None:
            groups.setdefault(u.container, []).append(u)
    for container, group_units in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        if excess <= 0 or len(group_units) < 2:
            break
        target = max(1, len(group_units) - excess)
        size = -(-len(group_units) // target)
        for start in range(0, len(group_units), size):
            chunk = group_units[start:start + size]
            if len(chunk) < 2:
                continue
            first, last = chunk[0].name.rpartition("/")[2], chunk[-1].name.rpartition("/")[2]
            uid = "range:%s/%s..%s" % (container, first, last)
            bucket = Unit(uid, "bucket", "%s … %s" % (first, last), container, "compute", "auto")
            bucket.count = len(chunk)
            for u in chunk:
                del units[u.id]
                bucket.members.extend(u.members)
            bucket.members.sort(key=lambda m: m._id)
            for m in bucket.members:
                layout.unit_of[m.name] = bucket
            units[uid] = bucket
            excess -= len(chunk) - 1
        layout.bucketed = True


def _externals(layout, visible, members, merge=False):
    """With a focus scope: ops outside it that feed it or consume from it, as small stubs (``merge``: all
    that feed it in one box, all that read from it in another, so a wide row of stubs becomes two boxes)."""
    inside = layout.unit_of
    externals = {}
    member_set = set(m.name for m in members)
    for n in members:
        for t in n._inputs:
            p = t._op
            if p.name not in inside and p.name not in externals:
                externals[p.name] = p
        for c in n._control_inputs:
            if c.name not in inside and c.name not in externals:
                externals[c.name] = c
    hidden = set(h.name for h in layout.hidden)
    for n in visible:
        if n.name in member_set or n.name in externals:
            continue
        if any(t._op.name in member_set for t in n._inputs) or any(c.name in member_set for c in n._control_inputs):
            externals[n.name] = n
    for name in sorted(externals, key=lambda k: externals[k]._id):
        if name in hidden:
            continue
        n = externals[name]
        if merge:
            feeds = any(t._op.name == name for m in members for t in m._inputs) or any(
                c.name == name for m in members for c in m._control_inputs)
            uid = "ext:(inputs)" if feeds else "ext:(outputs)"
            u = layout.unit_of.get(name) or next((x for x in layout.units if x.id == uid), None)
            if u is None:
                u = Unit(uid, "external", "ops feeding it" if feeds else "ops reading from it", None, "compute")
                u.order = len(layout.units)
                layout.units.append(u)
            u.members.append(n)
            layout.unit_of[name] = u
            continue
        u = Unit("ext:" + name, "external", name, None, role_of(n), op_type=n.type)
        u.members.append(n)
        u.order = len(layout.units)
        layout.units.append(u)
        layout.unit_of[name] = u


def _edges(layout, view):
    unit_of = layout.unit_of
    edges = layout.edges
    for unit in layout.units:
        for n in unit.members:
            dst = unit.id
            for t in n._inputs:
                src = unit_of.get(t._op.name)
                if src is None or src is unit or (src.kind == unit.kind == "external"):
                    continue
                kind = "next" if _is_back_edge(n, t) else "data"
                edges.setdefault((src.id, dst, kind), []).append(t)
            for c in n._control_inputs:
                src = unit_of.get(c.name)
                if src is None or src is unit or (src.kind == unit.kind == "external"):
                    continue
                edges.setdefault((src.id, dst, "ctrl"), []).append(c)


def _is_back_edge(node, tensor):
    """A while loop's back edge: the NextIteration value a loop's Merge takes in the next iteration."""
    return node.type in ("Merge", "RefMerge") and tensor._op.type in ("NextIteration", "RefNextIteration")
