"""``tf.keras.layers.Layer`` with tf-keras's v1 graph-mode rules (base_layer_v1).

A layer is named once, per graph (``dense``, ``dense_1``, ...). Each call opens a fresh name scope of that
name (a second call of the same layer builds ``dense_1/MatMul``, as in TF), builds the layer's weights in it
on the first call (``dense/kernel``), and, when its inputs came from Keras layers, records a Node so a
functional model can find it. Weights are made by the backend's ``make_variable`` (resource variables, as
tf-keras makes them); a weight's regularizer is built each time ``losses`` is read, under
``<weight>/Regularizer``. When ``training`` is not passed, a layer that takes it gets the value of the
calling model or of ``set_learning_phase``; otherwise the layer asks ``K.learning_phase()`` itself.
"""
import inspect
import threading

import numpy as np

from graphlab.framework import dtypes, nest, tensor_shape
from graphlab.framework import graph as graph_mod
from graphlab.framework.registry import convert_to_tensor
from graphlab.keras import backend
from graphlab.keras import constraints as constraints_mod
from graphlab.keras import initializers as initializers_mod
from graphlab.keras import regularizers as regularizers_mod
from graphlab.keras.backend import session as backend_session
from graphlab.keras.engine import input_spec as input_spec_mod
from graphlab.keras.engine import node as node_mod
from graphlab.keras.utils import generic_utils
from graphlab.ops import array_ops, init_ops, math_ops

_ALLOWED_KWARGS = {"input_dim", "input_shape", "batch_input_shape", "batch_size", "weights",
                   "activity_regularizer", "autocast", "implementation", "dynamic"}


class _CallContext(threading.local):
    """The layers being called (outermost first) and the training value they were given."""

    def __init__(self):
        self.stack = []


_CALL_CONTEXT = _CallContext()


def call_context_training():
    for _, training in reversed(_CALL_CONTEXT.stack):
        if training is not None:
            return training
    return None


def in_call():
    return bool(_CALL_CONTEXT.stack)


