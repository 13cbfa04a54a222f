"""``tf.keras.Model``: a functional model (a graph of layer calls from Input tensors to outputs) or a
subclassed one (``call`` written by the user, its layers found from its attributes).

A functional model finds its layers by walking the Keras history back from its outputs, orders them by
depth as Keras does (``model.layers``, the rows of ``summary()``), and, called on new tensors, calls each
layer again in that order under its own name scope. Compile, fit and saving come from the mixins.
"""
import collections

from graphlab.framework import nest, tensor_shape
from graphlab.keras import backend
from graphlab.keras.engine import node as node_mod
from graphlab.keras.engine.base_layer import Layer
from graphlab.keras.engine.input_layer import InputLayer
from graphlab.keras.engine.training import TrainingMixin
from graphlab.keras.saving.model_methods import SavingMixin
from graphlab.keras.utils import layer_utils


class Model(TrainingMixin, SavingMixin, Layer):
    """``Model(inputs, outputs)``: a functional model; ``class M(Model)`` with ``call``: a subclassed one."""

    def __init__(self, *args, **kwargs):
        inputs = kwargs.pop("inputs", args[0] if len(args) > 0 else None)
        outputs = kwargs.pop("outputs", args[1] if len(args) > 1 else None)
        name = kwargs.pop("name", None)
        trainable = kwargs.pop("trainable", True)
        Layer.__init__(self, name=name, trainable=trainable, **{k: v for k, v in kwargs.items()
                                                                  if k in ("dtype", "dynamic")})
        self._is_graph_network = False
        self.inputs, self.outputs = [], []
        self._layers = []
        self._nodes_by_depth = {}
        self._network_nodes = set()
        if inputs is not None and outputs is not None:
            self._init_graph_network(inputs, outputs)

    # ------------------------------------------------------------------------------ graph network
    def _init_graph_network(self, inputs, outputs):
        if isinstance(inputs, list) and len(nest.flatten(inputs)) == 1:
            inputs = inputs[0]
        if isinstance(outputs, list) and len(nest.flatten(outputs)) == 1:
            outputs = outputs[0]
        self._nested_inputs, self._nested_outputs = inputs, outputs
        self.inputs = list(nest.flatten(inputs))
        self.outputs = list(nest.flatten(outputs))
        if any(node_mod.keras_history(t) is None for t in self.outputs):
            from graphlab.keras.engine import op_layer
            op_layer.create_keras_history(self._nested_outputs)
        for tensor in self.inputs + self.outputs:
            if node_mod.keras_history(tensor) is None:
                raise ValueError("Output tensors of a Functional model must be the output of a TensorFlow "
                                 "`Layer` (thus holding past layer metadata). Found: %s" % (tensor,)
                                 if any(tensor is o for o in self.outputs) else
                                 "Input tensors to a Functional must come from `tf.keras.Input`. Received: %s "
                                 "(missing previous layer metadata)." % (tensor,))
        self._is_graph_network = True
        self._compute_output_and_mask_jointly = True
        self.built = True
        self._input_layers = [node_mod.keras_history(t).layer for t in self.inputs]
        self._output_layers = [node_mod.keras_history(t).layer for t in self.outputs]
        nodes, nodes_by_depth, layers, _ = _map_graph_network(self.inputs, self.outputs)
        self._network_nodes, self._nodes_by_depth, self._layers = nodes, nodes_by_depth, layers
        self._self_tracked_layers = list(layers)
        self.input_names = [layer.name for layer in self._input_layers]
        self.output_names = [layer.name for layer in self._output_layers]

    @property
    def input(self):
        if self._is_graph_network:
            return self._nested_inputs
        return Layer.input.fget(self)

    @property
    def output(self):
        if self._is_graph_network:
            return self._nested_outputs
        return Layer.output.fget(self)

    @property
    def layers(self):
        return [layer for layer in self._flatten_layers(include_self=False, recursive=False)]

    def _tracked_sublayers(self):
        if self._is_graph_network:
            return list(self._layers)
        return list(self._self_tracked_layers)

    def get_layer(self, name=None, index=None):
        if index is not None and name is not None:
            raise ValueError("Provide only a layer name or a layer index. Received: index=%s, name=%s."
                             % (index, name))
        if index is not None:
            if len(self.layers) <= index:
                raise ValueError("Was asked to retrieve layer at index %s but model only has %d layers."
                                 % (index, len(self.layers)))
            return self.layers[index]
        if name is not None:
            for layer in self.layers:
                if layer.name == name:
                    return layer
            raise ValueError("No such layer: %s. Existing layers are: %s." % (name, [l.name for l in self.layers]))
        raise ValueError("Provide either a layer name or layer index at `get_layer`.")

    @property
    def input_shape(self):
        if self._is_graph_network:
            from graphlab.keras.backend import int_shape
            shapes = [int_shape(t) for t in self.inputs]
            return shapes[0] if len(shapes) == 1 else shapes
        return Layer.input_shape.fget(self)

    @property
    def output_shape(self):
        if self._is_graph_network:
            from graphlab.keras.backend import int_shape
            shapes = [int_shape(t) for t in self.outputs]
            return shapes[0] if len(shapes) == 1 else shapes
        return Layer.output_shape.fget(self)

    @property
    def state_updates(self):
        return [u for layer in self.layers if getattr(layer, "stateful", False) for u in layer.updates]

    # ---------------------------------------------------------------------------------------- call
    def call(self, inputs, training=None, mask=None):
        if not self._is_graph_network:
            raise NotImplementedError("Unimplemented `tf.keras.Model.call()`: if you intend to create a `Model` "
                                      "with the Functional API, please provide `inputs` and `outputs` arguments. "
                                      "Otherwise, subclass `Model` with an overridden `call()` method.")
        return self._run_internal_graph(inputs, training=training)

    def _run_internal_graph(self, inputs, training=None):
        """Call every layer of the graph again, in depth order, on the tensors computed for its inputs."""
        computed = {}
        for original, given in zip(self.inputs, nest.flatten(inputs)):
            computed[id(original)] = given
        for depth in sorted(self._nodes_by_depth, reverse=True):
            for node in self._nodes_by_depth[depth]:
                if node.is_input:
                    continue
                if any(id(t) not in computed for t in node.keras_inputs):
                    continue
                args, kwargs = node.map_arguments(computed)
                if training is not None and node.layer._expects_training_arg and "training" not in kwargs:
                    kwargs["training"] = training
                outputs = node.layer(*args, **kwargs)
                for original, new in zip(nest.flatten(node.outputs), nest.flatten(outputs)):
                    computed[id(original)] = new
        results = [computed[id(t)] for t in self.outputs]
        return nest.pack_sequence_as(self._nested_outputs, results)

    def _set_inputs(self, inputs, outputs):
        """A subclassed model remembers the tensors of its first call."""
        if not self._is_graph_network:
            self.inputs = list(nest.flatten(inputs))
            self.outputs = list(nest.flatten(outputs))

    def build(self, input_shape):
        """Build a subclassed model by calling it on placeholders of ``input_shape``."""
        if self._is_graph_network:
            self.built = True
            return
        if input_shape is None:
            raise ValueError("Input shape must be defined when calling `build()` on a `Model` subclass.")
        graph = backend.get_graph()
        with graph.as_default():
            if isinstance(input_shape, list) and all(isinstance(s, (tuple, list)) or s is None for s in input_shape):
                x = [backend.placeholder(shape=tuple(s), dtype=self.dtype or backend.floatx()) for s in input_shape]
            else:
                x = backend.placeholder(shape=tuple(tensor_shape.as_shape(input_shape).as_list()),
                                        dtype=self.dtype or backend.floatx())
            self(x)
        self.built = True

    build._is_default = True

    def summary(self, line_length=None, positions=None, print_fn=None, expand_nested=False,
                show_trainable=False, layer_range=None):
        """Print Keras's table of layers, output shapes and parameter counts."""
        if not self.built:
            raise ValueError("This model has not yet been built. Build the model first by calling `build()` "
                             "or by calling the model on a batch of data.")
        layer_utils.print_summary(self, line_length=line_length, positions=positions, print_fn=print_fn,
                                  expand_nested=expand_nested, show_trainable=show_trainable,
                                  layer_range=layer_range)

    def get_config(self):
        """Keras's functional config: each layer's config and the (layer, node, tensor) it was called on."""
        if not self._is_graph_network:
            raise NotImplementedError("A subclassed model's get_config is written by its author (tf-keras raises "
                                      "NotImplementedError too)")
        kept = set(self._network_nodes_list())
        node_index_in_config = {}
        for layer in self.layers:
            index = 0
            for original, node in enumerate(layer._inbound_nodes):
                if node in kept:
                    node_index_in_config[(id(layer), original)] = index
                    index += 1
        layer_configs = []
        for layer in self.layers:
            inbound = []
            for node in layer._inbound_nodes:
                if node not in kept or node.is_input:
                    continue
                inbound.append([[l.name, node_index_in_config.get((id(l), i), i), j, dict(node.call_kwargs)]
                                for l, i, j, _ in node.iterate_inbound()])
            layer_configs.append({"class_name": type(layer).__name__, "config": layer.get_config(),
                                  "name": layer.name, "inbound_nodes": inbound})

        def coordinates(tensors):
            result = []
            for t in tensors:
                history = node_mod.keras_history(t)
                result.append([history.layer.name,
                               node_index_in_config.get((id(history.layer), history.node_index), 0),
                               history.tensor_index])
            return result
        return {"name": self.name, "trainable": self.trainable, "layers": layer_configs,
                "input_layers": coordinates(self.inputs), "output_layers": coordinates(self.outputs)}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """Rebuild a functional model: make each layer from its config, then call it on the tensors its
        inbound nodes name, in the order the config lists them."""
        from graphlab.keras.layers.serialization import deserialize
        created, outputs_of = {}, {}
        pending = []
        for layer_config in config["layers"]:
            layer = deserialize(layer_config, custom_objects=custom_objects)
            created[layer_config["name"]] = layer
            if type(layer).__name__ == "InputLayer":
                outputs_of[layer.name] = [layer._inbound_nodes[0].outputs]
            pending.extend((layer, node) for node in layer_config["inbound_nodes"])
        while pending:
            progress, waiting = False, []
            for layer, node in pending:
                try:
                    args = [outputs_of[name][index] for name, index, _, _ in node]
                except (KeyError, IndexError):
                    waiting.append((layer, node))
                    continue
                tensors = [nest.flatten(a)[t] for a, (_, _, t, _) in zip(args, node)]
                kwargs = node[0][3] if node else {}
                output = layer(tensors[0] if len(tensors) == 1 else tensors, **kwargs)
                outputs_of.setdefault(layer.name, []).append(output)
                progress = True
            if not progress:
                raise ValueError("The model config names layers or nodes it does not define: %s"
                                 % [(l.name, n) for l, n in waiting])
            pending = waiting

        def tensors_at(coordinates):
            return [nest.flatten(outputs_of[name][index])[t] for name, index, t in coordinates]
        inputs, outputs = tensors_at(config["input_layers"]), tensors_at(config["output_layers"])
        return cls(inputs=inputs, outputs=outputs, name=config.get("name"))

    def _network_nodes_list(self):
        return [n for nodes in self._nodes_by_depth.values() for n in nodes]


