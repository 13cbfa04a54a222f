"""Normalising what ``Session.run`` is given: nested fetches flattened to graph elements (and rebuilt in
the caller's structure afterwards), and feeds checked and converted to numpy."""
import collections

import numpy as np

from graphlab.framework import dtypes
from graphlab.framework.indexed_slices import IndexedSlices, IndexedSlicesValue
from graphlab.framework.operation import Operation
from graphlab.framework.tensor import Tensor


def flatten_fetches(graph, fetches):
    """Return (elements, rebuild): the unique graph elements to compute, and a function that turns the
    list of their values back into the structure of ``fetches``."""
    elements = []
    index = {}

    def leaf(fetch):
        element = _as_element(graph, fetch)
        if element not in index:
            index[element] = len(elements)
            elements.append(element)
        i = index[element]
        return lambda values: values[i]

    def walk(fetch):
        if fetch is None:       # as TF's fetch mapper: None is refused before any conversion is tried
            raise TypeError("Argument `fetch` = None has invalid type \"NoneType\". Cannot be None")
        if isinstance(fetch, (Tensor, Operation, str)) or hasattr(fetch, "_as_graph_element"):
            return leaf(fetch)
        if isinstance(fetch, IndexedSlices):     # as TF: its three parts, as an IndexedSlicesValue
            parts = [walk(t) if t is not None else (lambda values: None)
                     for t in (fetch.values, fetch.indices, fetch.dense_shape)]
            return lambda values: IndexedSlicesValue(*[p(values) for p in parts])
        if isinstance(fetch, dict):
            keys = list(fetch.keys())
            parts = [walk(fetch[k]) for k in keys]
            kind = type(fetch)

            def rebuild(values):
                built = [p(values) for p in parts]
                if kind is dict or kind is collections.OrderedDict:
                    return kind(zip(keys, built))
                result = kind() if not isinstance(fetch, collections.defaultdict) else \
                    collections.defaultdict(fetch.default_factory)
                result.update(zip(keys, built))
                return result
            return rebuild
        if isinstance(fetch, (list, tuple)):
            parts = [walk(f) for f in fetch]
            if isinstance(fetch, tuple) and hasattr(fetch, "_fields"):  # namedtuple
                return lambda values: type(fetch)(*[p(values) for p in parts])
            kind = tuple if isinstance(fetch, tuple) else list
            return lambda values: kind(p(values) for p in parts)
        raise TypeError("Argument `fetch` = %s has invalid type \"%s\" must be a string or Tensor. (Can "
                        "not convert a %s into a Tensor or Operation.)" % (
                            fetch, type(fetch).__name__, type(fetch).__name__))

    rebuild = walk(fetches)
    return elements, rebuild


def _as_element(graph, fetch):
    try:
        return graph.as_graph_element(fetch)
    except TypeError as e:
        raise TypeError("Argument `fetch` = %s has invalid type \"%s\" must be a string or Tensor. (%s)" %
                        (fetch, type(fetch).__name__, e)) from None
    except (ValueError, KeyError) as e:
        text = str(e)   # as TF: a KeyError's text keeps its quotes
        if not isinstance(fetch, str) and "not an element of this graph" in text:
            text = "Tensor %s is not an element of this graph." % (fetch,)
        raise ValueError("Argument `fetch` = %s cannot be interpreted as a Tensor. (%s)" % (fetch, text)) \
            from None


def as_result(value):
    """Run results as TF gives them: arrays, with 0-d values as numpy scalars."""
    if isinstance(value, np.ndarray):
        if value.ndim == 0:
            return value[()]
        # the caller's own array, as TF gives: never the graph's constant, a variable's or slot's buffer or a
        # queue's item (a fetch that was fed is given back as fed, by the caller)
        return value.copy()
    if isinstance(value, np.generic):
        return value
    if hasattr(value, "read_value"):      # a variable handle fetched directly
        return as_result(value.read_value())
    return np.asarray(value)


def feed_order(tensor):
    """The order a run keeps its fed tensors in, whatever the feed_dict's: the plan cache key and the
    plan's feed slots both follow it (the renderer too, to find a cached plan)."""
    return tensor._op._id, tensor._value_index


def convert_feed(tensor, value, key=None):
    """Check and convert one fed value for ``tensor`` (given as ``key`` in the feed_dict): dtype conversion and
    static-shape compatibility."""
    if isinstance(value, Tensor):
        raise TypeError("The value of a feed cannot be a tf.Tensor object. Acceptable feed values include "
                        "Python scalars, strings, lists, numpy ndarrays, or TensorHandles. For reference, "
                        "the tensor object was %s which was passed to the argument `feed_dict` with key %s."
                        % (value, tensor if key is None else key))
    dtype = tensor._dtype.base_dtype
    if dtype == dtypes.string:
        if isinstance(value, int):      # TF compares str(value) with the int: never equal
            raise TypeError("Type of feed value %s with type %s is not compatible with Tensor type %s. "
                            "Try explicitly setting the type of the feed tensor to a larger type (e.g. "
                            "int64)." % (value, type(value), object))
        from graphlab.framework.registry import to_numpy
        array = to_numpy(value, dtypes.string)
    else:
        np_type = dtype.as_numpy_dtype
        if isinstance(value, int) and _changes_in(np_type, value):
            raise TypeError("Type of feed value %s with type %s is not compatible with Tensor type %s. "
                            "Try explicitly setting the type of the feed tensor to a larger type (e.g. "
                            "int64)." % (value, type(value), np_type))
        array = _as_feed_array(value, np_type)
    if not tensor._shape.is_compatible_with(array.shape):
        raise ValueError("Cannot feed value of shape %r for Tensor %s, which has shape %s" %
                         (array.shape, tensor.name, tensor._shape))
    return array


def _changes_in(np_type, value):
    """TF's feed check for a Python int: does it come back different once held in the tensor's type (an
    int16 overflowing, a float32 rounding 2**24 + 1)? Bools, being ints, pass for every numeric type."""
    with np.errstate(over="ignore", invalid="ignore"):
        return np_type(np.array(value).astype(np_type)) != value


def _as_feed_array(value, np_type):
    """A fed value converted as TF's session converts it: numeric types through numpy's own array of the
    value and then a cast (so a string fed to a float tensor raises numpy's "could not convert string to float:
    np.str_('text')", and a list of too-large ints wraps as TF's does), other types directly."""
    if np.issubdtype(np_type, np.number):
        return np.asarray(value).astype(np_type, copy=False)   # an array of the right type is TF's feed as is
    return np.asarray(value, dtype=np_type)
