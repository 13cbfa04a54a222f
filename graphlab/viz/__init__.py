"""graphlab.viz: draw graphs with Graphviz, so the picture stays in the notebook (static SVG).

``render(graph_or_graph_def=None, fetches=None, feeds=None, scope=None, depth=None, collapse="bookkeeping",
expand=(), group_series=True, hide=(), show_shapes=True, session=None, run_metadata=None, max_nodes=200,
upto_op_count=None, width="column", highlight=None, fold_loops=None)`` returns a ``RenderResult`` (``.dot``,
``.svg()``, ``.save(path)``, ``.summary``, ``.info``), which notebooks display through ``_repr_mimebundle_``.

Drawings fit the notebook column (lessons: call ``render`` and let it fit; pass what to open and what to show):

- ``width``: "column" (default, ``fit.COLUMN_PX`` = 832 px, JupyterLab's output area in a 1280-px window), a
  number of px, or None for full size. Graphviz lays the drawing out and it is measured; while it is wider,
  scopes close into boxes with op counts (the deepest first, the biggest first among them). A while loop
  first closes the scopes inside it, then its routing ops (Enter/Merge/Switch/Exit/NextIteration/LoopCond)
  fold into one box (``fold_loops``: None decides by width, True/False force it), then the loop closes. A
  drawing that cannot fit is kept when, shrunk to the column, its smallest text stays >= 9 px
  (``fit.smallest_text_px``); its SVG's width is set to the column so exports show all of it. ``info["fit"]``
  says ``px`` (natural width), ``fits``, ``readable`` and which scopes were ``closed``; the caption too.
- ``expand=["while", "gradients/while"]``: scopes or loop frames kept open (their parents open too);
  never closed to fit.
- ``highlight=["StackPushV2", "StackPopV2"]``: op types, op names, scopes or glob patterns drawn in amber,
  everything else faded; their scopes open (closed last, and only when the drawing cannot be read otherwise);
  a closed box says what it holds ("holds 1 StackPopV2"). An unknown word raises ValueError.
- Ops are drawn in the loop frame they run in (TensorBoard's frames): a loop gradient's ``StackPushV2``,
  named under ``gradients/``, sits in the forward loop's frame; ``scope="while"`` draws that frame alone.

Examples: ``render(fetches=[grad], feeds=[x], scope="gradients/while", highlight=["StackPopV2"])``;
``render(fetches=[batch], highlight=["QueueEnqueueV2", "QueueDequeueManyV2"], expand=["input_producer"])``.
The magics take the same as ``--expand a,b``, ``--highlight T1,T2``, ``--width 900|column|none``; in the live
widget (``%graph --live``) a click on a closed box opens it and a click on an open frame's name closes it.

- ``scope``: draw only the ops inside this scope (ops outside that connect to it appear as dashed stubs);
  ``depth``: how many scope levels (below ``scope``) stay open; deeper scopes become one box with an op count.
- ``collapse``: scopes drawn as one box; "bookkeeping" (the default) stands for gradients, save, initializer and
  optimizer scopes; combine: ``["bookkeeping", "layer1"]``; ``None`` collapses nothing. ``expand`` keeps scopes open.
- Variables: a resource variable's scope (``dense/kernel``: VarHandleOp, initializer, checks) holds every
  ReadVariableOp of it wherever its name puts it, and starts closed as one cylinder ``kernel / variable [4,8]``
  (``expand=["dense/kernel"]`` opens it); Keras's unread ``keras_learning_phase`` is left out (viz/variables.py).
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
