"""Array ops: names, static shapes, values and build-time errors as observed in TF 2.21 compat.v1."""
import numpy as np
import pytest

import graphlab as tf


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()


def names():
    return [(o.name, o.type) for o in tf.get_default_graph().get_operations()]


def x_ph(shape=(None, 4)):
    return tf.placeholder(tf.float32, list(shape), name="x")


def test_reshape_names_and_inference():
    x = x_ph((None, 3))
    y = tf.reshape(x, [2, -1])
    assert names()[1:] == [("Reshape/shape", "Const"), ("Reshape", "Reshape")]
    assert y.shape.as_list() == [2, None]
    assert tf.reshape(tf.zeros([2, 3]), [-1, 2]).shape.as_list() == [3, 2]


def test_reshape_error_at_build_time():
    with pytest.raises(ValueError, match=r"Cannot reshape a tensor with 6 elements to shape \[4,2\] \(8 elements\)"):
        tf.reshape(tf.constant([[1., 2, 3], [4, 5, 6]]), [4, 2])


def test_transpose_and_friends_names():
    x = x_ph((None, 3))
    t = tf.transpose(x)
    assert t.name == "transpose:0" and t.shape.as_list() == [3, None]
    assert ("transpose/perm", "Const") in names()
    assert tf.expand_dims(x, 1).shape.as_list() == [None, 1, 3]
    assert tf.concat([x, x], 1).shape.as_list() == [None, 6]
    assert [t.name for t in tf.split(x, 3, 1)] == ["split:0", "split:1", "split:2"]
    assert [t.shape.as_list() for t in tf.split(x, [1, 2], 1)] == [[None, 1], [None, 2]]
    assert tf.gather(x, [0, 1]).name == "GatherV2:0"
    assert tf.pad(x, [[1, 1], [0, 2]]).shape.as_list() == [None, 5]
    assert tf.pad(x, [[1, 1], [0, 2]], constant_values=3.).op.type == "PadV2"
    assert tf.zeros([2, 3]).op.type == "Const" and tf.zeros([2, 3]).op.name == "zeros_1"
    assert tf.ones_like(x).op.type == "Fill"
    assert tf.range(1., 5.).dtype == tf.float32
    assert tf.where(tf.placeholder(tf.bool, [None])).dtype == tf.int64


def test_concat_shape_error():
    with pytest.raises(ValueError, match="Dimension 0 in both shapes must be equal, but are 2 and 3"):
        tf.concat([tf.zeros([2, 3]), tf.zeros([3, 3])], 1)


def test_slicing_matches_numpy():
    v = np.arange(24.).reshape(2, 3, 4).astype(np.float32)
    x = tf.placeholder(tf.float32, [None, 3, 4])
    i = tf.placeholder(tf.int32, [])
    keys = [(1,), (slice(None), -1), (Ellipsis, 1), (slice(None, None, -1), None, slice(1, 3)),
            (0, slice(None, None, 2), slice(3, 0, -2)), (slice(-1, None),)]
    outs = [x[k] for k in keys]
    with tf.Session() as s:
        got = s.run(outs + [x[i]], {x: v, i: 1})
    for k, g in zip(keys, got):
        np.testing.assert_array_equal(g, v[k])
    np.testing.assert_array_equal(got[-1], v[1])
    assert outs[1].shape.as_list() == [None, 4]
    assert outs[0].name == "strided_slice:0"


def test_slice_out_of_bounds_at_build_time():
    with pytest.raises(ValueError, match="slice index 5 of dimension 0 out of bounds"):
        tf.constant([[1., 2, 3], [4, 5, 6]])[5]


def test_values():
    with tf.Session() as s:
        np.testing.assert_array_equal(s.run(tf.one_hot([0, 2], 3)), [[1, 0, 0], [0, 0, 1]])
        np.testing.assert_array_equal(s.run(tf.tile([[1, 2]], [2, 2])), [[1, 2, 1, 2]] * 2)
        np.testing.assert_array_equal(s.run(tf.boolean_mask([[1, 2], [3, 4], [5, 6]], [True, False, True])),
                                      [[1, 2], [5, 6]])
        assert s.run(tf.rank(tf.zeros([2, 3]))) == 2
        np.testing.assert_array_equal(s.run(tf.shape(tf.zeros([2, 3]))), [2, 3])
        np.testing.assert_array_equal(s.run(tf.range(1, 5, 2)), [1, 3])
