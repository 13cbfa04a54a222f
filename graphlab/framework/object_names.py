"""Names of layers and cells counted per graph, one counter for all of them, as TensorFlow keeps one (tf-keras'
PER_GRAPH_OBJECT_NAME_UIDS, used by tf.keras layers, tf.layers and tf.nn.rnn_cell alike): after an unnamed
``tf.layers.Dense`` (``dense_1``), an unnamed ``tf.keras.layers.Dense`` is ``dense_1`` too (Keras counts from
zero: dense, dense_1, ...), and the next ``tf.layers.Dense`` is ``dense_3``."""
import weakref

from graphlab.framework import graph as graph_mod

_UIDS = weakref.WeakKeyDictionary()


def get_uid(prefix, graph=None):
    """1, 2, 3, ... for ``prefix`` in ``graph`` (the default graph)."""
    graph = graph or graph_mod.get_default_graph()
    counts = _UIDS.setdefault(graph, {})
    counts[prefix] = counts.get(prefix, 0) + 1
    return counts[prefix]


def reset(graph=None):
    """Count every prefix from the start again (tf.keras.backend.clear_session / reset_uids)."""
    _UIDS.pop(graph or graph_mod.get_default_graph(), None)


def unique_object_name(base_name, zero_based=False):
    """``base_1``, ``base_2``, ... or, zero-based (Keras layers), ``base``, ``base_1``, ..."""
    number = get_uid(base_name)
    if zero_based:
        number -= 1
        return base_name if number == 0 else "%s_%d" % (base_name, number)
    return "%s_%d" % (base_name, number)
