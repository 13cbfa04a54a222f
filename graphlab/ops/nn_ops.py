"""Neural-network ops (``tf.nn``): activations, bias_add, l2_loss, dropout and the cross-entropy losses.

Activation gradients use TF's *Grad op types (ReluGrad ...) so gradient graphs read like TF's.
"""
import numbers

import numpy as np

from graphlab.framework import dtypes, tensor_shape
from graphlab.framework import graph as graph_mod
from graphlab.formats.errors import InvalidArgumentError
from graphlab.ops import array_ops, random_ops
from graphlab.framework.registry import (NOT_DIFFERENTIABLE, build_op, const_value,
                                   convert_to_tensor, register_op, same_as_input)


def _math():
    from graphlab.ops import math_ops
    return math_ops


def _op(op_type, inputs, name=None, attrs=None):
    return build_op(op_type, inputs, attrs=attrs, name=name).outputs[0]


# ------------------------------------------------------------------------------------- activations
def _activation(op_type, kernel, grad_type, grad_kernel, grad_from_output, doc, attrs=()):
    """An elementwise activation and its *Grad op; the Grad op takes (gradients, features-or-outputs)."""
    def grad(op, g):
        other = op.outputs[0] if grad_from_output else op.inputs[0]
        return [_op(grad_type, [g, other], attrs={a: op._attrs[a] for a in attrs})]

    register_op(op_type, inputs=["features: T"], outputs=same_as_input(0), kernel=kernel, grad=grad, doc=doc)
    def grad_grad(op, g):
        """Linear in the incoming gradients; piecewise constant in the features (zero derivative a.e.),
        except EluGrad, whose g * (y + 1) branch depends on y (TF's _EluGradGrad)."""
        first = _op(grad_type, [g, op.inputs[1]], attrs={a: op._attrs[a] for a in attrs})
        if grad_type != "EluGrad":
            return [first, array_ops.zeros_like(op.inputs[1])]   # TF's rules return zeros, not None
        y = op.inputs[1]   # as TF writes it: elu_x < 0, then grad * gradients, then zeros_like
        return [first, array_ops.where(y < 0, g * op.inputs[0], array_ops.zeros_like(y))]

    register_op(grad_type, inputs=["gradients: T", "features: T"], outputs=same_as_input(0), kernel=grad_kernel,
                grad=grad_grad, doc="Gradient of %s." % op_type)


_activation("Relu", lambda ctx, x: np.maximum(x, 0).astype(x.dtype, copy=False),
            "ReluGrad", lambda ctx, g, y: (g * (y > 0)).astype(g.dtype, copy=False), True,
            "max(x, 0).")
_activation("Relu6", lambda ctx, x: np.clip(x, 0, 6).astype(x.dtype, copy=False),
            "Relu6Grad", lambda ctx, g, y: (g * ((y > 0) & (y < 6))).astype(g.dtype, copy=False), True,
            "min(max(x, 0), 6).")
_activation("Elu", lambda ctx, x: np.where(x > 0, x, np.expm1(x)).astype(x.dtype, copy=False),
            "EluGrad", lambda ctx, g, y: np.where(y > 0, g, g * (y + 1)).astype(g.dtype, copy=False), True,
            "x if x > 0 else exp(x) - 1.")
_activation("LeakyRelu", lambda ctx, x: np.where(x > 0, x, x * ctx.attrs["alpha"]).astype(x.dtype, copy=False),
            "LeakyReluGrad", lambda ctx, g, x: np.where(x > 0, g, g * ctx.attrs["alpha"]).astype(g.dtype, copy=False),
            False, "x if x > 0 else alpha * x.", attrs=("alpha",))


def relu(features, name=None):
    """``tf.nn.relu``."""
    return _op("Relu", [features], name)


def relu6(features, name=None):
    return _op("Relu6", [features], name)


def elu(features, name=None):
    return _op("Elu", [features], name)


def leaky_relu(features, alpha=0.2, name=None):
    return _op("LeakyRelu", [features], name, attrs={"alpha": float(alpha)})


# ------------------------------------------------------------------------- Selu, Softplus, Softsign
_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _selu_kernel(ctx, x):
    with np.errstate(over="ignore"):
        return np.where(x > 0, _SELU_SCALE * x, _SELU_SCALE * _SELU_ALPHA * np.expm1(np.minimum(x, 0))).astype(
            x.dtype, copy=False)


def _selu_grad_kernel(ctx, g, y):
    # TF's kernel: the alpha branch only where y < 0 (so at y == 0 the slope is scale)
    return np.where(y < 0, g * (y + _SELU_SCALE * _SELU_ALPHA), g * _SELU_SCALE).astype(g.dtype, copy=False)


def _selu_grad_grad(op, grad):
    """TF's _SeluGradGrad: linear in the incoming gradients; g where y < 0 for the outputs."""
    y = op.inputs[1]
    return [_op("SeluGrad", [grad, y]),
            array_ops.where(y < 0., grad * op.inputs[0], array_ops.zeros_like(y))]


