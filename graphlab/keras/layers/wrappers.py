"""Keras's wrappers. TimeDistributed applies a layer to each time step. Bidirectional: two copies of a
recurrent layer made from its config (``forward_lstm`` and ``backward_lstm``, the second reading the sequence
backwards), built under the wrapper's scope and merged (concatenated by default) after the backward outputs
are put back in time order."""
from graphlab.framework import graph as graph_mod
from graphlab.framework import tensor_shape
from graphlab.keras import backend
from graphlab.keras.engine.base_layer import Layer
from graphlab.keras.engine.input_spec import InputSpec
from graphlab.ops import array_ops


class Wrapper(Layer):
    """A layer holding another layer."""

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError("Layer %s supplied to wrapper is not a supported layer type. Please ensure wrapped "
                             "layer is a valid TF-Keras layer." % (layer,))
        self.layer = layer
        super().__init__(**kwargs)

    def get_config(self):
        config = super().get_config()
        config["layer"] = {"class_name": type(self.layer).__name__, "config": self.layer.get_config()}
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from graphlab.keras.layers.serialization import deserialize
        config = dict(config)
        layer = deserialize(config.pop("layer"), custom_objects=custom_objects)
        return cls(layer, **config)


class Bidirectional(Wrapper):
    """Run a recurrent layer forwards and backwards over the sequence and merge the two results."""

    def __init__(self, layer, merge_mode="concat", weights=None, backward_layer=None, **kwargs):
        if merge_mode not in ("sum", "mul", "ave", "concat", None):
            raise ValueError('Invalid merge mode. Received: %s. Merge mode should be one of {"sum", "mul", "ave", '
                             '"concat", None}' % (merge_mode,))
        if weights or backward_layer is not None:
            raise NotImplementedError("graphlab's Bidirectional does not take weights= or backward_layer=")
        super().__init__(layer, **kwargs)
        self.forward_layer = self._recreate(layer)
        self.backward_layer = self._recreate(layer, go_backwards=True)
        self.forward_layer._name = "forward_" + self.forward_layer.name
        self.backward_layer._name = "backward_" + self.backward_layer.name
        for copy in (self.forward_layer, self.backward_layer):    # as tf-keras: masked steps give zeros
            copy.zero_output_for_mask = copy.return_sequences
        self.merge_mode = merge_mode
        self._stateful = layer.stateful
        self.return_sequences, self.return_state = layer.return_sequences, layer.return_state
        self.supports_masking = True
        self._trainable = kwargs.get("trainable", layer.trainable)
        self.input_spec = layer.input_spec

    @staticmethod
    def _recreate(layer, go_backwards=False):
        config = layer.get_config()
        if go_backwards:
            config["go_backwards"] = not config["go_backwards"]
        return type(layer).from_config(config)

    def _tracked_sublayers(self):
        return [self.forward_layer, self.backward_layer]

    def compute_mask(self, inputs, mask):
        if isinstance(mask, list):
            mask = mask[0]
        output_mask = mask if self.return_sequences else None
        if self.return_state:
            states = [None] * (len(self.forward_layer.states) * 2)
            return ([output_mask, output_mask] if self.merge_mode is None else [output_mask]) + states
        return [output_mask, output_mask] if self.merge_mode is None else output_mask

    def build(self, input_shape):
        with graph_mod.name_scope(self.forward_layer.name):
            self.forward_layer.build(input_shape)
        with graph_mod.name_scope(self.backward_layer.name):
            self.backward_layer.build(input_shape)
        self.built = True

    def call(self, inputs, training=None, mask=None, initial_state=None):
        forward_state = backward_state = None
        if initial_state is not None:
            half = len(initial_state) // 2
            forward_state, backward_state = initial_state[:half], initial_state[half:]
        y = self.forward_layer(inputs, training=training, mask=mask, initial_state=forward_state)
        y_rev = self.backward_layer(inputs, training=training, mask=mask, initial_state=backward_state)
        states = []
        if self.return_state:
            states = y[1:] + y_rev[1:]
            y, y_rev = y[0], y_rev[0]
        if self.return_sequences:
            y_rev = backend.reverse(y_rev, 0 if getattr(self.forward_layer, "time_major", False) else 1)
        if self.merge_mode == "concat":
            output = backend.concatenate([y, y_rev])
        elif self.merge_mode == "sum":
            output = y + y_rev
        elif self.merge_mode == "ave":
            output = (y + y_rev) / 2
        elif self.merge_mode == "mul":
            output = y * y_rev
        else:
            output = [y, y_rev]
        if self.return_state:
            return (output if self.merge_mode is None else [output]) + states
        return output

    def get_config(self):
        config = super().get_config()
        config["merge_mode"] = self.merge_mode
        return config


