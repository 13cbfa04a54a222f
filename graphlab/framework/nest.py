"""Nested structures of tensors, as TF's ``tf.nest`` sees them: lists, tuples, namedtuples and dicts (in
sorted key order) are containers; anything else (a Tensor, a TensorArray, None, a number) is a leaf.

tf.while_loop's loop variables, tf.cond's results and an RNN cell's state are such structures.
"""


import collections
import collections.abc as _abc


def is_nested(x):
    """TF's rule: lists, tuples, namedtuples, other sequences (but not strings or bytes), mappings and
    mapping views nest; anything else (a Tensor, an array, a set, None, a number) is a leaf."""
    if type(x) in (list, tuple, dict):      # the common case, without the abstract base classes' checks
        return True
    if isinstance(x, (str, bytes)):
        return False
    return isinstance(x, (_abc.Sequence, _abc.Mapping, _abc.MappingView))


def _children(x):
    if isinstance(x, _abc.Mapping):
        return [x[k] for k in _sorted_keys(x)]
    return list(x)


def _sorted_keys(d):
    return sorted(d)      # unsortable keys give Python's own TypeError, as TF's


def flatten(structure):
    """The leaves of ``structure``, depth first (a leaf on its own gives a one-element list)."""
    if not is_nested(structure):
        return [structure]
    out = []
    stack = [structure]
    while stack:
        x = stack.pop()
        if is_nested(x):
            stack.extend(reversed(_children(x)))
        else:
            out.append(x)
    return out


def _is_namedtuple(x):
    return isinstance(x, tuple) and hasattr(x, "_fields")


def _rebuild(like, items):
    """TF's sequence_like: ``items`` (in flatten's order) in a container like ``like``."""
    if isinstance(like, _abc.MutableMapping):
        result = dict(zip(_sorted_keys(like), items))
        out = collections.defaultdict(like.default_factory) if type(like) is collections.defaultdict \
            else type(like)()
        for k in like:            # the caller's key order, as TF keeps it
            out[k] = result[k]
        return out
    if isinstance(like, _abc.Mapping):
        result = dict(zip(_sorted_keys(like), items))
        return type(like)((k, result[k]) for k in like)
    if isinstance(like, _abc.MappingView):
        return list(items)
    if _is_namedtuple(like):        # a namedtuple (LSTMStateTuple ...)
        return type(like)(*items)
    if type(like) is tuple:
        return tuple(items)
    if type(like) is list:
        return list(items)
    return type(like)(items)


def _truncate(value, length=100):
    text = str(value)
    return text[:length] + (text[length:] and "...")


def pack_sequence_as(structure, flat_sequence):
    """``flat_sequence`` arranged as ``structure``, with TF's errors for a count or kind that cannot fit."""
    if not is_nested(flat_sequence):
        raise TypeError("Attempted to pack value:\n  %s\ninto a structure, but found incompatible type `%s` "
                        "instead." % (_truncate(flat_sequence), type(flat_sequence)))
    if not is_nested(structure):
        if len(flat_sequence) != 1:
            raise ValueError("The target structure is of type `%s`\n  %s\nHowever the input is a sequence (%s) "
                             "of length %d.\n  %s\nnest cannot guarantee that it is safe to map one to the "
                             "other." % (type(structure), _truncate(structure), type(flat_sequence),
                                         len(flat_sequence), _truncate(flat_sequence)))
        return flat_sequence[0]
    flat_sequence = list(flat_sequence)
    count = len(flatten(structure))
    if count != len(flat_sequence):
        raise ValueError("Could not pack sequence. Structure had %d atoms, but flat_sequence had %d items.  "
                         "Structure: %s, flat_sequence: %s." % (count, len(flat_sequence), structure,
                                                                flat_sequence))
    it = iter(flat_sequence)

    def build(s):
        if not is_nested(s):
            return next(it)
        return _rebuild(s, [build(c) for c in _children(s)])
    return build(structure)


def map_structure(fn, *structures, check_types=True):
    """``fn`` applied leaf by leaf to structures of the same shape, in the first one's structure."""
    for other in structures[1:]:
        assert_same_structure(structures[0], other, check_types=check_types)
    flats = [flatten(s) for s in structures]
    return pack_sequence_as(structures[0], [fn(*leaves) for leaves in zip(*flats)])


class _Dot:
    """A leaf as TF's structure errors draw it."""

    def __repr__(self):
        return "."


_DOT = _Dot()


def _described(x):
    return "type=%s str=%s" % (type(x).__name__, x)


def assert_same_structure(a, b, check_types=True):
    """TF's errors when ``a`` and ``b`` do not nest the same way: ValueError for a different nesting, number
    of elements or set of dict keys, TypeError (with ``check_types``) for different sequence types (a list
    and a tuple, two different namedtuples); each names the first place they differ and draws both
    structures with their leaves as dots."""
    found = _first_mismatch(a, b, bool(check_types))
    if found is None:
        return
    kind, detail = found
    message = ("The two structures don't have the same nested structure.\n\nFirst structure: %s\n\nSecond "
               "structure: %s\n\nMore specifically: %s\nEntire first structure:\n%s\nEntire second structure:\n%s"
               % (_described(a), _described(b), detail, map_structure(lambda _: _DOT, a, check_types=False),
                  map_structure(lambda _: _DOT, b, check_types=False)))
    raise kind(message)


def _first_mismatch(a, b, check_types):
    """(error class, what differs) at the first place ``a`` and ``b`` differ, depth first; None if none."""
    na, nb = is_nested(a), is_nested(b)
    if na != nb:
        seq, leaf = (a, b) if na else (b, a)
        return ValueError, 'Substructure "%s" is a sequence, while substructure "%s" is not' % (
            _described(seq), _described(leaf))
    if not na:
        return None
    if check_types:
        ta, tb = type(a), type(b)
        same_namedtuple = (_is_namedtuple(a) and _is_namedtuple(b) and ta.__name__ == tb.__name__
                           and a._fields == b._fields)
        both_mappings = isinstance(a, _abc.Mapping) and isinstance(b, _abc.Mapping)
        if ta is not tb and not same_namedtuple and not both_mappings:
            return TypeError, ("The two namedtuples don't have the same sequence type. First structure %s has "
                               "type %s, while second structure %s has type %s" % (
                                   _described(a), ta.__name__, _described(b), tb.__name__))
        if both_mappings and set(a.keys()) != set(b.keys()):
            return ValueError, ("The two dictionaries don't have the same set of keys. First structure has keys "
                                "%s, while second structure has keys %s" % (
                                    _described(list(a.keys())), _described(list(b.keys()))))
    ca, cb = _children(a), _children(b)
    if len(ca) != len(cb):
        return ValueError, ("The two structures don't have the same number of elements. First structure: %s. "
                            "Second structure: %s" % (_described(a), _described(b)))
    for x, y in zip(ca, cb):
        found = _first_mismatch(x, y, check_types)
        if found is not None:
            return found
    return None
