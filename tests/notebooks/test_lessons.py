"""The lessons run top to bottom in a fresh kernel, draw their graphs where the stored notebook shows one,
and ship their exercises unsolved: each check says NOT YET on the starter and on the likely wrong answers,
and PASS on the hidden solution (notebooks/solutions/NN-name.py, injected here in place of the starter).

nbval compares the text of every output against the stored notebook but not the SVG bytes (they differ
between Graphviz versions: notebooks/nbval_sanitize.cfg reduces every SVG to a marker). This test checks the
parts nbval leaves out: which cells produce a rendered graph, and what the exercises say when solved.
"""
import copy
import glob
import os

import nbformat
import pytest

import needs
import tfref
from lesson_solutions import exercises, solutions_path

nbclient = needs.module("nbclient", "it runs the lessons")
needs.module("ipykernel", "the lessons run in a Python kernel")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LESSONS = sorted(glob.glob(os.path.join(ROOT, "notebooks", "*.ipynb")))
IDS = [os.path.basename(p) for p in LESSONS]
SVG = "image/svg+xml"
TF_KERNEL = "python-tf"      # "Python (TensorFlow)": the reference venv's Python (scripts/setup.sh), lesson 10


def _svg_cells(nb):
    """Indexes of code cells whose outputs include a rendered SVG."""
    found = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        for out in cell.get("outputs", []):
            svg = out.get("data", {}).get(SVG)
            if svg:
                assert "<svg" in svg, "cell %d stored an image/svg+xml output that is not SVG" % i
                found.append(i)
                break
    return found


def _printed(cell):
    return "".join(out.get("text", "") for out in cell.get("outputs", []) if out.get("output_type") == "stream")


def _verdict(text):
    """The check's one line (PASS: or NOT YET:), or the whole output when it printed neither."""
    for line in text.splitlines():
        if line.startswith(("PASS: ", "NOT YET: ")):
            return line
    return text or "(the check printed nothing)"


def run_cells(nb):
    return [c for c in nb.cells if c.cell_type == "code"]


class Run:
    """A lesson executed in a fresh kernel, plus what each exercise's check said for each injected answer."""

    def __init__(self, stored, fresh):
        self.stored, self.fresh = stored, fresh
        self.verdicts = {}         # exercise cell id -> {"starter": line, "solution": line, "wrong: <why>": line}


def _execute(path):
    stored = nbformat.read(path, as_version=4)
    nb = copy.deepcopy(stored)
    plan = {e.cell_id: e for e in exercises(path)}
    kernel = stored.metadata.get("kernelspec", {}).get("name", "python3")
    if kernel == TF_KERNEL:
        tfref.require_tf()            # fails without the reference TF, skips only under GRAPHLAB_NO_TF=1
    client = nbclient.NotebookClient(nb, timeout=120, kernel_name=kernel,
                                     resources={"metadata": {"path": os.path.dirname(path)}})
    run = Run(stored, nb)

    def side_run(source, may_fail=False):
        """Run ``source`` in the kernel as an extra, unstored cell (raises on an unexpected error; a starter
        that is a broken program to repair is tagged raises-exception in the lesson and may fail here too)."""
        cell = nbformat.v4.new_code_cell(source)
        if may_fail:
            cell.metadata["tags"] = ["raises-exception"]
        nb.cells.append(cell)            # nbclient writes the executed cell back at its index
        try:
            client.execute_cell(cell, len(nb.cells) - 1)
        finally:
            nb.cells.pop()
        return cell

    with client.setup_kernel():
        for index, cell in enumerate(list(nb.cells)):
            if cell.cell_type != "code":
                continue
            client.execute_cell(cell, index)         # raises CellExecutionError unless tagged raises-exception
            exercise = next((e for e in plan.values() if e.check_id == cell.get("id")), None)
            if exercise is None:
                continue
            said = run.verdicts.setdefault(exercise.cell_id, {})
            said["starter"] = _verdict(_printed(cell))
            answers = [("wrong: " + why, source) for why, source in exercise.wrong]
            if exercise.solution is not None:
                answers.append(("solution", exercise.solution))
            for label, source in answers:
                side_run(source)
                said[label] = _verdict(_printed(side_run(cell.source)))
            side_run(exercise.starter, exercise.may_fail)   # later cells see the lesson as shipped
    return run


