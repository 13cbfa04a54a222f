"""Drawings that fit the notebook column: scopes close into boxes until Graphviz's layout is no wider than the
budget, measured in the SVG it writes (width in pt, font sizes); what the caller opens stays open; highlighted
ops stand out and everything else fades; ops are drawn in the loop frame they run in, as TensorFlow's control
flow contexts say (compared with a real tf.Graph); the live widget's buttons sit on the boxes they open."""
import re

import pytest

import graphlab as tf
import tfref
from graphlab import viz
from graphlab.viz import fit

from .conftest import clusters, needs_dot, node_ids, node_line

PT = 4.0 / 3.0          # CSS px per pt: an SVG of width="624pt" is 832 px on screen


def natural_px(svg):
    """Width of the layout itself (the viewBox), in px, whatever size the SVG asks to be shown at."""
    return float(re.search(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+) ', svg).group(1)) * PT


def shown_px(svg):
    return float(re.search(r'<svg width="([\d.]+)pt"', svg).group(1)) * PT


def smallest_font_pt(svg):
    return min(float(v) for v in re.findall(r'font-size="([\d.]+)"', svg))


def _wide_graph(blocks=5, branches=4):
    """Five blocks side by side, each with four parallel branches: about 2500 px when drawn whole."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        for i in range(blocks):
            with tf.name_scope("tower%s" % "abcdefghijklmnop"[i]):
                parts = []
                for k in range(branches):
                    with tf.name_scope("branch%s" % "pqrs"[k]):
                        parts.append(tf.reduce_sum(tf.nn.relu(x * float(k + 1)), name="total"))
                tf.add_n(parts, name="sum")
    return g


@needs_dot
def test_a_wide_graph_is_closed_into_boxes_until_it_fits_the_column():
    g = _wide_graph()
    full = viz.render(g, width=None).svg()
    assert natural_px(full) > 2 * fit.COLUMN_PX           # drawn whole it would be shrunk to a third
    r = viz.render(g)
    svg = r.svg()
    assert natural_px(svg) <= fit.COLUMN_PX and shown_px(svg) <= fit.COLUMN_PX
    assert smallest_font_pt(svg) >= 9                     # shown at its own size: 12 px or more
    report = r.info["fit"]
    assert report["fits"] and report["budget_px"] == fit.COLUMN_PX and report["closed"]
    boxes = [c for c in r.collapsed if c["reason"] == "width"]
    assert boxes and all(c["ops"] > 1 for c in boxes)
    assert any("to fit the width" in line for line in r.summary)
    # a narrower budget closes more
    narrow = viz.render(g, width=400)
    assert narrow.info["fit"]["readable"] and shown_px(narrow.svg()) <= 400
    assert len(narrow.info["fit"]["closed"]) > len(report["closed"])


@needs_dot
def test_expand_keeps_a_scope_and_its_parents_open():
    g = _wide_graph()
    r = viz.render(g, expand=["towerc"])
    assert "towerc" in clusters(r.dot) and "towerc" not in r.info["fit"]["closed"]
    assert "op:towerc/sum" in node_ids(r.dot)
    g2 = tf.Graph()
    with g2.as_default():
        x = tf.placeholder(tf.float32, [], name="x")
        y = x * x
        tf.gradients(y, x)
    r = viz.render(g2, expand=["gradients/mul_grad"])     # inside a bookkeeping scope: it opens too
    assert {"gradients", "gradients/mul_grad"} <= set(clusters(r.dot))


def _loop_gradient():
    x = tf.placeholder(tf.float32, [], name="x")
    _, cube = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * x), [0, tf.constant(1.0)])
    grad, = tf.gradients(cube, x)
    return x, grad


PUSH = "gradients/while/mul_grad/Mul_1/StackPushV2"
POP = "gradients/while/mul_grad/Mul_1/StackPopV2"


@needs_dot
def test_highlight_marks_the_stack_ops_and_fades_the_rest():
    with tf.Graph().as_default():
        x, grad = _loop_gradient()
        r = viz.render(fetches=[grad], feeds=[x], scope="while", highlight=["StackPushV2", "StackPopV2"])
        push = node_line(r.dot, "op:" + PUSH)
        assert 'color="#d97706"' in push and 'penwidth="3"' in push
        faded = node_line(r.dot, "op:while/Identity_1")
        assert 'fillcolor="#f9fafb"' in faded and 'fontcolor="#9ca3af"' in faded
        assert "highlighted: StackPopV2, StackPushV2; the rest faded" in r.summary
        # closed boxes say what they hold
        r = viz.render(fetches=[grad], feeds=[x], highlight=["StackPopV2"], collapse=["gradients"],
                       width=None)
        assert "holds 1 StackPopV2" in node_line(r.dot, "scope:gradients")
        with pytest.raises(ValueError, match="highlight='StackPush': no op has that type or name"):
            viz.render(highlight=["StackPush"])


@needs_dot
def test_ops_are_drawn_in_the_frame_they_run_in():
    with tf.Graph().as_default():
        x, grad = _loop_gradient()
        # the push is named under gradients/ but runs in the forward loop: drawn in its frame
        forward = viz.render(fetches=[grad], feeds=[x], scope="while", width=None, fold_loops=False,
                             collapse=None)
        assert "op:" + PUSH in node_ids(forward.dot) and "op:" + POP not in node_ids(forward.dot)
        assert "while/gradients" in clusters(forward.dot)          # the gradient's ops in that frame
        backward = viz.render(fetches=[grad], feeds=[x], scope="gradients/while", width=None, collapse=None)
        assert "op:" + POP in node_ids(backward.dot) and "op:" + PUSH not in node_ids(backward.dot)
        assert 'label="while  ↻ gradient loop"' in backward.dot


def test_frames_follow_tensorflow_control_flow_contexts():
    """The same program in real TensorFlow: a TF graph is drawn with its ops in the same frames."""
    out = tfref.run_tf_with_graphlab("""
        import json
        import tensorflow.compat.v1 as tf
        tf.disable_v2_behavior()
        from graphlab import viz
        x = tf.placeholder(tf.float32, [], name="x")
        _, cube = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * x), [0, tf.constant(1.0)])
        grad, = tf.gradients(cube, x)
        contexts = {op.name: op._control_flow_context.name for op in tf.get_default_graph().get_operations()
                    if op.type.startswith("Stack") and op._control_flow_context is not None}
        forward = viz.render(tf.get_default_graph(), scope="while", width=None, fold_loops=False, collapse=None)
        print(json.dumps({"contexts": contexts, "dot": forward.dot}))
    """)
    theirs = __import__("json").loads(out.strip().splitlines()[-1])
    assert theirs["contexts"] == {PUSH: "while/while_context", POP: "gradients/while/while_context"}
    with tf.Graph().as_default() as g:
        _loop_gradient()
        ours = {op.name: op._control_flow_context.name for op in g.get_operations()
                if op.type.startswith("Stack") and op._control_flow_context is not None}
        assert ours == theirs["contexts"]
        mine = viz.render(g, scope="while", width=None, fold_loops=False, collapse=None).dot
    assert "op:" + PUSH in node_ids(theirs["dot"]) and set(clusters(theirs["dot"])) == set(clusters(mine))


@needs_dot
def test_a_loop_too_wide_folds_its_routing_ops_into_one_box():
    with tf.Graph().as_default():
        x, grad = _loop_gradient()
        r = viz.render(fetches=[grad], feeds=[x], scope="while")
        routing = node_line(r.dot, "loop:while")
        assert "↻ loop routing" in routing and "Enter" in routing and "Merge" in routing
        assert not [i for i in node_ids(r.dot) if re.match(r"op:while/(Enter|Merge|Switch|Exit|NextIteration)", i)]
        assert any("drawn as one box (fold_loops=False draws them)" in line for line in r.summary)
        assert r.info["fit"]["readable"]
        svg = r.svg()
        shown = min(shown_px(svg), fit.COLUMN_PX)
        assert smallest_font_pt(svg) * PT * shown / natural_px(svg) >= fit.MIN_TEXT_PX


def test_width_must_be_a_size_or_column():
    with pytest.raises(ValueError, match="width='wide'"):
        viz.render(tf.Graph(), width="wide")


@needs_dot
def test_live_widget_buttons_sit_on_the_boxes_they_open():
    from graphlab_ipython.live import clickable_boxes
    g = _wide_graph(3, 2)
    svg = viz.render(g, collapse=["towera"], width=None).svg()
    boxes = {(a, p): (left, top, w, h) for a, p, left, top, w, h in clickable_boxes(svg)}
    assert {("open", "towera"), ("close", "towerb"), ("close", "towerc"), ("close", "towerb/branchp")} <= set(boxes)
    assert not [p for a, p in boxes if p.startswith("towera/")]        # nothing inside a closed box
    # the box of towera, in the SVG's own coordinates, is where the button goes (pt -> px)
    m = re.search(r'<title>scope:towera</title>.*?points="([^"]*)"', svg, re.S)
    xs = [float(p.split(",")[0]) for p in m.group(1).split()]
    left, top, w, h = boxes[("open", "towera")]
    assert abs(w - (max(xs) - min(xs)) * PT) < 1.0 and h > 10
    assert 0 <= left <= natural_px(svg) and top >= 0
