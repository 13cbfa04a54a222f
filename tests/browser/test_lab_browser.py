"""JupyterLab in a real browser: the extension's report box, the %graph SVG and the %graph --live widget as
a learner sees them, in headless Chromium driven by Playwright against a throw-away ``jupyter lab``.

Screenshots of each moment go to test-output/browser/ so a person can look at them."""
import re

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from .notebook_page import NotebookPage, problems

RERUN_SOURCE = "c = tf.constant(1.0, name='c') + 1.0"
CELLS = [
    "%load_ext graphlab",
    "import graphlab as tf",
    # The same op-building source run twice: the second run duplicates the first's ops.
    "src = %r\nfor _ in range(2):\n    get_ipython().run_cell(src)" % RERUN_SOURCE,
    "%graph",
    "%graph --live",
    "d = tf.multiply(c, 3.0, name='d')\ne = tf.add(d, c, name='e')",
]
KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}


def _write_notebook(path, cells):
    nb = new_notebook(cells=[new_markdown_cell("# graphlab in JupyterLab (browser test)")] +
                      [new_code_cell(c) for c in cells])
    nb.metadata["kernelspec"] = KERNELSPEC
    nbformat.write(nb, str(path))


def _op_count(caption):
    m = re.search(r"(\d+) ops in the graph", caption)
    assert m, "the live widget's caption does not say how many ops the graph has: %r" % caption
    return int(m.group(1))


def _live_caption(widget):
    return widget.locator(".widget-html").first.inner_text()


@pytest.fixture
def notebook(lab, browser_context, shots_dir):
    page = browser_context.new_page()
    try:
        yield NotebookPage(page, lab, shots_dir)
    finally:
        page.close()


def test_reports_graph_and_live_widget_in_jupyterlab(lab, browser_context, notebook):
    _write_notebook(lab.root / "browser_check.ipynb", CELLS)
    nbp = notebook
    nbp.open("browser_check.ipynb")
    state = nbp.run_all()
    assert problems(state) == [], "cells produced errors or stderr:\n" + "\n".join(problems(state))
    nbp.screenshot(nbp.page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)"), "notebook-after-run-all.png")

    # The re-run cell shows the extension's report box, saying what was duplicated.
    rerun = nbp.cell(nbp.cell_index("get_ipython().run_cell(src)"))
    report = rerun.locator(".jp-OutputArea-output .graphlab-report")
    assert report.count() == 1, "no .graphlab-report box in the re-run cell's outputs: %r" % rerun.inner_text()
    assert report.is_visible()
    text = report.inner_text()
    assert "re-run duplicated ops" in text and "c_1 duplicates c" in text, text
    nbp.screenshot(rerun, "report-rerun-cell.png")

    # %graph renders an inline SVG drawing of the graph at that point (the two runs: c, add, c_1, add_1).
    graph_cell = nbp.cell(nbp.cell_index("%graph", exact=True))
    assert nbp.svg_images(graph_cell), "%%graph showed no visible SVG: %r" % graph_cell.inner_text()
    static_nodes = nbp.svg_node_titles(graph_cell)
    assert {"op:c", "op:c_1"} <= static_nodes, static_nodes
    assert "op:e" not in static_nodes
    nbp.screenshot(graph_cell, "graph-svg.png")

    # %graph --live: the widget (controls, caption, drawing) already followed the cell after it.
    live_cell = nbp.cell(nbp.cell_index("%graph --live", exact=True))
    widget = live_cell.locator(".jp-OutputArea-output .widget-vbox").first
    assert widget.is_visible(), "%%graph --live showed no widget: %r" % live_cell.inner_text()
    caption = _live_caption(widget)
    live_nodes = nbp.svg_node_titles(widget)
    assert "op:e" in live_nodes and "op:d" in live_nodes, (
        "the live widget did not refresh after the cell that added d and e: %s / %r" % (sorted(live_nodes), caption))
    count_after_run_all = _op_count(caption)
    assert count_after_run_all == 9, caption          # 3 ops per run of src, twice, then d/y, d, e
    nbp.screenshot(live_cell, "live-widget-after-run-all.png")

    # A learner adds one more cell: the widget above redraws again, without re-running %graph --live.
    nbp.add_cell_and_run("f = tf.add(e, 1.0, name='f')")
    state = nbp.state()
    assert problems(state) == [], "\n".join(problems(state))
    widget = live_cell.locator(".jp-OutputArea-output .widget-vbox").first
    nbp.page.wait_for_function(
        "(el) => /\\b11 ops in the graph/.test(el.innerText)", arg=widget.element_handle(), timeout=15000)
    assert _op_count(_live_caption(widget)) == 11
    assert "op:f" in nbp.svg_node_titles(widget)
    nbp.screenshot(live_cell, "live-widget-after-new-cell.png")

    assert browser_context.blocked_requests == [], "the page tried to reach the network: %s" % (
        browser_context.blocked_requests[:5])
