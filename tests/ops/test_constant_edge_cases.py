"""Edge cases of constants and conversions, as TF 2.21 (compat.v1) behaves."""
import numpy as np
import pytest

import graphlab as tf


def test_constant_with_larger_shape_repeats_the_last_element():
    c = tf.constant([1, 2, 3], shape=[2, 2])
    assert c.shape.as_list() == [2, 2]
    np.testing.assert_array_equal(tf.Session().run(c), [[1, 2], [3, 3]])
    np.testing.assert_array_equal(tf.Session().run(tf.constant(np.array([1., 2.]), shape=[3])), [1., 2., 2.])
    assert tf.constant(1.0, shape=[0]).shape.as_list() == [0]


def test_constant_with_too_many_elements_for_the_shape():
    with pytest.raises(ValueError, match=r"^Too many elements provided. Takes at most 2, but got 3.$"):
        tf.constant([1, 2, 3], shape=[2])


def test_none_is_not_a_value():
    with pytest.raises(ValueError, match=r"^None values not supported.$"):
        tf.constant(None)
    with pytest.raises(ValueError, match=r"^None values not supported.$"):
        tf.constant(1) + None
    with pytest.raises(TypeError, match=r"^Failed to convert elements of \[1, None\] to Tensor."):
        tf.constant([1, None])


def test_concat_in_the_old_argument_order_fails_as_tf():
    x = tf.placeholder(tf.float32, [None, 784])
    with pytest.raises(ValueError, match=r"^Shape \(2, \?, 784\) must have rank 0$"):
        tf.concat(1, [x, x])
    with pytest.raises(ValueError, match=r"^Shape must be rank 0 but is rank 1 for '\{\{node concat_1\}\} = ConcatV2\["):
        tf.concat([x, x], [1])


def test_scalar_string_result_is_bytes():
    sess = tf.Session()
    assert sess.run(tf.constant("a") + "b") == b"ab"
    assert type(sess.run(tf.constant("a") + tf.constant("b"))) is bytes
    out = sess.run(tf.constant(["a"]) + "b")
    assert out.dtype == object and out.tolist() == [b"ab"]
