"""Drives one JupyterLab notebook tab in Playwright the way a person does (menus, keyboard) and reads what the
page shows. Kernel state and output types are read from the app object JupyterLab exposes in the page
(``--LabApp.expose_app_in_browser``), because "the kernel is idle" and "this output is an error" are not
reliably visible as text."""
import base64
import html
import re
import time
import urllib.parse

CHROMIUM = "/usr/bin/chromium"
# No update checks, sync, component downloads or QUIC: this machine has no network but loopback.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]

_STATE_JS = """() => {
  const app = window.jupyterapp;
  const panel = app && app.shell.currentWidget;
  if (!panel || !panel.content || !panel.content.model) return null;
  const ctx = panel.sessionContext;
  const kernel = ctx && ctx.session && ctx.session.kernel;
  const cells = panel.content.model.cells;
  const out = [];
  for (let i = 0; i < cells.length; i++) {
    const c = cells.get(i);
    const outputs = [];
    if (c.type === 'code') {
      for (let j = 0; j < c.outputs.length; j++) {
        const o = c.outputs.get(j).toJSON();
        outputs.push({type: o.output_type, name: o.name || null, ename: o.ename || null,
                      evalue: o.evalue || null, text: o.text ? [].concat(o.text).join('') : null,
                      mimes: o.data ? Object.keys(o.data) : []});
      }
    }
    out.push({type: c.type, source: c.sharedModel.getSource(), count: c.type === 'code' ? c.executionCount : null,
              tags: c.getMetadata('tags') || [], outputs: outputs});
  }
  return {kernel: kernel ? kernel.status : null, connection: kernel ? kernel.connectionStatus : null,
          cells: out};
}"""


