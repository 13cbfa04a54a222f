"""%step in JupyterLab, in headless Chromium: a recorded run stepped op by op. Moving the slider, the next
button and the first NaN/Inf button change the op shown, the box highlighted in the drawing and the values
beside it. Screenshots go to test-output/browser/."""
import re

import nbformat
from nbformat.v4 import new_code_cell, new_notebook

from .notebook_page import problems

CELLS = [
    "%load_ext graphlab",
    "import graphlab as tf\n"
    "logits = tf.placeholder(tf.float32, [None, 2], name='logits')\n"
    "labels = tf.constant([[0.0, 1.0]], name='labels')\n"
    "probs = tf.nn.softmax(logits, name='probs')\n"
    "logp = tf.log(probs, name='logp')\n"
    "loss = tf.negative(tf.reduce_sum(labels * logp), name='loss')\n"
    "sess = tf.Session()",
    "%step loss --feed logits=[[0.0,1000.0]]",
]
KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
CURRENT_FILL = "rgb(251, 146, 60)"          # stepping.COLOURS["current"]


def _current(widget):
    return widget.locator(".graphlab-step-current").first.inner_text()


def _highlighted(page, widget):
    """The titles (op:NAME) of the drawing's boxes painted in the current-op colour."""
    return widget.evaluate("""(root, fill) => Array.from(root.querySelectorAll('g.node')).filter(g => {
        const shape = g.querySelector('polygon, ellipse, path');
        return shape && getComputedStyle(shape).fill === fill;
    }).map(g => g.querySelector('title').textContent)""", CURRENT_FILL)


def _wait_current(page, widget, pattern, what):
    try:
        page.wait_for_function("""([root, pattern]) => {
            const el = root.querySelector('.graphlab-step-current');
            return el && new RegExp(pattern).test(el.textContent);
        }""", arg=[widget.element_handle(), pattern], timeout=15000)
    except Exception:
        raise AssertionError("%%step did not show %s (/%s/); the widget says: %r" % (
            what, pattern, widget.inner_text()[:1500])) from None


def test_step_through_a_run_in_jupyterlab(lab, browser_context, notebook):
    nb = new_notebook(cells=[new_code_cell(c) for c in CELLS])
    nb.metadata["kernelspec"] = KERNELSPEC
    nbformat.write(nb, str(lab.root / "step_check.ipynb"))
    nbp = notebook
    nbp.open("step_check.ipynb")
    state = nbp.run_all()
    assert problems(state) == [], "\n".join(problems(state))
    cell = nbp.cell(nbp.cell_index("%step loss"))
    widget = cell.locator(".jp-OutputArea-output .graphlab-step").first
    assert widget.count() and widget.is_visible(), "%%step showed no widget: %r" % cell.inner_text()
    page = nbp.page
    _wait_current(page, widget, r"op 1 of \d+: ", "the first op")
    first = re.search(r": (\S+) \(", _current(widget)).group(1)
    assert _highlighted(page, widget) == ["op:" + first]
    nbp.screenshot(cell, "step-first-op.png")

    # the next button: the second op is shown and highlighted instead
    widget.locator(".graphlab-step-next button, button.graphlab-step-next").first.click()
    _wait_current(page, widget, r"op 2 of \d+: ", "the next op")
    second = re.search(r": (\S+) \(", _current(widget)).group(1)
    assert second != first and _highlighted(page, widget) == ["op:" + second]

    # jump to a named op: the log, with its input's values and its Inf beside the drawing
    widget.locator(".graphlab-step-jump-name input").first.fill("logp")
    widget.locator(".graphlab-step-jump button, button.graphlab-step-jump").first.click()
    _wait_current(page, widget, r": logp \(Log\)", "the op jumped to")
    assert _highlighted(page, widget) == ["op:logp"]
    panel = widget.locator(".graphlab-step-values").first.inner_text()
    assert "probs:0" in panel and "logp:0" in panel and "1 Inf" in panel, panel
    at = int(re.search(r"op (\d+) of", _current(widget)).group(1))

    # the slider: a key press moves it one op on, and the view follows
    handle = widget.locator(".graphlab-step-slider .noUi-handle, .graphlab-step-slider [role=slider]").first
    handle.focus()
    page.keyboard.press("ArrowRight")
    _wait_current(page, widget, r"op %d of \d+" % (at + 1), "the slider's next op")
    name = re.search(r": (\S+) \(", _current(widget)).group(1)
    assert name != "logp" and _highlighted(page, widget) == ["op:" + name]
    readout = widget.locator(".graphlab-step-slider .widget-readout").first.inner_text()
    assert readout.strip() == str(at), readout

    # the first NaN/Inf button goes back to where the Inf was made (tfdbg's has_inf_or_nan)
    widget.locator(".graphlab-step-nan button, button.graphlab-step-nan").first.click()
    _wait_current(page, widget, r": logp \(Log\)", "the first NaN/Inf")
    assert "Inf" in widget.locator(".graphlab-step-values").first.inner_text()
    nbp.screenshot(cell, "step-first-nan.png")
    assert browser_context.blocked_requests == [], browser_context.blocked_requests[:5]