register_op("Selu", inputs=["features: T"], outputs=same_as_input(0), kernel=_selu_kernel,
            grad=lambda op, g: [_op("SeluGrad", [g, op.outputs[0]])],
            doc="scale * x if x > 0 else scale * alpha * (exp(x) - 1) (self-normalising networks).")
register_op("SeluGrad", inputs=["gradients: T", "outputs: T"], outputs=same_as_input(0),
            kernel=_selu_grad_kernel, grad=_selu_grad_grad, doc="Gradient of Selu, given its outputs.")


def _softplus_kernel(ctx, x):
    return np.logaddexp(np.zeros((), x.dtype), x).astype(x.dtype, copy=False)


def _softplus_grad_kernel(ctx, g, x):
    return (g * np.exp(-np.logaddexp(np.zeros((), x.dtype), -x))).astype(g.dtype, copy=False)


def _softplus_grad_grad(op, grad):
    """TF's _SoftplusGradGrad: (SoftplusGrad(grad, x), grad * dy / (exp(-x) + 2 + exp(x)))."""
    m = _math()
    dy, x = op.inputs
    with op.graph.control_dependencies([grad]):
        ddy = _op("SoftplusGrad", [grad, x])
        d2x = grad * dy / (m.exp(-x) + 2.0 + m.exp(x))
        return [ddy, d2x]


register_op("Softplus", inputs=["features: T"], outputs=same_as_input(0), kernel=_softplus_kernel,
            grad=lambda op, g: [g * _math().sigmoid(op.inputs[0])],   # TF's rule: no SoftplusGrad op
            doc="log(1 + exp(x)), a smooth relu.")
register_op("SoftplusGrad", inputs=["gradients: T", "features: T"], outputs=same_as_input(0),
            kernel=_softplus_grad_kernel, grad=_softplus_grad_grad,
            doc="gradients * sigmoid(features) (Softplus's derivative as one op).")


def _softsign_grad_kernel(ctx, g, x):
    return (g / np.square(1 + np.abs(x))).astype(g.dtype, copy=False)


register_op("Softsign", inputs=["features: T"], outputs=same_as_input(0),
            kernel=lambda ctx, x: (x / (1 + np.abs(x))).astype(x.dtype, copy=False),
            grad=lambda op, g: [_op("SoftsignGrad", [g, op.inputs[0]])],
            doc="x / (1 + |x|).")
# TF registers no gradient for SoftsignGrad: differentiating it raises LookupError, as in TF
register_op("SoftsignGrad", inputs=["gradients: T", "features: T"], outputs=same_as_input(0),
            kernel=_softsign_grad_kernel, grad=None, doc="gradients / (1 + |features|)^2.")


def selu(features, name=None):
    """``tf.nn.selu``."""
    return _op("Selu", [features], name)


def softplus(features, name=None):
    """``tf.nn.softplus`` / ``tf.math.softplus``."""
    return _op("Softplus", [features], name)


def softsign(features, name=None):
    """``tf.nn.softsign`` / ``tf.math.softsign``."""
    return _op("Softsign", [features], name)


def crelu(features, name=None, axis=-1):
    """``tf.nn.crelu``: relu of [x, -x] joined along ``axis`` (twice the depth), as TF builds it."""
    with graph_mod.name_scope(name, "CRelu", [features]) as scope:
        features = convert_to_tensor(features, name="features")
        c = array_ops.concat([features, -features], axis, name=scope)
        return relu(c)


# ---------------------------------------------------------------------------------------------- swish
def swish(features, beta=1.0):
    """``tf.nn.swish`` / ``tf.nn.silu``: x * sigmoid(beta * x), with TF's custom gradient (an IdentityN of
    result, features and beta whose gradient is swish's own rule)."""
    from graphlab.ops.custom_gradient import custom_gradient
    m = _math()
    features = convert_to_tensor(features, name="features")
    beta = m.cast(convert_to_tensor(beta, name="beta"), features.dtype)

    @custom_gradient
    def swish_impl(features, beta):
        def grad(dy):
            """d/dx = sigmoid(bx) * (1 + bx * (1 - sigmoid(bx))); d/dbeta summed over all elements."""
            with dy.graph.control_dependencies([dy]):
                sigmoid_features = m.sigmoid(beta * features)
            activation_grad = sigmoid_features * (1.0 + (beta * features) * (1.0 - sigmoid_features))
            beta_grad = m.reduce_sum(dy * m.square(features) * sigmoid_features * (1.0 - sigmoid_features))
            return (dy * activation_grad, beta_grad)
        return features * m.sigmoid(beta * features), grad
    return swish_impl(features, beta)


silu = swish


def sigmoid(x, name=None):
    """``tf.nn.sigmoid`` is ``tf.sigmoid`` (op Sigmoid)."""
    return _math().sigmoid(x, name=name)


