"""Tensor: a symbolic handle to one output of an Operation. It has a dtype and a static shape but no value;
a value exists only inside a Session.run."""
import sys

from graphlab.framework import default_stacks, source_info, tensor_shape

_OVERLOADS = None  # filled by graphlab.ops.math_ops at import: name -> function(x, y) building the op


def _overload(name):
    def method(self, *other):
        # the ops an operator builds belong to the line that used the operator
        return source_info.call_pinned(_OVERLOADS[name], sys._getframe(1), self, *other)
    method.__name__ = name
    return method


class Tensor:
    """``Tensor("Const:0", shape=(), dtype=float32)``: output ``value_index`` of ``op``."""

    __slots__ = ("_op", "_value_index", "_dtype", "_shape", "_consumers", "__weakref__")

    def __init__(self, op, value_index, dtype, shape):
        self._op = op
        self._value_index = value_index
        self._dtype = dtype
        self._shape = shape
        self._consumers = ()   # becomes a list at the first consumer (most tensors have one or none)

    # --- identity ---------------------------------------------------------------------------------
    @property
    def op(self):
        return self._op

    @property
    def value_index(self):
        return self._value_index

    @property
    def dtype(self):
        return self._dtype

    @property
    def graph(self):
        return self._op.graph

    @property
    def name(self):
        return "%s:%d" % (self._op.name, self._value_index)

    @property
    def device(self):
        return self._op._device

    @property
    def shape(self):
        return self._shape

    def get_shape(self):
        return self._shape

    def set_shape(self, shape):
        """Narrow the static shape (e.g. a placeholder's known batch size); must stay compatible."""
        self._shape = self._shape.merge_with(tensor_shape.as_shape(shape))

    def consumers(self):
        """The operations that take this tensor as an input, in creation order."""
        return list(self._consumers)

    def eval(self, feed_dict=None, session=None):
        """Run this tensor in ``session`` (default: the default session) and return its value."""
        return default_stacks.session_for_eval(session, self.graph, "eval()").run(self, feed_dict)

    def _as_graph_element(self):
        return self

    # --- python protocol ----------------------------------------------------------------------------
    def __repr__(self):
        return "<tf.Tensor '%s' shape=%s dtype=%s>" % (self.name, self._shape, self._dtype.name)

    def __str__(self):   # as TF: the shape only when its rank is known, the device only when set
        return 'Tensor("%s"%s, dtype=%s%s)' % (
            self.name, ", shape=%s" % (self._shape,) if self._shape.ndims is not None else "", self._dtype.name,
            ", device=%s" % self.device if self.device else "")

    __hash__ = object.__hash__

    def __eq__(self, other):  # TF1 graph mode: identity, so tensors work as dict keys and in sets
        return self is other

    def __ne__(self, other):
        return self is not other

    def __bool__(self):
        raise TypeError(
            "Using a `tf.Tensor` as a Python `bool` is not allowed. Use `if t is not None:` instead of "
            "`if t:` to test if a tensor is defined, and use TensorFlow ops such as tf.cond to execute "
            "subgraphs conditioned on the value of a tensor.")

    def __iter__(self):
        raise TypeError("Tensor objects are only iterable when eager execution is enabled. To iterate "
                        "over this tensor use tf.map_fn, or unstack it into a list first.")

    def __len__(self):
        raise TypeError("len is not well defined for symbolic Tensors. (%s) Please call `x.shape` rather "
                        "than `len(x)` for shape information." % self.name)

    def __array__(self, dtype=None):
        raise NotImplementedError(
            "Cannot convert a symbolic Tensor (%s) to a numpy array: it has no value until a Session runs "
            "it. Use sess.run(%s) to get its value." % (self.name, self._op.name))

    __array_priority__ = 100  # so numpy defers `ndarray + tensor` to Tensor.__radd__

    __add__ = _overload("__add__")
    __radd__ = _overload("__radd__")
    __sub__ = _overload("__sub__")
    __rsub__ = _overload("__rsub__")
    __mul__ = _overload("__mul__")
    __rmul__ = _overload("__rmul__")
    __truediv__ = _overload("__truediv__")
    __rtruediv__ = _overload("__rtruediv__")
    __floordiv__ = _overload("__floordiv__")
    __rfloordiv__ = _overload("__rfloordiv__")
    __mod__ = _overload("__mod__")
    __rmod__ = _overload("__rmod__")
    __pow__ = _overload("__pow__")
    __rpow__ = _overload("__rpow__")
    __matmul__ = _overload("__matmul__")
    __rmatmul__ = _overload("__rmatmul__")
    __neg__ = _overload("__neg__")
    __abs__ = _overload("__abs__")
    __invert__ = _overload("__invert__")
    __and__ = _overload("__and__")
    __rand__ = _overload("__rand__")
    __or__ = _overload("__or__")
    __ror__ = _overload("__ror__")
    __xor__ = _overload("__xor__")
    __rxor__ = _overload("__rxor__")
    __lt__ = _overload("__lt__")
    __le__ = _overload("__le__")
    __gt__ = _overload("__gt__")
    __ge__ = _overload("__ge__")
    __getitem__ = _overload("__getitem__")
