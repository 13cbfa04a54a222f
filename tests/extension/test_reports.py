"""The after-cell report: only when there is something to say, in text/plain and text/html."""
import numpy as np

import graphlab as tf

CELL = "x = tf.constant([1.0, 2.0], name='x')\ny = tf.multiply(x, 2.0)\nv = tf.Variable(3.0, name='v')"


def test_clean_cells_publish_nothing(loaded):
    for source in [CELL, "z = y + 1", "sess = tf.Session()", "sess.run(v.initializer)", "sess.run(z + v)",
                   "%graph_lint status"]:
        cell = loaded.run(source)
        assert cell.result.success, source
        assert cell.reports == [], source


def test_rerun_reports_structural_duplicates(loaded):
    assert loaded.reports(CELL) == []
    [text] = loaded.reports(CELL)
    graph = tf.get_default_graph()
    n = len(graph.get_operations())
    first_ops = n // 2
    assert text.startswith("graphlab: re-run or copied cell duplicated ops (first run In [3])")
    assert "this run (In [4]) created %d ops, %d of them structurally identical" % (first_ops, first_ops) in text
    assert "x_1 duplicates x" in text
    assert "The default graph now has %d ops." % n in text
    assert "tf.reset_default_graph()" in text and "%%graph_cell" in text


def test_rerun_report_is_html_too(loaded):
    loaded.run(CELL)
    cell = loaded.run(CELL)
    [bundle] = [d for d in cell.displays if "text/html" in d]
    assert "graphlab-report" in bundle["text/html"]
    assert "x_1 duplicates x" in bundle["text/html"]


def test_same_source_in_a_fresh_graph_is_not_a_duplicate(loaded):
    loaded.run(CELL)
    loaded.run("tf.reset_default_graph()")
    assert loaded.reports(CELL) == []


def test_cell_id_from_the_front_end_identifies_the_cell(loaded):
    loaded.run(CELL, cell_id="abc")
    [text] = loaded.reports(CELL + "\n", cell_id="abc")           # edited text, same cell: still a re-run
    assert "This cell ran before (In [3]); this run (In [4]) created 7 ops" in text
    loaded.run("tf.reset_default_graph()", cell_id="reset")
    loaded.run("a = tf.constant(1.0, name='a')", cell_id="other")
    assert loaded.reports("b = tf.constant(2.0, name='b')", cell_id="another") == []   # new code: nothing


def test_a_copied_cell_duplicates_the_original_and_is_reported_as_a_copy(loaded):
    """JupyterLab gives a copied cell an id of its own; its ops duplicate the original's all the same."""
    assert loaded.reports(CELL, cell_id="original") == []
    [text] = loaded.reports(CELL, cell_id="copy")
    assert text.startswith("graphlab: copied cell duplicated ops (first run In [3])")
    assert "This cell is a copy of one that ran before (same code as In [3]); this run (In [4]) created 7 ops, " \
           "7 of them structurally identical" in text
    assert "x_1 duplicates x" in text
    [again] = loaded.reports(CELL, cell_id="original")          # and the original re-run names both runs
    assert "This cell ran before (In [3], In [4]); this run (In [5])" in again


def test_runs_without_history_are_told_apart(loaded):
    """nbval runs cells with store_history=False: In [N] stays where it was, every run gets the same N.
    Reports then count the runs themselves instead of claiming one execution ran the code twice."""
    loaded.ip.run_cell("pass", store_history=False)
    first = loaded.run_without_history(CELL)
    assert first.reports == []
    [text] = loaded.run_without_history(CELL).reports
    assert text.startswith("graphlab: re-run or copied cell duplicated ops (first run unnumbered run 3)")
    assert "The same code ran before (unnumbered run 3), in this cell or in a copy of it; this run (unnumbered run 4) created 7 ops" in text
    assert "same execution" not in text
    [text] = loaded.run_without_history(CELL, cell_id="copied").reports
    assert "This cell is a copy of one that ran before (same code as unnumbered run 3, unnumbered run 4); " \
           "this run (unnumbered run 5)" in text


