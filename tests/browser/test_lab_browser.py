"""JupyterLab in a real browser: the extension's report box, the %graph SVG and the %graph --live widget as
a learner sees them, in headless Chromium driven by Playwright against a throw-away ``jupyter lab``.

Screenshots of each moment go to test-output/browser/ so a person can look at them."""
import os
import re
import shutil
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from .notebook_page import problems

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
    """The caption line ("N ops in the graph; showing latest"): .graphlab-live-caption when marked."""
    marked = widget.locator(".graphlab-live-caption")
    return (marked.first if marked.count() else widget.locator(".widget-html").first).inner_text()


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
    widget = nbp.live_widget(live_cell)
    assert widget.count() and widget.is_visible(), "%%graph --live showed no widget: %r" % live_cell.inner_text()
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
    widget = nbp.live_widget(live_cell)
    nbp.page.wait_for_function(
        "(el) => /\\b11 ops in the graph/.test(el.innerText)", arg=widget.element_handle(), timeout=15000)
    assert _op_count(_live_caption(widget)) == 11
    assert "op:f" in nbp.svg_node_titles(widget)
    nbp.screenshot(live_cell, "live-widget-after-new-cell.png")

    # The learner runs the d/e cell again from the UI (its prompt, Shift+Enter): JupyterLab sends the same
    # cell id and a new execution count, and the report box names both runs.
    index = nbp.cell_index("d = tf.multiply(c, 3.0, name='d')")
    first = nbp.state()["cells"][index]["count"]
    again = nbp.rerun_cell(index)
    cell = nbp.cell(index)
    box = cell.locator(".jp-OutputArea-output .graphlab-report")
    assert box.count() == 1 and box.is_visible(), "no report after re-running the cell: %r" % cell.inner_text()
    text = box.inner_text()
    assert "This cell ran before (In [%d]); this run (In [%d]) created 3 ops" % (first, again) in text, text
    assert "d_1 duplicates d" in text and "e_1 duplicates e" in text, text
    nbp.screenshot(cell, "report-rerun-from-the-ui.png")

    # A copy of that cell (c, v: JupyterLab gives the copy an id of its own) builds the same ops once more:
    # reported as a copy of the cell that ran before.
    pasted = nbp.copy_paste_and_run(index)
    copy_count = nbp.state()["cells"][pasted]["count"]
    box = nbp.cell(pasted).locator(".jp-OutputArea-output .graphlab-report")
    assert box.count() == 1, "no report under the pasted copy: %r" % nbp.cell(pasted).inner_text()
    text = box.inner_text()
    assert ("This cell is a copy of one that ran before (same code as In [%d], In [%d]); this run (In [%d])"
            % (first, again, copy_count)) in text, text
    nbp.screenshot(nbp.cell(pasted), "report-copied-cell.png")

    assert browser_context.blocked_requests == [], "the page tried to reach the network: %s" % (
        browser_context.blocked_requests[:5])


# --- the lessons ----------------------------------------------------------------------------------------
LESSONS_DIR = Path(__file__).resolve().parents[2] / "notebooks"
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
MOMENTS = {"report", "svg", "widget"}


def _moments(nb):
    """What each code cell of a lesson shows, from its saved (nbval reference) outputs: {index: kinds}."""
    found = {}
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        kinds = set()
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if out.output_type == "error":
                kinds.add("error")
            if "graphlab-report" in str(data.get("text/html", "")):
                kinds.add("report")
            if "image/svg+xml" in data:
                kinds.add("svg")
            if WIDGET_MIME in data:
                kinds.add("widget")
        if kinds:
            found[i] = kinds
    return found


