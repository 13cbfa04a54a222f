"""tf.gradients: TF's op names and walk order, summed paths, un-broadcasting, None for unconnected inputs,
stop_gradient, missing rules; and one registry-wide numeric check of every gradient rule."""
import numpy as np
import pytest

import graphlab as tf
from tests.gradcheck import numeric_jacobian_check
from graphlab.framework import registry
from tests.gradients import more_gradient_samples

# What TensorFlow 2.21 (compat.v1) builds for this graph, in creation order.
TF_NAMES = [
    "gradients/Shape", "gradients/grad_ys_0/Const", "gradients/grad_ys_0", "gradients/Sum_grad/Reshape/shape",
    "gradients/Sum_grad/Reshape", "gradients/Sum_grad/Shape", "gradients/Sum_grad/Tile",
    "gradients/mul_1_grad/Mul", "gradients/mul_1_grad/Mul_1", "gradients/mul_1_grad/Shape",
    "gradients/mul_1_grad/Shape_1", "gradients/mul_1_grad/BroadcastGradientArgs", "gradients/mul_1_grad/Sum",
    "gradients/mul_1_grad/Reshape", "gradients/mul_1_grad/Sum_1", "gradients/mul_1_grad/Reshape_1",
    "gradients/AddN", "gradients/add_grad/Shape", "gradients/add_grad/Shape_1",
    "gradients/add_grad/Sum/reduction_indices", "gradients/add_grad/Sum", "gradients/add_grad/Reshape",
    "gradients/MatMul_grad/MatMul", "gradients/MatMul_grad/MatMul_1", "gradients/mul_grad/Mul",
    "gradients/mul_grad/Mul_1", "gradients/mul_grad/Shape", "gradients/mul_grad/Shape_1",
    "gradients/mul_grad/Sum/reduction_indices", "gradients/mul_grad/Sum", "gradients/mul_grad/Reshape",
]


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield


def _model():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    w = tf.Variable(np.ones((3, 2), np.float32), name="w")
    b = tf.Variable(np.zeros(2, np.float32), name="b")
    y = tf.matmul(x * 2.0, w) + b
    return x, w, b, tf.reduce_sum(y * y)


def test_names_follow_tensorflow():
    x, w, b, z = _model()
    gx, gb, gw = tf.gradients(z, [x, b, w])
    assert (gx.name, gb.name, gw.name) == ("gradients/mul_grad/Mul:0", "gradients/add_grad/Reshape:0",
                                           "gradients/MatMul_grad/MatMul_1:0")
    names = [op.name for op in tf.get_default_graph().get_operations() if op.name.startswith("gradients/")]
    assert names == TF_NAMES
    assert tf.get_default_graph().get_operation_by_name("gradients/mul_1_grad/BroadcastGradientArgs").type \
        == "BroadcastGradientArgs"
    assert tf.gradients(z, [w])[0].name.startswith("gradients_1/")


def test_values_and_broadcasting():
    x, w, b, z = _model()
    gx, gb, gw = tf.gradients(z, [x, b, w])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        vx, vb, vw = sess.run([gx, gb, gw], {x: np.ones((2, 3), np.float32)})
    np.testing.assert_allclose(vx, np.full((2, 3), 48.0))
    np.testing.assert_allclose(vb, [24.0, 24.0])
    np.testing.assert_allclose(vw, np.full((3, 2), 48.0))


def test_unconnected_stop_gradient_and_grad_ys():
    a = tf.constant(2.0)
    b = tf.constant(3.0)
    c = a * b
    assert tf.gradients(c, [tf.constant(1.0)]) == [None]
    zero = tf.gradients(c, [tf.constant(1.0, name="u")], unconnected_gradients="zero")[0]
    d = tf.stop_gradient(a) * b
    ga, gb = tf.gradients(d, [a, b])
    assert ga is None
    e = a * a + b
    ge = tf.gradients(e, [a], stop_gradients=[a])
    gy = tf.gradients(c, [a], grad_ys=tf.constant(10.0))[0]
    with tf.Session() as sess:
        assert sess.run(gb) == 2.0
        assert sess.run(ge[0]) == 4.0     # a*a+b with a held constant: 2a from both factors
        assert sess.run(gy) == 30.0
        assert sess.run(zero) == 0.0


