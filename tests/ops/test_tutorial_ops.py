"""The small ops of the classic TF1 tutorials (CIFAR-10's tf.nn.lrn and tf.nn.zero_fraction, xw_plus_b,
weighted_cross_entropy_with_logits, reduce_logsumexp, tf.losses.huber_loss, is_nan/is_inf/is_finite,
check_numerics, verify_tensor_all_finite), each checked against real TensorFlow 2.21 run in a subprocess
(tests/tfref.py): the graph op for op (forward and tf.gradients), the numbers, and the errors."""
import json

import numpy as np
import pytest

import graphlab as tf
from tests import tfsnippets as tfcompare
from tests.programs.test_same_graph_as_tf import graphlab_ops

# --------------------------------------------------------------------------------------- graphs
GRAPHS = {
    "lrn": """
x = tf.placeholder(tf.float32, [2, 3, 3, 4], name="x")
u = tf.placeholder(tf.float32, name="u")
y = tf.nn.lrn(x, depth_radius=2, bias=1.0, alpha=0.001 / 9.0, beta=0.75, name="norm1")
y2 = tf.nn.local_response_normalization(x)
y3 = tf.nn.lrn(u, 1)
grads = tf.gradients([y, y2, y3], [x, u])
""",
    "xw_plus_b": """
x = tf.placeholder(tf.float32, [None, 3], name="x")
w = tf.placeholder(tf.float32, [3, 2], name="w")
b = tf.placeholder(tf.float32, [2], name="b")
y = tf.nn.xw_plus_b(x, w, b)
y2 = tf.nn.xw_plus_b(x, w, [1.0, 2.0], name="fc")
grads = tf.gradients(y + y2, [x, w, b])
""",
    "weighted_cross_entropy": """
z = tf.placeholder(tf.float32, [None, 3], name="z")
l = tf.placeholder(tf.float32, [None, 3], name="l")
q = tf.placeholder(tf.float32, [], name="q")
a = tf.nn.weighted_cross_entropy_with_logits(targets=l, logits=z, pos_weight=2.0)
b = tf.nn.weighted_cross_entropy_with_logits(labels=l, logits=z, pos_weight=q, name="wce")
grads = tf.gradients([a, b], [z, l, q])
""",
    "reduce_logsumexp": """
x = tf.placeholder(tf.float32, [2, 3], name="x")
u = tf.placeholder(tf.float32, name="u")
a = tf.reduce_logsumexp(x)
b = tf.reduce_logsumexp(x, 1, keepdims=True)
c = tf.math.reduce_logsumexp(x, axis=[0], name="lse")
d = tf.reduce_logsumexp(u, reduction_indices=[1], keep_dims=False)
e = tf.reduce_logsumexp(u)
grads = tf.gradients([a, b, c], x) + tf.gradients([d, e], u)
""",
    "huber_loss": """
p = tf.placeholder(tf.float32, [None, 3], name="p")
l = tf.placeholder(tf.float32, [None, 3], name="l")
p2 = tf.placeholder(tf.float32, [2, 3], name="p2")
w = tf.placeholder(tf.float32, [2, 1], name="w")
h = tf.losses.huber_loss(l, p, delta=0.5)
h2 = tf.losses.huber_loss(tf.ones([2, 3]), p2, weights=w, reduction=tf.losses.Reduction.SUM, scope="hub")
h3 = tf.losses.huber_loss(l, p, reduction=tf.losses.Reduction.NONE)
h4 = tf.losses.huber_loss([[1, 0, 1], [0, 0, 2]], p2, weights=w, delta=2.0, reduction=tf.losses.Reduction.MEAN)
grads = tf.gradients(h + h2 + tf.reduce_sum(h3) + h4, [p, l, p2, w])
""",
    "numerics": """
x = tf.placeholder(tf.float32, [3], name="x")
o = [tf.is_nan(x), tf.is_inf(x), tf.is_finite(x), tf.math.is_nan(x, name="n2"), tf.math.is_inf(x),
     tf.math.is_finite(x)]
c = tf.check_numerics(x, "bad x")
v = tf.verify_tensor_all_finite(x, "not finite")
v2 = tf.verify_tensor_all_finite(x=x * 2.0, message="twice", name="vf")
grads = tf.gradients([tf.exp(c), v], x)
""",
}
# tf.cond builds its Switches after their consumer in TF and before it in graphlab (which keeps the graph
# in topological order; see tests/ops/test_cond_structure.py), so these are compared as sets of ops
COND_GRAPHS = {
    "zero_fraction": """
x = tf.placeholder(tf.float32, [None, 3], name="x")
k = tf.placeholder(tf.int32, [2, 2], name="k")
u = tf.placeholder(tf.float64, name="u")
z = tf.nn.zero_fraction(x)
z2 = tf.math.zero_fraction(k, name="sparsity")
z3 = tf.nn.zero_fraction(u)
""",
}