def tanh(x, name=None):
    return _math().tanh(x, name=name)


# ---------------------------------------------------------------------------------- softmax family
def _softmax_kernel(ctx, x):
    z = np.exp(x - x.max(axis=-1, keepdims=True))
    return (z / z.sum(axis=-1, keepdims=True)).astype(x.dtype, copy=False)


def _log_softmax_kernel(ctx, x):
    shifted = x - x.max(axis=-1, keepdims=True)
    return (shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))).astype(x.dtype, copy=False)


def _rank_at_least_1(op):
    x = op._inputs[0]
    if x._shape.ndims == 0:
        raise ValueError("Shape must be at least rank 1 but is rank 0")
    return [(x._dtype.base_dtype, x._shape)]


def _softmax_grad(op, g):
    """(g - sum(g * y)) * y, with Python's operators as TF writes it (ops mul, Sum, sub, mul_1)."""
    y = op.outputs[0]
    return [(g - _math().reduce_sum(g * y, -1, keepdims=True)) * y]


def _log_softmax_grad(op, g):
    """g - sum(g) * exp(y), as TF writes it (Exp first)."""
    m = _math()
    softmax = m.exp(op.outputs[0])
    return [g - m.reduce_sum(g, -1, keepdims=True) * softmax]


register_op("Softmax", inputs=["logits: T"], outputs=_rank_at_least_1, kernel=_softmax_kernel,
            grad=_softmax_grad, doc="exp(x) / sum(exp(x)) along the last axis.")
register_op("LogSoftmax", inputs=["logits: T"], outputs=_rank_at_least_1, kernel=_log_softmax_kernel,
            grad=_log_softmax_grad, doc="x - log(sum(exp(x))) along the last axis.")


def _along_axis(op_type, logits, axis, name):
    logits = convert_to_tensor(logits)
    if axis is None or axis == -1 or (logits.shape.ndims is not None and axis == logits.shape.ndims - 1):
        return _op(op_type, [logits], name)
    perm = list(range(logits.shape.ndims))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    out = _op(op_type, [array_ops.transpose(logits, perm)])
    return array_ops.transpose(out, perm, name=name)


def softmax(logits, axis=None, name=None, dim=None):
    """``tf.nn.softmax``."""
    return _along_axis("Softmax", logits, dim if axis is None else axis, name)


def log_softmax(logits, axis=None, name=None, dim=None):
    """``tf.nn.log_softmax``."""
    return _along_axis("LogSoftmax", logits, dim if axis is None else axis, name)


# ------------------------------------------------------------------------------------ BiasAdd, L2Loss
def _bias_add_outputs(op):
    x, b = op._inputs
    if b._shape.ndims not in (None, 1):
        raise ValueError("Shape must be rank 1 but is rank %d" % b._shape.ndims)
    if x._shape.ndims is not None and x._shape.ndims < 2:
        raise ValueError("Shape must be at least rank 2 but is rank %d" % x._shape.ndims)
    dims = x._shape.as_list() if x._shape.ndims is not None else None
    if dims is not None and b._shape.ndims == 1:
        last, n = dims[-1], b._shape.as_list()[0]
        if last is not None and n is not None and last != n:
            raise ValueError("Dimensions must be equal, but are %d and %d" % (last, n))
        dims[-1] = last if last is not None else n
    return [(x._dtype.base_dtype, tensor_shape.TensorShape(dims) if dims is not None else x._shape)]


register_op("BiasAdd", inputs=["value: T", "bias: T"], outputs=_bias_add_outputs,
            kernel=lambda ctx, x, b: x + b,
            grad=lambda op, g: [g, _op("BiasAddGrad", [g])],
            doc="value + bias, with bias a vector added along the last axis.")
register_op("BiasAddGrad", inputs=["out_backprop: T"],
            outputs=lambda op: [(op._inputs[0]._dtype.base_dtype, tensor_shape.TensorShape(
                [op._inputs[0]._shape.as_list()[-1]] if op._inputs[0]._shape.ndims else None))],
            kernel=lambda ctx, g: g.reshape(-1, g.shape[-1]).sum(axis=0).astype(g.dtype, copy=False),
            grad=lambda op, g: [_bias_add_grad_grad(op, g)],
            doc="Sums out_backprop over every axis but the last (BiasAdd's bias gradient).")


def _bias_add_grad_grad(op, g):
    """BiasAddGrad is linear: its gradient spreads g along the last axis over out_backprop's shape."""
    from graphlab.ops.broadcast_ops import broadcast_to
    x = op.inputs[0]
    if x.shape.ndims is None:
        rank = array_ops.size(array_ops.shape(x))
        kept = array_ops.concat([array_ops.ones(array_ops.expand_dims(rank - 1, 0), dtypes.int32),
                                 array_ops.shape(g)], 0)
    else:
        kept = [1] * (x.shape.ndims - 1) + [-1]
    return broadcast_to(array_ops.reshape(g, kept), array_ops.shape(x))


