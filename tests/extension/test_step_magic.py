"""%step in a real InteractiveShell (no widget front end: tfdbg's listing is printed), and the StepView it
shows in JupyterLab driven through its widgets' own callbacks: what the learner reads at each step."""
import re

import pytest

from graphlab_ipython import stepping

SETUP = """
import graphlab as tf
logits = tf.placeholder(tf.float32, [None, 2], name="logits")
labels = tf.constant([[0.0, 1.0]], name="labels")
probs = tf.nn.softmax(logits, name="probs")
logp = tf.log(probs, name="logp")
loss = tf.negative(tf.reduce_sum(labels * logp), name="loss")
sess = tf.Session()
"""


@pytest.fixture
def loaded(shell):
    shell.run("%load_ext graphlab")
    shell.run(SETUP)
    return shell


def test_step_prints_tfdbg_listing_in_a_terminal(loaded):
    cell = loaded.run("%step loss --feed logits=[[0.0,1000.0]] --until nan")
    assert cell.result.success, cell.stderr
    lines = cell.stdout.splitlines()
    assert lines[0] == "7 ops recorded (graphlab run of loss:0)"
    marked = [line for line in lines if line.startswith("==>")]
    assert len(marked) == 1 and re.match(r"==>\d\s+logp\s+Log\s+float32 \[1, 2\] \[\[-inf, 0\.\]\] \(1 inf\)",
                                         marked[0]), marked
    mul = next(line for line in lines if " mul " in line)
    assert "(1 nan)" in mul                 # 0 * -inf: the NaN comes one op after the Inf
    assert lines[-1] == "stopped at the first NaN/Inf"
    assert len(lines) == 1 + 7 + 1


def test_step_until_inf_op_and_errors(loaded):
    out = loaded.run("%step loss --feed logits=[[0.0,1.0]] --until nan").stdout
    assert "no op's output held a NaN or Inf" in out and "==>" not in out
    out = loaded.run("%step loss --feed logits=[[0.0,1.0]] --until Sum").stdout
    assert re.search(r"^==>\d\s+Sum\s+Sum", out, re.M)
    bad = loaded.run("%step loss --feed logits")
    assert "write NAME=EXPR" in bad.stderr + str(bad.result.error_in_exec)
    bad = loaded.run("%step loss --feed logits=undefined_name")
    assert "NameError" in bad.stderr + str(bad.result.error_in_exec)
    bad = loaded.run("%step nothing_here")
    assert "No tensor or op named 'nothing_here'" in bad.stderr + str(bad.result.error_in_exec)
    help_text = loaded.run("%step --help").stdout
    assert "--until <nan|inf|OP>" in help_text and "--feed <NAME=EXPR>" in help_text
    loaded.run("sess2 = tf.Session()")
    ambiguous = loaded.run("%step loss --feed logits=[[0.0,1.0]]")
    assert "several variables hold one (sess, sess2)" in ambiguous.stderr + str(ambiguous.result.error_in_exec)
    assert "7 ops recorded" in loaded.run("%step loss --feed logits=[[0.0,1.0]] --session sess2").stdout


def test_a_failing_run_is_shown_up_to_the_failure(loaded):
    loaded.run("checked = tf.debugging.check_numerics(logp, 'log probs', name='checked')")
    out = loaded.run("%step checked --feed logits=[[0.0,1000.0]]").stdout
    assert "run failed: InvalidArgumentError" in out and "logp" in out


def _images(html_text):
    """The SVG documents of the data-URI images in ``html_text``."""
    import base64
    return [base64.b64decode(m).decode() for m in re.findall(r"data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)",
                                                              html_text)]


def _view(shell, until=None):
    ns = shell.ip.user_ns
    import graphlab.debug as tf_debug
    import graphlab.viz as viz
    record = tf_debug.record(ns["sess"], ns["loss"], {ns["logits"]: [[0.0, 1000.0]]})
    svg = viz.render(fetches=[ns["loss"]], feeds=[ns["logits"]]).svg()
    return stepping.StepView(record, svg, stepping.stop_index(record, until) if until else 0)


def test_the_widget_steps_and_highlights(loaded):
    pytest.importorskip("ipywidgets")
    view = _view(loaded)
    view.widget()
    names = [r.name for r in view.record.ops]
    assert view.caption() == "op 1 of 7: %s (%s)" % (names[0], view.record.ops[0].type)
    view.next_button.click()
    assert view.slider.value == 1 and ("%s (" % names[1]) in view.values.value
    current = view.box_of[names[1]]
    assert re.search(r"\.%s polygon.*fill: #fb923c" % current, view.style.value)
    done = view.box_of[names[0]]
    assert re.search(r"\.%s polygon.*fill: #bbf7d0" % done, view.style.value)
    view.nan_button.click()
    assert names[view.slider.value] == "logp" and "1 Inf" in view.values.value
    assert "probs:0" in view.values.value            # its input, with the value it read
    view.jump_text.value = "loss"
    view.jump_button.click()
    assert names[view.slider.value] == "loss"
    view.jump_text.value = "no_such_op"
    view.jump_button.click()
    assert "no op named no_such_op" in view.message.value
    view.prev_button.click()
    assert view.slider.value == names.index("loss") - 1
    bundle = view._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    # the still picture for a saved notebook: an image (an untrusted notebook strips inline SVG and styles)
    # of the drawing with the current op's colour inside it
    static = bundle["text/html"]
    assert "<svg" not in static and "<style" not in static and "graphlab-step-values" in static
    [picture] = _images(static)
    assert "<title>op:loss</title>" in picture and re.search(
        r"svg \.%s polygon.*fill: #fb923c" % view.box_of[names[view.slider.value]], picture)
    assert bundle["text/plain"].startswith("7 ops recorded")


def test_values_as_numbers_heatmaps_and_histograms():
    import graphlab as tf
    import graphlab.debug as tf_debug
    image = tf.reshape(tf.range(64.0), [8, 8], name="image")
    big = tf.random_normal([100, 100], seed=1, name="big")
    total = tf.add(tf.reduce_sum(image), tf.reduce_sum(big), name="total")
    record = tf_debug.record(tf.Session(), total)
    view = stepping.StepView(record)
    panel = view.panel(stepping.stop_index(record, "image"))
    assert "data:image/png;base64," in panel and "min 0, max 63" in panel
    panel = view.panel(stepping.stop_index(record, "big"))
    assert "graphlab-histogram" in panel and "<rect" in _images(panel)[0]
    panel = view.panel(stepping.stop_index(record, "total"))
    assert "<pre" in panel


def test_dead_branches_and_loop_iterations_are_shown(shell):
    import graphlab as tf
    import graphlab.debug as tf_debug
    import graphlab.viz as viz
    x = tf.placeholder(tf.float32, [], name="x")
    y = tf.cond(x > 0, lambda: x * 2.0, lambda: x - 1.0, name="c")
    _, z = tf.while_loop(lambda i, a: i < 2, lambda i, a: (i + 1, a + y), [0, 0.0], name="loop")
    record = tf_debug.record(tf.Session(), z, {x: 1.0})
    view = stepping.StepView(record, viz.render(fetches=[z], feeds=[x], collapse="none").svg())
    dead = view.find("c/sub")
    assert record.ops[dead].dead
    assert "#e5e7eb" in view.css(len(record.ops) - 1)            # grey: the untaken branch
    body = [i for i, r in enumerate(record.ops) if r.name == "loop/add_1" and not r.dead]
    assert view.caption(body[1]).endswith("loop/add_1 (AddV2), loop/while_context iteration 1")
