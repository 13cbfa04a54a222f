"""Array-op gradients built as TensorFlow builds them, checked by value. Every expected number, dtype, name
and message below was printed by TensorFlow 2.21 (tensorflow.compat.v1, graph mode) on the same code."""
import numpy as np
import pytest

import graphlab as tf
from graphlab.framework.registry import build_op

W = np.arange(1, 25, dtype=np.float32)


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()


def _run(fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


def _concat_offset(axis, shapes):
    return build_op("ConcatOffset", [axis, shapes]).outputs


# ------------------------------------------------------------------------------------------- ConcatOffset
def test_concat_offset_values_and_static_shapes():
    off = _concat_offset(tf.constant(1), [tf.constant([2, 3, 4]), tf.constant([2, 5, 4]), tf.constant([2, 1, 4])])
    assert [o.name for o in off] == ["ConcatOffset:0", "ConcatOffset:1", "ConcatOffset:2"]
    assert [v.tolist() for v in _run(off)] == [[0, 0, 0], [0, 3, 0], [0, 8, 0]]
    assert _run(_concat_offset(-1, [[2, 3], [2, 5]]))[1].tolist() == [0, 3]     # a negative axis counts back
    ragged = _concat_offset(1, [tf.placeholder(tf.int32, [3]), tf.placeholder(tf.int32, [None])])
    assert [o.shape.as_list() for o in ragged] == [[3], [None]]


@pytest.mark.parametrize("axis, shapes, message", [
    (2, [[2, 3], [2, 5]], "Concat dim is out of range: 2 vs. 2"),
    (-3, [[2, 3], [2, 5]], "Concat dim is out of range: -3 vs. 2"),
    (1, [[2, 3], [2, 5, 1]], "input 1 should contain 2 elements, but got 3"),
    (1, [[2, 3], [3, 5]], "All dimensions except 1 must match. Input 1 has shape [3 5] and doesn't match "
                          "input 0 with shape [2 3]."),
])
def test_concat_offset_errors_at_run_time(axis, shapes, message):
    off = _concat_offset(tf.placeholder_with_default(axis, []), shapes)
    with pytest.raises(tf.errors.InvalidArgumentError, match=message.replace("[", r"\[").replace("]", r"\]")
                       .replace(".", r"\.")):
        _run(off)


# --------------------------------------------------------------------------------------------- gradients
def test_concat_gradient_slices_at_concat_offsets():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    y = tf.placeholder(tf.float32, [None, 2], name="y")
    gx, gy = tf.gradients(tf.reduce_sum(tf.concat([x, y, x], -1) * W[:16].reshape(2, 8)), [x, y])
    assert gx.op.type == "AddN" and gy.op.type == "Slice"
    assert [i.op.type for i in gy.op.inputs[1:]] == ["ConcatOffset", "ShapeN"]
    vx, vy = _run([gx, gy], {x: np.ones([2, 3]), y: np.ones([2, 2])})
    assert vx.tolist() == [[7.0, 9.0, 11.0], [23.0, 25.0, 27.0]]
    assert vy.tolist() == [[4.0, 5.0], [12.0, 13.0]]


def test_concat_of_more_than_16_inputs_splits_once():
    y = tf.placeholder(tf.float32, [None, 2], name="y")
    g = tf.gradients(tf.reduce_sum(tf.concat([y] * 17, 1) * np.arange(68, dtype=np.float32).reshape(2, 34)), y)[0]
    assert g.op.inputs[0].op.type == "SplitV"
    assert _run(g, {y: np.ones([2, 2])}).tolist() == [[272.0, 289.0], [850.0, 867.0]]


def test_slice_and_strided_slice_gradients():
    a = tf.placeholder(tf.float32, [4, 6], name="a")
    gs = tf.gradients(tf.reduce_sum(tf.slice(a, [1, 2], [2, -1]) * W[:8].reshape(2, 4)), a)[0]
    gss = tf.gradients(tf.reduce_sum(a[1:, ::2] * W[:9].reshape(3, 3)), a)[0]
    k = tf.constant(2)
    gk = tf.gradients(tf.reduce_sum(a[k] * W[:6]) + tf.reduce_sum(a[:k, k:]), a)[0]
    vs, vss, vk = _run([gs, gss, gk], {a: np.arange(24.).reshape(4, 6)})
    assert vs.tolist() == [[0, 0, 0, 0, 0, 0], [0, 0, 1, 2, 3, 4], [0, 0, 5, 6, 7, 8], [0, 0, 0, 0, 0, 0]]
    assert vss.tolist() == [[0, 0, 0, 0, 0, 0], [1, 0, 2, 0, 3, 0], [4, 0, 5, 0, 6, 0], [7, 0, 8, 0, 9, 0]]
    assert vk.tolist() == [[0, 0, 1, 1, 1, 1], [0, 0, 1, 1, 1, 1], [1, 2, 3, 4, 5, 6], [0, 0, 0, 0, 0, 0]]
    # known shape, begin, end and strides enter StridedSliceGrad as its own Consts
    assert [t.op.name for t in gss.op.inputs[:4]] == ["gradients_1/strided_slice_grad/StridedSliceGrad/" + n
                                                      for n in ("shape", "begin", "end", "strides")]


def test_gather_gradient_on_axis_1_sums_repeated_indices():
    a = tf.placeholder(tf.float32, [4, 6], name="a")
    i = tf.placeholder(tf.int32, [None], name="i")
    weights = tf.reshape(tf.range(1.0, 1.0 + 4 * tf.cast(tf.size(i), tf.float32)), [4, -1])
    g = tf.gradients(tf.reduce_sum(tf.gather(a, i, axis=1) * weights), a)[0]
    assert g.op.type == "Reshape" and g.op.name == "gradients/GatherV2_grad/Reshape_2"
    assert _run(g, {a: np.zeros([4, 6]), i: [5, 0, 5]}).tolist() == [
        [2, 0, 0, 0, 0, 4], [5, 0, 0, 0, 0, 10], [8, 0, 0, 0, 0, 16], [11, 0, 0, 0, 0, 22]]


# ------------------------------------------------------------------------- forward ops built as TF does
def test_transpose_and_pad_of_unknown_rank():
    u = tf.placeholder(tf.float32, None, name="u")
    t = tf.transpose(u)
    assert t.op.inputs[1].op.type == "Range" and t.op.inputs[1].op.name == "transpose/Range"
    assert _run(t, {u: np.arange(6.).reshape(1, 2, 3)}).tolist() == [[[0.0], [3.0]], [[1.0], [4.0]], [[2.0], [5.0]]]
    p = tf.pad(u, [[1, 2]])
    assert p.shape.as_list() == [None]          # the paddings' shape gives the rank
    assert _run(p, {u: [1.0, 2.0]}).tolist() == [0.0, 1.0, 2.0, 0.0, 0.0]


@pytest.mark.parametrize("kwargs, dtype, on_name, off_name", [
    (dict(on_value=1, off_value=0), "int32", "one_hot/Const", "one_hot/Const_1"),
    (dict(on_value=5.0), "float32", "one_hot/Const", "one_hot/off_value"),
    (dict(off_value=-1, dtype=tf.int64), "int64", "one_hot/on_value", "one_hot/Const"),
    (dict(dtype=tf.float64), "float64", "one_hot/on_value", "one_hot/off_value"),
])
def test_one_hot_value_dtypes_and_names(kwargs, dtype, on_name, off_name):
    t = tf.one_hot(tf.constant([0, 2]), 3, **kwargs)
    assert (t.dtype.name, t.op.inputs[2].op.name, t.op.inputs[3].op.name) == (dtype, on_name, off_name)


@pytest.mark.parametrize("kwargs, message", [
    (dict(on_value=1.0, dtype=tf.int32),
     "dtype <dtype: 'float32'> of on_value does not match dtype parameter <dtype: 'int32'>"),
    (dict(on_value=1, off_value=0.5), "dtype <dtype: 'int32'> of on_value does not match dtype <dtype: 'float32'> "
                                      "of off_value"),
])
def test_one_hot_dtype_errors(kwargs, message):
    with pytest.raises(TypeError) as info:
        tf.one_hot(tf.constant([0, 2]), 3, **kwargs)
    assert str(info.value) == message


# ------------------------------------------------------------------------------------ gather batch_dims
def test_gather_with_batch_dims_values_shapes_and_gradients():
    P = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    p = tf.placeholder(tf.float32, [2, 3, 4], name="p")
    q = tf.placeholder(tf.float32, [None, 3, 4], name="q")
    i = tf.constant([[2, 0], [1, 1]])
    j = tf.placeholder(tf.int32, [None, 3, 2], name="j")
    outs = [tf.gather(p, i, batch_dims=1), tf.gather(p, i, axis=2, batch_dims=1),
            tf.gather(q, j, axis=2, batch_dims=-1), tf.gather(p, tf.constant([[[0, 1]], [[2, 2]]]), axis=2, batch_dims=1)]
    assert [o.shape.as_list() for o in outs] == [[2, 2, 4], [2, 3, 2], [None, 3, 2], [2, 3, 1, 2]]
    assert outs[0].op.get_attr("batch_dims") == 1 and outs[2].op.get_attr("batch_dims") == -1
    weights = [np.arange(1, 1 + np.prod(s), dtype=np.float32).reshape(s) for s in ([2, 2, 4], [2, 3, 2], [2, 3, 2],
                                                                                   [2, 3, 1, 2])]
    gp, gq = tf.gradients(tf.add_n([tf.reduce_sum(o * w) for o, w in zip(outs, weights)]), [p, q])
    v = _run(outs + [gp, gq], {p: P, q: P, j: [[[3, 0], [1, 1], [2, 3]], [[0, 0], [3, 2], [1, 0]]]})
    assert v[0].tolist() == [[[8, 9, 10, 11], [0, 1, 2, 3]], [[16, 17, 18, 19], [16, 17, 18, 19]]]
    assert v[1].tolist() == [[[2, 0], [6, 4], [10, 8]], [[13, 13], [17, 17], [21, 21]]]
    assert v[2].tolist() == [[[3, 0], [5, 5], [10, 11]], [[12, 12], [19, 18], [21, 20]]]
    assert v[3].tolist() == [[[[0, 1]], [[4, 5]], [[8, 9]]], [[[14, 14]], [[18, 18]], [[22, 22]]]]
    assert v[4].tolist() == [[[8, 8, 8, 8], [7, 4, 3, 0], [12, 8, 8, 4]],
                             [[0, 15, 15, 0], [22, 43, 45, 28], [0, 23, 23, 0]]]
    assert v[5].tolist() == [[[2, 0, 0, 1], [0, 7, 0, 0], [0, 0, 5, 6]], [[15, 0, 0, 0], [0, 0, 10, 9], [12, 11, 0, 0]]]