class Layer:
    """Base of every Keras layer and model: subclasses create weights in ``build(input_shape)`` with
    ``add_weight`` and compute outputs in ``call(inputs, ...)``."""

    def __init__(self, trainable=True, name=None, dtype=None, dynamic=False, **kwargs):
        for key in kwargs:
            if key not in _ALLOWED_KWARGS:
                raise TypeError("Keyword argument not understood:", key)
        self._trainable = trainable
        self.built = False
        self._stateful = False
        self.supports_masking = False
        self._dynamic = dynamic
        self._input_spec = None
        self._trainable_weights, self._non_trainable_weights = [], []
        self._updates, self._losses, self._callable_losses = [], [], []
        self._inbound_nodes, self._outbound_nodes = [], []
        self._self_tracked_layers = []
        self._dtype = None if dtype is None else dtypes.as_dtype(dtype).base_dtype.name
        self._init_set_name(name)
        self._activity_regularizer = regularizers_mod.get(kwargs.pop("activity_regularizer", None))
        if "input_dim" in kwargs and "input_shape" not in kwargs:
            kwargs["input_shape"] = (kwargs["input_dim"],)
        if "input_shape" in kwargs or "batch_input_shape" in kwargs:
            if "batch_input_shape" in kwargs:
                batch_input_shape = tuple(kwargs["batch_input_shape"])
            else:
                batch_input_shape = (kwargs.get("batch_size"),) + tuple(kwargs["input_shape"])
            self._batch_input_shape = batch_input_shape
        self._initial_weights = kwargs.get("weights")
        self._build_input_shape = None
        self._call_arg_names = _argument_names(self.call)
        self._expects_training_arg = "training" in self._call_arg_names
        self._expects_mask_arg = "mask" in self._call_arg_names

    def _init_set_name(self, name, zero_based=True):
        if not name:
            self._name = backend.unique_object_name(generic_utils.to_snake_case(type(self).__name__),
                                                    zero_based=zero_based)
        elif isinstance(name, str):
            self._name = name
        else:
            raise TypeError("Expected `name` argument to be a string, but got: %s" % (name,))

    # ------------------------------------------------------------------------------- tracking layers
    def __setattr__(self, name, value):
        if not name.startswith("_") or name in ("_layers",):
            tracked = self.__dict__.get("_self_tracked_layers")
            if tracked is not None:
                for item in (value if isinstance(value, (list, tuple)) else [value]):
                    if isinstance(item, Layer) and item is not self and not any(item is t for t in tracked):
                        tracked.append(item)
        object.__setattr__(self, name, value)

    def _flatten_layers(self, include_self=True, recursive=True):
        """This layer and the layers it holds, depth first, each once."""
        seen, result = set(), []

        def visit(layer, top):
            if id(layer) in seen:
                return
            seen.add(id(layer))
            if include_self or not top:
                result.append(layer)
            if top or recursive:
                for child in layer._tracked_sublayers():
                    visit(child, False)
        visit(self, True)
        return result

    def _tracked_sublayers(self):
        return list(self._self_tracked_layers)

    # ------------------------------------------------------------------------------------ properties
    name = property(lambda self: self._name)
    dynamic = property(lambda self: self._dynamic)
    stateful = property(lambda self: self._stateful)

    @property
    def dtype(self):
        """The layer's variable dtype: given, or taken from its first input (float32 until then)."""
        return self._dtype

    @property
    def trainable(self):
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        for layer in self._flatten_layers():
            layer._trainable = value

    @property
    def input_spec(self):
        return self._input_spec

    @input_spec.setter
    def input_spec(self, value):
        for spec in nest.flatten(value):
            if spec is not None and not isinstance(spec, input_spec_mod.InputSpec):
                raise TypeError("Layer input_spec must be an instance of InputSpec. Got: %s" % (spec,))
        self._input_spec = value

    @property
    def trainable_weights(self):
        if not self.trainable:
            return []
        weights = list(self._trainable_weights)
        for layer in self._flatten_layers(include_self=False, recursive=False):
            weights += layer.trainable_weights
        return _dedup(weights)

    @property
    def non_trainable_weights(self):
        if self.trainable:
            weights = list(self._non_trainable_weights)
            for layer in self._flatten_layers(include_self=False, recursive=False):
                weights += layer.non_trainable_weights
        else:
            weights = list(self._trainable_weights) + list(self._non_trainable_weights)
            for layer in self._flatten_layers(include_self=False, recursive=False):
                weights += layer.weights
        return _dedup(weights)

    @property
    def weights(self):
        return _dedup(self.trainable_weights + self.non_trainable_weights)

    trainable_variables = property(lambda self: self.trainable_weights)
    non_trainable_variables = property(lambda self: self.non_trainable_weights)
    variables = property(lambda self: self.weights)

    @property
    def updates(self):
        """Update ops of this layer and the layers it holds (batch normalization's moving averages)."""
        result = []
        for layer in self._flatten_layers():
            if not layer.trainable and not layer.stateful:
                continue
            for update in layer._updates:
                result.append(update() if callable(update) and not hasattr(update, "op") else update)
        return result

    @property
    def losses(self):
        """Losses added with ``add_loss`` and the weights' regularization penalties (built on each read,
        under ``<weight>/Regularizer``)."""
        collected = []
        for layer in self._flatten_layers():
            collected.extend(layer._losses)
            for make_loss in layer._callable_losses:
                loss = make_loss()
                if loss is not None:
                    collected.append(loss)
        return collected

    @property
    def activity_regularizer(self):
        return self._activity_regularizer

    @activity_regularizer.setter
    def activity_regularizer(self, regularizer):
        self._activity_regularizer = regularizer

    # ------------------------------------------------------------------------------ nodes and shapes
    def _single_node_attribute(self, attribute, what):
        if not self._inbound_nodes:
            raise AttributeError("Layer %s is not connected, no input to return." % self.name
                                 if what == "input" else "Layer %s has no inbound nodes." % self.name)
        if len(self._inbound_nodes) > 1:
            raise AttributeError('Layer %s has multiple inbound nodes, hence the notion of "layer %s" is '
                                 'ill-defined. Use `get_%s_at(node_index)` instead.' % (self.name, what, what))
        return getattr(self._inbound_nodes[0], attribute)

    @property
    def input(self):
        return self._single_node_attribute("input_tensors", "input")

    @property
    def output(self):
        return self._single_node_attribute("output_tensors", "output")

    def get_input_at(self, node_index):
        return self._inbound_nodes[node_index].input_tensors

    def get_output_at(self, node_index):
        return self._inbound_nodes[node_index].output_tensors

    @property
    def input_shape(self):
        if not self._inbound_nodes:
            raise AttributeError('The layer "%s" has never been called and thus has no defined input shape. '
                                 'Note that the `input_shape` property is only available for Functional and '
                                 'Sequential models.' % self.name)
        shapes = {str(node.input_shapes) for node in self._inbound_nodes}
        if len(shapes) == 1:
            return self._inbound_nodes[0].input_shapes
        raise AttributeError('The layer "%s" has multiple inbound nodes, with different input shapes. Hence the '
                             'notion of "input shape" is ill-defined for the layer. Use '
                             '`get_input_shape_at(node_index)` instead.' % self.name)

    @property
    def output_shape(self):
        if not self._inbound_nodes:
            raise AttributeError("The layer has never been called and thus has no defined output shape.")
        shapes = {str(node.output_shapes) for node in self._inbound_nodes}
        if len(shapes) == 1:
            return self._inbound_nodes[0].output_shapes
        raise AttributeError('The layer "%s" has multiple inbound nodes, with different output shapes. Hence '
                             'the notion of "output shape" is ill-defined for the layer. Use '
                             '`get_output_shape_at(node_index)` instead.' % self.name)

    # ---------------------------------------------------------------------------------- subclass API
    def build(self, input_shape):
        self._build_input_shape = input_shape
        self.built = True

    build._is_default = True

    def call(self, inputs, *args, **kwargs):
        return inputs

    def compute_output_shape(self, input_shape):
        raise NotImplementedError("Please run in eager mode or implement the compute_output_shape method on "
                                  "your layer (%s)." % type(self).__name__)

    def compute_mask(self, inputs, mask=None):
        """The output's mask: the input's, for a layer that supports masking; None otherwise."""
        if not self.supports_masking:
            if any(m is not None for m in nest.flatten(mask)):
                raise TypeError("Layer " + self.name + " does not support masking, but was passed an input_mask: "
                                + str(mask))
            return None
        return mask

    def _set_mask_metadata(self, inputs, outputs, previous_mask):
        """Remember the outputs' masks (a functional model's come from its layers)."""
        if getattr(self, "_compute_output_and_mask_jointly", False):
            return
        flat_outputs = nest.flatten(outputs)
        if all(node_mod.keras_mask(t) is not None for t in flat_outputs):
            return                  # call() computed them with the outputs (Masking)
        if self.supports_masking or type(self).compute_mask is not Layer.compute_mask:
            masks = self.compute_mask(inputs, previous_mask)
            flat_masks = [None] * len(flat_outputs) if masks is None else nest.flatten(masks)
        else:
            flat_masks = [None] * len(flat_outputs)
        for output, mask in zip(flat_outputs, flat_masks):
            node_mod.set_keras_mask(output, mask)

    def add_weight(self, name=None, shape=None, dtype=None, initializer=None, regularizer=None,
                   trainable=None, constraint=None, partitioner=None, use_resource=None,
                   synchronization=None, aggregation=None, **kwargs):
        """A weight variable ``name`` in the current name scope (the layer's, while it builds), tracked as
        trainable or not; its regularizer becomes a loss of the layer."""
        for key in kwargs:
            if key not in ("getter", "collections", "experimental_autocast", "caching_device"):
                raise TypeError("Unknown keyword argument:", key)
        shape = () if shape is None else shape
        dtype = dtypes.as_dtype(dtype or self.dtype or backend.floatx())
        if self._dtype is None:      # a layer whose dtype was to be inferred takes its first weight's
            self._dtype = dtype.base_dtype.name
        initializer = initializers_mod.get(initializer)
        regularizer = regularizers_mod.get(regularizer)
        constraint = constraints_mod.get(constraint)
        if trainable is None:
            trainable = True
        if initializer is None:
            if dtype.is_floating:
                initializer = initializers_mod.get("glorot_uniform")
            elif dtype.is_integer or dtype.is_unsigned or dtype.is_bool:
                initializer = init_ops.Zeros()
            else:
                raise ValueError("An initializer for variable %s of type %s is required for layer %s"
                                 % (name, dtype.base_dtype, self.name))
        collections = kwargs.get("collections")
        if collections is None and not trainable:
            collections = [graph_mod.GraphKeys.GLOBAL_VARIABLES]
        variable = backend.make_variable(name, shape=shape, dtype=dtype, initializer=initializer,
                                         trainable=trainable, constraint=constraint, collections=collections)
        if regularizer is not None:
            self._handle_weight_regularization(variable.name[:variable.name.find(":")], variable, regularizer)
        (self._trainable_weights if trainable else self._non_trainable_weights).append(variable)
        return variable

    def _handle_weight_regularization(self, name, variable, regularizer):
        def loss_for_variable():
            with graph_mod.name_scope(name + "/Regularizer"):
                return regularizer(variable)
        self._callable_losses.append(loss_for_variable)

    def add_loss(self, losses, inputs=None):
        """Tensors (or functions making them) added to the model's loss."""
        for loss in nest.flatten(losses):
            if callable(loss) and not hasattr(loss, "op"):
                self._callable_losses.append(loss)
            elif loss is not None:
                if not hasattr(loss, "op"):
                    loss = convert_to_tensor(loss, dtype=backend.floatx())
                self._losses.append(loss)

    def add_update(self, updates, inputs=None):
        """Ops (or functions making them) run with each training step."""
        for update in nest.flatten(updates):
            if hasattr(update, "op") and hasattr(update, "value_index"):
                update = update.op
            self._updates.append(update)

    def get_weights(self):
        """The weights' values as numpy arrays, read in Keras's session."""
        return backend.batch_get_value(self.weights)

    def set_weights(self, weights):
        """Assign numpy values to the weights, in the order of ``weights``, checking count and shapes."""
        params = self.weights
        if len(params) != len(weights):
            raise ValueError('You called `set_weights(weights)` on layer "%s" with a weight list of length %d, '
                             'but the layer was expecting %d weights. Provided weights: %s...'
                             % (self.name, len(weights), len(params), str(weights)[:50]))
        pairs = []
        for param, value in zip(params, weights):
            value = np.asarray(value)
            expected = tuple(param.shape.as_list())
            if expected != value.shape:
                raise ValueError("Layer weight shape %s not compatible with provided weight shape %s"
                                 % (expected, value.shape))
            pairs.append((param, value))
        backend.batch_set_value(pairs)

    def count_params(self):
        if not self.built:
            if type(self).__name__ == "InputLayer":
                self.built = True
            else:
                raise ValueError("You tried to call `count_params` on %s, but the layer isn't built. You "
                                 "can build it manually via: `%s.build(batch_input_shape)`." % (self.name, self.name))
        return _count_params(self.weights)

    def get_config(self):
        config = {"name": self.name, "trainable": self.trainable}
        if hasattr(self, "_batch_input_shape"):
            config["batch_input_shape"] = self._batch_input_shape
        config["dtype"] = self.dtype
        return config

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    # ------------------------------------------------------------------------------------- __call__
    def _name_scope(self):
        return self.name

    def __call__(self, *args, **kwargs):
        if args:
            inputs, args = args[0], args[1:]
        elif self._call_arg_names and self._call_arg_names[0] in kwargs:
            inputs = kwargs.pop(self._call_arg_names[0])
        else:
            raise ValueError("The first argument to `Layer.call` must always be passed.")
        inputs = nest.map_structure(
            lambda x: convert_to_tensor(x) if isinstance(x, (np.ndarray, float, int)) else x, inputs)
        training = kwargs.get("training")
        if "training" in kwargs and not self._expects_training_arg:
            kwargs.pop("training")
        framework_training = False
        if training is None:
            training = call_context_training()
            if training is None:
                phase = backend_session._LEARNING_PHASES.get(backend.get_graph())
                if isinstance(phase, int):
                    training = phase
            if self._expects_training_arg and training is not None:
                kwargs["training"] = bool(training) if isinstance(training, (int, bool)) else training
                framework_training = True
        from graphlab.keras.engine import op_layer     # op layers are Layers: imported once both exist
        if op_layer.needs_keras_history(inputs):
            op_layer.create_keras_history(inputs)
        input_masks = _collect_masks(inputs)
        mask_by_framework = False
        if self._expects_mask_arg and input_masks is not None and kwargs.get("mask") is None:
            kwargs["mask"] = input_masks
            mask_by_framework = True
        record = node_mod.have_all_keras_history(inputs)     # inside another layer's call too, as v1 Keras
        input_spec_mod.assert_input_compatibility(self.input_spec, inputs, self.name)
        _CALL_CONTEXT.stack.append((self, training))
        try:
            with graph_mod.name_scope(self._name_scope()):
                self._maybe_build(inputs)
                outputs = self.call(inputs, *args, **kwargs)
                if outputs is None:
                    raise ValueError("A layer's `call` method should return a Tensor or a list of Tensors, not "
                                     "None (layer: " + self.name + ").")
                if record:
                    if framework_training:
                        kwargs.pop("training", None)
                    if mask_by_framework:
                        kwargs.pop("mask", None)
                    outputs = self._set_connectivity_metadata((inputs,) + tuple(args), kwargs, outputs)
                self._handle_activity_regularization(inputs, outputs)
                self._set_mask_metadata(inputs, outputs, input_masks)
                if hasattr(self, "_set_inputs") and not getattr(self, "inputs", None):
                    self._set_inputs(inputs, outputs)
        finally:
            _CALL_CONTEXT.stack.pop()
        return outputs

    def _maybe_build(self, inputs):
        if self.built:
            return
        flat = nest.flatten(inputs)
        if self._dtype is None and flat and hasattr(flat[0], "dtype"):
            try:
                self._dtype = flat[0].dtype.base_dtype.name
            except AttributeError:
                pass
        input_shapes = None
        if all(hasattr(x, "shape") for x in flat):
            input_shapes = nest.map_structure(lambda x: x.shape, inputs)
        if not getattr(self.build, "_is_default", False):
            self.build(input_shapes)
        Layer.build(self, input_shapes)
        if self._initial_weights is not None:
            self.set_weights(self._initial_weights)
            self._initial_weights = None

    def _set_connectivity_metadata(self, args, kwargs, outputs):
        """Record this call as a Node; outputs that are inputs unchanged are copied first (Identity) so each
        tensor has one history."""
        input_ids = {id(t) for t in nest.flatten(args[0])}

        def copy(t):
            with graph_mod.name_scope(self.name):     # inside the layer's own scope again, as tf-keras
                return _identity(t)
        outputs = nest.map_structure(lambda t: copy(t) if id(t) in input_ids else t, outputs)
        node_mod.Node(self, call_args=args, call_kwargs=kwargs, outputs=outputs)
        return outputs

    def _handle_activity_regularization(self, inputs, outputs):
        if self._activity_regularizer:
            with graph_mod.name_scope("ActivityRegularizer"):
                for output in nest.flatten(outputs):
                    loss = self._activity_regularizer(output)
                    batch = math_ops.cast(array_ops.shape(output)[0], loss.dtype)
                    self.add_loss(loss / batch)

    def __repr__(self):
        return "<%s.%s object at 0x%x>" % (type(self).__module__, type(self).__name__, id(self))


def _collect_masks(inputs):
    """The inputs' masks in the inputs' structure, or None when none has one."""
    flat = nest.flatten(inputs)
    masks = [node_mod.keras_mask(t) for t in flat]
    if all(m is None for m in masks):
        return None
    return masks[0] if len(flat) == 1 and not isinstance(inputs, (list, tuple)) else masks


def _identity(tensor):
    return array_ops.identity(tensor)


def _argument_names(fn):
    try:
        return [name for name, p in inspect.signature(fn).parameters.items()
                if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    except (TypeError, ValueError):
        return []


def _dedup(weights):
    seen, result = set(), []
    for w in weights:
        if id(w) not in seen:
            seen.add(id(w))
            result.append(w)
    return result


def _count_params(weights):
    total = 0
    for w in _dedup(weights):
        dims = [0 if d is None else d for d in tensor_shape.as_shape(w.shape).as_list()]
        total += int(np.prod(dims))
    return total
