"""Code from seeds 000 (the default graph), 001 (ops are not values) and 004 (pruned subgraphs), run as
those texts run it. Expectations are what TF 2.21 (compat.v1) gives for the same code."""
import numpy as np
import pytest

import graphlab as tf


class ModelUser:
    """Seed 000's trap: the model is built inside the method that uses it."""

    def forecast(self):
        with tf.variable_scope("weight_def"):
            w = tf.get_variable("weights", [3, 1], initializer=tf.ones_initializer())
        x = tf.constant([[1.0, 2.0, 3.0]])
        y = tf.matmul(x, w)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            return sess.run(y)


def test_building_in_a_method_twice_hits_the_reuse_error():
    user = ModelUser()
    assert user.forecast()[0, 0] == 6.0
    with pytest.raises(ValueError, match=r"^Variable weight_def/weights already exists, disallowed\. Did you "
                                         r"mean to set reuse=True or reuse=tf\.AUTO_REUSE in VarScope\?"):
        user.forecast()


def test_a_fresh_graph_per_call_fixes_it():
    user = ModelUser()
    for _ in range(2):
        with tf.Graph().as_default():
            assert user.forecast()[0, 0] == 6.0
    assert tf.get_default_graph().get_operations() == []


def test_graph_is_not_itself_a_context_manager_as_in_tf():
    with pytest.raises((AttributeError, TypeError)):
        with tf.Graph():
            pass


def test_initializer_in_run_adds_a_new_op_each_time():
    tf.Variable(1.0, name="x")
    session = tf.Session()
    session.run(tf.global_variables_initializer())
    session.run(tf.global_variables_initializer())
    names = [op.name for op in tf.get_default_graph().get_operations() if op.type == "NoOp"]
    assert names == ["init", "init_1"]


def test_y_equals_x_plus_one_twice_leaves_two_add_ops():
    x = tf.Variable(1.0)
    y = x + 1.0
    y = x + 1.0
    adds = [op.name for op in tf.get_default_graph().get_operations() if op.type == "AddV2"]
    assert adds == ["add", "add_1"] and y.name == "add_1:0"


def test_loop_grows_graph_but_assign_does_not():
    x = tf.Variable(0.0, name="x")
    graph = tf.get_default_graph()
    before = graph.version
    y = x
    for _ in range(100):
        y = y + 1
    assert graph.version - before == 200
    increment_x = tf.assign(x, x + 1)
    session = tf.Session()
    session.run(tf.global_variables_initializer())
    size = graph.version
    for _ in range(100):
        session.run(increment_x)
    assert graph.version == size and session.run(x) == 100.0


def test_large_numpy_array_becomes_a_constant_versus_a_placeholder():
    many_ones = np.ones((1000, 1000))
    session = tf.Session()
    total = session.run(tf.reduce_sum(many_ones))
    assert total == 1000000.0 and isinstance(total, np.float64)
    consts = [op for op in tf.get_default_graph().get_operations() if op.type == "Const"]
    assert max(op.get_attr("value").nbytes for op in consts) == 8000000
    many_things = tf.placeholder(tf.float64)
    adder = tf.reduce_sum(many_things)
    assert session.run(adder, feed_dict={many_things: many_ones}) == 1000000.0


def test_ops_as_curried_functions():
    input_tensor = tf.placeholder(tf.float32)
    reshape_to_28 = tf.reshape(input_tensor, shape=[28, 28])
    value = tf.Session().run(reshape_to_28, {input_tensor: np.arange(784)})
    assert value.shape == (28, 28) and value[1, 0] == 28
    assert [t.name for t in reshape_to_28.op.inputs] == ["Placeholder:0", "Reshape/shape:0"]


def test_each_fetch_combination_gets_its_own_cached_pruned_plan():
    a = tf.placeholder(tf.float32, name="a")
    t1 = tf.multiply(a, 2.0, name="t1")
    t2 = tf.add(t1, 1.0, name="t2")
    t3 = tf.square(a, name="t3")
    sess = tf.Session()
    sess.run([t1, t2], {a: 1.0})
    assert not sess.last_run.cached and sorted(sess.last_run.executed) == ["t1", "t1/y", "t2", "t2/y"]
    sess.run([t1, t2], {a: 2.0})
    assert sess.last_run.cached
    sess.run(t3, {a: 3.0})
    assert not sess.last_run.cached and sess.last_run.executed == ["t3"]
    assert sess.plan_cache_info()["plans"] == 2


def test_variables_and_queues_are_shared_between_pruned_subgraphs():
    v = tf.Variable(0.0, name="v")
    train = tf.assign_add(v, 1.0)
    loss = v * 2.0
    q = tf.FIFOQueue(10, tf.float32)
    enqueue = q.enqueue(v)
    dequeue = q.dequeue()
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())   # one subgraph initializes
    sess.run(train)                               # another trains
    sess.run(enqueue)                             # a third enqueues
    assert sess.run(loss) == 2.0                  # a fourth evaluates
    assert sess.run(dequeue) == 1.0               # and a fifth dequeues what the third put in


def test_changing_the_batch_size_reuses_the_graph():
    x = tf.placeholder(tf.float32, [None, 3])
    y = tf.reduce_sum(x, axis=1)
    sess = tf.Session()
    assert sess.run(y, {x: np.ones((2, 3))}).shape == (2,)
    assert sess.run(y, {x: np.ones((5, 3))}).shape == (5,)
    assert sess.last_run.cached
