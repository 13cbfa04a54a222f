"""IndexedSlices, the sparse gradient of tf.gather and tf.nn.embedding_lookup, against TF 2.21: where TF makes
them, how tf.gradients sums them (concatenated among themselves, densified by AddN next to a dense gradient),
which gradient rules densify them and which hand them on, what Session.run gives for one, conversions and
their errors and warning, and the clipping functions keeping them sparse."""
import numpy as np
import pytest

import graphlab as tf
from tests import tfsnippets as tfcompare

GRAPHS = {
    # gathers of gathers: slices meeting slices are concatenated (int32 with int64 indices: Cast to int64)
    "gather_gradients_aggregated": """
p = tf.placeholder(tf.float32, [5, 3], name="p")
i = tf.placeholder(tf.int32, [None], name="i")
j = tf.placeholder(tf.int64, [None], name="j")
g = tf.gather(p, i)
y = tf.reduce_sum(tf.gather(g, [0, 1]) * 2.0) + tf.reduce_sum(tf.gather(p, [1])) + tf.reduce_sum(tf.square(tf.gather(p, [2, 2])))
grads = tf.gradients(y, [p, g])
mixed_types = tf.gradients(tf.reduce_sum(tf.gather(p, j)) + tf.reduce_sum(tf.gather(p, [1])), p)
""",
    # a dense gradient among them: AddN densifies each IndexedSlices as its input inputs_<i>
    "gather_gradients_meet_dense": """
p = tf.placeholder(tf.float32, [5, 3], name="p")
i = tf.placeholder(tf.int64, [None], name="i")
y = tf.reduce_sum(tf.gather(p, i)) + tf.reduce_sum(p * 2.0) + tf.reduce_sum(tf.gather(p, [1]))
grads = tf.gradients(y, [p])
""",
    # rules that densify (Reshape, ExpandDims, Squeeze, Gather on other axes), that convert in their first op
    # (Mul), and that hand the slices on (Identity, Cast, Add, Neg); gate_gradients over slices
    "indexed_slices_through_rules": """
x = tf.placeholder(tf.float32, [3, 4], name="x")
y = tf.placeholder(tf.float32, [3, 4], name="y")
ids = tf.constant([2, 0, 2])
outs = [tf.gather(tf.reshape(x, [6, 2]), ids), tf.gather(tf.expand_dims(x, 0), [0]), tf.gather(tf.squeeze(tf.expand_dims(x, 0)), ids),
        tf.gather(tf.gather(x, [1, 2], axis=1), ids), tf.gather(x * y, ids), tf.gather(tf.identity(x), ids),
        tf.gather(tf.cast(tf.cast(x, tf.float64), tf.float32), ids), tf.gather(x + y, ids), tf.gather(-x, ids)]
grads = tf.gradients(tf.add_n([tf.reduce_sum(o) for o in outs]), [x, y])
gated = tf.gradients(tf.reduce_sum(tf.gather(x + y, ids)), [x, y], gate_gradients=True)
dense = [tf.convert_to_tensor(g) for g in gated]
""",
    # an embedding table's gradient arrives at the variable as slices; densified on request
    "embedding_gradient_to_variable": """
table = tf.Variable(tf.ones([6, 3]), name="table")
ids = tf.placeholder(tf.int32, [None, 2], name="ids")
e = tf.nn.embedding_lookup(table, ids)
g = tf.gradients(tf.reduce_sum(e * e), table)[0]
dense = tf.convert_to_tensor(g)
sh = tf.identity(g.dense_shape)
""",
    # clipping an IndexedSlices: its rows, kept sparse
    "clipping_indexed_slices": """
table = tf.Variable(tf.ones([6, 3]), name="table")
ids = tf.placeholder(tf.int32, [None], name="ids")
w = tf.Variable(tf.ones([3]), name="w")
loss = tf.reduce_sum(tf.nn.embedding_lookup(table, ids) * w)
g, gw = tf.gradients(loss, [table, w])
clipped, norm = tf.clip_by_global_norm([g, gw, None], 1.0)
by_norm = tf.clip_by_norm(g, 0.5)
by_value = tf.clip_by_value(g, -0.1, 0.1)
opt = tf.train.GradientDescentOptimizer(0.1).apply_gradients(zip(clipped[:2], [table, w]))
""",
    # a gather of a loop invariant inside tf.while_loop: the gradient loop concatenates the slices (b_acc)
    "gather_in_while_loop": """
W = tf.placeholder(tf.float32, [5, 3], name="W")
U = tf.placeholder(tf.float32, [None, 3], name="U")
def body(i, acc):
    return i + 1, acc + tf.reduce_sum(tf.gather(W, i) * 2.0) + tf.reduce_sum(tf.gather(U, [i, 0]))
_, total = tf.while_loop(lambda i, acc: i < 4, body, [tf.constant(0), tf.constant(0.0)])
g = tf.gradients(total, [W, U])
""",
}

