"""One engine-neutral view of a graph for the tools (lints, renderer, extension), with adapters.

What the tools read of an op is a small protocol, the one graphlab's own ``Operation`` already has:
``name``/``_name``, ``type``/``_type``, ``_inputs`` (tensors with ``_op``, ``_value_index``, ``_shape``,
``_dtype``, ``name``), ``_control_inputs``, ``_outputs``, ``_attrs`` (attr name -> Python value; a
``Const``'s ``value`` is a numpy array, a ``dtype`` has a ``name``), ``source_line`` (file, line, function of
the user's code that created it) and ``provenance`` (the extension's cell tag). A graph offers ``_ops`` (creation
order, append-only), ``get_operations()``, ``_get_operation_or_none(name)``, ``as_graph_element(name)`` and
``get_collection(key)``.

Adapters: a graphlab ``Graph`` is its own view (no copy: the per-cell cost stays flat); ``adapt(tf_graph)``
wraps a real TensorFlow ``tf.Graph`` (one ``TFGraph`` per graph, graphview/tf_adapter.py, kept in step with it
as ops are added, reading only the new ops); a ``GraphDef``, or a graphlab graph as it was after its first N
ops, becomes a graph of ``NodeView``s (graphview/nodes.py: ``from_graph_def``, ``from_graph``), which the
drawings use. Nothing here imports TensorFlow: a TF graph is only ever handed in by code that already
imported it. The lints, the renderer and the extension all read graphs through this one package.
"""
import sys

from graphlab.graphview.nodes import MIB, NodeView, TensorView, from_graph, from_graph_def, shape_label  # noqa: F401
from graphlab.graphview.tf_adapter import (TFGraph, TFOp, TFTensor, adapt, is_tf_graph,  # noqa: F401
                                           record_creation_lines, stop_recording)


def tf_module():
    """``tensorflow.compat.v1`` when the user's code imported TensorFlow, else None (never imports it)."""
    if "tensorflow" not in sys.modules:
        return None
    tf = sys.modules["tensorflow"]
    compat = getattr(getattr(tf, "compat", None), "v1", None)
    return compat if compat is not None else tf


def tf_default_graph():
    """The view of TF's default graph, or None when TensorFlow was not imported."""
    tf = tf_module()
    if tf is None:
        return None
    return adapt(tf.get_default_graph())
