"""``tf.losses`` (TF1): weighted losses that add themselves to the LOSSES collection.

Each loss builds its per-element losses inside a name scope (``mean_squared_error``,
``softmax_cross_entropy_loss``, ...), then ``compute_weighted_loss`` multiplies by the weights and reduces;
the default reduction, SUM_BY_NONZERO_WEIGHTS, divides the weighted sum by the number of elements whose
weight is not 0, through ``div_no_nan`` named ``value`` (so a loss is ``mean_squared_error/value:0``, as
in TF). ``get_total_loss`` adds the collected losses (and regularization losses) with one AddN.
"""
from graphlab.framework import dtypes, graph as graph_mod
from graphlab.framework.graph import GraphKeys
from graphlab.framework.tensor import Tensor
from graphlab.ops import array_ops, math_ops, nn_ops, weights_broadcast_ops
from graphlab.framework.registry import constant, convert_to_tensor


class Reduction:
    """How ``compute_weighted_loss`` reduces the weighted losses (TF's ``tf.losses.Reduction``)."""
    NONE = "none"
    SUM = "weighted_sum"
    MEAN = "weighted_mean"
    SUM_OVER_BATCH_SIZE = "weighted_sum_over_batch_size"
    SUM_OVER_NONZERO_WEIGHTS = "weighted_sum_by_nonzero_weights"
    SUM_BY_NONZERO_WEIGHTS = SUM_OVER_NONZERO_WEIGHTS

    @classmethod
    def all(cls):
        return (cls.NONE, cls.SUM, cls.MEAN, cls.SUM_OVER_BATCH_SIZE, cls.SUM_OVER_NONZERO_WEIGHTS,
                cls.SUM_BY_NONZERO_WEIGHTS)

    @classmethod
    def validate(cls, key):
        if key not in cls.all():
            raise ValueError("Invalid Reduction Key %s." % key)


def _graph(values):
    return graph_mod.graph_of([v for v in values if isinstance(v, Tensor) or hasattr(v, "_to_tensor")])


def _float(x):
    return math_ops.cast(x, dtypes.float32)


def _num_present(losses, weights):
    """How many loss elements have a non-zero weight (weights broadcast to the losses' shape)."""
    if isinstance(weights, float) and weights != 0.0:
        return _num_elements(losses)
    with losses.graph.name_scope("num_present") as scope:
        weights = _float(weights)
        present = array_ops.where(math_ops.equal(weights, 0.0), array_ops.zeros_like(weights),
                                  array_ops.ones_like(weights))
        present = weights_broadcast_ops.broadcast_weights(present, losses)
        return math_ops.reduce_sum(present, name=scope)


def _num_elements(losses):
    with losses.graph.name_scope("num_elements") as scope:
        return math_ops.cast(array_ops.size(losses, name=scope), losses.dtype)


def _safe_mean(total, count):
    return math_ops.div_no_nan(math_ops.reduce_sum(total), count, name="value")