# ---------------------------------------------------------------------------------------- values
R = np.random.RandomState(7)
IMG = R.uniform(-2, 2, (2, 3, 2, 7)).astype(np.float32)
LOGITS = np.array([[-30.0, -1.5, 0.0], [0.3, 2.0, 40.0]], np.float32)
LABELS = np.array([[0.0, 1.0, 0.25], [1.0, 0.0, 0.6]], np.float32)
SPECIAL = np.array([0.0, np.inf, -np.inf, np.nan, -1.5], np.float32)

# each snippet leaves `fetch` (a list of tensors) and `feed`; both TFs print what running them gives
VALUES = {
    "lrn": """
x = tf.placeholder(tf.float32, [2, 3, 2, 7])
ys = [tf.nn.lrn(x, 2, 1.0, 0.3, 0.75), tf.nn.lrn(x, 1, 0.5, 0.2, 0.5), tf.nn.lrn(x, 3, 2.0, 1.0, 1.0),
      tf.nn.lrn(x), tf.nn.lrn(x, 10, 1.0, 0.5, 0.3)]
loss = sum(tf.reduce_sum(y * np.linspace(-1, 1, 7).astype(np.float32)) for y in ys)
fetch = ys + tf.gradients(loss, x)
feed = {x: IMG}
""",
    "zero_fraction": """
a = tf.placeholder(tf.float32, [None, 3])
k = tf.constant([[0, 1], [0, 0]])
fetch = [tf.nn.zero_fraction(a), tf.nn.zero_fraction(k), tf.nn.zero_fraction(tf.zeros([0, 3]))]
feed = {a: [[0, 1, 2], [0, 0, 3], [-0.0, 5, 1e-30]]}
""",
    "xw_plus_b": """
x = tf.constant(IMG[0, 0, :, :3])
w = tf.constant(IMG[1, 0, :3, :].T[:3, :2].copy())
y = tf.nn.xw_plus_b(x, w, [0.5, -1.0])
fetch = [y] + tf.gradients(tf.reduce_sum(y * y), [x, w])
feed = {}
""",
    "weighted_cross_entropy": """
z = tf.constant(LOGITS)
l = tf.constant(LABELS)
a = tf.nn.weighted_cross_entropy_with_logits(l, z, 3.0)
b = tf.nn.weighted_cross_entropy_with_logits(targets=l, logits=z, pos_weight=tf.constant([0.5, 1.0, 2.0]))
fetch = [a, b] + tf.gradients(tf.reduce_sum(a) + tf.reduce_sum(b), [z, l])
feed = {}
""",
    "reduce_logsumexp": """
x = tf.placeholder(tf.float32, [4, 3])
ys = [tf.reduce_logsumexp(x), tf.reduce_logsumexp(x, 1), tf.reduce_logsumexp(x, 0, keepdims=True)]
big = tf.constant([[1000.0, 1000.0], [-1000.0, -999.0]])
fetch = ys + tf.gradients(ys[1], x) + [tf.reduce_logsumexp(big, 1)]
feed = {x: [[1.0, 2.0, 3.0], [-np.inf, -np.inf, -np.inf], [np.inf, 1.0, 0.0], [np.nan, 0.0, 1.0]]}
""",
    "huber_loss": """
p = tf.constant([[0.1, 2.0, -3.0], [0.5, 0.5, 1.5]])
l = tf.constant([[0.0, 0.0, 0.0], [1.0, 0.0, 1.0]])
h = tf.losses.huber_loss(l, p, delta=0.5)
h2 = tf.losses.huber_loss(l, p, weights=[[2.0], [0.0]], delta=1.0)
h3 = tf.losses.huber_loss(l, p, reduction=tf.losses.Reduction.NONE)
fetch = [h, h2, h3] + tf.gradients(h + h2, p) + [tf.add_n(tf.losses.get_losses()[:2])]
feed = {}
""",
    "numerics": """
x = tf.placeholder(tf.float32, [5])
d = tf.constant(SPECIAL.astype(np.float64))
fetch = [tf.is_nan(x), tf.is_inf(x), tf.is_finite(x), tf.math.is_nan(d), tf.math.is_inf(d), tf.math.is_finite(d),
         tf.check_numerics(x[4:], "fine"), tf.verify_tensor_all_finite(x[:1], "fine")]
feed = {x: SPECIAL}
""",
}

