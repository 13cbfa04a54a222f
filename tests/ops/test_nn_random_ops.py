"""nn and random ops: TF names and values (observed in TF 2.21 compat.v1), seed semantics."""
import numpy as np
import pytest

import graphlab as tf


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()


def test_cross_entropies_match_tf():
    x = tf.constant([[1., 2, 3], [4, 5, 6]])
    with tf.Session() as s:
        np.testing.assert_allclose(
            s.run(tf.nn.softmax_cross_entropy_with_logits_v2(labels=[[0., 0, 1], [1, 0, 0]], logits=x)),
            [0.40760595, 2.407606], rtol=1e-6)
        np.testing.assert_allclose(s.run(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[2, 0], logits=x)),
                                   [0.40760595, 2.407606], rtol=1e-6)


def test_dropout_names_as_tf():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    d = tf.nn.dropout(x, 0.5)
    assert d.name == "dropout/SelectV2:0"
    assert [o.name for o in tf.get_default_graph().get_operations()][1:] == [
        "dropout/Const", "dropout/Mul", "dropout/Shape", "dropout/random_uniform/RandomUniform",
        "dropout/GreaterEqual/y", "dropout/GreaterEqual", "dropout/Const_1", "dropout/SelectV2"]
    assert tf.nn.dropout(x, 1.0) is x and tf.nn.dropout(x, rate=0.0) is x


def test_random_normal_names_and_seeds():
    tf.set_random_seed(5)
    a = tf.random_normal([2])
    b = tf.random_normal([2])
    seeds = [(o.get_attr("seed"), o.get_attr("seed2")) for o in tf.get_default_graph().get_operations()
             if o.type == "RandomStandardNormal"]
    assert seeds == [(5, 0), (5, 1)]
    assert a.name == "random_normal:0" and a.op.type == "AddV2"
    with tf.Session() as s:
        first, second = s.run(a), s.run(a)
    with tf.Session() as s:
        again = s.run(a)
    np.testing.assert_array_equal(first, again)
    assert not np.array_equal(first, second)
    assert b is not None


def test_op_seed_alone_uses_default_graph_seed():
    tf.random_normal([2], seed=3)
    op = [o for o in tf.get_default_graph().get_operations() if o.type == "RandomStandardNormal"][0]
    assert (op.get_attr("seed"), op.get_attr("seed2")) == (87654321, 3)
