"""Helping with a wrong name given to a magic: close matches (difflib) among the graph's names, with numbered
series such as ``add, add_1 .. add_N`` folded into ``add ×N`` so a message stays one line."""
import collections
import difflib
import re

_NUMBERED = re.compile(r"^(.*)_(\d+)$")


def fold(names):
    """``['add', 'add_1', 'add_2', 'x']`` -> ``['add ×3', 'x']`` (creation order kept)."""
    counts = collections.OrderedDict()
    for name in names:
        m = _NUMBERED.match(name)
        base = m.group(1) if m else name
        counts[base] = counts.get(base, 0) + 1
    return ["%s ×%d" % (b, n) if n > 1 else b for b, n in counts.items()]


def close_matches(word, names, limit=5):
    """Up to ``limit`` folded names close to ``word`` (series stems count as one candidate)."""
    folded = fold(names)
    stems = {f.split(" ×")[0]: f for f in folded}
    hits = difflib.get_close_matches(word, list(stems), n=limit, cutoff=0.6)
    if not hits:     # a last path component may match ("w" for "layer1/w")
        hits = [s for s in stems if s.rsplit("/", 1)[-1] == word.rsplit("/", 1)[-1]][:limit]
    return [stems[h] for h in hits]


def suggestion(word, names, what):
    """`` Did you mean: a, b?`` or `` The graph's <what>: x, y ×3, ...`` (top-level names, folded)."""
    hits = close_matches(word, names)
    if hits:
        return " Did you mean: %s?" % ", ".join(hits)
    top = []
    seen = set()
    for name in names:       # list the top level only: "layer1/..." is one entry
        head = name.split("/")[0]
        if head not in seen:
            seen.add(head)
            top.append(head)
    folded = fold(top)
    if not folded:
        return " The graph has no %s." % what
    shown = ", ".join(folded[:12])
    return " The graph's %s: %s%s." % (what, shown, ", ..." if len(folded) > 12 else "")


def scopes_of(graph):
    """Every name scope that holds ops ("a", "a/b", ...), in creation order."""
    seen = collections.OrderedDict()
    for op in graph._ops:
        parts = op._name.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            seen.setdefault("/".join(parts[:i]), None)
    return list(seen)


_UNITS = {"": 1, "b": 1, "k": 1000, "kb": 1000, "kib": 1024, "m": 1000 ** 2, "mb": 1000 ** 2, "mib": 1024 ** 2,
          "g": 1000 ** 3, "gb": 1000 ** 3, "gib": 1024 ** 3}
_SIZE = re.compile(r"^\s*(\d+(?:\.\d*)?)\s*([a-zA-Z]*)\s*$")


def parse_size(text):
    """``"1048576"``, ``"1MB"`` (10**6), ``"512KiB"`` (512*1024) -> bytes; ValueError with the accepted forms."""
    m = _SIZE.match(str(text))
    unit = m.group(2).lower() if m else None
    if m is None or unit not in _UNITS:
        raise ValueError("%r is not a size: use bytes (1048576) or a unit: 500KB, 512KiB, 1MB, 1MiB, 1GB" % text)
    return int(float(m.group(1)) * _UNITS[unit])
