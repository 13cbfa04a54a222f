"""Wrong names and values given to the magics: one-line UsageErrors (no traceback) that point at what exists;
%graph --at / %graph_diff on a replaced graph; %subgraph --feed before the fetch; %%graph_cell failures;
%graph --live without a widget front end."""
import pytest
from IPython.core.error import UsageError

import graphlab as tf
from graphlab_ipython import names

MODEL = ("x = tf.placeholder(tf.float32, [None, 4], name='x')\n"
         "with tf.variable_scope('layer1'):\n"
         "    w1 = tf.get_variable('w', [4, 3])\n"
         "    h = tf.nn.relu(tf.matmul(x, w1))\n"
         "loss = tf.reduce_mean(h, name='loss')\n"
         "a = tf.constant(1.0)\n"
         "for i in range(5):\n"
         "    a = tf.add(a, 1.0, name='add')\n")


def usage_error(cell):
    """The one line the user sees for a magic's UsageError (and that there is no traceback)."""
    assert isinstance(cell.result.error_in_exec, UsageError), cell.result.error_in_exec
    assert "Traceback" not in cell.stdout + cell.stderr
    line = cell.stderr.strip()
    assert line.startswith("UsageError: ") and "\n" not in line
    return line


def test_fold_and_close_matches():
    assert names.fold(["add", "add_1", "add_2", "x"]) == ["add ×3", "x"]
    assert names.close_matches("ad", ["add", "add_1", "add_7", "x"]) == ["add ×3"]
    assert names.parse_size("1MB") == 10 ** 6 and names.parse_size("512KiB") == 512 * 1024
    assert names.parse_size("2048") == 2048
    with pytest.raises(ValueError, match="not a size"):
        names.parse_size("lots")


def test_unknown_names_give_one_line_usage_errors(loaded):
    loaded.run(MODEL)
    line = usage_error(loaded.run("%subgraph nosuch"))
    assert "No tensor or op named 'nosuch'" in line
    line = usage_error(loaded.run("%subgraph los"))
    assert "Did you mean: loss?" in line
    line = usage_error(loaded.run("%subgraph loss --feed ad"))
    assert "Did you mean: add ×5?" in line                 # add, add_1 .. add_4 folded
    line = usage_error(loaded.run("%graph nosuchgraph"))
    assert "No graph named 'nosuchgraph'" in line
    line = usage_error(loaded.run("%graph --scope layr1"))
    assert "No ops in scope 'layr1'. Did you mean: layer1" in line
    assert loaded.run("%graph --scope layer1/").result.success


def test_stale_tensor_after_reset(loaded):
    loaded.run(MODEL)
    loaded.run("tf.reset_default_graph()\nz = tf.constant(1.0, name='z')")
    cell = loaded.run("%subgraph loss")
    line = usage_error(cell)
    assert "loss:0 (the Python variable loss) is not an element of this graph" in line
    assert cell.reports == []          # the magic's message is enough; no second explanation


def test_view_options_are_validated(loaded):
    loaded.run(MODEL)
    line = usage_error(loaded.run("%graph --collapse bogus"))
    assert "--collapse 'bogus'" in line and "bookkeeping" in line and "layer1" in line
    assert loaded.run("%graph --collapse layer1,bookkeeping").result.success
    assert "--depth must be >= 0, got -1" in usage_error(loaded.run("%graph --depth -1"))
    assert "--op-growth must be >= 1" in usage_error(loaded.run("%graph_lint --op-growth -1"))
    assert "large constants >= 512.0 KiB" in loaded.run("%graph_lint --large-const 512KiB").stdout
    assert loaded.run("%graph_lint --large-const 1MB").result.success
    assert "not a size" in usage_error(loaded.run("%graph_lint --large-const lots"))


def test_subgraph_feed_before_or_after_the_fetch(loaded):
    loaded.run(MODEL)
    for line in ("%subgraph --feed x loss", "%subgraph loss --feed x", "%subgraph loss --feed x,layer1/w:0"):
        result = loaded.run(line).result
        assert result.success, line
        assert "fed (cut): " in repr(result.result) and "x:0>" in repr(result.result)


def test_at_and_diff_of_a_replaced_graph(loaded):
    loaded.run(MODEL)                                             # In [3]
    assert loaded.run("%graph --at 3").result.success
    loaded.run("tf.reset_default_graph()\nz = tf.constant(1.0, name='z')")
    line = usage_error(loaded.run("%graph --at 3"))
    assert "In [3]'s graph was replaced" in line
    cell = loaded.run("%graph_diff 3")
    assert cell.stdout.startswith("In [3]'s graph was replaced")
    assert "of its graph" not in cell.stdout
    assert "has not run yet" in usage_error(loaded.run("%graph --at 99"))
    assert loaded.run("%graph_diff").stdout.startswith("In [5] added 1 ops")


