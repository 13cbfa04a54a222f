"""Graph, default-graph stack, lookups, collections and finalize, compared with TF 2.21 compat.v1."""
import threading

import pytest

import graphlab as tf


def test_default_graph_is_per_thread_stack():
    g0 = tf.get_default_graph()
    g = tf.Graph()
    with g.as_default() as entered:
        assert entered is g
        assert tf.get_default_graph() is g
        c = tf.constant(1.0)
        assert c.graph is g
        seen = []
        t = threading.Thread(target=lambda: seen.append(tf.get_default_graph()))
        t.start()
        t.join()
        assert seen[0] is not g           # another thread does not see this block's graph
    assert tf.get_default_graph() is g0
    assert c not in g0.get_operations()


def test_reset_default_graph_gives_an_empty_graph():
    tf.constant(1.0)
    old = tf.get_default_graph()
    tf.reset_default_graph()
    assert tf.get_default_graph() is not old
    assert tf.get_default_graph().get_operations() == []
    assert tf.constant(1.0).name == "Const:0"


def test_reset_inside_nested_graph_is_refused():
    with tf.Graph().as_default():
        with pytest.raises(AssertionError, match="Do not use tf.reset_default_graph"):
            tf.reset_default_graph()


def test_get_operations_and_lookup_by_name():
    g = tf.get_default_graph()
    a = tf.constant(1.0, name="a")
    b = tf.constant(2.0, name="b")
    assert g.get_operations() == [a.op, b.op]
    assert g.get_operation_by_name("a") is a.op
    assert g.get_tensor_by_name("b:0") is b
    assert g.as_graph_element("a:0") is a


def test_lookup_errors_match_tf():
    g = tf.get_default_graph()
    tf.constant(5.0, name="c")
    with pytest.raises(KeyError) as e:
        g.get_tensor_by_name("nope:0")
    assert e.value.args[0] == ("The name 'nope:0' refers to a Tensor which does not exist. The operation, "
                               "'nope', does not exist in the graph.")
    with pytest.raises(KeyError) as e:
        g.get_operation_by_name("nope")
    assert e.value.args[0] == "The name 'nope' refers to an Operation not in the graph."
    with pytest.raises(ValueError) as e:
        g.get_tensor_by_name("c")
    assert str(e.value) == ("The name 'c' refers to an Operation, not a Tensor. Tensor names must be of the "
                            "form \"<op_name>:<output_index>\".")


def test_finalize_then_adding_an_op_raises():
    g = tf.Graph()
    with g.as_default():
        tf.constant(1.0)
    g.finalize()
    assert g.finalized
    with g.as_default():
        with pytest.raises(RuntimeError, match=r"^Graph is finalized and cannot be modified\.$"):
            tf.constant(1.0)


def test_mixing_graphs_raises_value_error():
    g1, g2 = tf.Graph(), tf.Graph()
    with g1.as_default():
        c = tf.constant(5.0, name="c")
    with g2.as_default():
        z = tf.constant(1.0, name="z")
    with pytest.raises(ValueError, match=r'^Tensor\("z:0", shape=\(\), dtype=float32\) must be from the same '
                                         r'graph as Tensor\("c:0", shape=\(\), dtype=float32\)'):
        tf.add(c, z)


def test_collections():
    g = tf.get_default_graph()
    tf.add_to_collection("mine", 1)
    tf.add_to_collections(["mine", "other"], 2)
    assert tf.get_collection("mine") == [1, 2]
    assert tf.get_collection("other") == [2]
    assert tf.get_collection("missing") == []
    ref = tf.get_collection_ref("mine")
    ref.append(3)
    assert g.get_collection("mine") == [1, 2, 3]
    copy = tf.get_collection("mine")
    copy.append(4)
    assert g.get_collection("mine") == [1, 2, 3]
    assert tf.GraphKeys.GLOBAL_VARIABLES == "variables"
    assert tf.GraphKeys.TRAINABLE_VARIABLES == "trainable_variables"


def test_collection_scope_filter_uses_names():
    a = tf.Variable(1.0, name="a")
    with tf.name_scope("s"):
        b = tf.Variable(1.0, name="b")
    assert tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES, scope="s") == [b]
    assert tf.global_variables() == [a, b]


def test_version_grows_with_each_op():
    g = tf.get_default_graph()
    v0 = g.version
    tf.constant(1.0)
    tf.constant(2.0)
    assert g.version == v0 + 2
