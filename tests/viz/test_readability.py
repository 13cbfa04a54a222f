"""What a reviewer found hard to read: cut marks on edges into ops that never run, runs that would fail for a
missing feed, fifty copies of one block side by side, greyed control-flow ops that do run, `[]` and "1 ops"."""
import numpy as np

import graphlab as tf
from graphlab import viz

from .conftest import clusters, edges, node_ids, node_line

FADED_EDGE = 'color="#e5e7eb"'


def _edge(dot, src, dst):
    e = {(s, d): a for s, d, a in edges(dot)}
    return e[(src, dst)]


def test_fed_edges_are_cuts_only_into_ops_that_run():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2], name="x")
        used = tf.multiply(x, 2.0, name="used")
        tf.multiply(x, 3.0, name="unused")
    dot = viz.render(g, fetches=used, feeds=[x]).dot
    assert "cut: fed x:0" in _edge(dot, "op:x", "op:used") and 'arrowhead="tee"' in _edge(dot, "op:x", "op:used")
    into_unused = _edge(dot, "op:x", "op:unused")
    assert "cut" not in into_unused and 'arrowhead="tee"' not in into_unused and FADED_EDGE in into_unused


def test_unfed_placeholder_on_the_path_is_named_and_marked():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 2], name="x")
        y_ = tf.placeholder(tf.float32, [None, 2], name="y_")
        d = tf.placeholder_with_default(tf.constant([1.0, 1.0]), [2], name="d")
        loss = tf.reduce_mean(tf.square(x - y_) * d, name="loss")
    r = viz.render(g, fetches=[loss], feeds=[x])
    assert ("unfed placeholder(s) on the path: y_ — this run would fail with 'You must feed a value for "
            "placeholder tensor'") in r.summary
    assert r.info["overlay"]["unfed"] == ["y_"]
    line = node_line(r.dot, "op:y_")
    assert 'color="#dc2626"' in line and "dashed" in line and "NOT FED" in line
    assert "NOT FED" not in node_line(r.dot, "op:d") and "NOT FED" not in node_line(r.dot, "op:x")
    # everything fed: no warning
    r = viz.render(g, fetches=[loss], feeds=[x, y_])
    assert not [s for s in r.summary if "unfed" in s] and "NOT FED" not in r.dot


def _blocks(n, steps, odd=None):
    g = tf.Graph()
    with g.as_default():
        for i in range(n):
            with tf.variable_scope("block%d" % i):
                a = tf.get_variable("w", [3])
                for _ in range(steps):
                    a = a * 2.0 + 1.0
                if i == odd:
                    tf.identity(a)          # one block with other contents
    return g


def test_repeated_sibling_scopes_become_one_series_next_to_an_open_example():
    g = _blocks(50, 20)
    assert len(g.get_operations()) == 4500
    r = viz.render(g)
    ids = node_ids(r.dot)
    assert "series:/block:scope" in ids
    label = node_line(r.dot, "series:/block:scope")
    assert "block ×49" in label and "scopes, 4410 ops" in label and "each like block0" in label
    cl = clusters(r.dot)
    assert "block0" in cl and "block1" not in cl and not [i for i in ids if i.startswith("op:block1/")]
    # inside the open example, the 20 repeated `mul` / `add` scopes are series too
    assert "series:block0/mul:scope" in ids and "series:block0/add:scope" in ids
    assert r.node_count <= 15
    assert "series: block0/mul ×19 (each like block0/mul), block0/add ×19 (each like block0/add), " \
           "block ×49 (each like block0)" in r.summary


def test_repeated_scopes_need_the_same_op_types_and_can_be_switched_off():
    r = viz.render(_blocks(6, 2, odd=3))
    label = node_line(r.dot, "series:/block:scope")
    assert "block ×4" in label                   # block1, 2, 4, 5; block3 holds one more op
    assert "block3" in clusters(r.dot) and "block0" in clusters(r.dot)
    r = viz.render(_blocks(6, 2), group_series=False)
    assert not [i for i in node_ids(r.dot) if i.startswith("series:")]
    assert {"block%d" % i for i in range(6)} <= set(clusters(r.dot))


def test_executed_control_flow_ops_look_active():
    g = tf.Graph()
    with g.as_default():
        p = tf.placeholder(tf.bool, [], name="p")
        x = tf.placeholder(tf.float32, [], name="x")
        out = tf.cond(p, lambda: x + 1.0, lambda: x)
        tf.no_op(name="idle")
    r = viz.render(g, fetches=[out], feeds=[p, x])
    active = set(r.info["overlay"]["active"])
    for name in ("cond/Switch", "cond/Merge"):
        assert name in active
        line = node_line(r.dot, "op:" + name)
        assert 'fillcolor="#ffffff"' in line and 'fontcolor="#111827"' in line and 'penwidth="2"' in line
        assert "#9ca3af" not in line and "#fafafa" not in line          # not the pale control grey
    assert ' color="#374151"' in node_line(r.dot, "op:cond/Switch")
    assert 'fillcolor="#f9fafb"' in node_line(r.dot, "op:idle")      # a control op that does not run stays faded


def test_scalar_edges_say_scalar_and_unknown_rank_stays_a_question_mark():
    g = tf.Graph()
    with g.as_default():
        s = tf.placeholder(tf.float32, [], name="s")
        u = tf.placeholder(tf.float32, None, name="u")
        tf.add(s, 1.0, name="a")
        tf.identity(u, name="b")
    dot = viz.render(g).dot
    assert 'label="scalar"' in _edge(dot, "op:s", "op:a")
    assert 'label="?"' in _edge(dot, "op:u", "op:b")
    assert "[]" not in dot


def test_one_op_scope_says_one_op():
    g = tf.Graph()
    with g.as_default():
        with tf.name_scope("solo"):
            tf.constant(1.0, name="c")
    r = viz.render(g, collapse=["solo"])
    assert 'label="solo\\n1 op"' in node_line(r.dot, "scope:solo")
    assert "collapsed: solo (1 op, requested)" in r.summary


def test_a_long_loop_keeps_the_small_variable_scope_open():
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable(0.0, name="v")
        t = v
        for _ in range(300):
            t = t + 1.0
    r = viz.render(g)
    ids = node_ids(r.dot)
    assert {"op:v", "op:v/read", "op:v/Assign", "op:v/initial_value"} <= set(ids)
    assert "scope:v" not in ids
    assert "add ×299" in node_line(r.dot, "series:/add:scope")
    assert r.node_count == 7


def test_auto_collapse_reopens_small_scopes_when_there_is_room_and_says_so_in_words():
    g = tf.Graph()
    with g.as_default():
        h = tf.placeholder(tf.float32, [2], name="x")
        for i in range(30):
            with tf.name_scope("block%s" % chr(ord("a") + i % 26) + str(i // 26) + "x"):
                for _ in range(12):
                    h = tf.identity(h)
        v = tf.Variable(np.zeros(2, np.float32), name="v")     # 4 ops
        tf.add(h, v, name="out")
    r = viz.render(g, max_nodes=50, group_series=False)
    assert r.node_count <= 50
    ids = node_ids(r.dot)
    assert "scope:blocka0x" in ids and "op:v/read" in ids and "scope:v" not in ids
    assert "to stay under 50 boxes, collapsed every top-level scope" in r.summary
    # no room: the small scope closes too
    r = viz.render(g, max_nodes=33, group_series=False)
    assert "scope:v" in node_ids(r.dot)
