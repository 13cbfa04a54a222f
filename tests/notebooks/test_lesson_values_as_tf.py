"""The values a lesson prints are TensorFlow's: the lesson's demonstration cells run as one script in graphlab
and, unchanged but for the import, in the reference TF 2.21, and each cell must print the same text.

Lesson 12 (the order of a run) is checked this way because every number it shows is a claim about TF's
executor (when a variable is read, what a control dependency orders); lesson 15 (Keras builds a graph)
because its op counts per scope, variable names, losses and checkpoint keys are claims about tf-keras.
nbval only checks that graphlab keeps printing what was stored. Lines that use graphlab-only tools
(drawings, ``sess.last_run``) are left out, as are the setup cell (IPython magics) and the exercises
(unsolved on purpose). ``run_as_cell`` (a lesson's way to run a cell again, defined in the setup cell) runs
its source in the script's namespace on both sides.
"""
import contextlib
import io
import os

import nbformat
import pytest

import tfref

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LESSONS = ["12-the-order-of-a-run.ipynb", "15-keras-builds-a-graph.ipynb"]


def _graphlab_only(line):
    """A drawing, graphlab's record of the last run, or an IPython magic: nothing TF can run."""
    code = line.strip()
    return code.startswith(("viz.", "%")) or "sess.last_run" in code
MARK = "=== cell %s"


def _script(lesson):
    """The lesson's demonstration cells as one script, each cell announced by a marker line."""
    nb = nbformat.read(os.path.join(ROOT, "notebooks", lesson), as_version=4)
    parts = []
    for cell in nb.cells:
        tags = cell.metadata.get("tags", [])
        if cell.cell_type != "code" or "exercise" in tags or "check" in tags or "%load_ext" in cell.source:
            continue
        lines = [line for line in cell.source.splitlines() if not _graphlab_only(line)]
        parts.append("print(%r)\n%s\n" % (MARK % cell.id, "\n".join(lines)))
    return "".join(parts)


RUN_AS_CELL = "def run_as_cell(source):\n    exec(source, globals())\n"


def _by_cell(text):
    cells, current = {}, None
    for line in text.splitlines():
        if line.startswith("=== cell "):
            current = line[len("=== cell "):]
            cells[current] = []
        elif current is not None:
            cells[current].append(line)
    return {k: "\n".join(v) for k, v in cells.items()}


@pytest.mark.parametrize("lesson", LESSONS)
def test_lesson_prints_what_tf_prints(lesson):
    script = _script(lesson)
    theirs = _by_cell(tfref.run_tf(RUN_AS_CELL + script))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile("import numpy as np\nimport graphlab as tf\n" + RUN_AS_CELL + script, lesson, "exec"), {})
    ours = _by_cell(out.getvalue())
    assert list(ours) == list(theirs)
    for cell in theirs:
        assert ours[cell] == theirs[cell], "cell %s of %s prints differently from TF" % (cell, lesson)
