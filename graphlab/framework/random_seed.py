"""Graph-level and op-level random seeds, with TF's rules for combining them (``get_seed``).

TF derives the pair (seed, seed2) that a random op stores as attrs: no seeds at all -> (0, 0), which the kernel
takes to mean "fresh randomness"; a graph seed with no op seed -> the op seed is a per-graph counter, so every
random op of a seeded graph differs but the whole graph repeats; an op seed alone -> graph seed 87654321.
"""
from graphlab.framework import graph as graph_mod

DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2 ** 31 - 1


def set_random_seed(seed):
    """``tf.set_random_seed``: the graph-level seed of the default graph (``graph.seed``)."""
    graph_mod.get_default_graph().seed = seed


def get_seed(op_seed):
    """The (seed, seed2) pair for a random op, as TF's ``tf.get_seed``; (None, None) means nondeterministic."""
    graph = graph_mod.get_default_graph()
    global_seed = graph.seed
    if global_seed is not None:
        if op_seed is None:
            op_seed = getattr(graph, "_seed_offset", 0)
            graph._seed_offset = op_seed + 1
        seeds = (_truncate(global_seed), _truncate(op_seed))
    elif op_seed is not None:
        seeds = (DEFAULT_GRAPH_SEED, _truncate(op_seed))
    else:
        seeds = (None, None)
    if seeds == (0, 0):
        return 0, _MAXINT32
    return seeds


def _truncate(seed):
    return int(seed) % (_MAXINT32 + 1)
