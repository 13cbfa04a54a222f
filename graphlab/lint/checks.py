"""The three graph analyses, as pure functions over lists of ops (no IPython here):

* ``duplicates(new_ops, earlier_ops)``: new ops structurally identical to earlier ones (a re-run cell);
* ``op_growth(ops, threshold)``: source lines that created ``threshold`` or more ops by making the same ops
  again and again (a loop building ops);
* ``large_constants(ops, threshold)``: ``Const`` ops embedding ``threshold`` bytes or more.

Each returns plain records the extension and the CLI format in their own way.
"""
import collections
import os
import re

import numpy as np

from graphlab.lint.structural import StructuralHasher

MiB = 1 << 20
DEFAULT_OP_GROWTH = 100
# A line "keeps adding ops" when it ran again and again: a Python loop calling it makes a fresh name for each
# run of the line at the level of the name scope the line runs in (add, add_1, add_2..., or dense, dense_1...),
# while one call that builds many ops (minimize(), tf.gradients, dynamic_rnn) puts them under names it opens
# once (gradients/..., Adam/...). The line ran about as many times as a typical first name part of its ops has
# siblings equal up to a final _N; this many runs make a loop.
DEFAULT_GROWTH_REPEATS = 5
_FINAL_SUFFIX = re.compile(r"_\d+$")
DEFAULT_LARGE_CONST = MiB

Duplicate = collections.namedtuple("Duplicate", "op original")
# runs: about how many times the line ran; kind: "copies" when the runs built the same ops on the same inputs
# again (constants aside), "unrolled" when each run computed on the previous run's result (``z = f(z)``).
Growth = collections.namedtuple("Growth", "source_line count types example_names runs kind")
_VARIABLE_TYPES = frozenset(("VariableV2", "Variable", "VarHandleOp"))
LargeConstant = collections.namedtuple("LargeConstant", "op shape dtype nbytes source_line")


class DuplicateIndex:
    """Ops already seen, by structural hash, so each new op is checked in O(1)."""

    def __init__(self, hasher=None):
        self.hasher = hasher or StructuralHasher()
        self._by_hash = {}

    def add(self, ops):
        by_hash, hasher = self._by_hash, self.hasher
        for op in ops:
            by_hash.setdefault(hasher(op), []).append(op)

    def find(self, new_ops):
        """New ops that duplicate an indexed op (each earlier op is matched at most once). Control-flow
        plumbing is never a finding: TF builds one Switch per cond branch for the same value and, for a loop's
        gradient, a second counting loop just like the user's; a duplicated loop or cond shows in its body."""
        by_hash, hasher = self._by_hash, self.hasher
        cursor = {}          # hash -> how many of its earlier ops are already matched (O(1) per new op)
        found = []
        for op in new_ops:
            if op._type in CONTROL_FLOW_PLUMBING:
                continue
            h = hasher(op)
            candidates = by_hash.get(h)
            if not candidates:
                continue
            i = cursor.get(h, 0)
            while i < len(candidates) and candidates[i] is op:
                i += 1
            if i < len(candidates):
                generated, original = _gradients_scope(op), _gradients_scope(candidates[i])
                if generated is None or (original is not None and original != generated):
                    found.append(Duplicate(op, candidates[i]))
                i += 1
            cursor[h] = i
        return found

    def __len__(self):
        return len(self._by_hash)


CONTROL_FLOW_PLUMBING = frozenset([
    "Switch", "RefSwitch", "Merge", "RefMerge", "Enter", "RefEnter", "Exit", "RefExit", "NextIteration",
    "RefNextIteration", "LoopCond", "ControlTrigger"])


def _gradients_scope(op):
    """The scope of the tf.gradients call that generated ``op`` (TF's rule: the name scope part that starts
    with "gradients", e.g. ``gradients_1``), or None. Generated ops repeat each other and the forward ops
    (``gradients/Add/y`` and ``while/add/y`` are both the constant 1 in a loop); only a second gradients
    call that repeats a first one is a duplicate the user built."""
    parts = op._name.split("/")[:-1]
    for i, part in enumerate(parts):
        if part.startswith("gradients"):
            return "/".join(parts[:i + 1])
    return None


def duplicates(new_ops, earlier_ops, hasher=None):
    index = DuplicateIndex(hasher)
    index.add(earlier_ops)
    return index.find(new_ops)


def line_key(source_line):
    if source_line is None:
        return None
    return (source_line.filename, source_line.lineno)


