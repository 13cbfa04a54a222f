"""``tf.metrics`` (TF1): streaming metrics kept in local variables.

A metric returns ``(value, update_op)``: running ``update_op`` folds a batch into the local variables
``<name>/total`` and ``<name>/count`` (collections LOCAL_VARIABLES and METRIC_VARIABLES, so
``tf.local_variables_initializer()`` resets them) and gives the new value; ``value`` reads the current
one without updating.
"""
from graphlab.ops.variable_scope import variable_scope
from graphlab.framework import dtypes, graph as graph_mod
from graphlab.framework.graph import GraphKeys
from graphlab.ops import array_ops, control_flow_ops, math_ops, state_ops
from graphlab.framework.registry import convert_to_tensor
from graphlab.ops.variables import Variable


def _metric_variable(name):
    """A float32 scalar zero in LOCAL_VARIABLES and METRIC_VARIABLES, not trainable."""
    return Variable(lambda: array_ops.zeros([], dtypes.float32), trainable=False, name=name,
                    collections=[GraphKeys.LOCAL_VARIABLES, GraphKeys.METRIC_VARIABLES])


def _add_to_collections(names, value):
    graph = graph_mod.get_default_graph()
    for n in names or ():
        graph.add_to_collection(n, value)


def mean(values, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """``tf.metrics.mean``: the (weighted) mean of all values seen by update_op since initialization."""
    with variable_scope(name, "mean", (values, weights)):
        values = math_ops.cast(values, dtypes.float32)
        total = _metric_variable("total")
        count = _metric_variable("count")
        if weights is None:
            num_values = math_ops.cast(array_ops.size(values), dtypes.float32)
        else:
            weights = math_ops.multiply(math_ops.cast(weights, dtypes.float32), array_ops.ones_like(values))
            values = math_ops.multiply(values, weights)
            num_values = math_ops.reduce_sum(weights)
        update_total = state_ops.assign_add(total, math_ops.reduce_sum(values))
        with control_flow_ops.control_dependencies([values]):
            update_count = state_ops.assign_add(count, num_values)
        value = math_ops.div_no_nan(total, math_ops.maximum(count, 0), name="value")
        update_op = math_ops.div_no_nan(update_total, math_ops.maximum(update_count, 0), name="update_op")
        _add_to_collections(metrics_collections, value)
        _add_to_collections(updates_collections, update_op)
        return value, update_op


def accuracy(labels, predictions, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """``tf.metrics.accuracy``: the fraction of predictions equal to labels over all batches seen."""
    labels = convert_to_tensor(labels)
    predictions = convert_to_tensor(predictions)
    predictions.shape.assert_is_compatible_with(labels.shape)
    if labels.dtype.base_dtype != predictions.dtype.base_dtype:
        predictions = math_ops.cast(predictions, labels.dtype.base_dtype)
    is_correct = math_ops.cast(math_ops.equal(predictions, labels), dtypes.float32)
    return mean(is_correct, weights, metrics_collections, updates_collections, name or "accuracy")


__all__ = ["accuracy", "mean"]