def bias_add(value, bias, data_format=None, name=None):
    """``tf.nn.bias_add``."""
    return _op("BiasAdd", [value, bias], name)


register_op("L2Loss", inputs=["t: T"], outputs=lambda op: [(op._inputs[0]._dtype.base_dtype, tensor_shape.scalar())],
            kernel=lambda ctx, x: np.asarray(np.sum(np.square(x)) / 2, dtype=x.dtype),
            grad=lambda op, g: [op.inputs[0] * g],   # TF's rule: Python's `*`, an op named "mul"
            doc="sum(t ** 2) / 2, the usual weight-decay term.")


def l2_loss(t, name=None):
    """``tf.nn.l2_loss``."""
    return _op("L2Loss", [t], name)


# ------------------------------------------------------------------------------------------- dropout
def dropout(x, keep_prob=None, noise_shape=None, seed=None, name=None, rate=None):
    """``tf.nn.dropout`` (TF1 signature; ``rate = 1 - keep_prob``): zero each element with probability rate
    and scale the rest by 1 / (1 - rate). With rate 0 (keep_prob 1) x comes back unchanged, as in TF."""
    if rate is None:
        if keep_prob is None:
            raise ValueError("You must provide a rate to dropout.")
        rate = 1 - keep_prob    # on a tensor, Python's operator: the op is named "sub", as in TF
    if isinstance(rate, numbers.Real):
        if not 0 <= rate < 1:
            raise ValueError("`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate=%s"
                             % rate)
        if rate == 0:
            return convert_to_tensor(x)
    with graph_mod.name_scope(name, "dropout", [x]) as scope:  # noqa: F841
        x = convert_to_tensor(x, name="x")
        m = _math()
        if isinstance(rate, numbers.Real):
            scale = array_ops.constant(np.asarray(1 / (1 - rate), x.dtype.as_numpy_dtype), name="Const")
            rate_t = rate
            scaled = m.multiply(x, scale, name="Mul")
        else:   # as TF 2.x builds it: x / (1 - rate)
            rate_t = convert_to_tensor(rate)
            if rate_t.shape.ndims not in (None, 0):
                raise ValueError("Shape must be rank 0 but is rank %d for the dropout rate" % rate_t.shape.ndims)
            if rate_t.dtype.base_dtype != x.dtype.base_dtype:
                rate_t = m.cast(rate_t, x.dtype.base_dtype, name="rate")
            one = array_ops.constant(np.asarray(1, x.dtype.as_numpy_dtype), name="Const")
            scaled = m.realdiv(x, m.subtract(one, rate_t))
        shape = array_ops.shape(x) if noise_shape is None else noise_shape
        noise = random_ops.random_uniform(shape, seed=seed, dtype=x.dtype)
        keep = m.greater_equal(noise, rate_t)
        zeros = array_ops.constant(np.asarray(0, x.dtype.as_numpy_dtype), name="Const")
        out = array_ops.where_v2(keep, scaled, zeros)
        out.set_shape(x.shape)      # as TF: the result has x's static shape, whatever the noise shape
        return out


# --------------------------------------------------------------------------------- cross entropies
def _xent_outputs(op):
    logits, labels = op._inputs
    if not logits._shape.is_compatible_with(labels._shape):
        a, b = logits._shape.as_list(), labels._shape.as_list()
        for x, y in zip(a or [], b or []):
            if x is not None and y is not None and x != y:
                raise ValueError("Dimensions must be equal, but are %d and %d" % (x, y))
        raise ValueError("Shapes %s and %s are incompatible" % (logits._shape, labels._shape))
    merged = logits._shape.merge_with(labels._shape)
    if merged.ndims is not None and merged.ndims != 2:
        raise ValueError("Shape must be rank 2 but is rank %d" % merged.ndims)
    rows = merged.as_list()[0] if merged.ndims else None
    dt = logits._dtype.base_dtype
    return [(dt, tensor_shape.TensorShape([rows])), (dt, merged if merged.ndims else tensor_shape.unknown_shape(2))]


def _xent_kernel(ctx, logits, labels):
    """TF's formulation (xent_op.h), one exp per element: with s = logits - max and z = sum(exp(s)),
    loss = sum(labels * (log(z) - s)) and backprop = exp(s) / z - labels."""
    shifted = logits - logits.max(axis=-1, keepdims=True)
    exp_shifted = np.exp(shifted)
    sums = exp_shifted.sum(axis=-1, keepdims=True)
    loss = (labels * (np.log(sums) - shifted)).sum(axis=-1)
    exp_shifted /= sums
    exp_shifted -= labels
    return loss.astype(logits.dtype, copy=False), exp_shifted.astype(logits.dtype, copy=False)


