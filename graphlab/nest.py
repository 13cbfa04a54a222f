"""``tf.nest``: flatten, pack and map nested structures of lists, tuples, namedtuples and dicts, with the
signatures and errors of ``tf.compat.v1.nest``. The rules live in graphlab.framework.nest, which the engine
itself uses for while-loop variables, cond results and RNN states."""
from graphlab.framework import nest as _nest


def is_nested(seq):
    """``tf.nest.is_nested``: whether ``seq`` is a list, tuple, namedtuple or mapping (strings, arrays and
    sets are not)."""
    return _nest.is_nested(seq)


def flatten(structure, expand_composites=False):
    """``tf.nest.flatten``: the leaves depth first, a mapping's values in sorted key order."""
    return _nest.flatten(structure)


def pack_sequence_as(structure, flat_sequence, expand_composites=False):
    """``tf.nest.pack_sequence_as``: ``flat_sequence`` arranged as ``structure``."""
    return _nest.pack_sequence_as(structure, flat_sequence)


def assert_same_structure(nest1, nest2, check_types=True, expand_composites=False):
    """``tf.nest.assert_same_structure``: ValueError or TypeError, as TF's, if the two nest differently."""
    _nest.assert_same_structure(nest1, nest2, check_types=check_types)


def map_structure(func, *structure, **kwargs):
    """``tf.nest.map_structure``: ``func`` applied leaf by leaf, in the first structure's shape."""
    if not callable(func):
        raise TypeError("func must be callable, got: %s" % func)
    if not structure:
        raise ValueError("Must provide at least one structure")
    check_types = kwargs.pop("check_types", True)
    kwargs.pop("expand_composites", False)
    if kwargs:
        raise ValueError("Only valid keyword arguments are `check_types` and `expand_composites`, not: `%s`"
                         % "`, `".join(kwargs.keys()))
    return _nest.map_structure(func, *structure, check_types=check_types)


__all__ = ["assert_same_structure", "flatten", "is_nested", "map_structure", "pack_sequence_as"]