class NotebookPage:
    def __init__(self, page, server, shots_dir):
        self.page = page
        self.server = server
        self.shots_dir = shots_dir

    # --- opening and running ---------------------------------------------------------------------------
    def open(self, name, timeout=90.0):
        self.page.goto(self.server.url("lab/tree/%s?reset" % name), timeout=timeout * 1000)
        self.page.wait_for_selector(".jp-NotebookPanel .jp-Notebook .jp-Cell", timeout=timeout * 1000)
        self.wait_for(lambda s: s and s["kernel"] == "idle" and s["connection"] == "connected",
                      timeout, "the notebook's kernel to start and become idle")

    def state(self):
        return self.page.evaluate(_STATE_JS)

    def wait_for(self, predicate, timeout, what, poll=0.25):
        deadline = time.monotonic() + timeout
        state = None
        while time.monotonic() < deadline:
            state = self.state()
            if predicate(state):
                return state
            time.sleep(poll)
        raise AssertionError("Timed out after %.0f s waiting for %s. Last state: %s\n%s" % (
            timeout, what, _short(state), self.server.log_tail(15)))

    def run_all(self, timeout=120.0):
        """Run > Run All Cells, then wait until every code cell ran (or one failed) and the kernel is idle."""
        self.page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
        self.page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click()
        return self.wait_finished(timeout)

    def wait_finished(self, timeout=120.0):
        def done(s):
            if not s or s["kernel"] != "idle":
                return False
            if self.page.locator(".jp-Notebook .jp-InputPrompt", has_text="[*]").count():
                return False
            code = [c for c in s["cells"] if c["type"] == "code" and c["source"].strip()]
            # Run All stops at an error, except in cells tagged raises-exception (nbval's convention).
            halted = any(o["type"] == "error" and "raises-exception" not in c["tags"]
                         for c in code for o in c["outputs"])
            return halted or all(c["count"] is not None for c in code)
        state = self.wait_for(done, timeout, "all cells to finish running")
        time.sleep(0.5)          # let the last widget/comm messages render
        return self.wait_for(done, 10, "the kernel to stay idle")

    def add_cell_and_run(self, source, timeout=60.0):
        """Select the last cell, insert a cell below it (b), type the source and run it (Shift+Enter, which
        also adds an empty cell after it, as in any JupyterLab session)."""
        cells = self.cells()
        cells.nth(cells.count() - 1).locator(".jp-InputPrompt").click()      # select it
        self.page.keyboard.press("Escape")                                   # command mode
        self.page.keyboard.press("b")
        new = self.cells().nth(cells.count() - 1)
        new.locator(".cm-content").click()
        self.page.keyboard.type(source)
        self.page.keyboard.press("Shift+Enter")

        def ran(s):
            mine = [c for c in s["cells"] if c["source"].strip() == source.strip()] if s else []
            return bool(mine) and mine[-1]["count"] is not None and s["kernel"] == "idle"
        self.wait_for(ran, timeout, "the added cell %r to run" % source)
        time.sleep(0.5)

    def rerun_cell(self, index, timeout=60.0):
        """Run the cell at ``index`` again as a learner does: click its prompt to select it, Shift+Enter.
        Returns its new execution count."""
        before = self.state()["cells"][index]["count"]
        self.cell(index).locator(".jp-InputPrompt").click()
        self.page.keyboard.press("Escape")                                   # command mode
        self.page.keyboard.press("Shift+Enter")

        def ran(s):
            return s and s["kernel"] == "idle" and s["cells"][index]["count"] not in (None, before)
        state = self.wait_for(ran, timeout, "cell %d to run again" % index)
        time.sleep(0.5)
        return state["cells"][index]["count"]

    def copy_paste_and_run(self, index, timeout=60.0):
        """Copy the cell at ``index`` (c), paste it below (v: a new cell with an id of its own) and run the
        pasted cell (Shift+Enter). Returns the pasted cell's index."""
        self.cell(index).locator(".jp-InputPrompt").click()
        self.page.keyboard.press("Escape")
        self.page.keyboard.press("c")
        self.page.keyboard.press("v")
        self.page.keyboard.press("Shift+Enter")
        pasted = index + 1

        def ran(s):
            return (s and s["kernel"] == "idle" and len(s["cells"]) > pasted
                    and s["cells"][pasted]["source"] == s["cells"][index]["source"]
                    and s["cells"][pasted]["count"] is not None)
        self.wait_for(ran, timeout, "the pasted copy of cell %d to run" % index)
        time.sleep(0.5)
        return pasted

    def live_widget(self, cell):
        """The %graph --live widget in ``cell``: ``.graphlab-live`` when the extension marks it, else the
        outermost ipywidgets box of the cell's output."""
        marked = cell.locator(".jp-OutputArea-output .graphlab-live")
        return marked.first if marked.count() else cell.locator(".jp-OutputArea-output .widget-vbox").first

    # --- reading ---------------------------------------------------------------------------------------
    def cells(self):
        return self.page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell")

    def cell(self, index):
        return self.cells().nth(index)

    def cell_index(self, needle, exact=False):
        """Index of the first cell whose source contains ``needle`` (is ``needle``, stripped, with ``exact``)."""
        for i, c in enumerate(self.state()["cells"]):
            if (c["source"].strip() == needle) if exact else (needle in c["source"]):
                return i
        raise AssertionError("No cell contains %r" % needle)

    def svg_images(self, locator):
        """The visible SVG drawings under ``locator``, as SVG text. JupyterLab shows ``image/svg+xml`` as an
        ``<img>`` with a data URI (inline ``<svg>`` is accepted too), so the text is taken from there."""
        sources = []
        for img in locator.locator("img[src^='data:image/svg+xml']").all():
            if img.is_visible() and img.evaluate("el => el.complete && el.naturalWidth > 0"):
                sources.append(_decode_data_uri(img.get_attribute("src")))
        # the live widget draws its SVG inline (.graphlab-live-picture), the locator may be the widget itself
        for svg in locator.locator(".jp-OutputArea-output svg, .graphlab-live-picture svg").all():
            if svg.is_visible() and svg.evaluate("el => !el.parentElement.closest('svg')"):
                text = svg.evaluate("el => el.outerHTML")
                if text not in sources:
                    sources.append(text)
        return sources

    def svg_node_titles(self, locator):
        """The ``<title>`` of every Graphviz node in the SVG drawings under ``locator`` (``op:NAME``)."""
        titles = set()
        for text in self.svg_images(locator):
            for m in re.finditer(r'<g id="[^"]*" class="node">\s*<title>([^<]*)</title>', text):
                titles.add(html.unescape(m.group(1)))
        return titles

    def screenshot(self, locator, name):
        locator.scroll_into_view_if_needed()
        path = self.shots_dir / name
        locator.screenshot(path=str(path))
        return path


def problems(state, stderr=True):
    """Error outputs (except in cells tagged raises-exception), cells that did not run, and stderr text (with
    ``stderr=False`` only the extension's own failure notes), as readable lines."""
    found = []
    for i, c in enumerate(state["cells"]):
        if c["type"] == "code" and c["source"].strip() and c["count"] is None:
            found.append("cell %d (%s...) did not run" % (i, c["source"][:40]))
        for o in c["outputs"]:
            if o["type"] == "error" and "raises-exception" in c["tags"]:
                continue
            if o["type"] == "error":
                found.append("cell %d (%s...): %s: %s" % (i, c["source"][:40], o["ename"], o["evalue"]))
            elif o["type"] == "stream" and o["name"] == "stderr" and (
                    stderr or "graphlab_ipython:" in (o["text"] or "")):
                found.append("cell %d (%s...) wrote to stderr: %s" % (i, c["source"][:40], o["text"][:300]))
    return found


def _decode_data_uri(uri):
    head, _, data = uri.partition(",")
    if head.endswith(";base64"):
        return base64.b64decode(data).decode("utf-8", "replace")
    return urllib.parse.unquote(data)


def _short(state):
    if not state:
        return state
    return {"kernel": state["kernel"], "connection": state["connection"],
            "counts": [c["count"] for c in state["cells"] if c["type"] == "code"]}