class TimeDistributed(Wrapper):
    """Apply a layer to every time step: without a known batch size, one call on the inputs reshaped to
    [-1, ...] and the result reshaped back; with one, ``K.rnn`` over the steps. The wrapped layer's weights
    are built in the wrapper's own scope (``time_distributed/kernel``), as tf-keras builds them."""

    def __init__(self, layer, **kwargs):
        super().__init__(layer, **kwargs)
        self.supports_masking = True
        # Keras's own layers always go through the reshape; a user's layer with a known batch size is run
        # step by step by K.rnn.
        self._always_use_reshape = type(layer).__module__.startswith("graphlab.keras.") and not layer.stateful

    def _tracked_sublayers(self):
        return [self.layer]

    def compute_mask(self, inputs, mask=None):
        """No masks here (graphlab's Keras does not propagate them); like tf-keras it reshapes the inputs
        for the inner layer's mask, so the graph has that Reshape too."""
        if backend.int_shape(inputs)[0] and not self._always_use_reshape:
            return mask
        inner = array_ops.reshape(inputs, self._shape_tuple((-1,), inputs, 2))
        return self.layer.compute_mask(inner, None)

    @staticmethod
    def _shape_tuple(init, tensor, start, int_shape=None):
        if int_shape is None:
            int_shape = backend.int_shape(tensor)[start:]
        int_shape = list(int_shape)
        if all(int_shape):
            return tuple(init) + tuple(int_shape)
        shape = array_ops.shape(tensor)
        for i, s in enumerate(int_shape):
            if not s:
                int_shape[i] = shape[start + i]
        return tuple(init) + tuple(int_shape)

    def build(self, input_shape):
        dims = tensor_shape.as_shape(input_shape).as_list()
        if len(dims) < 3:
            raise ValueError("`TimeDistributed` Layer should be passed an `input_shape ` with at least 3 "
                             "dimensions, received: %s" % (tensor_shape.as_shape(input_shape),))
        self.input_spec = InputSpec(shape=tuple([None] + dims[1:]))
        if not self.layer.built:
            self.layer.build(tensor_shape.TensorShape([dims[0]] + dims[2:]))
            self.layer.built = True
        self.built = True

    def compute_output_shape(self, input_shape):
        dims = tensor_shape.as_shape(input_shape).as_list()
        child = tensor_shape.as_shape(self.layer.compute_output_shape(
            tensor_shape.TensorShape([dims[0]] + dims[2:]))).as_list()
        return tensor_shape.TensorShape([child[0], dims[1]] + child[1:])

    def call(self, inputs, training=None, mask=None):
        kwargs = {"training": training} if self.layer._expects_training_arg else {}
        dims = backend.int_shape(inputs)
        if dims[0] and not self._always_use_reshape:
            def step(x, _):
                return self.layer(x, **kwargs), []
            _, outputs, _ = backend.rnn(step, inputs, initial_states=[], input_length=dims[1])
            return outputs
        input_length = dims[1]
        if not input_length:
            input_length = array_ops.shape(inputs)[1]
        reshaped = array_ops.reshape(inputs, self._shape_tuple((-1,), inputs, 2))
        y = self.layer(reshaped, **kwargs)
        output_shape = self.compute_output_shape(tensor_shape.TensorShape(dims))
        y = array_ops.reshape(y, self._shape_tuple((-1, input_length), y, 1, output_shape.as_list()[2:]))
        y.set_shape(output_shape)
        return y

