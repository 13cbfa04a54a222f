"""``tf.IndexedSlices``: a gradient that touches only some rows of a tensor, as TF1 hands it on.

The gradient of ``tf.gather`` (and so of ``tf.nn.embedding_lookup``) on axis 0 is not a dense tensor the
size of the whole table: it is the rows that were read (``values``), which rows they were (``indices``),
and the shape of the dense tensor they stand for (``dense_shape``). Optimizers update only those rows
(ScatterSub, SparseApplyMomentum, ...). Where something needs a dense tensor, TF converts the slices with
one UnsortedSegmentSum, and so does graphlab (``convert_to_tensor`` calls ``_to_tensor`` below).
"""
import collections
import warnings

import numpy as np

from graphlab.framework import dtypes, registry, tensor_shape

# The three ops IndexedSlices builds (a negation, the dense tensor, the static shape of dense_shape) come from
# graphlab.ops, which sits above this package: graphlab/ops/indexed_ops.py fills them in when it loads.
_OPS = {}


def register_ops(negative, unsorted_segment_sum, static_shape):
    """Called once by graphlab.ops: ``negative(x)``, ``unsorted_segment_sum(data, ids, n, name=)`` and
    ``static_shape(shape_tensor) -> TensorShape`` (what is known of a shape tensor at build time)."""
    _OPS.update(negative=negative, unsorted_segment_sum=unsorted_segment_sum, static_shape=static_shape)


# TF warns when a conversion to dense would build a tensor this large (tensor with at least this many elements)
_LARGE_SPARSE_NUM_ELEMENTS = 100000000

IndexedSlicesValue = collections.namedtuple("IndexedSlicesValue", ["values", "indices", "dense_shape"])
"""What ``Session.run`` returns for an IndexedSlices: its three components as numpy arrays."""


class IndexedSlices:
    """Rows ``values[i]`` of a dense tensor of shape ``dense_shape``, at row ``indices[i]`` (rows may repeat:
    they then add up). ``.op``, ``.name``, ``.dtype``, ``.graph`` are those of ``values``, as in TF."""

    def __init__(self, values, indices, dense_shape=None):
        self._values = values
        self._indices = indices
        self._dense_shape = dense_shape

    @property
    def values(self):
        return self._values

    @property
    def indices(self):
        return self._indices

    @property
    def dense_shape(self):
        return self._dense_shape

    @property
    def shape(self):
        """The static shape of the dense tensor (unknown unless ``dense_shape`` is known when building)."""
        if self._dense_shape is None:
            return tensor_shape.TensorShape(None)
        return _OPS["static_shape"](self._dense_shape)

    def get_shape(self):
        return self.shape

    @property
    def name(self):
        return self._values.name

    @property
    def device(self):
        return self._values.device

    @property
    def op(self):
        return self._values.op

    @property
    def dtype(self):
        return self._values.dtype

    @property
    def graph(self):
        return self._values.graph

    def consumers(self):
        return self._values.consumers()

    def __str__(self):
        return "IndexedSlices(indices=%s, values=%s%s)" % (
            self._indices, self._values,
            (", dense_shape=%s" % (self._dense_shape,)) if self._dense_shape is not None else "")

    def __repr__(self):
        return "<tf.IndexedSlices '%s' dense_shape=%s dtype=%s>" % (self.name, self.shape, self.dtype.name)

    def __neg__(self):
        return IndexedSlices(_OPS["negative"](self._values), self._indices, self._dense_shape)

    def _to_tensor(self, dtype=None, name=None, as_ref=False):
        """TF's conversion to a dense tensor: UnsortedSegmentSum of the values into dense_shape[0] rows,
        with TF's warning when the result would have 100M elements or more."""
        if dtype is not None and not dtype.is_compatible_with(self.dtype):
            raise ValueError("Incompatible tensor conversion requested to `dtype` %s for IndexedSlices (%s) "
                             "with dtype %s" % (dtype.name, self, self.dtype.name))
        if self._dense_shape is None:
            raise ValueError("Tensor conversion requested for IndexedSlices for argument `value` without "
                             "dense_shape: %s" % (self,))
        known = registry.const_value(self._dense_shape)
        if known is not None:
            count = int(np.prod(known))
            if count >= _LARGE_SPARSE_NUM_ELEMENTS:
                warnings.warn("Converting sparse IndexedSlices to a dense Tensor with %d elements. This may "
                              "consume a large amount of memory." % count, stacklevel=3)
        return to_dense(self, name=name)


def to_dense(slices, name=None):
    """The dense tensor ``slices`` stands for (TF's ``_IndexedSlicesToTensorNoWarning`` when a gradient rule
    needs it, and the body of every conversion): one UnsortedSegmentSum, duplicate rows added up."""
    if not isinstance(slices, IndexedSlices):
        return slices
    if slices.dense_shape is None:
        raise ValueError("Tensor conversion requested for IndexedSlices without dense_shape: %s" % (slices,))
    return _OPS["unsorted_segment_sum"](slices.values, slices.indices, slices.dense_shape[0], name=name)


def convert_to_tensor_or_indexed_slices(value, dtype=None, name=None):
    """``tf.convert_to_tensor_or_indexed_slices``: IndexedSlices pass through unchanged, anything else
    becomes a Tensor."""
    if isinstance(value, IndexedSlices):
        if dtype is not None and not dtypes.as_dtype(dtype).is_compatible_with(value.dtype):
            raise ValueError("Incompatible tensor conversion requested to `dtype` %s for `value` (%s) with "
                             "dtype %s." % (dtypes.as_dtype(dtype).name, value, value.dtype.name))
        return value
    return registry.convert_to_tensor(value, dtype=dtype, name=name)


__all__ = ["IndexedSlices", "IndexedSlicesValue", "convert_to_tensor_or_indexed_slices"]