def _xent_grad(op, g_loss, g_backprop=None):
    """TF's _BroadcastMul twice: expand_dims(g_loss, -1) * backprop, and the same times -log_softmax."""
    d_logits = array_ops.expand_dims(g_loss, -1) * op.outputs[1]
    neg_log_p = -log_softmax(op.inputs[0])
    d_labels = array_ops.expand_dims(g_loss, -1) * neg_log_p
    return [d_logits, d_labels]


register_op("SoftmaxCrossEntropyWithLogits", inputs=["features: T", "labels: T"], outputs=_xent_outputs,
            kernel=_xent_kernel, grad=_xent_grad,
            doc="Per-row -sum(labels * log_softmax(features)); output 1 is the backprop (softmax - labels).")


def softmax_cross_entropy_with_logits_v2(labels, logits, axis=None, name=None, dim=None):
    """``tf.nn.softmax_cross_entropy_with_logits_v2``: the per-example loss, built as TF builds it. The
    SoftmaxCrossEntropyWithLogits op works on matrices, so the logits and labels are first reshaped to
    [examples, classes] and the loss is reshaped back to the logits' outer shape: the returned tensor is
    ``<scope>/Reshape_2:0``, and the reshapes show up in drawings and gradients as they do in TF."""
    m = _math()
    with graph_mod.name_scope(name, "softmax_cross_entropy_with_logits", [logits, labels]) as scope:
        logits = convert_to_tensor(logits, name="logits")
        labels = convert_to_tensor(labels, name="labels")
        # as TF: half-precision logits are computed in float32, and the labels take the logits' type
        # (float64 labels of a float32 model, integer one-hot labels), cast rather than refused
        widen = logits.dtype.base_dtype in (dtypes.float16, dtypes.bfloat16)
        precise = m.cast(logits, dtypes.float32) if widen else logits
        labels = m.cast(labels, precise.dtype.base_dtype)
        cost = _xent_through_matrices(precise, labels, scope, axis if axis is not None else
                                      dim if dim is not None else -1)
        return m.cast(cost, logits.dtype.base_dtype) if widen else cost


def softmax_cross_entropy_with_logits(labels=None, logits=None, dim=-1, name=None, axis=None):
    """TF1's deprecated version: the same loss, but no gradient flows into labels (scope "..._sg", which
    the v2 function then re-enters, as TF)."""
    with graph_mod.name_scope(name, "softmax_cross_entropy_with_logits_sg", [logits, labels]) as scope:
        labels = array_ops.stop_gradient(labels, name="labels_stop_gradient")
    return softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits, axis=axis if axis is not None
                                                else dim, name=scope)


def _xent_through_matrices(logits, labels, scope, axis):
    rank = logits.shape.ndims
    if axis != -1 and (rank is None or axis != rank - 1):
        raise ValueError("graphlab's softmax_cross_entropy_with_logits takes the classes on the last axis "
                         "(axis=-1); transpose the logits and labels so the classes come last.")
    input_rank = array_ops.rank(logits)
    input_shape = array_ops.shape(logits)
    cost = build_op("SoftmaxCrossEntropyWithLogits", [_flatten_outer_dims(logits), _flatten_outer_dims(labels)],
                    name=scope).outputs[0]
    outer_shape = array_ops.slice(input_shape, [0], [_math().subtract(input_rank, 1)])
    cost = array_ops.reshape(cost, outer_shape)
    if rank is not None:
        cost.set_shape(logits.shape.as_list()[:-1])
    return cost


def _flatten_outer_dims(x):
    """``x`` as a matrix [product of the outer dimensions, last dimension], as TF's helper builds it."""
    rank = array_ops.rank(x)
    last = array_ops.slice(array_ops.shape(x), [_math().subtract(rank, 1)], [1])
    flat = array_ops.reshape(x, array_ops.concat([[-1], last], 0))
    dims = x.shape.as_list() if x.shape.ndims is not None else None
    if dims and None not in dims[:-1]:
        flat.set_shape([int(np.prod(dims[:-1], dtype=np.int64)), dims[-1]])
    return flat


def _sparse_xent_outputs(op):
    logits, labels = op._inputs
    if logits._shape.ndims is not None and logits._shape.ndims != 2:
        raise ValueError("Shape must be rank 2 but is rank %d" % logits._shape.ndims)
    if labels._shape.ndims is not None and labels._shape.ndims != 1:
        raise ValueError("Shape must be rank 1 but is rank %d" % labels._shape.ndims)
    rows = tensor_shape.TensorShape([None])
    if logits._shape.ndims is not None:
        rows = rows.merge_with(tensor_shape.TensorShape(logits._shape.as_list()[:1]))
    if labels._shape.ndims is not None:
        if not rows.is_compatible_with(labels._shape):
            raise ValueError("Dimensions must be equal, but are %s and %s" % (rows.as_list()[0],
                                                                              labels._shape.as_list()[0]))
        rows = rows.merge_with(labels._shape)
    dt = logits._dtype.base_dtype
    full = logits._shape if logits._shape.ndims is not None else tensor_shape.unknown_shape(2)
    return [(dt, rows), (dt, full)]