def compute_weighted_loss(losses, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """``tf.losses.compute_weighted_loss``: losses * weights, reduced as ``reduction`` says, added to
    ``loss_collection``."""
    Reduction.validate(reduction)
    graph = _graph([losses, weights])
    with graph.as_default(), graph.name_scope(scope or "weighted_loss"):
        # as TF: every op of the loss waits for the check that the weights fit the losses
        with graph.control_dependencies([weights_broadcast_ops.assert_broadcastable(weights, losses)]):
            return _weighted(losses, weights, loss_collection, reduction)


def _weighted(losses, weights, loss_collection, reduction):
    """The body of ``compute_weighted_loss``, built inside its scope and control dependency."""
    losses = convert_to_tensor(losses)
    input_dtype = losses.dtype.base_dtype
    losses = _float(losses)
    weights = _float(weights)
    weighted = math_ops.multiply(losses, weights)
    if reduction == Reduction.NONE:
        loss = weighted
    else:
        loss = math_ops.reduce_sum(weighted)
        if reduction == Reduction.MEAN:
            # TF's `*` here: an op named "mul", where math_ops.multiply would say "Mul"
            loss = _safe_mean(loss, math_ops.reduce_sum(array_ops.ones_like(losses) * weights))
        elif reduction == Reduction.SUM_BY_NONZERO_WEIGHTS:
            loss = _safe_mean(loss, _num_present(losses, weights))
        elif reduction == Reduction.SUM_OVER_BATCH_SIZE:
            loss = _safe_mean(loss, _num_elements(losses))
    loss = math_ops.cast(loss, input_dtype)
    add_loss(loss, loss_collection)
    return loss


def _loss_scope(scope, default, values):
    graph = _graph(values)
    return graph, graph.name_scope(scope or default)


def _require(**arguments):
    """TF's check that the named arguments were given: ValueError naming the first missing one."""
    for name, value in arguments.items():
        if value is None:
            raise ValueError("Argument `%s` must not be None." % name)


def _check_shapes(predictions, labels):
    predictions.shape.assert_is_compatible_with(labels.shape)


def mean_squared_error(labels, predictions, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
                       reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """``tf.losses.mean_squared_error``: the weighted mean of (predictions - labels)^2."""
    _require(labels=labels, predictions=predictions)
    graph, ctx = _loss_scope(scope, "mean_squared_error", [predictions, labels, weights])
    with graph.as_default(), ctx as s:
        predictions = _float(predictions)
        labels = _float(labels)
        _check_shapes(predictions, labels)
        losses = math_ops.squared_difference(predictions, labels)
        return compute_weighted_loss(losses, weights, s, loss_collection, reduction)


def absolute_difference(labels, predictions, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
                        reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """``tf.losses.absolute_difference``: the weighted mean of |predictions - labels|."""
    graph, ctx = _loss_scope(scope, "absolute_difference", [predictions, labels, weights])
    with graph.as_default(), ctx as s:
        predictions = _float(predictions)
        labels = _float(labels)
        _check_shapes(predictions, labels)
        losses = math_ops.abs(math_ops.subtract(predictions, labels))
        return compute_weighted_loss(losses, weights, s, loss_collection, reduction)


def log_loss(labels, predictions, weights=1.0, epsilon=1e-7, scope=None, loss_collection=GraphKeys.LOSSES,
             reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """``tf.losses.log_loss``: -labels log(p + eps) - (1 - labels) log(1 - p + eps), weighted."""
    graph, ctx = _loss_scope(scope, "log_loss", [predictions, labels, weights])
    with graph.as_default(), ctx as s:
        predictions = _float(predictions)
        labels = _float(labels)
        _check_shapes(predictions, labels)
        losses = math_ops.subtract(
            math_ops.negative(math_ops.multiply(labels, math_ops.log(predictions + epsilon))),
            math_ops.multiply(1 - labels, math_ops.log(1 - predictions + epsilon)))
        return compute_weighted_loss(losses, weights, s, loss_collection, reduction)


def hinge_loss(labels, logits, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
               reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """``tf.losses.hinge_loss``: labels in {0, 1} are mapped to {-1, 1}; loss = relu(1 - labels * logits)."""
    graph, ctx = _loss_scope(scope, "hinge_loss", [logits, labels, weights])
    with graph.as_default(), ctx as s:
        logits = _float(logits)
        labels = _float(labels)
        _check_shapes(logits, labels)
        all_ones = array_ops.ones_like(labels)
        labels = math_ops.subtract(2 * labels, all_ones)
        losses = nn_ops.relu(math_ops.subtract(all_ones, math_ops.multiply(labels, logits)))
        return compute_weighted_loss(losses, weights, s, loss_collection, reduction)


def softmax_cross_entropy(onehot_labels, logits, weights=1.0, label_smoothing=0, scope=None,
                          loss_collection=GraphKeys.LOSSES, reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """``tf.losses.softmax_cross_entropy``: softmax cross entropy per example (labels optionally smoothed
    toward 1/num_classes), weighted per example."""
    _require(onehot_labels=onehot_labels, logits=logits)
    graph, ctx = _loss_scope(scope, "softmax_cross_entropy_loss", [logits, onehot_labels, weights])
    with graph.as_default(), ctx as s:
        logits = convert_to_tensor(logits)
        onehot_labels = math_ops.cast(onehot_labels, logits.dtype)
        _check_shapes(logits, onehot_labels)
        if label_smoothing > 0:
            num_classes = math_ops.cast(array_ops.shape(onehot_labels)[-1], logits.dtype)
            onehot_labels = onehot_labels * (1 - label_smoothing) + label_smoothing / num_classes
        onehot_labels = array_ops.stop_gradient(onehot_labels, name="labels_stop_gradient")
        losses = nn_ops.softmax_cross_entropy_with_logits_v2(labels=onehot_labels, logits=logits,
                                                             name="xentropy")
        return compute_weighted_loss(losses, weights, s, loss_collection, reduction)


def _remove_squeezable_dimensions(graph, labels, logits, weights):
    """TF's _remove_squeezable_dimensions (expected rank difference 1): [batch, 1] labels lose their last
    axis (in scope ``remove_squeezable_dimensions``); weights are converted here ("Const") and lose a last
    axis of 1 when they are one rank above the labels."""
    with graph.name_scope("remove_squeezable_dimensions"):
        labels = convert_to_tensor(labels)
        logits = convert_to_tensor(logits)
        lr, pr = labels.shape.ndims, logits.shape.ndims
        if lr is not None and pr is not None:
            if pr - lr != 1 and logits.shape[-1].is_compatible_with(1):
                logits = array_ops.squeeze(logits, [-1])
            elif pr - lr == 0 and labels.shape[-1].is_compatible_with(1):
                labels = array_ops.squeeze(labels, [-1])
    if weights is None:
        return labels, logits, weights
    weights = convert_to_tensor(weights)
    lr, wr = labels.shape.ndims, weights.shape.ndims
    if lr is not None and wr is not None and wr - lr == 1:
        weights = array_ops.squeeze(weights, [-1])
    return labels, logits, weights


def sparse_softmax_cross_entropy(labels, logits, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
                                 reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """``tf.losses.sparse_softmax_cross_entropy``: as softmax_cross_entropy, with class indices as labels."""
    _require(labels=labels, logits=logits)
    graph, ctx = _loss_scope(scope, "sparse_softmax_cross_entropy_loss", [logits, labels, weights])
    with graph.as_default(), ctx as s:
        labels, logits, weights = _remove_squeezable_dimensions(graph, labels, logits, weights)
        losses = nn_ops.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights, s, loss_collection, reduction)


def sigmoid_cross_entropy(multi_class_labels, logits, weights=1.0, label_smoothing=0, scope=None,
                          loss_collection=GraphKeys.LOSSES, reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """``tf.losses.sigmoid_cross_entropy``: elementwise sigmoid cross entropy (labels optionally smoothed
    toward 1/2), weighted."""
    _require(multi_class_labels=multi_class_labels, logits=logits)
    graph, ctx = _loss_scope(scope, "sigmoid_cross_entropy_loss", [logits, multi_class_labels, weights])
    with graph.as_default(), ctx as s:
        logits = convert_to_tensor(logits)
        labels = math_ops.cast(multi_class_labels, logits.dtype)
        _check_shapes(logits, labels)
        if label_smoothing > 0:
            labels = labels * (1 - label_smoothing) + 0.5 * label_smoothing
        losses = nn_ops.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights, s, loss_collection, reduction)


def huber_loss(labels, predictions, weights=1.0, delta=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
               reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """``tf.losses.huber_loss``: 0.5 * e**2 where |e| <= delta, delta * (|e| - 0.5 * delta) beyond, for
    e = predictions - labels, weighted. Written as TF does, 0.5 * q**2 + delta * (|e| - q) with
    q = min(|e|, delta): at |e| == delta the linear part's gradient is then 0, not a second 1."""
    _require(labels=labels, predictions=predictions)
    graph, ctx = _loss_scope(scope, "huber_loss", [predictions, labels, weights])
    with graph.as_default(), ctx as s:
        predictions = _float(predictions)
        labels = _float(labels)
        _check_shapes(predictions, labels)
        abs_error = math_ops.abs(math_ops.subtract(predictions, labels))
        quadratic = math_ops.minimum(abs_error, delta)
        linear = math_ops.subtract(abs_error, quadratic)
        half = convert_to_tensor(0.5, dtype=quadratic.dtype)
        losses = math_ops.add(math_ops.multiply(half, math_ops.multiply(quadratic, quadratic)),
                              math_ops.multiply(delta, linear))
        return compute_weighted_loss(losses, weights, s, loss_collection, reduction)


# ---------------------------------------------------------------------------------- the LOSSES collection
def cosine_distance(labels, predictions, axis=None, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
                    reduction=Reduction.SUM_BY_NONZERO_WEIGHTS, dim=None):
    """``tf.losses.cosine_distance``: 1 - sum(labels * predictions) over ``axis`` (inputs unit-normalized)."""
    axis = dim if axis is None else axis
    if axis is None:
        raise ValueError("You must specify argument `axis`.")
    _require(labels=labels, predictions=predictions)
    graph, ctx = _loss_scope(scope, "cosine_distance_loss", [predictions, labels, weights])
    with graph.as_default(), ctx as s:
        predictions = _float(predictions)
        labels = _float(labels)
        _check_shapes(predictions, labels)
        radial_diffs = math_ops.multiply(predictions, labels)
        losses = 1 - math_ops.reduce_sum(radial_diffs, axis=(axis,), keepdims=True)
        return compute_weighted_loss(losses, weights, s, loss_collection, reduction)


def add_loss(loss, loss_collection=GraphKeys.LOSSES):
    """``tf.losses.add_loss``: put a user-made loss in the collection get_total_loss sums."""
    if loss_collection:
        graph_mod.get_default_graph().add_to_collection(loss_collection, loss)


def get_losses(scope=None, loss_collection=GraphKeys.LOSSES):
    """``tf.losses.get_losses``: the losses collected (optionally those whose name starts with ``scope``)."""
    return graph_mod.get_default_graph().get_collection(loss_collection, scope)


def get_regularization_losses(scope=None):
    """``tf.losses.get_regularization_losses``: the REGULARIZATION_LOSSES collection."""
    return graph_mod.get_default_graph().get_collection(GraphKeys.REGULARIZATION_LOSSES, scope)


def get_regularization_loss(scope=None, name="total_regularization_loss"):
    """``tf.losses.get_regularization_loss``: their sum (AddN), or a constant 0.0 when there are none."""
    losses = get_regularization_losses(scope)
    if losses:
        return math_ops.add_n(losses, name=name)
    return constant(0.0)


def get_total_loss(add_regularization_losses=True, name="total_loss", scope=None):
    """``tf.losses.get_total_loss``: the collected losses (plus regularization losses) summed by one AddN."""
    losses = get_losses(scope=scope)
    if add_regularization_losses:
        losses = losses + get_regularization_losses(scope)
    return math_ops.add_n(losses, name=name)


__all__ = ["cosine_distance", "Reduction", "compute_weighted_loss", "mean_squared_error", "absolute_difference", "log_loss",
           "hinge_loss", "softmax_cross_entropy", "sparse_softmax_cross_entropy", "sigmoid_cross_entropy",
           "huber_loss", "add_loss", "get_losses", "get_regularization_losses", "get_regularization_loss", "get_total_loss"]