def test_missing_rule_raises_lookup_error_naming_op():
    x = tf.placeholder(tf.float32, [2])
    y = tf.py_func(lambda v: v, [x], tf.float32, name="opaque")
    assert tf.gradients(y, [x]) == [None]        # PyFunc is not differentiable (as in TF)
    opdef = registry.get_opdef("Square")
    saved, opdef.grad = opdef.grad, None
    try:
        with pytest.raises(LookupError, match=r"No gradient defined for operation'sq' \(op type: Square\)"):
            tf.gradients(tf.square(x, name="sq"), [x])
    finally:
        opdef.grad = saved


# ------------------------------------------------------------------ registry-wide numeric gradient check
R = np.random.RandomState(42)


def _u(*shape, lo=-1.0, hi=1.0):
    return R.uniform(lo, hi, size=shape)


def _pos(*shape):
    return R.uniform(0.5, 1.5, size=shape)


def _i(values):
    return tf.constant(np.array(values, np.int32))


_MP_X = R.permutation(16).reshape(1, 4, 4, 1).astype(np.float64)  # distinct values: no ties in max
# op type -> (build(*placeholders) -> output tensor, [float64 inputs]). A new differentiable op needs a row.
SAMPLES = {
    "Abs": (tf.abs, [_pos(3) * np.array([1, -1, 1])]),
    "AddN": (lambda a, b, c: tf.add_n([a, b, c]), [_u(2, 3), _u(2, 3), _u(2, 3)]),
    "AddV2": (tf.add, [_u(2, 3), _u(3)]),
    "BatchMatMulV2": (tf.matmul, [_u(2, 2, 3), _u(3, 4)]),
    "BiasAdd": (lambda x, b: tf.nn.bias_add(x, b), [_u(2, 3), _u(3)]),
    "Cast": (lambda x: tf.cast(tf.cast(x, tf.float32), tf.float64), [_u(3)], {"delta": 1e-2, "rtol": 1e-3}),
    "Ceil": (lambda x: tf.ceil(x) + x, [_u(3) + 0.3]),
    "ConcatV2": (lambda a, b: tf.reduce_sum(tf.concat([a, b], 1) * tf.concat([b, a, b], -1)[:, :5])
                 + tf.reduce_sum(tf.concat([a, b] * 9, 1) * tf.concat([b, a] * 9, 1)), [_u(2, 3), _u(2, 2)]),
    "Cos": (tf.cos, [_u(4)]),
    "Cumsum": (lambda x: tf.cumsum(x, 1, exclusive=True) + tf.cumsum(x, -2, reverse=True), [_u(3, 4)]),
    "Cumprod": (lambda x: tf.cumprod(x, 1) + tf.cumprod(x, 0, exclusive=True, reverse=True), [_pos(3, 4)]),
    "Elu": (tf.nn.elu, [_u(5) + 0.05]),
    "Exp": (tf.exp, [_u(4)]),
    "ExpandDims": (lambda x: tf.expand_dims(x, 1), [_u(3)]),
    "Fill": (lambda v: tf.fill([2, 3], v), [np.array(0.7)]),
    "Floor": (lambda x: tf.floor(x) + x, [_u(3) + 0.3]),
    "FloorDiv": (lambda x, y: tf.floordiv(x, y) + x, [_pos(3) * 3 + 0.1, _pos(3)]),
    "FloorMod": (tf.floormod, [_pos(3) * 3 + 0.05, np.array([0.7, 0.9, 1.1])]),
    "GatherV2": (lambda p: tf.reduce_sum(tf.gather(p, _i([2, 0, 2]))) + tf.reduce_sum(tf.gather(p, _i([[1, 1], [0, 2]]), axis=1))
                 + tf.reduce_sum(tf.gather(p, _i([0, 2]), axis=-1)[:2] * tf.gather(p, _i([3, 3]), axis=0)[..., :2])
                 + tf.reduce_sum(tf.gather(p, _i([[2, 0, 0], [1, 2, 2], [0, 0, 1], [2, 1, 1]]), axis=1, batch_dims=1) ** 2),
                 [_u(4, 3)]),
    "Identity": (tf.identity, [_u(3)]),
    "Print": (lambda x: tf.Print(x, [], first_n=0), [_u(3)]),
    "TopKV2": (lambda x: tf.nn.top_k(x, 2).values, [np.array([[0.3, 0.9, 0.1, 0.5], [0.8, 0.2, 0.6, 0.4]])]),
    "L2Loss": (tf.nn.l2_loss, [_u(2, 3)]),
    "LeakyRelu": (lambda x: tf.nn.leaky_relu(x, 0.2), [_u(5) + 0.05]),
    "Log": (tf.log, [_pos(4)]),
    "Log1p": (tf.log1p, [_pos(4)]),
    "LogSoftmax": (tf.nn.log_softmax, [_u(2, 4)]),
    "MatMul": (lambda a, b: tf.matmul(a, b, transpose_b=True), [_u(2, 3), _u(4, 3)]),
    "Max": (lambda x: tf.reduce_max(x, 1), [_u(3, 4)]),
    "Maximum": (tf.maximum, [_u(3, 2), _u(2) + 0.01]),
    "Mean": (lambda x: tf.reduce_mean(x, 0), [_u(3, 4)]),
    "Min": (lambda x: tf.reduce_min(x), [_u(3, 4)]),
    "Minimum": (tf.minimum, [_u(3, 2), _u(2) + 0.01]),
    "Mul": (tf.multiply, [_u(2, 3), _u(2, 1)]),
    "Neg": (tf.negative, [_u(3)]),
    "Pack": (lambda a, b: tf.stack([a, b], 1), [_u(3), _u(3)]),
    "Pad": (lambda x: tf.pad(x, [[1, 0], [0, 2]]), [_u(2, 2)]),
    "PadV2": (lambda x: tf.pad(x, [[1, 0], [0, 2]], constant_values=1.5), [_u(2, 2)]),
    "PlaceholderWithDefault": (lambda x: tf.placeholder_with_default(x, [3]), [_u(3)]),
    "Pow": (tf.pow, [_pos(3), _u(3)]),
    "Prod": (lambda x: tf.reduce_prod(x, 1), [_pos(2, 3)]),
    "RealDiv": (tf.truediv, [_u(2, 3), _pos(3)]),
    "DivNoNan": (tf.div_no_nan, [_u(2, 3), _pos(3)]),
    "Reciprocal": (tf.reciprocal, [_pos(3)]),
    "Relu": (tf.nn.relu, [_u(5) + 0.05]),
    "Relu6": (tf.nn.relu6, [_u(5) * 8 + 0.05]),
    "Reshape": (lambda x: tf.reshape(x, [3, 2]), [_u(2, 3)]),
    "ReverseV2": (lambda x: tf.reverse(x, [1]), [_u(2, 3)]),
    "ReverseSequence": (lambda x: tf.reverse_sequence(x, [2, 0, 3], seq_axis=1, batch_axis=0), [_u(3, 4)]),
    "Round": (lambda x: tf.round(x) + x, [_u(3) + 0.2]),
    "Rsqrt": (tf.rsqrt, [_pos(3)]),
    "Select": (lambda a, b: tf.where(tf.constant([True, False, True]), a, b), [_u(3), _u(3)]),
    "SelectV2": (lambda a, b: tf.where_v2(tf.constant([True, False, True]), a, b), [_u(3), _u(1)]),
    "Sigmoid": (tf.sigmoid, [_u(4)]),
    "Sign": (lambda x: tf.sign(x) * x, [_u(3) + 0.2]),
    "Sin": (tf.sin, [_u(4)]),
    "Slice": (lambda x: tf.slice(x, [0, 1], [2, 2]) * tf.slice(x, [1, 0], [-1, 2]), [_u(3, 3)]),
    "Softmax": (tf.nn.softmax, [_u(2, 4)]),
    "SoftmaxCrossEntropyWithLogits": (
        lambda z: tf.nn.softmax_cross_entropy_with_logits(labels=tf.constant(
            np.array([[0.2, 0.8, 0.0], [1.0, 0.0, 0.0]])), logits=z), [_u(2, 3)]),
    "SparseSoftmaxCrossEntropyWithLogits": (
        lambda z: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=_i([1, 0]), logits=z), [_u(2, 3)]),
    "Split": (lambda x: tf.split(x, 2, axis=1)[1], [_u(2, 4)]),
    "SplitV": (lambda x: tf.split(x, [1, 3], axis=1)[1], [_u(2, 4)]),
    "Sqrt": (tf.sqrt, [_pos(3)]),
    "Square": (tf.square, [_u(3)]),
    "SquaredDifference": (tf.squared_difference, [_u(2, 3), _u(3)]),
    "Squeeze": (lambda x: tf.squeeze(x, [1]), [_u(3, 1)]),
    "StridedSlice": (lambda x: x[1:, ::2] * x[:2, 1::2] + x[1:, 0, None] + x[..., None][-2:, -1] + x[tf.constant(1):, ::2],
                     [_u(3, 4)]),
    "Sub": (tf.subtract, [_u(2, 3), _u(3)]),
    "Sum": (lambda x: tf.reduce_sum(x, [0]), [_u(3, 2)]),
    "Tanh": (tf.tanh, [_u(4)]),
    "Tile": (lambda x: tf.tile(x, [2, 1]), [_u(2, 3)]),
    "Transpose": (lambda x: tf.transpose(x), [_u(2, 3)]),
    "Unpack": (lambda x: tf.unstack(x)[1], [_u(3, 2)]),
    "UnsortedSegmentSum": (lambda x: tf.unsorted_segment_sum(x, _i([0, 2, 0]), 3), [_u(3, 2)]),
    "BroadcastTo": (lambda x: tf.broadcast_to(x, [2, 3, 2]), [_u(3, 1)]),
    "DynamicStitch": (lambda a, b: tf.dynamic_stitch([_i([0, 2]), _i([1, 3])], [a, b]), [_u(2, 2), _u(2, 2)]),
    "MirrorPad": (lambda x: tf.pad(x, [[1, 1], [0, 2]], mode="REFLECT"), [_u(3, 3)]),
    "MirrorPadGrad": (lambda g: _raw("MirrorPadGrad", [g, _i([[1, 0], [2, 2]])], mode="SYMMETRIC"), [_u(3, 6)]),
    "BiasAddGrad": (lambda g: _raw("BiasAddGrad", [g]), [_u(2, 2, 3)]),
    "ReluGrad": (lambda g, y: _raw("ReluGrad", [g, y]), [_u(4), _u(4) + 0.05]),
    "Relu6Grad": (lambda g, x: _raw("Relu6Grad", [g, x]), [_u(4), _u(4) * 8 + 0.05]),
    "EluGrad": (lambda g, y: _raw("EluGrad", [g, y]), [_u(4), _u(4) + 0.05]),
    "LeakyReluGrad": (lambda g, x: _raw("LeakyReluGrad", [g, x], alpha=0.2), [_u(4), _u(4) + 0.05]),
    "StridedSliceGrad": (lambda dy: _raw("StridedSliceGrad", [_i([3, 4]), _i([1, 0]), _i([3, 4]), _i([1, 2]), dy],
                                         begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                                         shrink_axis_mask=0), [_u(2, 2)]),
    # unary math and activations added with TF's rules (and the *Grad ops those rules build)
    "Expm1": (tf.expm1, [_u(4)]),
    "Atan": (tf.atan, [_u(4) * 2]),
    "Asin": (tf.asin, [_u(4) * 0.8]),
    "Acos": (tf.acos, [_u(4) * 0.8]),
    "Sinh": (tf.sinh, [_u(4)]),
    "Cosh": (tf.cosh, [_u(4)]),
    "Tan": (tf.tan, [_u(4)]),
    "Erf": (tf.erf, [_u(4) * 2]),
    "Lgamma": (tf.lgamma, [np.array([0.3, 1.7, 4.2, -0.5])]),
    "Digamma": (tf.digamma, [np.array([0.3, 1.7, 4.2, -0.5])]),
    "Polygamma": (lambda x: tf.polygamma(tf.constant(np.array([1.0, 2.0, 1.0])), x), [np.array([0.7, 2.5, -1.5])]),
    "Softplus": (tf.nn.softplus, [_u(4) * 3]),
    "Selu": (tf.nn.selu, [_u(5) + 0.05]),
    "Softsign": (tf.nn.softsign, [_u(4) * 3]),
    "IdentityN": (lambda x: tf.nn.swish(x) + tf.nn.swish(x, beta=tf.constant(1.5, tf.float64)) * 2.0, [_u(4) * 3]),
    "SigmoidGrad": (lambda y, dy: _raw("SigmoidGrad", [y, dy]), [_u(4) * 0.4 + 0.5, _u(4)]),
    "TanhGrad": (lambda y, dy: _raw("TanhGrad", [y, dy]), [_u(4) * 0.9, _u(4)]),
    "SqrtGrad": (lambda y, dy: _raw("SqrtGrad", [y, dy]), [_pos(4), _u(4)]),
    "RsqrtGrad": (lambda y, dy: _raw("RsqrtGrad", [y, dy]), [_pos(4), _u(4)]),
    "ReciprocalGrad": (lambda y, dy: _raw("ReciprocalGrad", [y, dy]), [_u(4) * 2, _u(4)]),
    "SeluGrad": (lambda g, y: _raw("SeluGrad", [g, y]), [_u(4), _u(4) + 0.05]),
    "SoftplusGrad": (lambda g, x: _raw("SoftplusGrad", [g, x]), [_u(4), _u(4) * 3]),
    "Print": (lambda x: tf.Print(x, [x], message="x: "), [_u(3)]),
    "Merge": (lambda x: tf.cond(tf.constant(True), lambda: x * 2.0, lambda: x), [_u(3)]),
    "Switch": (lambda x: tf.cond(tf.constant(False), lambda: x * 2.0, lambda: x * 3.0), [_u(3)]),
    "Conv2D": (lambda x, f: tf.nn.conv2d(x, f, [1, 2, 1, 1], "SAME"), [_u(2, 5, 4, 2), _u(3, 2, 2, 3)]),
    "Conv2DBackpropInput": (lambda f, dy: tf.nn.conv2d_backprop_input(_i([1, 5, 4, 2]), f, dy, [1, 2, 1, 1],
                                                                      "SAME"), [_u(3, 2, 2, 3), _u(1, 3, 4, 3)]),
    "Conv2DBackpropFilter": (lambda x, dy: tf.nn.conv2d_backprop_filter(x, _i([3, 2, 2, 3]), dy, [1, 1, 2, 1],
                                                                        "VALID"), [_u(1, 5, 4, 2), _u(1, 3, 2, 3)]),
    "MaxPool": (lambda x: tf.nn.max_pool(x, [1, 2, 3, 1], [1, 2, 2, 1], "SAME"), [_u(2, 5, 5, 2)]),
    "MaxPoolGrad": (lambda g: _raw("MaxPoolGrad", [tf.constant(_MP_X), tf.nn.max_pool(tf.constant(_MP_X), [1, 2, 2, 1],
                    [1, 1, 1, 1], "VALID"), g], ksize=[1, 2, 2, 1], strides=[1, 1, 1, 1], padding="VALID",
                    data_format="NHWC", explicit_paddings=[]), [_u(1, 3, 3, 1)]),
    "MaxPoolGradGrad": (lambda g: _raw("MaxPoolGradGrad", [tf.constant(_MP_X), tf.nn.max_pool(
                        tf.constant(_MP_X), [1, 2, 2, 1], [1, 1, 1, 1], "VALID"), g], ksize=[1, 2, 2, 1],
                        strides=[1, 1, 1, 1], padding="VALID", data_format="NHWC", explicit_paddings=[]),
                        [_u(1, 4, 4, 1)]),
    "AvgPool": (lambda x: tf.nn.avg_pool(x, [1, 2, 3, 1], [1, 2, 2, 1], "SAME"), [_u(2, 5, 5, 2)]),
    "AvgPoolGrad": (lambda g: _raw("AvgPoolGrad", [_i([1, 5, 5, 1]), g], ksize=[1, 2, 3, 1], strides=[1, 2, 2, 1],
                                   padding="SAME", data_format="NHWC"), [_u(1, 3, 3, 1)]),
    # the tutorial ops: LRN has kernels for half and float32 only (as TF), so it is checked in float32
    "LRN": (lambda x: tf.cast(tf.nn.lrn(tf.cast(x, tf.float32), 2, 1.0, 0.3, 0.75), tf.float64),
            [_u(1, 2, 2, 6)], {"delta": 1e-2, "rtol": 1e-3}),
    "CheckNumerics": (lambda x: tf.check_numerics(x, "m") * x, [_u(3)]),
}
# a loop with an int counter, a limit, two float loop values and a captured tensor w: its gradient goes
# through every frame op's rule (Exit, Switch, Merge, NextIteration, Enter of a loop variable and of the
# captured w, LoopCond) and through the stacks that carry each iteration's values back
_LOOP = (lambda h, c, w: tf.while_loop(lambda i, h, c: i < 10, lambda i, h, c: (
    i + 1, tf.tanh(h * w + c), c * 0.9 + h), (tf.constant(0), h, c), maximum_iterations=3)[1],
    [_u(3), _u(3), _u(3)])