def _sparse_xent_kernel(ctx, logits, labels):
    n = logits.shape[-1]
    if labels.size and (labels.min() < 0 or labels.max() >= n):
        from graphlab.formats.errors import InvalidArgumentError
        bad = labels[(labels < 0) | (labels >= n)][0]
        raise InvalidArgumentError(None, ctx.op, "Received a label value of %d which is outside the valid range "
                                   "of [0, %d).  Label values: %s" % (bad, n, " ".join(map(str, labels))))
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    rows = np.arange(len(labels))
    backprop = np.exp(log_p)
    backprop[rows, labels] -= 1
    return (-log_p[rows, labels]).astype(logits.dtype, copy=False), backprop.astype(logits.dtype, copy=False)


register_op("SparseSoftmaxCrossEntropyWithLogits", inputs=["features: T", "labels: Tlabels=int64"],
            outputs=_sparse_xent_outputs, kernel=_sparse_xent_kernel,
            grad=lambda op, g_loss, g_bp=None: [array_ops.expand_dims(g_loss, -1) * op.outputs[1], None],
            doc="Per-row -log_softmax(features)[label]: labels are class indices, not distributions.")


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """``tf.nn.sparse_softmax_cross_entropy_with_logits``: class indices as labels. The op itself takes
    matrices, so logits of rank 3 and more are reshaped to [-1, classes] around it, as TF does (after an
    assert_equal on the shapes when they are not known statically)."""
    with graph_mod.name_scope(name, "SparseSoftmaxCrossEntropyWithLogits", [labels, logits]):
        labels = convert_to_tensor(labels)
        logits = convert_to_tensor(logits)
        labels_static_shape = labels.get_shape()
        labels_shape = array_ops.shape(labels)
        logits_rank = logits.get_shape().ndims
        static_shapes_fully_defined = (labels_static_shape.is_fully_defined()
                                       and logits.get_shape()[:-1].is_fully_defined())
        if logits_rank == 0:
            raise ValueError("`logits` cannot be a scalar. Received logits=%s`" % logits)
        if logits_rank is not None and labels_static_shape.ndims is not None \
                and labels_static_shape.ndims != logits_rank - 1:
            raise ValueError("`labels.shape.rank` must equal `logits.shape.rank - 1`. Received: labels.shape=%s of "
                             "rank %d and logits.shape=%s of rank %d" % (labels_static_shape, labels_static_shape.ndims,
                                                                         logits.get_shape(), logits_rank))
        if static_shapes_fully_defined and labels_static_shape != logits.get_shape()[:-1]:
            raise ValueError("`labels.shape` must equal `logits.shape` except for the last dimension. Received: "
                             "labels.shape=%s and logits.shape=%s" % (labels_static_shape, logits.get_shape()))
        if logits_rank == 2:
            return build_op("SparseSoftmaxCrossEntropyWithLogits", [logits, labels], name=name).outputs[0]
        from graphlab.ops.logging_ops import assert_equal
        shape_checks = [] if static_shapes_fully_defined else [
            assert_equal(array_ops.shape(labels), array_ops.shape(logits)[:-1])]
        with graph_mod.get_default_graph().control_dependencies(shape_checks):
            num_classes = array_ops.shape(logits)[array_ops.rank(logits) - 1]
            flat_logits = array_ops.reshape(logits, [-1, num_classes])
            flat_labels = array_ops.reshape(labels, [-1])
            cost = build_op("SparseSoftmaxCrossEntropyWithLogits", [flat_logits, flat_labels], name=name).outputs[0]
            cost = array_ops.reshape(cost, labels_shape)
            cost.set_shape(labels_static_shape)
            return cost


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """``tf.nn.sigmoid_cross_entropy_with_logits``: max(x, 0) - x * z + log(1 + exp(-|x|)), built from ops
    under the scope "logistic_loss" exactly as TF does (stable for large |x|)."""
    m = _math()
    with graph_mod.name_scope(name, "logistic_loss", [logits, labels]) as scope:
        logits = convert_to_tensor(logits, name="logits")
        labels = convert_to_tensor(labels, name="labels")      # not cast: other types fail in Mul, as TF
        if not logits.shape.is_compatible_with(labels.shape):
            raise ValueError("`logits` and `labels` must have the same shape, received (%s vs %s)."
                             % (logits.shape, labels.shape))
        zeros = array_ops.zeros_like(logits)
        cond = m.greater_equal(logits, zeros)
        relu_logits = array_ops.where(cond, logits, zeros)
        neg_abs = array_ops.where(cond, m.negative(logits), logits)
        return m.add(relu_logits - logits * labels, m.log1p(m.exp(neg_abs)), name=scope)


