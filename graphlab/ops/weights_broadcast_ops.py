"""Weights for ``tf.losses`` and ``tf.metrics``: a scalar, or a tensor of the values' rank whose every
dimension is 1 or the values' size. Built as TensorFlow builds them, so a loss has TF's ops and names
(``mean_squared_error/assert_broadcastable/static_scalar_check_success`` ...).

When the ranks and shapes are known while the graph is built, the check happens right then: a bad
weight shape is a ValueError at the user's line, and a NoOp named for the check that passed stands in
the graph for the ops that depend on it. Only unknown ranks leave a check for run time.
"""
import numpy as np

from graphlab.framework import graph as graph_mod
from graphlab.ops import array_ops, control_flow_ops, logging_ops, math_ops
from graphlab.framework.registry import const_value, convert_to_tensor

_ERROR_PREFIX = "weights can not be broadcast to values."


def assert_broadcastable(weights, values):
    """An op that checks ``weights`` can be broadcast to ``values`` (a NoOp when it was checked while
    building); ValueError right away when the static shapes already say they cannot."""
    with graph_mod.name_scope(None, "assert_broadcastable", [weights, values]) as scope:
        with graph_mod.name_scope(None, "weights", [weights]) as weights_scope:
            weights = convert_to_tensor(weights, name=weights_scope)
            weights_shape = array_ops.shape(weights, name="shape")
            weights_rank = array_ops.rank(weights, name="rank")
        with graph_mod.name_scope(None, "values", [values]) as values_scope:
            values = convert_to_tensor(values, name=values_scope)
            values_shape = array_ops.shape(values, name="shape")
            values_rank = array_ops.rank(values, name="rank")
        weights_rank_static, values_rank_static = const_value(weights_rank), const_value(values_rank)
        if weights_rank_static is not None and values_rank_static is not None:
            if int(weights_rank_static) == 0:
                return control_flow_ops.no_op(name="static_scalar_check_success")
            if int(weights_rank_static) != int(values_rank_static):
                raise ValueError("%s values.rank=%d. weights.rank=%d. values.shape=%s. weights.shape=%s. "
                                 "Received weights=%s, values=%s" % (
                                     _ERROR_PREFIX, values_rank_static, weights_rank_static, values.shape,
                                     weights.shape, weights, values))
            weights_dims, values_dims = const_value(weights_shape), const_value(values_shape)
            if _fully_known(weights_dims) and _fully_known(values_dims):
                for i, (w, v) in enumerate(zip(weights_dims, values_dims)):
                    if w not in (1, v):
                        raise ValueError("%s Mismatch at dim %d. values.shape=%s, weights.shape=%s. Received "
                                         "weights=%s, values=%s" % (_ERROR_PREFIX, i, np.asarray(values_dims),
                                                                    np.asarray(weights_dims), weights, values))
                return control_flow_ops.no_op(name="static_dims_check_success")
        # Left for run time (simpler than TF's set-difference test): scalar weights, or the same rank.
        is_scalar = math_ops.equal(0, weights_rank, name="is_scalar")
        valid = math_ops.logical_or(is_scalar, math_ops.equal(weights_rank, values_rank), name="is_valid_shape")
        return logging_ops.Assert(valid, [_ERROR_PREFIX, "weights.shape=", weights.name, weights_shape,
                                          "values.shape=", values.name, values_shape, "is_scalar=", is_scalar],
                                  name=scope)


def broadcast_weights(weights, values):
    """``weights`` broadcast to the shape of ``values`` (after ``assert_broadcastable``); the weights
    themselves when both shapes are fully known and compatible."""
    with graph_mod.name_scope(None, "broadcast_weights", [weights, values]) as scope:
        values = convert_to_tensor(values, name="values")
        weights = convert_to_tensor(weights, dtype=values.dtype.base_dtype, name="weights")
        if (weights.shape.is_fully_defined() and values.shape.is_fully_defined()
                and weights.shape.is_compatible_with(values.shape)):
            return weights
        with graph_mod.get_default_graph().control_dependencies([assert_broadcastable(weights, values)]):
            return math_ops.multiply(weights, array_ops.ones_like(values), name=scope)


def _fully_known(dims):
    return dims is not None and all(d is not None and d >= 0 for d in list(dims))