TF_CELLS = [
    "%load_ext graphlab",
    "import tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()\n"
    "from tensorflow.core.protobuf import rewriter_config_pb2\n"
    "logits = tf.placeholder(tf.float32, [None, 2], name='logits')\n"
    "labels = tf.constant([[0.0, 1.0]], name='labels')\n"
    "logp = tf.log(tf.nn.softmax(logits, name='probs'), name='logp')\n"
    "loss = tf.negative(tf.reduce_sum(labels * logp), name='loss')\n"
    "# TF's optimizer would rewrite log(softmax) into a LogSoftmax: off, so TF runs the graph as built\n"
    "sess = tf.Session(config=tf.ConfigProto(graph_options=tf.GraphOptions(\n"
    "    rewrite_options=rewriter_config_pb2.RewriterConfig(disable_meta_optimizer=True))))",
    "%step loss --feed logits=[[0.0,1000.0]] --until nan",
]


def test_step_through_a_tensorflow_run_in_jupyterlab(lab, browser_context, notebook):
    """The same widget on the kernel "Python (TensorFlow)": the run recorded by TF's own debugger dumps."""
    from .test_lab_tf_browser import KERNEL, _install_tf_kernel
    _install_tf_kernel(lab)
    nb = new_notebook(cells=[new_code_cell(c) for c in TF_CELLS])
    nb.metadata["kernelspec"] = KERNEL
    nbformat.write(nb, str(lab.root / "step_tf_check.ipynb"))
    nbp = notebook
    nbp.open("step_tf_check.ipynb")
    state = nbp.run_all(timeout=240.0)
    assert problems(state, stderr=False) == [], "\n".join(problems(state, False))
    cell = nbp.cell(nbp.cell_index("%step loss"))
    widget = cell.locator(".jp-OutputArea-output .graphlab-step").first
    assert widget.count() and widget.is_visible(), "%%step showed no widget: %r" % cell.inner_text()
    page = nbp.page
    _wait_current(page, widget, r": logp \(Log\)", "the first NaN/Inf of TF's run")
    assert "tensorflow run of loss:0" in widget.inner_text()
    assert _highlighted(page, widget) == ["op:logp"]
    assert "1 Inf" in widget.locator(".graphlab-step-values").first.inner_text()
    at = int(re.search(r"op (\d+) of", _current(widget)).group(1))
    widget.locator(".graphlab-step-next button, button.graphlab-step-next").first.click()
    _wait_current(page, widget, r"op %d of \d+: " % (at + 1), "the next op of TF's run")
    name = re.search(r": (\S+) \(", _current(widget)).group(1)
    assert name != "logp" and _highlighted(page, widget) == ["op:" + name]
    nbp.screenshot(cell, "step-tf-next.png")
    assert browser_context.blocked_requests == [], browser_context.blocked_requests[:5]


def test_a_saved_lesson_shows_the_still_picture(lab, browser_context, notebook):
    """Lesson 14 opened as stored, not run: its %step output is the still picture (the drawing as an image,
    coloured at the stop op, and the values beside it), as an untrusted notebook shows it."""
    import shutil
    from pathlib import Path
    lesson = Path(__file__).resolve().parents[2] / "notebooks" / "14-watching-a-run.ipynb"
    shutil.copy(lesson, lab.root / "saved14.ipynb")
    nbp = notebook
    nbp.open("saved14.ipynb")
    cell = nbp.cell(nbp.cell_index("%step loss --feed x=batch_x --feed y=batch_y --until nan", exact=True))
    output = cell.locator(".jp-OutputArea-output").first
    output.locator("img[src^='data:image/svg+xml']").first.wait_for(timeout=15000)
    [picture] = [s for s in nbp.svg_images(cell) if "<title>op:Log</title>" in s]
    assert re.search(r"svg \.gl-b\d+ polygon[^{]*\{fill: #fb923c", picture), "the stop op is not highlighted"
    cell.scroll_into_view_if_needed()
    text = cell.text_content()
    assert "op 8 of 14: Log (Log)" in text and "7 Inf" in text, text[:500]
    nbp.screenshot(cell, "step-saved-lesson.png")