__all__ = ["relu", "relu6", "elu", "leaky_relu", "sigmoid", "tanh", "softmax", "log_softmax", "bias_add",
           "l2_loss", "dropout", "softmax_cross_entropy_with_logits", "softmax_cross_entropy_with_logits_v2",
           "sparse_softmax_cross_entropy_with_logits", "sigmoid_cross_entropy_with_logits"]


# ---------------------------------------------------------------------------------------------- TopKV2
def _top_k_outputs(op):
    values, k = op._inputs
    kv = const_value(k)
    shape = values._shape
    if shape.ndims is None:
        out = tensor_shape.UNKNOWN
    else:
        dims = shape.as_list()
        if not dims:
            raise ValueError("input must have at least 1 dimension")
        if kv is not None and dims[-1] is not None and int(kv) > dims[-1]:
            raise ValueError("input must have at least k columns. Had %d, needed %d" % (dims[-1], int(kv)))
        out = tensor_shape.TensorShape(dims[:-1] + [None if kv is None else int(kv)])
    return [(values._dtype.base_dtype, out), (dtypes.int32, out)]


def _top_k_kernel(ctx, values, k):
    k = int(k)
    # a stable sort of the negated values keeps the lower index first among ties, as TF does
    order = np.argsort(-values, axis=-1, kind="stable")[..., :k].astype(np.int32)
    return np.take_along_axis(values, order, axis=-1), order


def _top_k_grad(op, grad_values, grad_indices):
    """Send each top value's gradient back to the position it came from (a one-hot scatter)."""
    from graphlab.ops import math_ops
    if grad_values is None:
        return [None, None]
    depth = op.inputs[0].shape.as_list()[-1] if op.inputs[0].shape.ndims else None
    if depth is None:
        depth = array_ops.shape(op.inputs[0])[-1]
    spread = array_ops.one_hot(op.outputs[1], depth, dtype=grad_values.dtype)
    return [math_ops.reduce_sum(array_ops.expand_dims(grad_values, -1) * spread, axis=-2), None]


register_op(
    "TopKV2",
    inputs=["input: T", "k: int32"],
    outputs=_top_k_outputs,
    kernel=_top_k_kernel,
    grad=_top_k_grad,
    doc="The k largest entries of the last axis, in descending order, and their indices.")


def top_k(input, k=1, sorted=True, name=None):  # noqa: A002  (TF's argument names)
    """``tf.nn.top_k``: (values, indices) of the ``k`` largest entries along the last axis."""
    op = build_op("TopKV2", [input, k], attrs={"sorted": sorted}, name=name)
    return _TopK(op.outputs[0], op.outputs[1])


class _TopK(tuple):
    """The (values, indices) pair, also readable by name as in TF."""

    def __new__(cls, values, indices):
        return tuple.__new__(cls, (values, indices))

    values = property(lambda self: self[0])
    indices = property(lambda self: self[1])


# -------------------------------------------------------------------------------------------- InTopKV2
def _in_top_k_kernel(ctx, predictions, targets, k):
    rows = np.arange(predictions.shape[0])
    target_values = predictions[rows, targets]
    # in the top k when fewer than k predictions are strictly larger (ties count in favour), as TF
    larger = (predictions > target_values[:, None]).sum(axis=1)
    return (larger < int(k)) & np.isfinite(target_values)


register_op(
    "InTopKV2",
    inputs=["predictions: float32", "targets: T", "k: T"],
    outputs=lambda op: [(dtypes.bool, tensor_shape.TensorShape(op._inputs[0]._shape[:1]))
                        if op._inputs[0]._shape.ndims is not None else (dtypes.bool, tensor_shape.UNKNOWN)],
    kernel=_in_top_k_kernel,
    grad=NOT_DIFFERENTIABLE,
    doc="Whether each row's target class is among that row's k largest predictions.")


def in_top_k(predictions, targets, k, name=None):
    """``tf.nn.in_top_k``: a bool per row, true when the target's score is among the top ``k``."""
    graph = graph_mod.graph_of([predictions, targets])
    with graph.as_default(), graph.name_scope(name or "in_top_k"):
        targets = convert_to_tensor(targets)
        return build_op("InTopKV2", [predictions, targets, k]).outputs[0]


# ------------------------------------------------------------------------------------- LRN, LRNGrad
# Local response normalization (AlexNet, the CIFAR-10 tutorial): each channel divided by a power of the
# summed squares of its neighbours along the last axis. TF's kernels exist for half and float32 only.
_LRN_TYPES = (dtypes.float16, dtypes.bfloat16, dtypes.float32)
_LRN_ATTRS = ("depth_radius", "bias", "alpha", "beta")