# build errors: each snippet raises; both TFs report the exception type and message
BUILD_ERRORS = {
    "lrn_rank3": 'tf.nn.lrn(tf.placeholder(tf.float32, [2, 3, 4], name="x3"))',
    "lrn_float64": "tf.nn.lrn(tf.placeholder(tf.float64, [1, 2, 2, 3]))",
    "lrn_int": "tf.nn.lrn(tf.placeholder(tf.int32, [1, 2, 2, 3]))",
    "is_nan_int": "tf.is_nan(tf.constant([1, 2]))",
    "is_finite_int": "tf.math.is_finite(tf.constant([1, 2]))",
    "check_numerics_int": 'tf.check_numerics(tf.constant([1, 2]), "m")',
    "logsumexp_int": "tf.reduce_logsumexp(tf.constant([1, 2]))",
    "wce_shapes": "tf.nn.weighted_cross_entropy_with_logits(labels=tf.zeros([2, 3]), logits=tf.zeros([2, 4]), "
                  "pos_weight=2.0)",
    "wce_both_labels": "tf.nn.weighted_cross_entropy_with_logits(tf.zeros([2]), tf.zeros([2]), 2.0, "
                       "targets=tf.zeros([2]))",
    "huber_shapes": "tf.losses.huber_loss(tf.zeros([2, 3]), tf.zeros([2, 4]))",
    "huber_no_labels": "tf.losses.huber_loss(None, tf.zeros([2, 4]))",
    "huber_no_predictions": "tf.losses.huber_loss(tf.zeros([2, 4]), None)",
    "xw_plus_b_shapes": "tf.nn.xw_plus_b(tf.zeros([2, 3]), tf.zeros([4, 2]), tf.zeros([2]))",
    "verify_both": "tf.verify_tensor_all_finite(tf.zeros([2]), 'm', x=tf.zeros([2]))",
}

