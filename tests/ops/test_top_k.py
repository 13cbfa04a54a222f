"""tf.nn.top_k and tf.nn.in_top_k: names, values and TF's tie rule (checked against TF 2.21 compat.v1)."""
import numpy as np

import graphlab as tf


def test_in_top_k_names_and_values_match_tf():
    p = tf.constant([[0.1, 0.5, 0.4], [0.3, 0.3, 0.4]])
    t = tf.constant([2, 0], tf.int64)
    a = tf.nn.in_top_k(p, t, 1)
    assert (a.op.type, a.op.name) == ("InTopKV2", "in_top_k/InTopKV2")
    assert [i.name for i in a.op.inputs] == ["Const:0", "Const_1:0", "in_top_k/InTopKV2/k:0"]
    assert a.op.get_attr("T") == tf.int64
    sess = tf.Session()
    np.testing.assert_array_equal(sess.run(a), [False, False])
    np.testing.assert_array_equal(sess.run(tf.math.in_top_k(p, t, 2)), [True, True])   # ties count in favour


def test_top_k_values_indices_and_names():
    p = tf.constant([[0.1, 0.5, 0.4], [0.3, 0.3, 0.4]])
    result = tf.nn.top_k(p, 2)
    assert (result.values.op.type, result.values.op.name) == ("TopKV2", "TopKV2")
    assert [i.name for i in result.values.op.inputs] == ["Const:0", "TopKV2/k:0"]
    assert result.indices.dtype == tf.int32 and result.values.shape.as_list() == [2, 2]
    values, indices = tf.Session().run(result)
    np.testing.assert_allclose(values, [[0.5, 0.4], [0.4, 0.3]])
    np.testing.assert_array_equal(indices, [[1, 2], [2, 0]])