def _lrn_outputs(op):
    """Every input is 4-D (NHWC) and of a type TF's kernels take; the output is shaped like input 0."""
    x = op._inputs[0]
    if x._dtype.base_dtype not in _LRN_TYPES:
        raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: %s"
                        % ("input" if op._type == "LRN" else "input_grads", x._dtype.base_dtype.name,
                           ", ".join(d.name for d in _LRN_TYPES)))
    shape = tensor_shape.TensorShape([None] * 4)
    for t in op._inputs:
        if t._shape.ndims is not None and t._shape.ndims != 4:
            raise ValueError("Shape must be rank 4 but is rank %d" % t._shape.ndims)
        shape = shape.merge_with(t._shape) if t._shape.ndims is not None else shape
    return [(x._dtype.base_dtype, shape)]


def _band(depth, radius, dtype):
    """depth x depth matrix of ones within ``radius`` of the diagonal: (x*x) @ band sums each window,
    the way TF's CPU kernel does it (a contraction with this band matrix)."""
    idx = np.arange(depth)
    return (np.abs(idx[:, None] - idx[None, :]) <= radius).astype(dtype)


def _lrn_norm(ctx, x):
    """bias + alpha * (sum of squares over the window), computed in x's dtype, rows = every pixel."""
    a = ctx.attrs
    dt = x.dtype.type
    rows = x.reshape(-1, x.shape[-1])
    summed = np.dot(rows * rows, _band(x.shape[-1], a["depth_radius"], x.dtype))
    return rows, summed * dt(a["alpha"]) + dt(a["bias"])


def _lrn_kernel(ctx, x):
    if x.ndim != 4:
        raise InvalidArgumentError(None, ctx.op, "in must be 4-dimensional")
    rows, norm = _lrn_norm(ctx, x)
    beta = ctx.attrs["beta"]
    dt = x.dtype.type
    if beta == 1.0:
        scale = dt(1) / norm
    elif beta == 0.5:
        scale = dt(1) / np.sqrt(norm)
    else:
        scale = np.exp(np.log(norm) * dt(-beta))
    return (rows * scale).reshape(x.shape).astype(x.dtype, copy=False)


def _lrn_grad_kernel(ctx, grads, x, y):
    """TF's LRNGrad: d out_j / d x_k = [k == j] * norm_j^-beta - 2 alpha beta x_k y_j / norm_j, summed
    over the windows j that contain k."""
    if grads.ndim != 4 or x.ndim != 4:
        raise InvalidArgumentError(None, ctx.op, "inputs must be 4-dimensional")
    if grads.shape != x.shape or y.shape != x.shape:
        raise InvalidArgumentError(None, ctx.op,
                                   "input_grads, input_image, and out_image should have the same shape")
    a = ctx.attrs
    dt = x.dtype.type
    rows, norm = _lrn_norm(ctx, x)
    g = grads.reshape(rows.shape)
    coef = g * (dt(-2) * dt(a["alpha"]) * dt(a["beta"])) * y.reshape(rows.shape) / norm
    spread = np.dot(coef, _band(x.shape[-1], a["depth_radius"], x.dtype))
    out = rows * spread + g * np.power(norm, dt(-a["beta"]))
    return out.reshape(x.shape).astype(x.dtype, copy=False)


register_op(
    "LRN",
    inputs=["input: T"],
    outputs=_lrn_outputs,
    kernel=_lrn_kernel,
    grad=lambda op, g: [_op("LRNGrad", [g, op.inputs[0], op.outputs[0]],
                            attrs={k: op._attrs[k] for k in _LRN_ATTRS})],
    doc="input / (bias + alpha * sum(input**2 over depth_radius channels either side)) ** beta.")
# TF registers no gradient for LRNGrad: a second derivative of LRN raises LookupError there too
register_op(
    "LRNGrad",
    inputs=["input_grads: T", "input_image: T", "output_image: T"],
    outputs=_lrn_outputs,
    kernel=_lrn_grad_kernel,
    grad=None,
    doc="Gradient of LRN with respect to its input, from the incoming gradients, input and output.")


def local_response_normalization(input, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5,  # noqa: A002
                                 name=None):
    """``tf.nn.local_response_normalization`` (alias ``tf.nn.lrn``): one LRN op. The float attrs are
    kept as float32, the precision of TF's attr, so ``op.get_attr("alpha")`` reads as in TF."""
    attrs = {"depth_radius": int(depth_radius), "bias": float(np.float32(bias)),
             "alpha": float(np.float32(alpha)), "beta": float(np.float32(beta))}
    return _op("LRN", [input], name, attrs=attrs)


lrn = local_response_normalization


# ------------------------------------------------------------------------------------------ xw_plus_b
def xw_plus_b(x, weights, biases, name=None):
    """``tf.nn.xw_plus_b``: matmul(x, weights) then a BiasAdd that carries the scope's name."""
    with graph_mod.name_scope(name, "xw_plus_b", [x, weights, biases]) as scope:
        x = convert_to_tensor(x, name="x")
        weights = convert_to_tensor(weights, name="weights")
        biases = convert_to_tensor(biases, name="biases")
        return bias_add(_math().matmul(x, weights), biases, name=scope)
