"""Render time of graphlab.viz for 1k- and 10k-op graphs: DOT build alone and DOT + Graphviz SVG layout.

Printed as ratios against baselines measured in the same run: walking every op's inputs (the least any
drawing must do) and ``dot`` laying out a trivial two-node graph (the fixed cost of starting Graphviz).
Run: .venv/bin/python bench/bench_viz.py
"""
import time

import numpy as np

import graphlab as tf
from graphlab import viz
from graphlab.viz.result import dot_executable, run_dot


def layered_graph(n_ops):
    """Scoped model-like graph: layers of a few ops each, a gradients-like scope, numbered constants."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 8], name="x")
        h = x
        while len(g.get_operations()) < n_ops * 0.7:
            with tf.name_scope("layer"):
                w = tf.constant(np.ones((1, 8), np.float32), name="w")
                h = tf.add(tf.multiply(h, w), 1.0)
        with tf.name_scope("gradients"):
            gr = h
            while len(g.get_operations()) < n_ops:
                gr = tf.multiply(gr, 0.5)
    return g, h


def flat_graph(n_ops):
    """The `x = x + 1` loop: thousands of top-level ops, no scopes."""
    g = tf.Graph()
    with g.as_default():
        x = tf.constant(0.0)
        while len(g.get_operations()) < n_ops:
            x = x + 1.0
    return g, x


def module_graph(n_ops):
    """Distinctly named modules (no numbered series) with sub-scopes: collapses to ~100-200 real boxes,
    so Graphviz has a real layout to do."""
    g = tf.Graph()
    with g.as_default():
        h = tf.placeholder(tf.float32, [None, 8], name="x")
        i = 0
        while len(g.get_operations()) < n_ops:
            with tf.name_scope("mod%dx" % i):
                for sub in ("dense", "norm", "act"):
                    with tf.name_scope(sub):
                        h = tf.add(tf.multiply(h, 2.0), 1.0)
            i += 1
    return g, h


def best(fn, repeat=3):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main():
    has_dot = dot_executable() is not None
    trivial = best(lambda: run_dot("digraph { a -> b }", "svg")) if has_dot else None
    print("baseline: dot on a trivial graph %.1f ms" % (trivial * 1e3) if has_dot else "dot not installed")
    for kind, make in (("layered", layered_graph), ("flat", flat_graph), ("modules", module_graph)):
        for n in (1000, 10000):
            g, out = make(n)
            n_ops = len(g.get_operations())
            walk = best(lambda: [len(op.inputs) for op in g.get_operations()])
            build = best(lambda: viz.render(g))
            r = viz.render(g)
            pruned = best(lambda: viz.render(g, fetches=[out]))
            line = ("%-8s %6d ops -> %3d boxes | walk %.2f ms | DOT %.1f ms (%.0fx walk) | pruned DOT %.1f ms"
                    % (kind, n_ops, r.node_count, walk * 1e3, build * 1e3, build / walk, pruned * 1e3))
            if has_dot:
                full = best(lambda: viz.render(g).svg(), repeat=2)
                line += " | DOT+SVG %.0f ms (%.1fx trivial dot)" % (full * 1e3, full / trivial)
            print(line)


if __name__ == "__main__":
    main()