VALUES = {
    "gather_in_while_loop": """
W = tf.placeholder(tf.float32, [5, 3])
U = tf.placeholder(tf.float32, [None, 3])
def body(i, acc):
    return i + 1, acc + tf.reduce_sum(tf.gather(W, i) * 2.0) + tf.reduce_sum(tf.square(tf.gather(U, [i, 0])))
_, total = tf.while_loop(lambda i, acc: i < 4, body, [tf.constant(0), tf.constant(0.0)])
g = tf.gradients(total, [W, U])
fetch = g + [tf.convert_to_tensor(x) for x in g]
feed = {W: np.ones((5, 3)), U: np.arange(18.0).reshape(6, 3)}
""",
    "gather_gradients": """
p = tf.placeholder(tf.float32, [5, 3])
i = tf.placeholder(tf.int32, [None])
j = tf.placeholder(tf.int64, [None])
g = tf.gather(p, i)
y = tf.reduce_sum(tf.gather(g, [0, 1]) * 2.0) + tf.reduce_sum(tf.gather(p, [1])) + tf.reduce_sum(tf.square(tf.gather(p, [2, 2])))
grads = tf.gradients(y, [p, g])
mixed = tf.gradients(tf.reduce_sum(tf.gather(p, j)) + tf.reduce_sum(tf.gather(p, [1])), p)[0]
dense = tf.gradients(tf.reduce_sum(tf.gather(p, j)) + tf.reduce_sum(p * 2.0), p)[0]
fetch = grads + [mixed, dense, tf.convert_to_tensor(grads[0]), tf.convert_to_tensor(mixed)]
feed = {p: np.arange(15.0).reshape(5, 3), i: [0, 4, 4], j: [3, 3, 1]}
""",
    "through_rules": """
x = tf.placeholder(tf.float32, [3, 4])
y = tf.placeholder(tf.float32, [3, 4])
ids = tf.constant([2, 0, 2])
outs = [tf.gather(tf.reshape(x, [6, 2]), ids), tf.gather(tf.expand_dims(x, 0), [0]), tf.gather(x * y, ids),
        tf.gather(tf.cast(tf.cast(x, tf.float64), tf.float32), ids), tf.gather(x + y, ids), tf.gather(-x, ids)]
fetch = tf.gradients(tf.add_n([tf.reduce_sum(o * o) for o in outs]), [x, y])
feed = {x: np.arange(12.0).reshape(3, 4) / 7, y: np.ones((3, 4)) * 0.5}
""",
    "clipped_training_step": """
table = tf.Variable(np.arange(18.0, dtype=np.float32).reshape(6, 3) / 10, name="table")
ids = tf.placeholder(tf.int32, [None])
w = tf.Variable([1.0, -2.0, 0.5], name="w")
loss = tf.reduce_sum(tf.nn.embedding_lookup(table, ids) * w)
g, gw = tf.gradients(loss, [table, w])
clipped, norm = tf.clip_by_global_norm([g, gw], 1.0)
fetch = [clipped[0], norm, tf.clip_by_norm(g, 0.5), tf.clip_by_value(g, -0.3, 0.3)]
feed = {ids: [1, 4, 1]}
init = tf.global_variables_initializer()
""",
}

BUILD_ERRORS = {
    "no_dense_shape": """
s = tf.IndexedSlices(tf.placeholder(tf.float32, [2, 3], name="v"), tf.constant([0, 1]))
tf.convert_to_tensor(s)
""",
    "wrong_dtype": """
s = tf.IndexedSlices(tf.placeholder(tf.float32, [2, 3], name="v"), tf.constant([0, 1]), tf.constant([4, 3]))
tf.convert_to_tensor(s, dtype=tf.int32)
""",
    "wrong_dtype_keeping_slices": """
s = tf.IndexedSlices(tf.placeholder(tf.float32, [2, 3], name="v"), tf.constant([0, 1]), tf.constant([4, 3]))
tf.convert_to_tensor_or_indexed_slices(s, dtype=tf.int64)
""",
    "arithmetic_on_slices": """
s = tf.IndexedSlices(tf.placeholder(tf.float32, [2, 3], name="v"), tf.constant([0, 1]), tf.constant([4, 3]))
s * 2.0
""",
    "scatter_sub_needs_slices": """
v = tf.Variable(tf.zeros([3]))
v.scatter_sub(tf.ones([3]))
""",
}