# run-time errors: (snippet leaving `fetch` and `feed`); both TFs report the InvalidArgumentError's text
RUN_ERRORS = {
    "check_nan": 'x = tf.placeholder(tf.float32, [3])\nfetch = tf.check_numerics(x, "bad x")\nfeed = {x: [1, np.nan, 2]}',
    "check_inf": 'x = tf.placeholder(tf.float64, [3])\nfetch = tf.check_numerics(x, "bad x")\nfeed = {x: [1, np.inf, 2]}',
    "check_both": 'x = tf.placeholder(tf.float32, [3])\nfetch = tf.check_numerics(x, "m")\nfeed = {x: [-np.inf, np.nan, 2]}',
    "verify": 'x = tf.placeholder(tf.float32, [3])\nfetch = tf.verify_tensor_all_finite(x, "not finite")\n'
              'feed = {x: [1, -np.inf, 3]}',
    "check_grad": 'x = tf.placeholder(tf.float32, [3])\nfetch = tf.gradients(tf.exp(tf.check_numerics(x, "bad x")), x)[0]'
                  '\nfeed = {x: [1000, 1, 2]}',
    "lrn_rank2": "u = tf.placeholder(tf.float32)\nfetch = tf.nn.lrn(u)\nfeed = {u: np.ones((2, 3), np.float32)}",
}

DATA = {"IMG": IMG, "LOGITS": LOGITS, "LABELS": LABELS, "SPECIAL": SPECIAL}

@pytest.fixture(scope="module")
def tf_results():
    return tfcompare.reference(graphs=dict(GRAPHS, **COND_GRAPHS), values=VALUES, build_errors=BUILD_ERRORS,
                               run_errors=RUN_ERRORS, data=DATA)


# ----------------------------------------------------------------------------------------- tests
@pytest.mark.parametrize("key", sorted(GRAPHS))
def test_graph_matches_tensorflow_op_for_op(key, tf_results):
    tfcompare.check_graph(GRAPHS[key], tf_results["graphs"][key])


@pytest.mark.parametrize("key", sorted(COND_GRAPHS))
def test_cond_graph_matches_tensorflow_as_a_set_of_ops(key, tf_results):
    ours = graphlab_ops(COND_GRAPHS[key])
    theirs = tf_results["graphs"][key]
    assert sorted(map(json.dumps, ours)) == sorted(map(json.dumps, theirs))


@pytest.mark.parametrize("key", sorted(VALUES))
def test_values_match_tensorflow(key, tf_results):
    tfcompare.check_values(tfcompare.run_ours(VALUES[key], **DATA), tf_results["values"][key], what=key)


@pytest.mark.parametrize("key", sorted(BUILD_ERRORS))
def test_build_errors_match_tensorflow(key, tf_results):
    tfcompare.check_build_error(BUILD_ERRORS[key], tf_results["build_errors"][key])


@pytest.mark.parametrize("key", sorted(RUN_ERRORS))
def test_run_errors_match_tensorflow(key, tf_results):
    tfcompare.check_run_error(RUN_ERRORS[key], tf_results["run_errors"][key])


def test_lrn_attrs_are_float32_as_in_tensorflow():
    x = tf.placeholder(tf.float32, [1, 2, 2, 3])
    op = tf.nn.lrn(x, depth_radius=2, alpha=0.001 / 9.0, beta=0.75).op
    assert op.type == "LRN"
    assert op.get_attr("alpha") == 0.00011111111234640703   # TF: float(np.float32(0.001 / 9))
    assert (op.get_attr("depth_radius"), op.get_attr("bias"), op.get_attr("beta")) == (2, 1.0, 0.75)


def test_second_derivative_of_lrn_has_no_rule_as_in_tensorflow():
    x = tf.placeholder(tf.float32, [1, 2, 2, 3], name="x")
    g = tf.gradients(tf.nn.lrn(x), x)[0]
    assert g.op.type == "LRNGrad"
    with pytest.raises(LookupError, match=r"No gradient defined for operation'gradients/LRN_grad/LRNGrad' "
                                          r"\(op type: LRNGrad\)"):
        tf.gradients(g, x)


def test_check_numerics_passes_finite_values_through():
    x = tf.placeholder(tf.float32, [2])
    y = tf.check_numerics(x, "ok") * 2.0
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(y, {x: [1.5, -3.0]}), [3.0, -6.0])