def _map_graph_network(inputs, outputs):
    """Keras's ordering: nodes and layers by depth from the outputs (deepest first), ties in the order the
    walk from the outputs first met them; inputs the walk missed at depth 0."""
    nodes_in_decreasing_depth, layer_indices = [], {}
    finished, in_progress = set(), set()

    def visit(tensor):
        history = node_mod.keras_history(tensor)
        layer, node_index = history.layer, history.node_index
        node = layer._inbound_nodes[node_index]
        if node in finished:
            return
        if node in in_progress:
            raise ValueError("Tensor %s from layer \"%s\" is part of a cycle." % (tensor, layer.name))
        layer_indices.setdefault(layer, len(layer_indices))
        in_progress.add(node)
        if not node.is_input:
            for parent in node.keras_inputs:
                visit(parent)
        finished.add(node)
        in_progress.remove(node)
        nodes_in_decreasing_depth.append(node)

    for output in outputs:
        visit(output)
    nodes_depths, layers_depths = {}, {}
    for node in reversed(nodes_in_decreasing_depth):
        depth = nodes_depths.setdefault(node, 0)
        depth = max(depth, layers_depths.get(node.layer, 0))
        layers_depths[node.layer] = depth
        nodes_depths[node] = depth
        for parent in node.parent_nodes:
            nodes_depths[parent] = max(depth + 1, nodes_depths.get(parent, 0))
    network_nodes = set(nodes_in_decreasing_depth)
    for tensor in inputs:
        layer = node_mod.keras_history(tensor).layer
        if layer not in layers_depths:
            layers_depths[layer] = 0
            layer_indices[layer] = -1
            nodes_depths[layer._inbound_nodes[0]] = 0
            network_nodes.add(layer._inbound_nodes[0])
    nodes_by_depth = collections.defaultdict(list)
    for node, depth in nodes_depths.items():
        nodes_by_depth[depth].append(node)
    layers_by_depth = collections.defaultdict(list)
    for layer, depth in layers_depths.items():
        layers_by_depth[depth].append(layer)
    layers = []
    for depth in sorted(layers_by_depth, reverse=True):
        group = sorted(layers_by_depth[depth], key=lambda layer: layer_indices[layer])
        layers.extend(group)
    _check_computable(inputs, nodes_by_depth)
    return network_nodes, dict(nodes_by_depth), layers, dict(layers_by_depth)


def _check_computable(inputs, nodes_by_depth):
    computable = {id(t) for t in inputs}
    seen_layers = []
    for depth in sorted(nodes_by_depth, reverse=True):
        for node in nodes_by_depth[depth]:
            if node.is_input:
                continue
            for tensor in node.keras_inputs:
                if id(tensor) not in computable:
                    raise ValueError('Graph disconnected: cannot obtain value for tensor %s at layer "%s". The '
                                     'following previous layers were accessed without issue: %s'
                                     % (tensor, node.layer.name, seen_layers))
            for tensor in nest.flatten(node.outputs):
                computable.add(id(tensor))
            seen_layers.append(node.layer.name)


__all__ = ["Model", "InputLayer"]
