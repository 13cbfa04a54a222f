"""TensorShape and Dimension with TF1 semantics: a shape may have unknown rank or unknown (None) sizes.

Iterating or indexing a TF1 shape gives ``Dimension`` objects (``Dimension(None)`` prints as ``?``);
``as_list()`` gives plain ints and None.
"""


class Dimension:
    """One size in a shape; ``value`` is an int or None when unknown."""

    __slots__ = ("_value",)

    def __init__(self, value):
        if type(value) is int and value >= 0:  # the common case, kept cheap
            self._value = value
            return
        if isinstance(value, Dimension):
            value = value._value
        if value is not None:
            value = int(value.__index__() if hasattr(value, "__index__") else value)
            if value < 0:
                raise ValueError("Dimension %d must be >= 0" % value)
        self._value = value

    @property
    def value(self):
        return self._value

    def __repr__(self):
        return "Dimension(%s)" % self._value

    def __str__(self):
        return "?" if self._value is None else str(self._value)

    def __int__(self):
        return self._value

    def __index__(self):
        return self._value

    def __eq__(self, other):
        other = as_dimension(other)
        if self._value is None or other._value is None:
            return None
        return self._value == other._value

    def __ne__(self, other):
        eq = self.__eq__(other)
        return None if eq is None else not eq

    def __hash__(self):
        return hash(self._value)

    def is_compatible_with(self, other):
        other = as_dimension(other)
        return self._value is None or other._value is None or self._value == other._value

    def assert_is_compatible_with(self, other):
        if not self.is_compatible_with(other):
            raise ValueError("Dimensions %s and %s are not compatible" % (self, as_dimension(other)))

    def merge_with(self, other):
        other = as_dimension(other)
        self.assert_is_compatible_with(other)
        return self if self._value is not None else other

    def _arith(self, other, fn):
        other = as_dimension(other)
        if self._value is None or other._value is None:
            return Dimension(None)
        return Dimension(fn(self._value, other._value))

    def __add__(self, other):
        return self._arith(other, lambda a, b: a + b)

    __radd__ = __add__

    def __mul__(self, other):
        return self._arith(other, lambda a, b: a * b)

    __rmul__ = __mul__

    def __sub__(self, other):
        return self._arith(other, lambda a, b: a - b)

    def __floordiv__(self, other):
        return self._arith(other, lambda a, b: a // b)


def as_dimension(value):
    return value if isinstance(value, Dimension) else Dimension(value)


# Dimensions never change, so shapes share one Dimension per small size (and one for unknown): building a
# shape then costs a lookup per size instead of an object.
_SMALL = [Dimension(i) for i in range(1025)]
_UNKNOWN_DIM = Dimension(None)


def _dims_of(sizes):
    """A tuple of Dimensions for a list or tuple of sizes (ints, None, Dimensions or int-likes)."""
    out = []
    for d in sizes:
        if type(d) is int and 0 <= d <= 1024:
            out.append(_SMALL[d])
        elif d is None:
            out.append(_UNKNOWN_DIM)
        elif type(d) is Dimension:
            out.append(d)
        else:
            out.append(as_dimension(d))
    return tuple(out)


_SHARED = {}          # tuple of Dimensions -> its one TensorShape
_MAX_SHARED = 8192


class TensorShape:
    """A static shape: ``dims`` is None for unknown rank, else a list of Dimension.

    Shapes never change once made (``set_shape`` and ``merge_with`` make new ones), so ``TensorShape(dims)``
    returns one shared instance per shape: a graph of thousands of [32, 128] tensors holds one [32, 128],
    not thousands of objects (two each, with their tuple) for Python's garbage collector to walk."""

    __slots__ = ("_dims", "_fully_defined")

    def __new__(cls, dims):
        kind = type(dims)
        if (kind is list or kind is tuple) and cls is TensorShape:   # the common case: a list of sizes
            return _from_sizes(dims, kind)
        if dims is None:
            dims = None
        elif isinstance(dims, TensorShape):
            return dims if cls is TensorShape and type(dims) is TensorShape else _make(cls, dims._dims)
        elif isinstance(dims, (list, tuple)):
            dims = _dims_of(dims)
        elif hasattr(dims, "dim") and hasattr(dims, "unknown_rank"):  # a TensorShapeProto
            dims = None if dims.unknown_rank else tuple(
                Dimension(None if d.size == -1 else d.size) for d in dims.dim)
        else:
            dims = (as_dimension(dims),)
        if cls is not TensorShape:
            return _make(cls, dims)
        return _shared(dims)

    def __reduce__(self):      # copies and pickles come back through __new__ (so shared when they can be)
        return TensorShape, (None if self._dims is None else [d._value for d in self._dims],)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    # --- queries ----------------------------------------------------------------------------------
    @property
    def dims(self):
        return None if self._dims is None else list(self._dims)

    @property
    def ndims(self):
        return None if self._dims is None else len(self._dims)

    rank = ndims

    def as_list(self):
        if self._dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return [d._value for d in self._dims]

    def is_fully_defined(self):
        return self._fully_defined

    def num_elements(self):
        if not self.is_fully_defined():
            return None
        n = 1
        for d in self._dims:
            n *= d._value
        return n

    def is_compatible_with(self, other):
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return True
        if len(self._dims) != len(other._dims):
            return False
        for a, b in zip(self._dims, other._dims):
            a, b = a._value, b._value
            if a is not None and b is not None and a != b:
                return False
        return True

    def assert_is_compatible_with(self, other):
        if not self.is_compatible_with(other):
            raise ValueError("Shapes %s and %s are incompatible" % (self, as_shape(other)))

    def merge_with(self, other):
        other = as_shape(other)
        if self._dims is None:
            return other
        if other._dims is None:
            return self
        if len(self._dims) != len(other._dims) or not self.is_compatible_with(other):
            raise ValueError("Shapes %s and %s are not compatible" % (self, other))
        # Dimension.merge_with of compatible sizes: the known one
        return TensorShape([a if a._value is not None else b for a, b in zip(self._dims, other._dims)])

    def concatenate(self, other):
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return TensorShape(None)
        return TensorShape(self._dims + other._dims)

    def with_rank(self, rank):
        if self._dims is None:
            return TensorShape([None] * rank)
        if len(self._dims) != rank:
            raise ValueError("Shape %s must have rank %d" % (self, rank))
        return self

    def with_rank_at_least(self, rank):
        if self._dims is not None and len(self._dims) < rank:
            raise ValueError("Shape %s must have rank at least %d" % (self, rank))
        return self

    def assert_has_rank(self, rank):
        self.with_rank(rank)

    def as_proto(self):
        from graphlab.formats.protos import tensor_shape_pb2
        proto = tensor_shape_pb2.TensorShapeProto()
        if self._dims is None:
            proto.unknown_rank = True
        else:
            for d in self._dims:
                proto.dim.add(size=-1 if d._value is None else d._value)
        return proto

    # --- python protocol ------------------------------------------------------------------------------
    def __len__(self):
        if self._dims is None:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return len(self._dims)

    def __bool__(self):
        return self._dims is not None

    def __iter__(self):
        if self._dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(self._dims)

    def __getitem__(self, key):
        if self._dims is None:
            return TensorShape(None) if isinstance(key, slice) else Dimension(None)
        if isinstance(key, slice):
            return TensorShape(self._dims[key])
        return self._dims[key]

    def __eq__(self, other):
        try:
            other = as_shape(other)
        except (TypeError, ValueError):
            return NotImplemented
        return self._dims == other._dims if self._dims is None or other._dims is None else (
            len(self._dims) == len(other._dims)
            and all(a._value == b._value for a, b in zip(self._dims, other._dims)))

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        return hash(None if self._dims is None else tuple(d._value for d in self._dims))

    def __repr__(self):
        if self._dims is None:
            return "TensorShape(None)"
        return "TensorShape([%s])" % ", ".join(repr(d) for d in self._dims)

    def __str__(self):
        if self._dims is None:
            return "<unknown>"
        if len(self._dims) == 1:
            return "(%s,)" % self._dims[0]
        return "(%s)" % ", ".join(str(d) for d in self._dims)

    def bracket_str(self):
        """The form TF's run-time messages use: ``[?,3]``."""
        if self._dims is None:
            return "<unknown>"
        return "[%s]" % ",".join(str(d) for d in self._dims)


def _shared(dims):
    """The one TensorShape of a tuple of Dimensions (or None)."""
    shape = _SHARED.get(dims)     # unknown sizes share one Dimension, so tuples of them compare by identity
    if shape is None:
        shape = _make(TensorShape, dims)
        if len(_SHARED) < _MAX_SHARED:
            _SHARED[dims] = shape
    return shape


_BY_SIZES = {}    # tuple of sizes as given (ints, None) -> its one TensorShape


def _from_sizes(sizes, kind):
    """``TensorShape([2, None])``, found by the sizes themselves: hashing ints and None is cheap, hashing
    Dimensions calls Python code per size. Sizes equal as Python values give equal shapes, so any match is
    right; an unhashable size falls through to ``_dims_of``, which says what is wrong with it."""
    key = sizes if kind is tuple else tuple(sizes)
    try:
        shape = _BY_SIZES.get(key)
    except TypeError:
        return _shared(_dims_of(sizes))
    if shape is None:
        shape = _shared(_dims_of(key))
        if len(_BY_SIZES) < _MAX_SHARED:
            _BY_SIZES[key] = shape
    return shape


def _make(cls, dims):
    shape = object.__new__(cls)
    shape._dims = dims
    # asked of most shapes at least once (gradients, shape rules): known once, shapes being immutable
    shape._fully_defined = dims is not None and all(d._value is not None for d in dims)
    return shape


_BY_TUPLE = {}


def from_tuple(dims):
    """The TensorShape of a fully known numpy shape tuple; shared instances, since shapes never change."""
    shape = _BY_TUPLE.get(dims)
    if shape is None:
        shape = TensorShape(dims)
        if len(_BY_TUPLE) < 4096:
            _BY_TUPLE[dims] = shape
    return shape


def as_shape(shape):
    return shape if isinstance(shape, TensorShape) else TensorShape(shape)


def unknown_shape(rank=None):
    return TensorShape(None if rank is None else [None] * rank)


def scalar():
    return TensorShape([])


SCALAR = TensorShape([])
UNKNOWN = TensorShape(None)
