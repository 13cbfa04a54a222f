"""How a functional model remembers its graph of layers: every call of a layer on Keras tensors makes a
``Node`` (the layer, the tensors it took, the tensors it made), and each output tensor records which layer,
node and position made it (its Keras history). A model walks these back from its outputs to its inputs.

graphlab's tensors have fixed slots, so the history lives in a weak table beside them instead of on them.
"""
import collections
import weakref

from graphlab.framework import nest
from graphlab.keras.backend.variables import int_shape

KerasHistory = collections.namedtuple("KerasHistory", ["layer", "node_index", "tensor_index"])

_HISTORY = weakref.WeakKeyDictionary()


def keras_history(tensor):
    """The (layer, node_index, tensor_index) that made ``tensor``, or None for a tensor Keras did not make."""
    try:
        return _HISTORY.get(tensor)
    except TypeError:       # not weak-referenceable (numbers, arrays)
        return None


def set_keras_history(tensor, history):
    _HISTORY[tensor] = history


_MASKS = weakref.WeakKeyDictionary()


def keras_mask(tensor):
    """The mask a layer computed for ``tensor`` (which steps count), or None."""
    try:
        return _MASKS.get(tensor)
    except TypeError:
        return None


def set_keras_mask(tensor, mask):
    try:
        if mask is None:
            _MASKS.pop(tensor, None)
        else:
            _MASKS[tensor] = mask
    except TypeError:
        pass


def have_all_keras_history(tensors):
    flat = nest.flatten(tensors)
    return bool(flat) and all(keras_history(t) is not None for t in flat)


class Node:
    """One call of ``layer``: ``keras_inputs`` (tensors with a history) in, ``outputs`` out."""

    def __init__(self, layer, call_args=(), call_kwargs=None, outputs=None):
        self.layer = layer
        self.call_args = tuple(call_args)
        self.call_kwargs = dict(call_kwargs or {})
        self.is_input = not self.call_args and not self.call_kwargs
        self._flat_arguments = nest.flatten((self.call_args, self.call_kwargs))
        self.keras_inputs = [t for t in self._flat_arguments if keras_history(t) is not None]
        self.outputs = outputs
        self.parent_nodes = []
        for tensor in self.keras_inputs:
            history = keras_history(tensor)
            node = history.layer._inbound_nodes[history.node_index]
            self.parent_nodes.append(node)
            history.layer._outbound_nodes.append(self)
        node_index = len(layer._inbound_nodes)
        layer._inbound_nodes.append(self)
        for i, tensor in enumerate(nest.flatten(outputs)):
            set_keras_history(tensor, KerasHistory(layer, node_index, i))

    @property
    def input_tensors(self):
        if self.is_input:
            return self.outputs
        return self.call_args[0]

    @property
    def output_tensors(self):
        return self.outputs

    @property
    def input_shapes(self):
        return nest.map_structure(int_shape, self.input_tensors)

    @property
    def output_shapes(self):
        return nest.map_structure(int_shape, self.outputs)

    @property
    def inbound_layers(self):
        layers = [keras_history(t).layer for t in self.keras_inputs]
        return layers[0] if len(layers) == 1 else layers

    def iterate_inbound(self):
        """(layer, node_index, tensor_index, tensor) for each Keras tensor this call took."""
        for tensor in self.keras_inputs:
            history = keras_history(tensor)
            yield history.layer, history.node_index, history.tensor_index, tensor

    def map_arguments(self, tensor_dict):
        """The call's arguments with each Keras input replaced by the tensor computed for it now."""
        flat = [tensor_dict.get(id(t), t) if keras_history(t) is not None else t for t in self._flat_arguments]
        args, kwargs = nest.pack_sequence_as((self.call_args, self.call_kwargs), flat)
        return args, kwargs
