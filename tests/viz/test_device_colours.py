"""render(color_by="device"): boxes filled by job and task, ps variables marked, a legend; the same for a
GraphDef (devices read from its nodes) and for %graph --color-by device."""
import pytest

import graphlab as tf
from graphlab import viz


@pytest.fixture
def cluster_graph():
    g = tf.Graph()
    with g.as_default():
        with tf.device(tf.train.replica_device_setter(ps_tasks=2, worker_device="/job:worker/task:0")):
            x = tf.placeholder(tf.float32, [None, 3], name="x")
            w = tf.Variable(tf.zeros([3, 1]), name="w")
            b = tf.Variable(0.0, name="b")
            tf.reduce_mean(tf.square(tf.matmul(x, w) + b), name="loss")
        tf.constant(1.0, name="nowhere")
    return g


def _node_line(dot, node_id):
    return next(line for line in dot.splitlines() if line.strip().startswith('"%s" [' % node_id))


def test_boxes_take_their_task_colour_and_ps_variables_say_where_they_live(cluster_graph):
    r = viz.render(cluster_graph, color_by="device", collapse=None)
    assert r.summary[-1] == "devices: ps:0 orange, ps:1 red, worker:0 blue (no device: white)"
    assert r.info["devices"] == {"ps:0": "#fdba74", "ps:1": "#fca5a5", "worker:0": "#93c5fd"}
    w = _node_line(r.dot, "op:w")
    assert 'fillcolor="#fdba74"' in w and 'label="w\\nVariableV2\\non ps:0"' in w and 'penwidth="2"' in w
    assert 'fillcolor="#fca5a5"' in _node_line(r.dot, "op:b") and "on ps:1" in _node_line(r.dot, "op:b")
    assert 'fillcolor="#93c5fd"' in _node_line(r.dot, "op:loss")
    assert 'fillcolor="#ffffff"' in _node_line(r.dot, "op:nowhere")


def test_without_color_by_nothing_changes_and_a_graph_def_colours_the_same(cluster_graph):
    plain = viz.render(cluster_graph, collapse=None)
    assert "devices" not in plain.info and "on ps:0" not in plain.dot
    from_def = viz.render(cluster_graph.as_graph_def(), color_by="device", collapse=None)
    assert from_def.info["devices"] == {"ps:0": "#fdba74", "ps:1": "#fca5a5", "worker:0": "#93c5fd"}
    assert "on ps:0" in _node_line(from_def.dot, "op:w")
    with pytest.raises(ValueError, match="color_by is 'device' or None"):
        viz.render(cluster_graph, color_by="job")


def test_a_collapsed_scope_on_several_devices_says_so(cluster_graph):
    r = viz.render(cluster_graph, color_by="device", collapse=["w"])
    line = _node_line(r.dot, "scope:w")
    assert "2 devices" in line or "on ps:0" not in line