RESULTS = {
    # one GradientDescent step with a clipped IndexedSlices gradient: ScatterSub changes only rows 1 and 4
    "clipped_sparse_training_step": """
table = tf.Variable(np.arange(18.0, dtype=np.float32).reshape(6, 3) / 10, name="table")
ids = tf.placeholder(tf.int32, [None])
w = tf.Variable([1.0, -2.0, 0.5], name="w")
loss = tf.reduce_sum(tf.nn.embedding_lookup(table, ids) * w)
grads, norm = tf.clip_by_global_norm(tf.gradients(loss, [table, w]), 1.0)
step = tf.train.GradientDescentOptimizer(0.5).apply_gradients(zip(grads, [table, w]))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(step, {ids: [1, 4, 1]})
    result = [np.round(sess.run(table), 6).tolist(), np.round(sess.run(w), 6).tolist(), step.type]
""",
    # what an IndexedSlices says about itself, and TF's warning when densifying 1e8 elements
    "properties_and_warning": """
v = tf.placeholder(tf.float32, [None, 3], name="v")
s = tf.IndexedSlices(v, tf.placeholder(tf.int64, [None], name="i"), tf.constant([10000, 10000, 3]))
p = tf.placeholder(tf.float32, [None, 3], name="p")
g = tf.gradients(tf.reduce_sum(tf.gather(p, [1])), p)[0]
small = tf.IndexedSlices(v, tf.constant([0]), tf.constant([4, 3]))
dense = tf.convert_to_tensor(s)
tf.convert_to_tensor(small)
n = tf.IndexedSlices(v, tf.constant([0]))
result = {"name": s.name, "dtype": s.dtype.name, "op": s.op.name, "shape": str(s.shape), "graph": s.graph is v.graph,
          "str": str(n), "grad_shape": str(g.shape), "neg": type(-s).__name__, "neg_op": (-s).values.op.type,
          "grad": [type(g).__name__, g.values.name, g.indices.name, g.dense_shape.name],
          "dense": [dense.name, dense.op.type, [t.name for t in dense.op.inputs]]}
""",
    # fetching and feeding an IndexedSlices in Session.run
    "fetch_and_feed": """
v = tf.placeholder(tf.float32, [None, 2], name="v")
i = tf.placeholder(tf.int32, [None], name="i")
s = tf.IndexedSlices(v, i, tf.placeholder_with_default([3, 2], [2]))
n = tf.IndexedSlices(v * 2.0, i)
d = tf.convert_to_tensor(s)
with tf.Session() as sess:
    got = sess.run({"s": s, "n": n, "d": d}, {s: ([[1.0, 2.0], [3.0, 4.0]], [2, 2])})
    got2 = sess.run(d, {s: ([[5.0, 6.0]], [0], [1, 2])})
result = {"types": [type(got["s"]).__name__, type(got["n"]).__name__], "s": [np.asarray(x).tolist() for x in got["s"]],
          "n_shape": got["n"].dense_shape is None, "d": got["d"].tolist(), "d2": got2.tolist()}
""",
}


@pytest.fixture(scope="module")
def tf_results():
    return tfcompare.reference(graphs=GRAPHS, values=VALUES, build_errors=BUILD_ERRORS, results=RESULTS)


@pytest.mark.parametrize("key", sorted(GRAPHS))
def test_graph_matches_tensorflow_op_for_op(key, tf_results):
    tfcompare.check_graph(GRAPHS[key], tf_results["graphs"][key])


@pytest.mark.parametrize("key", sorted(VALUES))
def test_values_match_tensorflow(key, tf_results):
    ours = tfcompare.run_ours(VALUES[key])
    tfcompare.check_values(ours, tf_results["values"][key], what=key)


@pytest.mark.parametrize("key", sorted(BUILD_ERRORS))
def test_errors_match_tensorflow(key, tf_results):
    tfcompare.check_build_error(BUILD_ERRORS[key], tf_results["build_errors"][key])


@pytest.mark.parametrize("key", sorted(RESULTS))
def test_results_match_tensorflow(key, tf_results):
    ours = tfcompare.run_result(RESULTS[key])
    assert ours == tf_results["results"][key]


def test_gradient_of_a_gather_on_axis_0_is_an_indexed_slices():
    params = tf.placeholder(tf.float32, [5, 3], name="params")
    g = tf.gradients(tf.reduce_sum(tf.gather(params, [4, 1, 4])), params)[0]
    assert isinstance(g, tf.IndexedSlices) and not isinstance(g, tf.Tensor)
    assert (g.dtype, g.shape.as_list(), g.indices.shape.as_list()) == (tf.float32, [5, 3], [3])
    with tf.Session() as sess:
        value = sess.run(g)
    np.testing.assert_array_equal(value.indices, [4, 1, 4])
    np.testing.assert_array_equal(value.values, np.ones((3, 3)))
    np.testing.assert_array_equal(value.dense_shape, [5, 3])


def test_numeric_gradient_check_densifies_indexed_slices():
    """The registry-wide numeric check densifies IndexedSlices before comparing (tests/gradients/test_gradients.py)."""
    from tests.gradcheck import numeric_jacobian_check
    analytic, numeric = numeric_jacobian_check(lambda p: tf.gather(p, [2, 0, 2]), [np.arange(6.0).reshape(3, 2)])
    np.testing.assert_allclose(analytic[0], numeric[0], atol=1e-6)