SAMPLES.update({"Enter": _LOOP, "Exit": _LOOP, "NextIteration": _LOOP, "LoopCond": _LOOP})
# TensorArrays: each gradient reads, writes, gathers, scatters, splits or concats the gradient array
_TA_WRITE_READ = (lambda x: tf.TensorArray(tf.float64, size=2).write(0, x).write(1, x * 2.0).read(1) *
                  tf.TensorArray(tf.float64, size=1).write(0, x * x).read(0), [_u(3)])
_TA_SCATTER_GATHER = (lambda x: tf.reshape(tf.TensorArray(tf.float64, size=3).scatter([2, 0, 1], x * x)
                                          .gather([1, 2]), [2, 2]), [_u(3, 2)])
_TA_SPLIT_CONCAT = (lambda x: tf.reshape(tf.TensorArray(tf.float64, size=2, infer_shape=False).split(x * x, [1, 2])
                                        .concat(), [3, 2]), [_u(3, 2)])
SAMPLES.update({"TensorArrayWriteV3": _TA_WRITE_READ, "TensorArrayReadV3": _TA_WRITE_READ,
                "TensorArrayScatterV3": _TA_SCATTER_GATHER, "TensorArrayGatherV3": _TA_SCATTER_GATHER,
                "TensorArraySplitV3": _TA_SPLIT_CONCAT, "TensorArrayConcatV3": _TA_SPLIT_CONCAT})
