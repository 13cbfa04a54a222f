"""Feeds and fetched arrays, as TF 2.21 behaves (each case was run there): the order of a feed_dict does not
matter, a fed value wins over the op that would produce it even when that op still runs, and what a run
returns is the caller's own array, never a buffer the session or the graph keeps."""
import numpy as np

import graphlab as tf


def test_the_order_of_a_feed_dict_does_not_change_the_result():
    a = tf.placeholder(tf.float32, [], name="a")
    b = tf.placeholder(tf.float32, [], name="b")
    c = a - b
    sess = tf.Session()
    assert sess.run(c, {a: 5.0, b: 1.0}) == 4.0
    assert sess.run(c, {b: 1.0, a: 5.0}) == 4.0           # the same cached plan, feeds in another order


def test_a_fed_output_wins_over_its_op_when_the_op_runs_for_another_output():
    x = tf.placeholder(tf.float32, [4], name="x")
    first, second = tf.split(x, 2)
    c, d = first * 10, second * 10
    sess = tf.Session()
    for _ in range(2):                                      # first run and cached run
        got_c, got_d = sess.run([c, d], {x: [1.0, 2.0, 3.0, 4.0], first: [7.0, 7.0]})
        np.testing.assert_array_equal(got_c, [70.0, 70.0])
        np.testing.assert_array_equal(got_d, [30.0, 40.0])


def test_fed_placeholders_reached_by_control_edges():
    x = tf.placeholder(tf.float32, [], name="x")
    with tf.control_dependencies([x.op]):
        y = x * 2
    d = tf.placeholder_with_default(1.0, [], name="d")
    e = d * 10
    with tf.control_dependencies([d.op]):
        f = tf.identity(e)
    sess = tf.Session()
    assert sess.run(y, {x: 3.0}) == 6.0
    assert sess.run([f, d], {d: 5.0}) == [50.0, 5.0]


def test_fetched_arrays_are_the_callers_own():
    v = tf.Variable([1.0, 2.0], name="v")
    step = tf.train.MomentumOptimizer(0.1, 0.9).minimize(tf.reduce_sum(v * v))
    accum = [t for t in tf.global_variables() if t.name.startswith("v/Momentum")][0]
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    fetched = sess.run(v)
    fetched[0] = 100.0
    np.testing.assert_array_equal(sess.run(v), [1.0, 2.0])
    sess.run(step)
    before = sess.run(accum)
    sess.run(step)
    np.testing.assert_array_equal(before, [2.0, 4.0])      # a slot fetched earlier keeps its value
    x = tf.placeholder(tf.float32, [2])
    fed = np.array([1.0, 2.0], np.float32)
    assert sess.run(tf.identity(x), {x: fed}) is not fed


def test_a_queue_keeps_its_own_copy_of_what_was_fed():
    q = tf.FIFOQueue(2, tf.float32, shapes=[[2]])
    x = tf.placeholder(tf.float32, [2])
    enqueue, dequeue = q.enqueue([x]), q.dequeue()
    sess = tf.Session()
    fed = np.array([1.0, 2.0], np.float32)
    sess.run(enqueue, {x: fed})
    fed[0] = 99.0
    np.testing.assert_array_equal(sess.run(dequeue), [1.0, 2.0])


def test_py_func_may_change_its_inputs_without_changing_the_graph():
    def increment(a):
        a += 1
        return a
    c = tf.constant([1.0, 2.0])
    doubled = c * 2
    y = tf.py_func(increment, [c], tf.float32)
    z = tf.py_func(increment, [doubled], tf.float32)
    sess = tf.Session()
    for _ in range(2):
        np.testing.assert_array_equal(sess.run(y), [2.0, 3.0])
        np.testing.assert_array_equal(sess.run(z), [3.0, 5.0])
    np.testing.assert_array_equal(sess.run([c, doubled]), [[1.0, 2.0], [2.0, 4.0]])