def _lessons():
    """Lessons to open. By default the fewest that together show every moment (report box, SVG graph, live
    widget), so the test stays short however many lessons there are (nbval runs them all anyway);
    GRAPHLAB_BROWSER_LESSONS=all opens every lesson with such a moment, or a comma-separated list of stems."""
    if not LESSONS_DIR.is_dir():
        return []
    paths = sorted(p for p in LESSONS_DIR.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
    kinds_of = {}
    for p in paths:
        try:
            nb = nbformat.read(str(p), as_version=4)
        except Exception:
            continue
        kinds = set().union(*_moments(nb).values()) & MOMENTS
        if kinds:
            kinds_of[p] = kinds
    wanted = os.environ.get("GRAPHLAB_BROWSER_LESSONS", "").strip()
    if wanted == "all":
        return list(kinds_of)
    if wanted:
        names = {w.strip() for w in wanted.split(",")}
        return [p for p in kinds_of if p.stem in names]
    chosen, missing = [], set().union(*kinds_of.values()) if kinds_of else set()
    while missing:       # greedy cover: the lesson showing most of what is still missing (first one on ties)
        best = max(kinds_of, key=lambda p: len(kinds_of[p] & missing))
        chosen.append(best)
        missing -= kinds_of[best]
    return sorted(chosen)


def _copy_lessons(root):
    """The lessons folder (data files too) copied into the server's root, outputs cleared, once per module."""
    target = root / "notebooks"
    if not target.exists():
        shutil.copytree(LESSONS_DIR, target, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
        for p in target.rglob("*.ipynb"):
            nb = nbformat.read(str(p), as_version=4)
            for cell in nb.cells:
                if cell.cell_type == "code":
                    cell.outputs, cell.execution_count = [], None
            nbformat.write(nb, str(p))
    return target


@pytest.mark.parametrize("lesson", _lessons(), ids=lambda p: p.stem)
def test_lesson_runs_in_jupyterlab(lab, browser_context, notebook, lesson):
    expected = _moments(nbformat.read(str(lesson), as_version=4))
    _copy_lessons(lab.root)
    relative = lesson.relative_to(LESSONS_DIR)
    nbp = notebook
    nbp.open("notebooks/%s" % relative.as_posix())
    state = nbp.run_all(timeout=150)
    assert problems(state, stderr=False) == [], "%s in JupyterLab:\n%s" % (relative, "\n".join(problems(state, False)))
    shot = {}
    for index, kinds in sorted(expected.items()):
        cell = nbp.cell(index)
        where = "%s cell %d (%s...)" % (relative, index, state["cells"][index]["source"][:50])
        raised = any(o["type"] == "error" for o in state["cells"][index]["outputs"])
        assert raised == ("error" in kinds), "%s: error in the saved lesson %s, in the browser %s" % (
            where, "error" in kinds, raised)
        if "report" in kinds:
            box = cell.locator(".jp-OutputArea-output .graphlab-report").first
            assert box.count() and box.is_visible(), "%s: no visible graphlab report box" % where
        if "svg" in kinds:
            assert nbp.svg_images(cell), "%s: no visible SVG drawing" % where
        if "widget" in kinds:
            widget = nbp.live_widget(cell)
            assert widget.count() and widget.is_visible(), "%s: no visible widget" % where
        for kind in sorted(kinds - {"error", "widget"}):    # the live widget's shot comes after its check
            if kind not in shot:        # a report can follow a long traceback: show its own output box
                target = cell.locator(".jp-OutputArea-child:has(.graphlab-report)").first if kind == "report" else cell
                shot[kind] = nbp.screenshot(target, "lesson-%s-%s.png" % (lesson.stem, kind))
    live = [i for i, kinds in sorted(expected.items()) if "widget" in kinds and _is_live(state["cells"][i]["source"])]
    if live:
        _check_live_widget_followed(nbp, lesson, relative, state, live[0])
    assert browser_context.blocked_requests == [], browser_context.blocked_requests[:5]


def _is_live(source):
    return any(line.strip().startswith("%graph") and "--live" in line for line in source.splitlines())


# Typed into a new cell after Run All: the default graph's op count now, and how many of its ops were created
# by executions up to In [{count}] (the live cell); ops record their execution as op.provenance.
PROBE = ("import graphlab as _gl; _ops = _gl.get_default_graph().get_operations(); "
         "print('graphlab-probe', len(_ops), sum(1 for _o in _ops if "
         "(getattr(getattr(_o, 'provenance', None), 'execution_count', None) or 0) <= {count}))")


def _check_live_widget_followed(nbp, lesson, relative, state, index):
    """The lesson's %graph --live widget is visible after Run All and its caption counts the ops the graph
    holds after the cells that followed it ran (so it redrew after them, not only when it was created)."""
    where = "%s cell %d (%s...)" % (relative, index, state["cells"][index]["source"][:50])
    cell = nbp.cell(index)
    widget = nbp.live_widget(cell)
    assert widget.count() and widget.is_visible(), "%s: no visible %%graph --live widget" % where
    caption = _live_caption(widget)           # read before the probe cell, whose run would refresh it too
    shown = _op_count(caption)
    assert nbp.svg_images(widget), "%s: the live widget shows no SVG drawing (%r)" % (where, caption)
    live_count = state["cells"][index]["count"]
    probe = PROBE.format(count=live_count)
    nbp.add_cell_and_run(probe)
    after = nbp.state()
    [out] = [o["text"] for c in after["cells"] if c["source"].strip() == probe for o in c["outputs"]
             if o["type"] == "stream" and "graphlab-probe" in (o["text"] or "")] or [None]
    assert out, "%s: the probe cell printed nothing: %s" % (where, problems(after))
    total, at_widget = (int(n) for n in out.split()[1:3])
    assert total > at_widget, (
        "%s: no cell after the live widget adds ops (%d ops when it was shown, %d after Run All), so the "
        "lesson does not show it refreshing" % (where, at_widget, total))
    assert shown == total, (
        "%s: the live widget did not refresh after the following cells: its caption says %r, the graph has %d "
        "ops after Run All (%d when the widget was shown)" % (where, caption, total, at_widget))
    nbp.screenshot(cell, "lesson-%s-live.png" % lesson.stem)


# --- the live widget's drawing: it fits the column, and a click opens or closes a box --------------------
_BOX_JS = """(el, title) => {
  const g = [...el.querySelectorAll('g.node, g.cluster')].find(
      g => g.querySelector('title') && g.querySelector('title').textContent === title);
  if (!g) return null;
  const r = g.getBoundingClientRect();
  return {x: r.x, y: r.y, width: r.width, height: r.height};
}"""


def _titles(widget):
    return set(widget.evaluate("el => [...el.querySelectorAll('g.node > title, g.cluster > title')]"
                               ".map(t => t.textContent)"))


def test_live_widget_in_a_lesson_fits_and_opens_a_box_on_click(lab, browser_context, notebook):
    _copy_lessons(lab.root)
    nbp = notebook
    nbp.open("notebooks/06-pruned-subgraphs.ipynb")
    state = nbp.run_all(timeout=150)
    assert problems(state, stderr=False) == [], "\n".join(problems(state, False))
    index = [i for i, c in enumerate(state["cells"]) if c["type"] == "code" and _is_live(c["source"])][0]
    # the output carries the drawing as SVG beside the widget: what a saved or exported notebook shows
    [out] = [o for o in state["cells"][index]["outputs"] if WIDGET_MIME in o["mimes"]]
    assert "image/svg+xml" in out["mimes"], out["mimes"]
    cell = nbp.cell(index)
    widget = nbp.live_widget(cell)
    svg = widget.locator(".graphlab-live-picture svg").first
    assert svg.is_visible()
    column = cell.locator(".jp-OutputArea-output").first.bounding_box()["width"]
    drawn = svg.bounding_box()
    assert drawn["width"] <= column, "the live drawing is %d px wide in a %d-px column" % (drawn["width"], column)
    nbp.screenshot(cell, "live-widget-collapsed.png")
    # font size in the SVG's own units times the units' size on screen (the CTM): the text's px on screen
    fonts = svg.evaluate("el => [...el.querySelectorAll('text')].map("
                         "t => parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a)")
    assert min(fonts) >= 9, "its smallest text is %.1f px high" % min(fonts)
    assert "scope:gradients" in _titles(widget) and "cluster_gradients" not in _titles(widget)

    # a click on the closed gradients box opens it: the widget redraws with the gradients frame
    widget.locator('.graphlab-live-open[title="open gradients"]').wait_for(timeout=15000)
    box = widget.evaluate(_BOX_JS, "scope:gradients")
    nbp.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    nbp.page.wait_for_function(
        "(el) => [...el.querySelectorAll('g.cluster > title')].some(t => t.textContent === 'cluster_gradients')",
        arg=widget.element_handle(), timeout=15000)
    assert "scope:gradients" not in _titles(widget)
    assert widget.locator(".graphlab-live-picture svg").first.bounding_box()["width"] <= column
    nbp.screenshot(cell, "live-widget-gradients-opened.png")

    # a click on the open frame's name closes it again
    # the redraw sets the picture, then lays the buttons over it: wait for the one on the frame's name
    widget.locator('.graphlab-live-close[title="close gradients"]').wait_for(timeout=15000)
    frame = widget.evaluate(_BOX_JS, "cluster_gradients")
    hit = nbp.page.evaluate("([x, y]) => { const e = document.elementFromPoint(x, y); "
                            "return e.className + ' ' + (e.title || ''); }", [frame["x"] + 12, frame["y"] + 8])
    assert "graphlab-live-close" in hit and "close gradients" in hit, hit
    nbp.page.mouse.click(frame["x"] + 12, frame["y"] + 8)
    try:
        nbp.page.wait_for_function(
            "(el) => [...el.querySelectorAll('g.node > title')].some(t => t.textContent === 'scope:gradients')",
            arg=widget.element_handle(), timeout=15000)
    finally:
        nbp.screenshot(cell, "live-widget-gradients-closed.png")
    assert browser_context.blocked_requests == [], browser_context.blocked_requests[:5]