# a variable handle's twins of the frame ops share their rules (variables cannot be placeholders here)
REF_TWINS = {"RefSwitch": "Switch", "RefMerge": "Merge", "RefEnter": "Enter", "RefExit": "Exit",
             "RefNextIteration": "NextIteration", "RefIdentity": "Identity"}


def _raw(op_type, inputs, **attrs):
    """One op of a type no public function builds (the *Grad ops), for second-order checks."""
    return registry.build_op(op_type, inputs, attrs=attrs).outputs[0]


SAMPLES.update(more_gradient_samples.samples(tf, _u, _pos, _i, _raw))
SAMPLED = more_gradient_samples.SAMPLED   # rules of random samplers, checked against TF's values elsewhere

# TF registers no gradient for these on purpose: differentiating them raises LookupError, as in TF
NO_RULE_IN_TF = {"SoftsignGrad", "LRNGrad"} | more_gradient_samples.NO_RULE_IN_TF


# reads of resource variables take a handle, not a value a placeholder can stand for: their rules are checked
# numerically by perturbing the variable itself, in tests/gradients/test_resource_gradients.py
THROUGH_A_VARIABLE = {"ReadVariableOp", "ResourceGather", "ResourceGatherNd"}


def _differentiable_types():
    return [t for t in registry.registered_types()
            if registry.get_opdef(t).grad is not registry.NOT_DIFFERENTIABLE
            and t not in NO_RULE_IN_TF | SAMPLED | THROUGH_A_VARIABLE]