def op_growth(ops, threshold=DEFAULT_OP_GROWTH, min_repeats=DEFAULT_GROWTH_REPEATS):
    """Source lines that created at least ``threshold`` of ``ops`` by running ``min_repeats`` times or more
    (a Python loop calling them) to no purpose, most ops first: runs that rebuilt the same ops on the same
    inputs ("copies": build it once), or runs that each computed on the previous run's result without making
    new variables ("unrolled": a loop the graph could hold once, tf.while_loop). Not findings: one call that
    builds many ops (minimize(), tf.gradients), a layer per run (new variables each time), one op per item
    of a list (tf.assign for each of several weights)."""
    by_line = collections.OrderedDict()
    for op in ops:
        key = line_key(op.source_line)
        if key is not None:
            by_line.setdefault(key, []).append(op)
    found = []
    for made in by_line.values():
        if len(made) < threshold:
            continue
        runs = line_runs([op.name for op in made])
        if runs < min_repeats:
            continue
        kind = _growth_kind(made, runs)
        if kind is None:
            continue
        types = collections.Counter(op.type for op in made)
        found.append(Growth(made[0].source_line, len(made), dict(types.most_common()),
                            [op.name for op in made[:3]], runs, kind))
    found.sort(key=lambda g: -g.count)
    return found


def line_runs(names):
    """About how many times one line ran, from the names of the ops it made: below the name scope common to
    all of them (the scope the line ran in), each run of the line takes a new name (``add``, ``add_1``...;
    ``dense_2/...``), so a first name part has, up to a final ``_N``, as many siblings as the line had
    runs (the median over the distinct first parts: a run may make two ``add``s).
    One call opens its scope once (``gradients/...``): one run."""
    scopes = [name.split("/")[:-1] for name in names]
    common = scopes[0]
    for parts in scopes[1:]:
        n = 0
        while n < len(common) and n < len(parts) and common[n] == parts[n]:
            n += 1
        common = common[:n]
        if not common:
            break
    depth = len(common)
    roots = [name.split("/")[depth] for name in names]
    siblings = collections.defaultdict(set)
    for root in roots:
        siblings[_FINAL_SUFFIX.sub("", root)].add(root)
    per_base = sorted(len(found) for found in siblings.values())
    return per_base[len(per_base) // 2]


def _growth_kind(made, runs):
    """"copies", "unrolled" or None (the runs made different things on purpose) for the ops one line made.

    Each op gets a signature: its type and its inputs' signatures, where an input from outside the line is
    that op's name and a constant's value does not count (sess.run(tf.assign(v, i)) rebuilds the same op with
    a new number). A path through the line's ops longer than one run's share of them crosses from run to run:
    the loop computes (unless each run made variables: a layer per run). Else, most ops sharing a signature
    with another one are copies."""
    mine = set(made)
    signature, depth = {}, {}
    for op in made:                    # creation order: an op's inputs come before it
        parts, deepest = [op._type], 0
        for t in op._inputs:
            source = t._op
            if source in mine:
                parts.append((signature[source], t._value_index))
                deepest = max(deepest, depth[source])
            else:
                parts.append((source._name, t._value_index))
        signature[op] = hash(tuple(parts))
        depth[op] = deepest + 1
    layers = any(op._type in _VARIABLE_TYPES for op in made)
    if max(depth.values()) > len(made) / float(runs):
        return None if layers else "unrolled"      # new variables each run: a model built by a loop
    shared = collections.Counter(signature.values())
    if sum(1 for op in made if shared[signature[op]] > 1) * 2 >= len(made):
        return "copies"
    return None


def large_constants(ops, threshold=DEFAULT_LARGE_CONST):
    """``Const`` ops whose value takes at least ``threshold`` bytes."""
    found = []
    for op in ops:
        if op.type != "Const":
            continue
        value = op._attrs.get("value")
        if not isinstance(value, np.ndarray):
            continue
        nbytes = value.nbytes if value.dtype != object else sum(len(v) for v in value.ravel())
        if nbytes >= threshold:
            found.append(LargeConstant(op, tuple(value.shape), op._attrs.get("dtype"), nbytes, op.source_line))
    return found


def const_bytes(op):
    value = op._attrs.get("value") if op.type == "Const" else None
    return value.nbytes if isinstance(value, np.ndarray) and value.dtype != object else 0


def human_bytes(n):
    for unit, size in (("GiB", 1 << 30), ("MiB", MiB), ("KiB", 1 << 10)):
        if n >= size:
            return "%.1f %s" % (n / size, unit)
    return "%d bytes" % n


def where(source_line):
    """``file.py:12`` or ``In[3] line 2`` style location of an op's source line, with the code."""
    if source_line is None:
        return "(unknown line)"
    name = os.path.basename(source_line.filename)
    return "%s:%d" % (name, source_line.lineno)
