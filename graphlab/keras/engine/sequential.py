"""``tf.keras.Sequential``: a functional model grown one layer at a time.

When the first layer knows its input shape (``input_shape=``), ``add`` makes an Input named
``<first layer>_input`` at once and calls each added layer on the previous output, so ops and variables
exist as soon as the layer is added. Without a shape the layers wait: the model is built by ``build(shape)``
or by its first call.
"""
from graphlab.framework import nest, tensor_shape
from graphlab.keras import backend
from graphlab.keras.engine import node as node_mod
from graphlab.keras.engine.functional import Model
from graphlab.keras.engine.input_layer import Input, InputLayer
from graphlab.keras.engine.base_layer import Layer


def _input_shape_and_dtype(layer):
    """The batch input shape a first layer declares; a model added first is asked for its first layer's."""
    while getattr(layer, "_is_graph_network", False) or type(layer).__name__ == "Sequential":
        if not layer.layers:
            raise ValueError("An empty Model cannot be used as a Layer.")
        layer = layer.layers[0]
    shape = getattr(layer, "_batch_input_shape", None)
    return (shape, layer.dtype) if shape is not None else (None, None)


class Sequential(Model):
    """A linear stack of layers."""

    def __init__(self, layers=None, name=None):
        Model.__init__(self, name=name)
        self._stack = []
        self._has_explicit_input_shape = False
        if layers:
            if not isinstance(layers, (list, tuple)):
                layers = [layers]
            for layer in layers:
                self.add(layer)

    @property
    def layers(self):
        """The added layers; an InputLayer at the bottom (made by Sequential or added) is left out, as Keras."""
        if self._stack and isinstance(self._stack[0], InputLayer):
            return list(self._stack[1:])
        return list(self._stack)

    def _tracked_sublayers(self):
        return list(self._stack)

    def add(self, layer):
        """Append ``layer``; call it on the current output when the model already has one."""
        if not isinstance(layer, Layer):
            raise TypeError("The added layer must be an instance of class Layer. Received: layer=%s of type %s."
                            % (layer, type(layer)))
        for existing in self._stack:
            if existing.name == layer.name and existing is not layer:
                raise ValueError('All layers added to a Sequential model should have unique names. Name "%s" is '
                                 'already the name of a layer in this model. Update the `name` argument to pass '
                                 'a unique name.' % layer.name)
        self.built = False
        set_inputs = False
        if not self._stack:
            if isinstance(layer, InputLayer):
                set_inputs = True
                self._stack.append(layer)
                self.outputs = [layer._inbound_nodes[-1].outputs[0]]
                self.inputs = list(self.outputs)
                self._has_explicit_input_shape = True
                self._init_sequential_network()
                return
            batch_shape, dtype = _input_shape_and_dtype(layer)
            if batch_shape is not None:
                x = Input(batch_shape=batch_shape, dtype=dtype, name=layer.name + "_input")
                self._stack.append(node_mod.keras_history(x).layer)
                self._stack.append(layer)
                output = layer(x)
                self._check_single(output)
                self.inputs, self.outputs = [x], [output]
                self._has_explicit_input_shape = True
                set_inputs = True
        elif self.outputs:
            self._stack.append(layer)
            output = layer(self.outputs[0])
            self._check_single(output)
            self.outputs = [output]
            set_inputs = True
        if not set_inputs:
            self._stack.append(layer)
            self._is_graph_network = False
            return
        self._init_sequential_network()

    def _check_single(self, output):
        if len(nest.flatten(output)) != 1:
            raise ValueError("All layers in a Sequential model should have a single output tensor. For "
                             "multi-output layers, use the functional API.")

    def _init_sequential_network(self):
        stack = self._stack
        self._init_graph_network(self.inputs, self.outputs)
        self._stack = stack

    def pop(self):
        """Remove the last layer (the model's output becomes the one before it)."""
        if not self.layers:
            raise TypeError("There are no layers in the model.")
        layer = self._stack.pop()
        if not self.layers:
            self.outputs, self.inputs = [], []
            self._stack = []
            self._is_graph_network = False
            self.built = False
        elif self._is_graph_network:
            layer._outbound_nodes = []
            self.outputs = [self._stack[-1]._inbound_nodes[-1].outputs
                            if not isinstance(self._stack[-1]._inbound_nodes[-1].outputs, list)
                            else self._stack[-1]._inbound_nodes[-1].outputs[0]]
            self._init_sequential_network()

    def build(self, input_shape=None):
        """Build a model whose first layer had no input shape: an Input of ``input_shape``, then each layer."""
        if self._is_graph_network:
            self.built = True
            return
        if input_shape is None:
            raise ValueError("You must provide an `input_shape` argument.")
        shape = tuple(tensor_shape.as_shape(input_shape).as_list())
        self._build_for_input(shape, self.dtype or backend.floatx())

    def _build_for_input(self, batch_shape, dtype):
        layers = [layer for layer in self._stack]
        x = Input(batch_shape=batch_shape, dtype=dtype, name=layers[0].name + "_input")
        input_layer = node_mod.keras_history(x).layer
        output = x
        for layer in layers:
            output = layer(output)
        self._stack = [input_layer] + layers
        self.inputs, self.outputs = [x], [output]
        self._init_sequential_network()

    def call(self, inputs, training=None, mask=None):
        if not self._is_graph_network:
            outputs = inputs
            for layer in self._stack:
                kwargs = {"training": training} if layer._expects_training_arg and training is not None else {}
                outputs = layer(outputs, **kwargs)
            return outputs
        return self._run_internal_graph(inputs, training=training)

    def get_config(self):
        layer_configs = [{"class_name": type(layer).__name__, "config": layer.get_config()}
                         for layer in self._stack]
        return {"name": self.name, "layers": layer_configs}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """A new Sequential model adding a new layer for each config in order."""
        from graphlab.keras.layers.serialization import deserialize
        model = cls(name=config.get("name"))
        for layer_config in config["layers"]:
            model.add(deserialize(layer_config, custom_objects=custom_objects))
        return model


Sequential.build._is_default = True
