"""Feeding a variable, and a cond branch returning an op made outside it (both used to crash a kernel)."""
import numpy as np

import graphlab as tf


def test_feeding_a_variable_replaces_its_value_for_that_run_only():
    w = tf.Variable([1, 2], name="w")
    sess = tf.Session()
    sess.run(w.initializer)
    np.testing.assert_array_equal(sess.run(w + 1, {w: [5, 6]}), [6, 7])
    np.testing.assert_array_equal(sess.run(w), [1, 2])


def test_cond_returning_an_assign_made_outside_runs_it_on_either_branch():
    v = tf.Variable(0.0, name="v")
    x = tf.placeholder(tf.float32, [])
    inc = tf.assign_add(v, 1.)
    r = tf.cond(x > 0, lambda: inc, lambda: tf.identity(v))
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    sess.run(r, {x: -1.})            # the false branch is taken ...
    assert sess.run(v) == 1.0        # ... but the assign, built outside the cond, ran anyway (seed 003)
    assert sess.run(r, {x: 1.}) == 2.0


def test_name_scope_none_returns_to_the_top_level():
    with tf.name_scope("outer"):
        with tf.name_scope(None):
            assert tf.constant(1.0).name == "Const:0"


def test_tf1_script_preamble_and_config_are_accepted():
    tf.compat.v1.disable_v2_behavior()
    assert tf.compat.v1 is tf and not tf.executing_eagerly()
    config = tf.ConfigProto(allow_soft_placement=True, gpu_options=tf.GPUOptions(allow_growth=True))
    with tf.device("/cpu:0"):
        c = tf.constant(2.0)
    assert tf.Session(config=config).run(c) == 2.0
    graph_def = tf.GraphDef()
    graph_def.ParseFromString(tf.get_default_graph().as_graph_def().SerializeToString())
    assert [n.name for n in graph_def.node] == ["Const"]
