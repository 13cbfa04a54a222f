"""Whole-graph lint for scripts and the command line: the same analyses the extension runs per cell, applied
once to a finished graph. Duplicates are found across provenance tags when ops carry them (one tag per cell
run), else across the whole graph (identical subgraphs built twice)."""
import collections

from graphlab.lint import checks, cluster
from graphlab.lint.structural import StructuralHasher


def lint_graph(graph, op_growth=checks.DEFAULT_OP_GROWTH, large_const=checks.DEFAULT_LARGE_CONST):
    """A list of one-line findings (strings) about ``graph``; empty when there is nothing to say."""
    ops = graph.get_operations()
    lines = []
    hasher = StructuralHasher()
    index = checks.DuplicateIndex(hasher)
    dups = []
    by_tag = collections.OrderedDict()
    for i, op in enumerate(ops):
        # untagged ops (a plain script): every op is its own group, so any repeat counts
        by_tag.setdefault(op.provenance if op.provenance is not None else ("op", i), []).append(op)
    for group in by_tag.values():
        dups.extend(index.find(group))
        index.add(group)
    if dups:
        types = collections.Counter(d.op.type for d in dups)
        lines.append("%d ops duplicate earlier ops structurally (%s), e.g. %s duplicates %s" % (
            len(dups), ", ".join("%d %s" % (n, t) for t, n in types.most_common()),
            dups[0].op.name, dups[0].original.name))
    for g in checks.op_growth(ops, op_growth):
        lines.append("%s created %d ops (%s); the line ran about %d times, %s" % (
            checks.where(g.source_line), g.count, ", ".join("%d %s" % (n, t) for t, n in g.types.items()),
            g.runs, "each run on the previous run's result: a loop unrolled into the graph (tf.while_loop "
            "builds its body once)" if g.kind == "unrolled" else "building the same ops each time (build them "
            "once, before the loop)"))
    for c in checks.large_constants(ops, large_const):
        lines.append("%s embeds constant %s: shape %s, %s, %s" % (
            checks.where(c.source_line), c.op.name, list(c.shape), getattr(c.dtype, "name", c.dtype),
            checks.human_bytes(c.nbytes)))
    for f in cluster.variables_off_ps(graph):
        lines.append("%s%s" % (checks.where(f.where) + " " if f.where else "", f.message))
    return lines