def test_softsign_grad_has_no_gradient_as_in_tensorflow():
    x = tf.placeholder(tf.float32, [2], name="x")
    g = tf.gradients(tf.nn.softsign(x), x)[0]
    with pytest.raises(LookupError, match=r"No gradient defined for operation'gradients/Softsign_grad/"
                                          r"SoftsignGrad' \(op type: SoftsignGrad\)"):
        tf.gradients(g, x)


@pytest.mark.parametrize("op_type", _differentiable_types())
def test_every_gradient_rule_matches_numeric_differentiation(op_type):
    assert registry.get_opdef(op_type).grad is not None, "op %s has no gradient rule" % op_type
    if op_type in REF_TWINS:
        assert registry.get_opdef(op_type).grad is registry.get_opdef(REF_TWINS[op_type]).grad
        op_type = REF_TWINS[op_type]
    assert op_type in SAMPLES, ("op %s is differentiable but has no sample in tests/gradients/test_gradients.py SAMPLES:"
                                " add one so its rule is checked numerically" % op_type)
    build, inputs = SAMPLES[op_type][:2]
    tol = SAMPLES[op_type][2] if len(SAMPLES[op_type]) > 2 else {}
    analytic, numeric = numeric_jacobian_check(build, inputs, delta=tol.get("delta", 1e-6))
    for i, (a, n) in enumerate(zip(analytic, numeric)):
        if n is None:
            continue
        if a is None:   # no gradient (e.g. FloorDiv's divisor, as in TF) is right only where it is zero
            np.testing.assert_allclose(n, 0.0, atol=1e-6, err_msg="%s: no gradient for input %d" % (op_type, i))
            continue
        np.testing.assert_allclose(a, n, rtol=tol.get("rtol", 1e-4), atol=1e-6,
                                   err_msg="%s input %d" % (op_type, i))