def test_graph_cell_error_shows_cell_source_and_keeps_no_partial_graph(loaded):
    body = "%%graph_cell model\na = tf.constant(1.0, name='a')\nraise ValueError('boom in the cell')\n"
    cell = loaded.run(body)
    assert isinstance(cell.result.error_in_exec, ValueError)
    assert "graph 'model' was not kept" in cell.stdout
    assert "raise ValueError('boom in the cell')" in cell.stdout     # the traceback shows the cell's line
    line = usage_error(loaded.run("%graph model"))
    assert "No graph named 'model'" in line
    loaded.run("%%graph_cell model\nb = tf.constant(2.0, name='b')\n")
    cell = loaded.run(body)
    assert "keeps its previous complete version (1 ops)" in cell.stdout
    from graphlab_ipython import watcher_of
    assert [op.name for op in watcher_of(loaded.ip).graphs["model"].get_operations()] == ["b"]


def test_live_view_needs_a_widget_front_end(loaded):
    loaded.run("x = tf.constant(1.0)")
    cell = loaded.run("%graph --live")
    assert cell.result.success and cell.result.result is None
    assert cell.stdout.strip().count("\n") == 0 and "needs a widget front end" in cell.stdout
    from graphlab_ipython import watcher_of
    assert watcher_of(loaded.ip).listeners == []


def test_live_view_draws_into_widget_state_and_stops(loaded, monkeypatch):
    from graphlab_ipython import live, watcher_of
    monkeypatch.setattr(live, "has_widget_frontend", lambda shell: True)
    loaded.run("x = tf.constant(1.0)")
    loaded.run("w = %graph --live")
    view = watcher_of(loaded.ip).listeners[0].__self__
    cell = loaded.run("y = x + 2")
    assert cell.displays == [] and "\x1b" not in cell.stdout     # nothing leaks into other cells' output
    svg = view.picture.value                                       # the widget redrew: one SVG of x, y
    assert svg.count("<svg") == 1 and "<title>op:add</title>" in svg and "<title>op:Const</title>" in svg
    view.scope.value = "nosuch"                                    # a draw error: caption only
    cell = loaded.run("z = y + 1")
    assert cell.displays == [] and cell.stdout == "" and "cannot draw" in view.caption.value
    assert "stopped 1 live view" in loaded.run("%graph --live off").stdout
    assert watcher_of(loaded.ip).listeners == []
    loaded.run("w = %graph --live")
    assert "stopped 1 live view" in loaded.run("%graph --stop").stdout


def test_graph_and_subgraph_colour_by_device(loaded):
    loaded.run("with tf.device(tf.train.replica_device_setter(ps_tasks=1, worker_device='/job:worker/task:0')):\n"
               "    x = tf.placeholder(tf.float32, [None, 2], name='x')\n"
               "    w = tf.Variable(tf.ones([2, 1]), name='w')\n"
               "    y = tf.matmul(x, w, name='y')\n")
    for magic in ("%graph --color-by device", "%subgraph y --color-by device"):
        cell = loaded.run("r = " + magic)
        assert cell.result.success, cell.result.error_in_exec
        result = loaded.ip.user_ns["r"]
        assert result.summary[-1] == "devices: ps:0 orange, worker:0 blue (no device: white)", magic
        assert "on ps:0" in result.dot
    line = usage_error(loaded.run("%graph --color-by job"))
    assert "invalid choice: 'job'" in line


def test_live_view_opens_and_closes_a_box_on_click_and_carries_a_static_svg(loaded, monkeypatch):
    from graphlab_ipython import live, watcher_of
    monkeypatch.setattr(live, "has_widget_frontend", lambda shell: True)
    loaded.run("x = tf.placeholder(tf.float32, [], name='x')\n"
               "with tf.name_scope('block'):\n    y = tf.square(x * 2.0 + 1.0, name='y')\n"
               "g, = tf.gradients(y, x)")
    cell = loaded.run("%graph --live")
    view = watcher_of(loaded.ip).listeners[0].__self__
    data = loaded.ip.display_formatter.format(cell.result.result)[0]   # what the cell's output holds
    # the cell's output: the widget, and beside it the picture a saved or exported notebook shows
    assert "application/vnd.jupyter.widget-view+json" in data and "<title>scope:gradients</title>" in data["image/svg+xml"]
    assert data["text/plain"].startswith("graphlab live view: ")
    hits = {(b.tooltip, tuple(b._dom_classes)) for b in view.stage.children[1:]}
    assert ("open gradients", ("graphlab-live-hit", "graphlab-live-open")) in hits
    assert ("close block", ("graphlab-live-hit", "graphlab-live-close")) in hits
    [opener] = [b for b in view.stage.children[1:] if b.tooltip == "open gradients"]
    opener.click()                                                   # a click opens the gradients box
    assert "<title>scope:gradients</title>" not in view.picture.value
    assert "<title>cluster_gradients</title>" in view.picture.value
    assert "<title>scope:gradients</title>" not in view._repr_mimebundle_()["image/svg+xml"]
    [closer] = [b for b in view.stage.children[1:] if b.tooltip == "close block"]
    # a click on block's name closes it; clicks arrive on another thread than the cells' (the kernel's comm
    # handling), whose default graph is another one: the widget still draws the cells' graph
    import threading
    clicking = threading.Thread(target=closer.click)
    clicking.start()
    clicking.join()
    assert "<title>scope:block</title>" in view.picture.value and "<title>op:block/y</title>" not in view.picture.value
    loaded.run("%graph --stop")