@pytest.fixture(scope="module")
def executed():
    """Each lesson executed once per test session in a fresh kernel (from notebooks/, like nbval)."""
    cache = {}

    def run(path):
        if path not in cache:
            cache[path] = _execute(path)
        return cache[path]
    return run


@pytest.mark.parametrize("path", LESSONS, ids=IDS)
def test_lesson_draws_graphs_where_stored(path, executed):
    needs.program("dot", "the lessons draw their graphs with Graphviz")
    run = executed(path)
    expected = _svg_cells(run.stored)
    assert expected, "%s stores no rendered graph: run scripts/run_lessons.py" % os.path.basename(path)
    assert _svg_cells(run.fresh) == expected


@pytest.mark.parametrize("path", LESSONS, ids=IDS)
def test_exercises_ship_unsolved_and_pass_when_solved(path, executed):
    name = os.path.basename(path)
    found = exercises(path)
    assert len(found) >= 2, "%s has fewer than two exercise cells (tag 'exercise', then a 'check' cell)" % name
    missing = [e.cell_id for e in found if e.solution is None]
    assert not missing, "%s: no solution for %s in %s" % (name, ", ".join(missing),
                                                          os.path.relpath(solutions_path(path), ROOT))
    stored_checks = {c.get("id"): _verdict(_printed(c)) for c in run_cells(executed(path).stored)}
    verdicts = executed(path).verdicts
    problems = []
    for exercise in found:
        said = verdicts[exercise.cell_id]
        shipped = stored_checks.get(exercise.check_id, "")
        if not shipped.startswith("NOT YET: "):
            problems.append("%s: the stored check output is %r, not NOT YET (run scripts/run_lessons.py on the "
                            "starter)" % (exercise.cell_id, shipped))
        for label, line in sorted(said.items()):
            want = "PASS: " if label == "solution" else "NOT YET: "
            if not line.startswith(want):
                problems.append("%s, %s: the check said %r, expected %s..." % (exercise.cell_id, label, line, want))
    assert not problems, "%s:\n  " % name + "\n  ".join(problems)


def test_every_lesson_has_goals_exercises_and_summary():
    for path in LESSONS:
        nb = nbformat.read(path, as_version=4)
        markdown = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
        for heading in ("Goals", "Exercise 1", "Exercise 2", "Summary"):
            assert heading in markdown, "%s has no %r section" % (os.path.basename(path), heading)
        assert nb.metadata.get("kernelspec", {}).get("name") in ("python3", TF_KERNEL)


def _svg_sizes(svg):
    """(px the page shows it at, px of one viewBox unit, smallest font-size in viewBox units) of an SVG:
    its width attribute (pt, as Graphviz writes it, or px) and its viewBox (when it has one)."""
    import re
    head = re.search(r"<svg\b[^>]*>", svg).group(0)
    width = re.search(r'\bwidth="([\d.]+)(pt|px)?"', head)
    shown = float(width.group(1)) * (4 / 3 if width.group(2) == "pt" else 1)
    box = re.search(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+) ', head)
    units = float(box.group(1)) if box else shown       # no viewBox: one unit is one px
    fonts = [float(v) for v in re.findall(r'font-size="([\d.]+)"', svg)] or [12.0]
    return shown, shown / units, min(fonts)


@pytest.mark.parametrize("path", LESSONS, ids=IDS)
def test_lesson_drawings_fit_the_column_at_a_readable_size(path):
    """Every stored drawing is at most as wide as JupyterLab's column, and shown there its smallest text is
    at least 9 px high (a drawing wider than the column is shown shrunk: its text shrinks with it)."""
    from graphlab.viz.fit import COLUMN_PX, MIN_TEXT_PX
    nb = nbformat.read(path, as_version=4)
    too_wide = []
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []) if cell.cell_type == "code" else ():
            svg = out.get("data", {}).get(SVG)
            if not svg:
                continue
            shown, px_per_unit, font = _svg_sizes(svg)
            text_px = font * px_per_unit * min(1.0, COLUMN_PX / shown)     # a wider one is shrunk to the column
            if shown > COLUMN_PX + 0.5 or text_px < MIN_TEXT_PX:
                too_wide.append("cell %d (%s): %.0f px wide, smallest text %.1f px on a %d-px column" % (
                    i, cell.source.splitlines()[-1][:50], shown, text_px, COLUMN_PX))
    assert not too_wide, "%s:\n%s" % (os.path.basename(path), "\n".join(too_wide))
