"""TF ops between Keras layers (``inputs / 255.0``, ``tf.nn.relu(x)``, ``-x``): Keras wraps each such op,
when a layer or model meets its output, in a ``TensorFlowOpLayer`` named ``tf_op_layer_<op name>``, so a
functional model can include it and rebuild it on new inputs. Inputs of the op that do not come from Keras
tensors are evaluated once (in Keras's session, as tf-keras does) and kept as constants.
"""
import weakref

from graphlab.framework import nest
from graphlab.framework.registry import build_op, constant
from graphlab.keras import backend
from graphlab.keras.engine import node as node_mod
from graphlab.keras.engine.base_layer import Layer, in_call

_CHECKED = weakref.WeakKeyDictionary()   # tensors known not to depend on any Keras tensor


class TensorFlowOpLayer(Layer):
    """One TF op as a layer: called on new tensors, it builds the same op type with the same attributes."""

    def __init__(self, op, constants=None, name=None, trainable=True, dtype=None):
        super().__init__(name="tf_op_layer_" + name, trainable=trainable, dtype=dtype)
        self._op_type = op.type
        self._op_name = op.name.split("/")[-1]
        self._op_attrs = {k: v for k, v in op._attrs.items() if not k.startswith("_")}
        self._input_names = [t.name[:-2] if t.name.endswith(":0") else t.name for t in op.inputs]
        self.constants = dict(constants or {})
        self.built = True

    def call(self, inputs):
        flat = list(nest.flatten(inputs))
        for index in sorted(self.constants):
            flat.insert(index, constant(self.constants[index], name=self._input_names[index]))
        try:
            op = build_op(self._op_type, flat, attrs=dict(self._op_attrs), name=self._op_name)
        except Exception as error:   # an op whose inputs are grouped (lists) or otherwise special
            raise ValueError("graphlab cannot rebuild the TF op %s (%s) of %s on new inputs: wrap the "
                             "computation in a tf.keras.layers.Lambda layer instead (%s)"
                             % (self._op_name, self._op_type, self.name, error)) from error
        return op.outputs[0] if len(op.outputs) == 1 else list(op.outputs)

    def get_config(self):
        config = super().get_config()
        config.update({"node_def": {"name": self._op_name, "op": self._op_type}, "constants": self.constants})
        return config


def uses_keras_history(tensors):
    """Whether any tensor in ``tensors``, or any tensor they were computed from, came from a Keras layer.
    Tensors found not to are remembered (a tensor's past does not change), so the walk is done once."""
    visited, to_check = [], [t for t in nest.flatten(tensors) if hasattr(t, "op")]
    seen = set()
    while to_check:
        following = []
        for tensor in to_check:
            if id(tensor) in seen or _CHECKED.get(tensor):
                continue
            seen.add(id(tensor))
            visited.append(tensor)
            if node_mod.keras_history(tensor) is not None:
                return True
            following.extend(tensor.op.inputs)
        to_check = following
    for tensor in visited:
        _CHECKED[tensor] = True
    return False


def needs_keras_history(tensors, ignore_call_context=False):
    """Inputs computed by TF ops from Keras tensors, outside any layer's call: they need op layers."""
    if in_call() and not ignore_call_context:
        return False
    flat = [t for t in nest.flatten(tensors) if hasattr(t, "op")]
    if all(node_mod.keras_history(t) is not None for t in flat):
        return False
    return uses_keras_history(flat)


def create_keras_history(tensors, processed=None, created=None):
    """Wrap the ops between Keras tensors and ``tensors`` in TensorFlowOpLayers; return the new layers."""
    processed = set() if processed is None else processed
    created = [] if created is None else created
    for tensor in nest.flatten(tensors):
        if not hasattr(tensor, "op") or node_mod.keras_history(tensor) is not None:
            continue
        op = tensor.op
        if id(op) in processed:
            continue
        constants, layer_inputs = {}, []
        for i, op_input in enumerate(op.inputs):
            if uses_keras_history(op_input):
                layer_inputs.append(op_input)
            else:
                constants[i] = backend.function([], op_input)([])
        layer_inputs = layer_inputs[0] if len(layer_inputs) == 1 else layer_inputs
        create_keras_history(layer_inputs, processed, created)
        layer = TensorFlowOpLayer(op, constants=constants, name=op.name)
        created.append(layer)
        node_mod.Node(layer, call_args=(layer_inputs,), outputs=list(op.outputs))
        processed.add(id(op))
    return created