def test_ops_carry_provenance(loaded):
    loaded.run(CELL, cell_id="cell-1")
    op = tf.get_default_graph().get_operation_by_name("x")
    assert op.provenance.execution_count == 3 and op.provenance.cell_id == "cell-1"
    loaded.run("a = tf.constant(1.0, name='a')")
    tag = tf.get_default_graph().get_operation_by_name("a").provenance
    assert tag.execution_count == 4 and tag.cell_id.startswith("src:")
    from graphlab.framework import provenance
    assert provenance.current is None      # nothing is tagged between cells


def test_op_growth(loaded):
    [text] = loaded.reports("z = tf.constant(0.0)\nfor i in range(60):\n    z = z + 1")
    assert text.startswith("graphlab: one line keeps adding ops")
    assert "In [3], line 3: z = z + 1 ran about 60 times and created 120 ops in this run (60 Const, 60 AddV2" \
        in text
    assert "each run used the previous run's result, so the graph holds the loop unrolled" in text
    assert "Fix: to compute in a loop, put the loop in the graph: tf.while_loop(cond, body, [start])" in text
    assert "outside the loop" not in text
    assert loaded.reports("w = tf.constant(0.0)\nfor i in range(40):\n    w = w + 1") == []


def test_op_growth_threshold_is_configurable(loaded):
    loaded.run("%graph_lint --op-growth 10")
    assert loaded.reports("w = tf.constant(0.0)\nfor i in range(5):\n    w = w + 1") != []
    loaded.run("%graph_lint --disable op_growth")
    assert loaded.reports("q = tf.constant(0.0)\nfor i in range(500):\n    q = q + 1") == []


def test_initializer_created_in_a_loop(loaded):
    loaded.run("v = tf.Variable(1.0)\nsess = tf.Session()")
    [text] = loaded.reports("for i in range(100):\n    sess.run(tf.global_variables_initializer())")
    # one report, the sharper one: the op is built inside sess.run(...), not merely in a loop
    assert text.startswith("graphlab: op built inside sess.run(...)\n") and "keeps adding ops" not in text
    assert "sess.run(tf.global_variables_initializer()) built a new NoOp op inside sess.run(...) in each of " \
           "its 100 runs" in text


def test_op_growth_copies_outside_sess_run(loaded):
    loaded.run("v = tf.Variable(1.0)\nsess = tf.Session()\nsess.run(v.initializer)")
    [text] = loaded.reports("for i in range(100):\n    step = tf.assign_add(v, 1.0)\n    sess.run(step)")
    assert "line 2: step = tf.assign_add(v, 1.0) ran about 100 times and created 200 ops in this run (100 " \
           "Const, 100 AssignAdd" in text
    assert "each run built another copy of the same ops" in text and "tf.while_loop" not in text
    assert "Fix: build the op once, outside the loop, and only sess.run it inside the loop; or feed changing " \
           "values through a tf.placeholder instead of creating new constants." in text


def test_large_constant_and_rerun_bytes(loaded):
    source = "data = np.ones(1000000, dtype=np.float32)\nc = tf.constant(data, name='data')"
    [text] = loaded.reports(source)
    assert text.startswith("graphlab: large constant embedded in the graph")
    assert "In [3], line 2: c = tf.constant(data, name='data') embeds data: shape [1000000], float32, " \
           "3.8 MiB" in text
    assert "tf.placeholder" in text and "feed_dict" in text
    reports = loaded.reports(source)
    assert any("Duplicated constant data: 3.8 MiB." in r for r in reports)
    loaded.run("%graph_lint --large-const 100000000")
    assert loaded.reports("big = tf.constant(np.zeros(1000000))") == []


