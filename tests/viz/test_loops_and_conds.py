"""Drawings of control flow: a while loop's frame is one marked cluster (collapsible like any scope), its back
edges are drawn as "next iteration" edges that do not bend the layout, a cond's Switches keep their edges
(TF makes them after the op that reads them), and a drawing of the last run tells how many iterations each
loop made. The linter and sess.last_run understand loops too."""
import graphlab as tf
from graphlab import lint, viz

from .conftest import clusters, edges, node_line


def _loop_graph():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [], name="x")
        r = tf.while_loop(lambda i, v: i < 10, lambda i, v: (i + 1, v * 2.0), [tf.constant(0), x])
    return g, x, r


def test_a_loop_frame_is_one_marked_cluster_with_next_iteration_edges():
    g, x, r = _loop_graph()
    dot = viz.render(g).dot
    assert "while" in clusters(dot)
    assert 'label="while  ↻ while loop"' in dot
    e = {(s, d): a for s, d, a in edges(dot)}
    back = e[("op:while/NextIteration_1", "op:while/Merge_1")]
    assert 'label="next iteration"' in back and 'constraint="false"' in back and 'style="dashed"' in back
    forward = e[("op:while/Enter_1", "op:while/Merge_1")]
    assert "next iteration" not in forward and "constraint" not in forward


def test_a_collapsed_loop_and_the_iterations_of_the_last_run():
    g, x, r = _loop_graph()
    with tf.Session(graph=g) as sess:
        assert sess.run(r[1], {x: 1.0}) == 1024.0
        assert sess.last_run.iterations == {"while/while_context": [10]}
        result = viz.render(g, session=sess, collapse=["while"])
    assert "loops: while ×10" in result.summary[-1]
    assert "while ↻ while loop" in node_line(result.dot, "scope:while")


def test_nested_loops_report_one_count_per_run_of_the_inner_loop():
    x = tf.placeholder(tf.float32, [3], name="x")

    def outer_body(i, a):
        _, b = tf.while_loop(lambda j, b: j < 2, lambda j, b: (j + 1, b * x + 1.0), [tf.constant(0), a])
        return i + 1, b
    r = tf.while_loop(lambda i, a: i < 3, outer_body, [tf.constant(0), x])
    g = tf.gradients(r[1], x)[0]
    with tf.Session() as sess:
        sess.run(g, {x: [1.0, 2.0, 3.0]})
        assert sess.last_run.iterations == {
            "while/while_context": [3], "while/while/while_context": [2, 2, 2],
            "gradients/while/while_context": [3], "gradients/while/while/while_context": [2, 2, 2]}
        sess.run(x * 2.0, {x: [1.0, 2.0, 3.0]})
        assert sess.last_run.iterations == {}
    dot = viz.render(tf.get_default_graph(), collapse=None, max_nodes=1000, width=None).dot
    assert 'label="while  ↻ gradient loop"' in dot     # gradients/while: the gradient loop's cluster


def test_cond_switches_keep_their_edges():
    x = tf.placeholder(tf.float32, [], name="x")
    p = tf.placeholder(tf.bool, [], name="p")
    tf.cond(p, lambda: x + 1.0, lambda: x - 1.0)
    e = {(s, d) for s, d, _ in edges(viz.render(tf.get_default_graph()).dot)}
    assert ("op:cond/add/Switch", "op:cond/add") in e and ("op:x", "op:cond/add/Switch") in e
    assert ("op:cond/sub/Switch", "op:cond/sub") in e


def test_lint_is_quiet_about_tensorflows_own_loop_and_cond_machinery():
    x = tf.placeholder(tf.float32, [3], name="x")

    def body(i, a):
        return i + 1, tf.cond(i < 2, lambda: a * x, lambda: a + tf.sin(x))
    r = tf.while_loop(lambda i, a: i < 4, body, [tf.constant(0), x])
    tf.gradients(r[1], x)
    assert lint.lint_graph(tf.get_default_graph()) == []
    # ... but a second gradients call that repeats the first is reported
    tf.gradients(r[1], x)
    findings = lint.lint_graph(tf.get_default_graph())
    assert len(findings) == 1 and "gradients_1/" in findings[0]


def test_last_run_drawing_greys_the_dead_branch():
    tf.reset_default_graph()
    counter = tf.Variable(0, name="counter")
    flag = tf.placeholder(tf.bool, [], name="flag")
    outside = tf.assign_add(counter, 1, name="outside")
    leaky = tf.cond(flag, lambda: tf.cast(outside, tf.float32), lambda: tf.constant(0.0))
    sess = tf.Session()
    sess.run(counter.initializer)
    sess.run(leaky, {flag: False})
    from graphlab import viz
    result = viz.render(session=sess, width=None)
    assert any("1 dead (the tf.cond branch not taken)" in line for line in result.summary)
    assert "dead: branch not taken" in result.dot
