"""tf.cumsum / tf.cumprod (Cumsum, Cumprod), tf.setdiff1d (ListDiff), and the exact gradient of
tf.reduce_prod that TF builds from them. Expected numbers, names and messages were taken from TensorFlow 2.21
(compat.v1) running the same code."""
import numpy as np
import pytest

import graphlab as tf
from graphlab.errors import InvalidArgumentError


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield


def run(fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


# ------------------------------------------------------------------------------------- Cumsum, Cumprod
def test_cumsum_examples_from_tensorflow_docs():
    x = tf.constant([2, 4, 6, 8])
    outs = run([tf.cumsum(x), tf.cumsum(x, exclusive=True), tf.cumsum(x, reverse=True),
                tf.cumsum(x, exclusive=True, reverse=True)])
    assert [o.tolist() for o in outs] == [[2, 6, 12, 20], [0, 2, 6, 12], [20, 18, 14, 8], [18, 14, 8, 0]]
    assert all(o.dtype == np.int32 for o in outs)


def test_cumprod_examples_and_dtypes():
    x = tf.constant([1, 2, 3], tf.int64)
    outs = run([tf.cumprod(x), tf.math.cumprod(x, exclusive=True), tf.cumprod(x, reverse=True),
                tf.math.cumprod(x, exclusive=True, reverse=True)])
    assert [o.tolist() for o in outs] == [[1, 2, 6], [1, 1, 2], [6, 6, 3], [6, 3, 1]]
    assert all(o.dtype == np.int64 for o in outs)
    assert run(tf.cumprod(tf.constant([1, 2, 3], tf.uint8), exclusive=True, reverse=True)).tolist() == [6, 3, 1]


def _reference(fn, x, axis, exclusive, reverse):
    """Running sums/products written out with Python loops, one line along ``axis`` at a time."""
    x = np.moveaxis(np.array(x), axis, -1)
    out = np.empty_like(x)
    for idx in np.ndindex(x.shape[:-1]):
        line = list(x[idx])[::-1] if reverse else list(x[idx])
        acc = 0 if fn == "cumsum" else 1
        res = []
        for v in line:
            if exclusive:
                res.append(acc)
            acc = acc + v if fn == "cumsum" else acc * v
            if not exclusive:
                res.append(acc)
        out[idx] = res[::-1] if reverse else res
    return np.moveaxis(out, -1, axis)


@pytest.mark.parametrize("fn", ["cumsum", "cumprod"])
@pytest.mark.parametrize("axis", [0, 1, -1, -2])
def test_every_exclusive_reverse_combination_on_each_axis(fn, axis):
    for value in (np.array([[1.0, 2, 3], [4, 5, 6]]), np.array([[1, 2, 3], [4, 0, 6]], np.int32)):
        for exclusive in (False, True):
            for reverse in (False, True):
                y = getattr(tf, fn)(tf.constant(value), axis, exclusive=exclusive, reverse=reverse)
                assert y.shape.as_list() == [2, 3] and y.dtype == tf.as_dtype(value.dtype)
                got = run(y)
                assert got.dtype == value.dtype
                np.testing.assert_array_equal(got, _reference(fn, value, axis, exclusive, reverse))


def test_names_and_attrs_follow_tensorflow():
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    c = tf.cumsum(x, 1, exclusive=True)
    assert c.name == "Cumsum:0" and c.op.type == "Cumsum"
    assert [t.name for t in c.op.inputs] == ["x:0", "Cumsum/axis:0"]
    assert c.op.get_attr("exclusive") is True and c.op.get_attr("reverse") is False
    p = tf.cumprod([1.0, 2.0], name="running")
    assert [t.name for t in p.op.inputs] == ["running/x:0", "running/axis:0"] and p.name == "running:0"
    assert tf.cumsum(x, tf.constant(1, tf.int64)).op.get_attr("Tidx") == tf.int64
    assert tf.cumsum(tf.placeholder(tf.float32), 1).shape.ndims is None


def test_bad_axis_is_found_at_run_time_with_tensorflows_message():
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    feed = {x: np.ones((2, 3))}
    cases = [(tf.cumsum(x, 2), r"ScanOp: Expected scan axis in the range \[-2, 2\), but got 2"),
             (tf.cumprod(x, -3), r"ScanOp: Expected scan axis in the range \[-2, 2\), but got -1"),
             (tf.cumsum(x, [1]), r"ScanOp: axis must be a scalar, not \[1\]"),
             (tf.cumsum(tf.constant(3.0)), r"ScanOp: Expected scan axis in the range \[0, 0\), but got 0")]
    for y, message in cases:   # TF's shape rule keeps x's shape: nothing is checked while building
        with pytest.raises(InvalidArgumentError, match=message):
            run(y, feed)


def test_bad_types_raise_tensorflows_type_errors():
    with pytest.raises(TypeError, match="Value passed to parameter 'x' has DataType bool not in list of allowed "
                                        "values: float32, float64, int32, uint8"):
        tf.cumsum(tf.constant([True]))
    with pytest.raises(TypeError, match="Value passed to parameter 'axis' has DataType float32 not in list of "
                                        "allowed values: int32, int64"):
        tf.cumsum(tf.constant([1.0]), tf.constant(0.0))


def test_cumulative_gradients_match_tensorflow():
    x = tf.constant([2.0, 0.0, 3.0, 4.0])
    expected = {  # (exclusive, reverse) -> (d sum cumprod(x) / dx, d sum cumsum(x*x) / dx), from TF
        (False, False): ([1, 0, 0, 0], [16, 0, 12, 8]), (False, True): ([0, 0, 4, 4], [4, 0, 18, 32]),
        (True, False): ([1, 0, 0, 0], [12, 0, 6, 0]), (True, True): ([0, 0, 4, 4], [0, 0, 12, 24])}
    for (exclusive, reverse), (prod_grad, sum_grad) in expected.items():
        gp = tf.gradients(tf.cumprod(x, exclusive=exclusive, reverse=reverse), x)[0]
        gs = tf.gradients(tf.cumsum(x * x, exclusive=exclusive, reverse=reverse), x)[0]
        # Cumprod's rule divides by x with div_no_nan (TF's rule): 0, not the true derivative, at x == 0
        assert run([gp, gs]) == [pytest.approx(prod_grad), pytest.approx(sum_grad)]


# ------------------------------------------------------------------------------------ ListDiff, setdiff1d
def test_setdiff1d_values_names_and_index_dtype():
    o = tf.setdiff1d([1, 2, 3, 4, 5, 6, 1], [1, 3, 5])
    assert type(o).__name__ == "ListDiff" and (o.out.name, o.idx.name) == ("ListDiff:0", "ListDiff:1")
    assert [op.name for op in tf.get_default_graph().get_operations()] == ["ListDiff/x", "ListDiff/y", "ListDiff"]
    out, idx = run(o)
    assert out.tolist() == [2, 4, 6] and idx.tolist() == [1, 3, 5] and idx.dtype == np.int32
    o2 = tf.setdiff1d(tf.constant([3.0, 1.0]), tf.constant([1.0]), index_dtype=tf.int64, name="sd")
    assert o2.out.name == "sd:0" and o2.idx.dtype == tf.int64 and o2.out.shape.as_list() == [None]
    out, idx = run(o2)
    assert out.tolist() == [3.0] and idx.tolist() == [0] and idx.dtype == np.int64


def test_setdiff1d_errors():
    with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 2"):
        tf.setdiff1d([[1]], [1])
    with pytest.raises(TypeError, match="Value passed to parameter 'out_idx' has DataType float32 not in list "
                                        "of allowed values: int32, int64"):
        tf.setdiff1d([1], [2], index_dtype=tf.float32)
    p = tf.placeholder(tf.int32)
    with pytest.raises(InvalidArgumentError, match="x should be a 1D vector."):
        run(tf.setdiff1d(p, [1]), {p: [[1]]})
    with pytest.raises(InvalidArgumentError, match="y should be a 1D vector."):
        run(tf.setdiff1d([1], p), {p: [[1]]})


# ------------------------------------------------------------------------- reduce_prod: exact gradient
PROD_CASES = [  # name, input, axis, keepdims, placeholder shape ("unknown": unknown rank), TF's gradient
    ("one zero", [0.0, 2, 3], None, False, None, [6, 0, 0]),
    ("two zeros", [0.0, 2, 0, 3], None, False, None, [0, 0, 0, 0]),
    ("rows", [[0.0, 2, 3], [1, 0, 0], [2, 3, 4]], 1, False, None, [[6, 0, 0], [0, 0, 0], [36, 24, 18]]),
    ("columns, keepdims", [[0.0, 2, 3], [1, 0, 0], [2, 3, 4]], 0, True, None,
     [[2, 0, 0], [0, 12, 36], [0, 0, 0]]),
    ("negative axis, keepdims", np.arange(24.0).reshape(2, 3, 4) - 7, -2, True, None,
     [[[-3, -8, -9, 0], [-7, -24, -45, -64], [21, 24, 15, 0]],
      [[585, 840, 1155, 1536], [325, 504, 735, 1024], [225, 360, 539, 768]]]),
    ("two axes", np.arange(24.0).reshape(2, 3, 4) - 5, [0, 2], False, None,
     [[[-120960, -151200, -201600, -302400], [0, -96096, 0, 0], [26438400, 19828800, 15863040, 13219200]],
      [[86400, 75600, 67200, 60480], [0, 0, 0, 0], [5287680, 4957200, 4665600, 4406400]]]),
    ("unknown batch", [[0.0, 2, 3], [1, 0, 5]], 1, False, [None, 3], [[6, 0, 0], [0, 10, 0]]),
    ("unknown batch, axis 0", [[0.0, 2, 3], [1, 4, 5], [2, 2, 2]], 0, False, [None, 3],
     [[2, 16, 30], [0, 8, 18], [0, 16, 45]]),
    ("unknown rank", [[0.0, 2, 3], [1, 4, 5]], [1], False, "unknown", [[6, 0, 0], [40, 10, 8]]),
]


@pytest.mark.parametrize("case", PROD_CASES, ids=[c[0] for c in PROD_CASES])
def test_reduce_prod_gradient_is_exact_at_zeros(case):
    """d/dx0 of prod([0, 2, 3]) is 6: the product of the other elements, not prod / x0 (NaN)."""
    _, value, axis, keep, ph, expected = case
    value = np.asarray(value)
    x = tf.constant(value) if ph is None else tf.placeholder(tf.float64, None if ph == "unknown" else ph)
    feed = {} if ph is None else {x: value}
    y = tf.reduce_prod(x, axis, keepdims=keep)
    n = run(y, feed).shape
    loss = tf.reduce_sum(y * tf.constant(np.arange(1.0, 1 + np.prod(n)).reshape(n)))
    g = tf.gradients(loss, x)[0]
    assert g.shape.is_compatible_with(value.shape)
    got = run(g, feed)
    assert not np.isnan(got).any()
    np.testing.assert_allclose(got, expected)


# What TF 2.21 builds under gradients/Prod_grad/ for tf.reduce_prod(x, 1) with x of shape [3, 4].
PROD_GRAD_OPS = [
    ("Shape", "Const"), ("Reshape/shape", "Const"), ("Reshape", "Reshape"), ("Reshape_1/shape", "Const"),
    ("Reshape_1", "Reshape"), ("BroadcastTo", "BroadcastTo"), ("Rank", "Const"), ("add", "AddV2"),
    ("mod", "FloorMod"), ("range/start", "Const"), ("range/delta", "Const"), ("range", "Range"),
    ("ListDiff", "ListDiff"), ("concat/axis", "Const"), ("concat", "ConcatV2"), ("GatherV2/axis", "Const"),
    ("GatherV2", "GatherV2"), ("Const", "Const"), ("Prod", "Prod"), ("GatherV2_1/axis", "Const"),
    ("GatherV2_1", "GatherV2"), ("Const_1", "Const"), ("Prod_1", "Prod"), ("transpose", "Transpose"),
    ("Shape_1", "Const"), ("Reshape_2/shape", "Pack"), ("Reshape_2", "Reshape"), ("Cumprod/axis", "Const"),
    ("Cumprod", "Cumprod"), ("Cumprod_1/axis", "Const"), ("Cumprod_1", "Cumprod"), ("mul", "Mul"),
    ("Reshape_3", "Reshape"), ("InvertPermutation", "InvertPermutation"), ("transpose_1", "Transpose"),
    ("mul_1", "Mul"), ("Reshape_4", "Reshape"),
]


def test_reduce_prod_gradient_builds_what_tensorflow_builds():
    x = tf.placeholder(tf.float32, [3, 4], name="x")
    g = tf.gradients(tf.reduce_prod(x, 1), x)[0]
    prefix = "gradients/Prod_grad/"
    ops = [(op.name[len(prefix):], op.type) for op in tf.get_default_graph().get_operations()
           if op.name.startswith(prefix)]
    assert ops == PROD_GRAD_OPS
    assert g.name == prefix + "Reshape_4:0" and g.shape.as_list() == [3, 4]
    graph = tf.get_default_graph()
    assert graph.get_operation_by_name(prefix + "transpose").outputs[0].shape.as_list() == [4, 3]
    left, right = (graph.get_operation_by_name(prefix + n) for n in ("Cumprod", "Cumprod_1"))
    assert (left.get_attr("exclusive"), left.get_attr("reverse")) == (True, False)
    assert (right.get_attr("exclusive"), right.get_attr("reverse")) == (True, True)