# ------------------------------------------------- reductions: TF's op names, and unknown axes or rank
# Observed in TensorFlow 2.21 (compat.v1): the static Reshape+Tile path (with the unused constant-folded
# Maximum/floordiv helpers TF leaves behind once per shape) and the dynamic DynamicStitch+BroadcastTo path.
SUM_GRAD_NAMES = {
    "all": ["Reshape/shape", "Reshape", "Const", "Tile"],
    "axis": ["Maximum/x", "Maximum/y", "Maximum", "floordiv/x", "floordiv", "Reshape/shape", "Reshape",
             "Tile/multiples", "Tile"],
    "unknown_rank": ["Shape", "Size", "add", "mod", "Shape_1", "range/start", "range/delta", "range",
                     "ones/Const", "ones", "DynamicStitch", "Reshape", "BroadcastTo"],
}
MEAN_DYN_NAMES = ["Reshape/shape", "Reshape", "Shape", "Tile", "Shape_1", "Size", "add", "mod", "GatherV2/axis",
                  "GatherV2", "Const", "Prod", "Cast", "truediv"]


@pytest.mark.parametrize("case", sorted(SUM_GRAD_NAMES))
def test_sum_gradient_builds_what_tensorflow_builds(case):
    x = tf.placeholder(tf.float32, None if case == "unknown_rank" else [4, 3], name="x")
    y = tf.reduce_sum(x, 1 if case == "axis" else 0 if case == "unknown_rank" else None)
    g = tf.gradients(y, x)[0]
    names = [op.name[len("gradients/Sum_grad/"):] for op in tf.get_default_graph().get_operations()
             if op.name.startswith("gradients/Sum_grad/")]
    assert names == SUM_GRAD_NAMES[case]
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(g, {x: np.ones((4, 3))}), np.ones((4, 3)))


