"""Gradient clipping: ``tf.clip_by_norm``, ``tf.global_norm``, ``tf.clip_by_global_norm`` and the deprecated
``tf.clip_by_average_norm``. None of these is an op of its own: each is a small graph of ordinary ops (Sum,
Sqrt, Maximum, L2Loss, ...), built with TF's names and in TF's order so clipped training graphs read like
TensorFlow's. An IndexedSlices gradient (of an embedding lookup) is clipped by its rows and stays sparse. (``tf.clip_by_value`` is in array_ops, next to the ops it is made of.)

The classic use is between ``compute_gradients`` and ``apply_gradients``::

    grads, variables = zip(*opt.compute_gradients(loss))
    grads, norm = tf.clip_by_global_norm(grads, 5.0)
    train_op = opt.apply_gradients(zip(grads, variables))
"""
import collections.abc

import numpy as np

from graphlab.framework import dtypes
from graphlab.framework import graph as graph_mod
from graphlab.framework.indexed_slices import IndexedSlices
from graphlab.ops import array_ops, math_ops, nn_ops
from graphlab.framework.registry import convert_to_tensor


def _sequence(t_list):
    """TF's check: the gradient functions take a list or tuple of tensors (None entries allowed)."""
    if not isinstance(t_list, collections.abc.Sequence) or isinstance(t_list, str):
        raise TypeError("`t_list` should be a sequence of tensors. Received %s." % type(t_list))
    return list(t_list)


def _values(t_list):
    """Each entry as a tensor named t_<i> when it has to be converted (an IndexedSlices by its values, as
    TF: only the rows it holds count); None stays None."""
    return [convert_to_tensor(_rows(t), name="t_%d" % i) if t is not None else None
            for i, t in enumerate(t_list)]


def _rows(t):
    return t.values if isinstance(t, IndexedSlices) else t


def _like(t, values):
    """``values`` in the form of ``t``: an IndexedSlices keeps its indices and dense shape."""
    return IndexedSlices(values, t.indices, t.dense_shape) if isinstance(t, IndexedSlices) else values


def clip_by_norm(t, clip_norm, axes=None, name=None):
    """``t * clip_norm / max(l2norm(t), clip_norm)``: t unchanged while its L2 norm (over ``axes``, all
    dimensions by default) is at most clip_norm, scaled down to norm clip_norm otherwise.

    The square root is taken through two Selects so that an all-zero t has a gradient of 0, not NaN."""
    with graph_mod.name_scope(name, "clip_by_norm", [t, clip_norm]) as name:
        values = convert_to_tensor(_rows(t), name="t")
        if np.isscalar(clip_norm):
            clip_norm = max(clip_norm, 0)     # a negative bound means zero
        else:
            clip_norm = math_ops.cast(math_ops.maximum(clip_norm, 0), dtype=values.dtype)
        l2sum = math_ops.reduce_sum(values * values, axes, keepdims=True)
        pred = l2sum > 0
        l2sum_safe = array_ops.where(pred, l2sum, array_ops.ones_like(l2sum))
        l2norm = array_ops.where(pred, math_ops.sqrt(l2sum_safe), l2sum)
        intermediate = values * clip_norm
        # A clip_norm of another shape would broadcast t silently: refuse it, as TF does.
        values.shape.assert_is_compatible_with(intermediate.shape)
        return _like(t, array_ops.identity(intermediate / math_ops.maximum(l2norm, clip_norm), name=name))


def global_norm(t_list, name=None):
    """sqrt(sum of the squared L2 norms of every tensor in ``t_list``); None entries are left out.
    Built as TF does it: one L2Loss (half the squared norm) per tensor, stacked, summed, times 2, Sqrt."""
    t_list = _sequence(t_list)
    with graph_mod.name_scope(name, "global_norm", [t for t in t_list if t is not None]) as name:
        half_squared_norms = [nn_ops.l2_loss(v) for v in _values(t_list) if v is not None]
        half_squared_norm = math_ops.reduce_sum(array_ops.stack(half_squared_norms))
        return math_ops.sqrt(half_squared_norm * convert_to_tensor(2.0, dtype=half_squared_norm.dtype),
                             name="global_norm")


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """Scales every tensor of ``t_list`` by ``clip_norm / max(global_norm, clip_norm)``: one ratio for all,
    so the gradient keeps its direction. Returns (the clipped list, the global norm before clipping).
    ``use_norm`` supplies a norm computed already. An infinite or NaN norm makes every entry NaN, so a
    diverging step shows up instead of being clipped into something plausible."""
    t_list = _sequence(t_list)
    if use_norm is None:
        use_norm = global_norm(t_list, name)
    present = [t for t in t_list if t is not None]
    with graph_mod.name_scope(name, "clip_by_global_norm", present + [clip_norm]) as name:
        scale_for_finite = clip_norm * math_ops.minimum(
            1.0 / use_norm, convert_to_tensor(1.0, dtype=use_norm.dtype) / clip_norm)
        scale = scale_for_finite + (use_norm - use_norm)     # NaN when use_norm is inf or NaN, else + 0
        clipped = []
        for i, v in enumerate(_values(t_list)):
            clipped.append(None if v is None else array_ops.identity(
                v * math_ops.cast(scale, v.dtype), name="%s_%d" % (name, i)))
    return [c if c is None else _like(t, c) for c, t in zip(clipped, t_list)], use_norm


def clip_by_average_norm(t, clip_norm, name=None):
    """Deprecated in TF: like clip_by_norm, with the L2 norm divided by the number of elements."""
    with graph_mod.name_scope(name, "clip_by_average_norm", [t, clip_norm]) as name:
        t = convert_to_tensor(t, name="t")
        n_element = math_ops.cast(array_ops.size(t), dtypes.float32)
        l2norm_inv = math_ops.rsqrt(math_ops.reduce_sum(t * t, array_ops.range(array_ops.rank(t))))
        return array_ops.identity(
            t * clip_norm * math_ops.minimum(l2norm_inv * n_element, convert_to_tensor(1.0) / clip_norm),
            name=name)


__all__ = ["clip_by_average_norm", "clip_by_global_norm", "clip_by_norm", "global_norm"]
