"""graphlab.viz: draw graphs with Graphviz, so the picture stays in the notebook (static SVG).

``render(graph_or_graph_def=None, fetches=None, feeds=None, scope=None, depth=None, collapse="bookkeeping",
expand=(), group_series=True, hide=(), show_shapes=True, session=None, run_metadata=None, max_nodes=200,
upto_op_count=None)`` returns a ``RenderResult`` (``.dot``, ``.svg()``, ``.save(path)``, ``.summary``,
``.info``), which notebooks display through ``_repr_mimebundle_``.

- ``scope``: draw only the ops inside this scope (ops outside that connect to it appear as dashed stubs);
  ``depth``: how many scope levels (below ``scope``) stay open; deeper scopes become one box with an op count.
- ``collapse``: scopes drawn as one box; "bookkeeping" (the default) stands for gradients, save, initializer and
  optimizer scopes; combine: ``["bookkeeping", "layer1"]``; ``None`` collapses nothing. ``expand`` keeps scopes open.
- ``group_series``: 5+ same-type ops named ``x, x_1, x_2 ...`` in one scope become ``x ×N``.
- ``hide``: roles ("control", "constant", ...), op types, "init", scope names or glob patterns to leave out.
- ``fetches``/``feeds``: the pruned view (the Session's own ``prune``); ``session``: its last run and plan cache
  state; ``run_metadata``: per-op times of a traced run.
- ``max_nodes``: past this many boxes, deeper scope levels are collapsed (then same-type ops grouped); the
  caption says so. ``upto_op_count`` (alias ``ops_limit``): the graph as it was after its first N ops.
- ``color_by="device"``: fill each box with the colour of its job and task (ps tasks warm, workers cool),
  mark the variables that live on a ps task, and add a legend to the caption (viz/devices.py).
"""
from graphlab.framework import graph as _graph_mod
from graphlab.viz.render import render
from graphlab.viz.result import GraphvizNotFoundError, RenderResult
from graphlab.viz.scopes import list_scopes

_graph_mod.set_display_hook(render)   # a Graph shows itself in a notebook as this drawing

__all__ = ["render", "RenderResult", "GraphvizNotFoundError", "list_scopes"]