def test_graph_lint_off_silences(loaded):
    cell = loaded.run("%graph_lint off")
    assert "graph_lint off" in cell.stdout
    loaded.run(CELL)
    assert loaded.reports(CELL) == []
    loaded.run("%graph_lint on")
    assert loaded.reports(CELL) != []


def test_graph_diff_lists_what_a_run_added(loaded):
    loaded.run(CELL)
    loaded.run("z = y + 1")
    cell = loaded.run("%graph_diff 3")
    assert cell.stdout.splitlines()[0].startswith("In [3] added")
    assert "  x  Const()" in cell.stdout and "  Mul  Mul(x:0, Mul/y:0)" in cell.stdout
    assert "AddV2" not in cell.stdout    # In [4]'s op is not listed
    assert "In [4] added 2 ops" in loaded.run("%graph_diff").stdout


def test_graph_cell_builds_in_a_named_fresh_graph(loaded):
    body = "%%graph_cell model\na = tf.constant(1.0, name='a')\nb = a * 2"
    for _ in range(2):
        cell = loaded.run(body)
        assert "graph_cell: 3 ops in graph 'model'" in cell.stdout
        assert cell.reports == []
    assert tf.get_default_graph().get_operations() == []
    cell = loaded.run("%graph model")
    assert cell.result.success
    assert _drawn_ops(cell.result.result) == {"a", "mul", "mul/y"}         # the named graph, not the default


def _drawn_ops(result):
    """The op names a %graph result draws (its DOT's op nodes)."""
    import re
    return set(re.findall(r'^\s*"op:([^"]+)" \[', result.dot, re.M))


def test_graph_reset(loaded):
    loaded.run(CELL)
    loaded.run("%graph_reset")
    assert tf.get_default_graph().get_operations() == []
    assert loaded.reports(CELL) == []


def test_graph_and_subgraph_render(loaded):
    loaded.run(CELL)
    result = loaded.run("%graph").result.result
    assert _drawn_ops(result) == {op.name for op in tf.get_default_graph().get_operations()}
    assert "<svg" in result._repr_mimebundle_()["image/svg+xml"]
    pruned = loaded.run("%subgraph Mul --feed x").result.result
    assert "pruned for the fetches: 2 of 7 ops execute; fed (cut): x:0" in repr(pruned)


def test_live_widget_follows_cells(loaded, monkeypatch):
    from graphlab_ipython import live
    monkeypatch.setattr(live, "has_widget_frontend", lambda shell: True)   # as under ipykernel
    loaded.run(CELL)
    assert loaded.run("w = %graph --live").result.success
    # the view: its widget, shown with the drawing as SVG beside it (the static fallback)
    assert type(loaded.ip.user_ns["w"]).__name__ == "LiveGraph"
    assert type(loaded.ip.user_ns["w"].widget).__name__ == "VBox"
    from graphlab_ipython import watcher_of
    watcher = watcher_of(loaded.ip)
    assert len(watcher.listeners) == 1
    refresh = watcher.listeners[0]
    loaded.run("z = y + 1")
    view = refresh.__self__
    assert view.history.max == 2 and view.history.value == 2
    assert "%d ops in the graph" % len(tf.get_default_graph().get_operations()) in view.caption.value
    view.history.value = 1
    assert view.upto() == watcher.records[0].end
    assert "after In [3]" in view.caption.value
    loaded.run("%unload_ext graphlab")
    assert watcher.listeners == []


def test_history_does_not_keep_a_reset_graph_alive(loaded):
    import gc
    import weakref
    source = "big = tf.constant(np.zeros(300000, dtype=np.float32))"
    loaded.run(source)
    loaded.run(source)                       # a re-run: the duplicate index now holds this graph's ops
    old = weakref.ref(tf.get_default_graph())
    loaded.run("tf.reset_default_graph()\nbig = None")
    for name in ("_", "__", "___", "_3", "_4", "_5"):
        loaded.ip.user_ns.pop(name, None)
    gc.collect()
    assert old() is None