def test_mean_gradient_with_unknown_batch_builds_what_tensorflow_builds():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    g = tf.gradients(tf.reduce_mean(x), x)[0]
    names = [op.name[len("gradients/Mean_grad/"):] for op in tf.get_default_graph().get_operations()
             if op.name.startswith("gradients/Mean_grad/")]
    assert names == MEAN_DYN_NAMES
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(g, {x: np.ones((4, 3))}), np.full((4, 3), 1 / 12.0))


@pytest.mark.parametrize("reduce", ["reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod"])
@pytest.mark.parametrize("hide", ["rank", "axes", "batch"])
def test_reduction_gradients_with_axes_or_rank_unknown_at_build_time(reduce, hide):
    """Unknown rank, run-time axes or an unknown batch size: the dynamic-shape path, checked numerically."""
    xv = np.random.RandomState(3).uniform(0.5, 1.5, (3, 4))
    axis_value = np.array([1], np.int32)
    x = tf.placeholder(tf.float64, None if hide == "rank" else [None, 4] if hide == "batch" else [3, 4])
    axis = tf.placeholder(tf.int32, [None]) if hide == "axes" else axis_value
    y = getattr(tf, reduce)(x, axis)
    w = tf.constant(np.arange(1.0, 4.0))
    loss = tf.reduce_sum(y * w)
    g = tf.gradients(loss, x)[0]
    feed = {x: xv, **({axis: axis_value} if hide == "axes" else {})}
    with tf.Session() as sess:
        analytic = sess.run(g, feed)
        numeric = np.zeros_like(xv)
        for idx in np.ndindex(xv.shape):
            d = np.zeros_like(xv)
            d[idx] = 1e-6
            numeric[idx] = (sess.run(loss, {**feed, x: xv + d}) - sess.run(loss, {**feed, x: xv - d})) / 2e-6
    np.testing.assert_allclose(analytic, numeric, rtol=1e-5, atol=1e-7)
