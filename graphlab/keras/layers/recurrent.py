"""Keras's recurrent layers as v1 graph mode builds them: SimpleRNN, LSTM and GRU (v1: hard_sigmoid gates,
LSTM implementation 1 with the kernel split per gate, GRU with the reset gate before the recurrent product).

The layer builds its cell's weights under ``<layer>/<cell>/`` (``lstm/lstm_cell/kernel``), makes zero
initial states from the batch size, and runs ``K.rnn``: the cell once outside the loop
(``lstm/lstm_cell_1/...``) and once per step inside ``lstm/while/lstm_cell/...``. Dropout inside the cell
and masking are not implemented.
"""
from graphlab.framework import graph as graph_mod
from graphlab.framework import nest, tensor_shape
from graphlab.keras import activations, backend, constraints, initializers, regularizers
from graphlab.keras.engine.base_layer import Layer
from graphlab.keras.engine.input_spec import InputSpec
from graphlab.keras.layers.core import _serialize
from graphlab.ops import array_ops


def _zero_state(batch_size, state_size, dtype):
    def zeros(size):
        return array_ops.zeros([batch_size] + tensor_shape.TensorShape(size).as_list(), dtype=dtype)
    if isinstance(state_size, (list, tuple)):
        return [zeros(s) for s in state_size]
    return zeros(state_size)


class _Cell(Layer):
    """Shared by the cells: weights' settings and the zero initial state."""

    def __init__(self, units, activation, recurrent_activation, use_bias, kernel_initializer,
                 recurrent_initializer, bias_initializer, kernel_regularizer, recurrent_regularizer,
                 bias_regularizer, kernel_constraint, recurrent_constraint, bias_constraint, dropout,
                 recurrent_dropout, **kwargs):
        super().__init__(**kwargs)
        if units <= 0:
            raise ValueError("Received an invalid value for argument `units`, expected a positive integer, got %s."
                             % units)
        if dropout or recurrent_dropout:
            raise NotImplementedError("graphlab's recurrent cells do not implement dropout/recurrent_dropout")
        self.units = units
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation) if recurrent_activation != "-" else None
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.recurrent_constraint = constraints.get(recurrent_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.dropout, self.recurrent_dropout = dropout, recurrent_dropout

    def _kernels(self, input_shape, gates, bias_initializer=None):
        input_dim = tensor_shape.as_shape(input_shape).as_list()[-1]
        self.kernel = self.add_weight(shape=(input_dim, self.units * gates), name="kernel",
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(shape=(self.units, self.units * gates), name="recurrent_kernel",
                                                initializer=self.recurrent_initializer,
                                                regularizer=self.recurrent_regularizer,
                                                constraint=self.recurrent_constraint)
        if self.use_bias:
            self.bias = self.add_weight(shape=(self.units * gates,), name="bias",
                                        initializer=bias_initializer or self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        else:
            self.bias = None
        self.built = True

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        if inputs is not None:
            batch_size, dtype = array_ops.shape(inputs)[0], inputs.dtype
        return _zero_state(batch_size, self.state_size, dtype)

    def get_config(self):
        config = super().get_config()
        config.update({
            "units": self.units, "activation": _serialize(self.activation, activations),
            "use_bias": self.use_bias,
            "kernel_initializer": _serialize(self.kernel_initializer, initializers),
            "recurrent_initializer": _serialize(self.recurrent_initializer, initializers),
            "bias_initializer": _serialize(self.bias_initializer, initializers),
            "kernel_regularizer": _serialize(self.kernel_regularizer, regularizers),
            "recurrent_regularizer": _serialize(self.recurrent_regularizer, regularizers),
            "bias_regularizer": _serialize(self.bias_regularizer, regularizers),
            "kernel_constraint": _serialize(self.kernel_constraint, constraints),
            "recurrent_constraint": _serialize(self.recurrent_constraint, constraints),
            "bias_constraint": _serialize(self.bias_constraint, constraints),
            "dropout": self.dropout, "recurrent_dropout": self.recurrent_dropout})
        if self.recurrent_activation is not None:
            config["recurrent_activation"] = _serialize(self.recurrent_activation, activations)
        return config


class SimpleRNNCell(_Cell):
    """h_t = activation(x_t @ kernel + bias + h_{t-1} @ recurrent_kernel)."""

    def __init__(self, units, activation="tanh", use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros", kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout=0.0, recurrent_dropout=0.0, **kwargs):
        super().__init__(units, activation, "-", use_bias, kernel_initializer, recurrent_initializer,
                         bias_initializer, kernel_regularizer, recurrent_regularizer, bias_regularizer,
                         kernel_constraint, recurrent_constraint, bias_constraint, dropout, recurrent_dropout,
                         **kwargs)
        self.state_size = self.units
        self.output_size = self.units

    def build(self, input_shape):
        self._kernels(input_shape, 1)

    def call(self, inputs, states, training=None):
        prev_output = states[0] if isinstance(states, (list, tuple)) else states
        h = backend.dot(inputs, self.kernel)
        if self.bias is not None:
            h = backend.bias_add(h, self.bias)
        output = h + backend.dot(prev_output, self.recurrent_kernel)
        if self.activation is not None:
            output = self.activation(output)
        return output, [output] if isinstance(states, (list, tuple)) else output


class LSTMCell(_Cell):
    """The LSTM step with the kernel split into input, forget, cell and output gates."""

    def __init__(self, units, activation="tanh", recurrent_activation="hard_sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None,
                 kernel_constraint=None, recurrent_constraint=None, bias_constraint=None, dropout=0.0,
                 recurrent_dropout=0.0, implementation=1, **kwargs):
        super().__init__(units, activation, recurrent_activation, use_bias, kernel_initializer,
                         recurrent_initializer, bias_initializer, kernel_regularizer, recurrent_regularizer,
                         bias_regularizer, kernel_constraint, recurrent_constraint, bias_constraint, dropout,
                         recurrent_dropout, **kwargs)
        self.unit_forget_bias = unit_forget_bias
        self.implementation = implementation
        self.state_size = [self.units, self.units]
        self.output_size = self.units

    def build(self, input_shape):
        bias_initializer = None
        if self.use_bias and self.unit_forget_bias:
            def bias_initializer(_, *args, **kwargs):
                return backend.concatenate([self.bias_initializer((self.units,), *args, **kwargs),
                                            initializers.get("ones")((self.units,), *args, **kwargs),
                                            self.bias_initializer((self.units * 2,), *args, **kwargs)])
        self._kernels(input_shape, 4, bias_initializer)

    def call(self, inputs, states, training=None):
        from graphlab.ops import array_ops as ops
        h_tm1, c_tm1 = states[0], states[1]
        units, rk = self.units, self.recurrent_kernel
        if self.implementation == 1:
            k_i, k_f, k_c, k_o = ops.split(self.kernel, num_or_size_splits=4, axis=1)
            x_i, x_f = backend.dot(inputs, k_i), backend.dot(inputs, k_f)
            x_c, x_o = backend.dot(inputs, k_c), backend.dot(inputs, k_o)
            if self.use_bias:
                b_i, b_f, b_c, b_o = ops.split(self.bias, num_or_size_splits=4, axis=0)
                x_i, x_f = backend.bias_add(x_i, b_i), backend.bias_add(x_f, b_f)
                x_c, x_o = backend.bias_add(x_c, b_c), backend.bias_add(x_o, b_o)
            i = self.recurrent_activation(x_i + backend.dot(h_tm1, rk[:, :units]))
            f = self.recurrent_activation(x_f + backend.dot(h_tm1, rk[:, units:units * 2]))
            c = f * c_tm1 + i * self.activation(x_c + backend.dot(h_tm1, rk[:, units * 2:units * 3]))
            o = self.recurrent_activation(x_o + backend.dot(h_tm1, rk[:, units * 3:]))
        else:
            z = backend.dot(inputs, self.kernel)
            z += backend.dot(h_tm1, rk)
            if self.use_bias:
                z = backend.bias_add(z, self.bias)
            z0, z1, z2, z3 = ops.split(z, num_or_size_splits=4, axis=1)
            i, f = self.recurrent_activation(z0), self.recurrent_activation(z1)
            c = f * c_tm1 + i * self.activation(z2)
            o = self.recurrent_activation(z3)
        h = o * self.activation(c)
        return h, [h, c]

    def get_config(self):
        config = super().get_config()
        config.update({"unit_forget_bias": self.unit_forget_bias, "implementation": self.implementation})
        return config


class GRUCell(_Cell):
    """The GRU step (update gate z, reset gate r applied before the recurrent product)."""

    def __init__(self, units, activation="tanh", recurrent_activation="hard_sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal", bias_initializer="zeros",
                 kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout=0.0, recurrent_dropout=0.0,
                 implementation=1, reset_after=False, **kwargs):
        super().__init__(units, activation, recurrent_activation, use_bias, kernel_initializer,
                         recurrent_initializer, bias_initializer, kernel_regularizer, recurrent_regularizer,
                         bias_regularizer, kernel_constraint, recurrent_constraint, bias_constraint, dropout,
                         recurrent_dropout, **kwargs)
        if reset_after:
            raise NotImplementedError("graphlab's GRU implements reset_after=False (TF1's GRU) only")
        self.implementation, self.reset_after = implementation, reset_after
        self.state_size = self.units
        self.output_size = self.units

    def build(self, input_shape):
        self._kernels(input_shape, 3)

    def call(self, inputs, states, training=None):
        from graphlab.ops import array_ops as ops
        h_tm1 = states[0] if isinstance(states, (list, tuple)) else states
        units, k, rk = self.units, self.kernel, self.recurrent_kernel
        if self.implementation == 1:
            x_z = backend.dot(inputs, k[:, :units])
            x_r = backend.dot(inputs, k[:, units:units * 2])
            x_h = backend.dot(inputs, k[:, units * 2:])
            if self.use_bias:
                x_z = backend.bias_add(x_z, self.bias[:units])
                x_r = backend.bias_add(x_r, self.bias[units:units * 2])
                x_h = backend.bias_add(x_h, self.bias[units * 2:])
            recurrent_z = backend.dot(h_tm1, rk[:, :units])
            recurrent_r = backend.dot(h_tm1, rk[:, units:units * 2])
            z = self.recurrent_activation(x_z + recurrent_z)
            r = self.recurrent_activation(x_r + recurrent_r)
            recurrent_h = backend.dot(r * h_tm1, rk[:, units * 2:])
            hh = self.activation(x_h + recurrent_h)
        else:
            matrix_x = backend.dot(inputs, k)
            if self.use_bias:
                matrix_x = backend.bias_add(matrix_x, self.bias)
            x_z, x_r, x_h = ops.split(matrix_x, 3, axis=-1)
            matrix_inner = backend.dot(h_tm1, rk[:, :2 * units])
            recurrent_z, recurrent_r, _ = ops.split(matrix_inner, [units, units, -1], axis=-1)
            z = self.recurrent_activation(x_z + recurrent_z)
            r = self.recurrent_activation(x_r + recurrent_r)
            recurrent_h = backend.dot(r * h_tm1, rk[:, 2 * units:])
            hh = self.activation(x_h + recurrent_h)
        h = z * h_tm1 + (1 - z) * hh
        return h, [h] if isinstance(states, (list, tuple)) else h

    def get_config(self):
        config = super().get_config()
        config.update({"implementation": self.implementation, "reset_after": self.reset_after})
        return config


class RNN(Layer):
    """Run ``cell`` over the time axis of [batch, time, features] inputs."""

    def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False, stateful=False,
                 unroll=False, time_major=False, **kwargs):
        if stateful or unroll:
            raise NotImplementedError("graphlab's recurrent layers do not implement stateful=True or unroll=True")
        super().__init__(**kwargs)
        self.cell = cell
        self.return_sequences, self.return_state = return_sequences, return_state
        self.go_backwards, self._stateful, self.unroll, self.time_major = go_backwards, stateful, unroll, time_major
        self.supports_masking = True
        self.input_spec = None
        self.state_spec = None
        self.zero_output_for_mask = False

    @property
    def states(self):
        size = self.cell.state_size
        return [None] * (len(size) if isinstance(size, (list, tuple)) else 1)

    def build(self, input_shape):
        if isinstance(input_shape, list):
            input_shape = input_shape[0]
        dims = tensor_shape.as_shape(input_shape).as_list()
        spec = list(dims)
        spec[0 if self.time_major else 1] = None
        if not self.stateful:
            spec[1 if self.time_major else 0] = None
        self.input_spec = [InputSpec(shape=tuple(spec))]
        step_input_shape = tuple(dims[1:]) if self.time_major else (dims[0],) + tuple(dims[2:])
        if not self.cell.built:
            with graph_mod.name_scope(self.cell.name):
                self.cell.build(tensor_shape.TensorShape(step_input_shape))
                self.cell.built = True
        self.built = True

    def get_initial_state(self, inputs):
        input_shape = array_ops.shape(inputs)
        batch_size = input_shape[1] if self.time_major else input_shape[0]
        state = self.cell.get_initial_state(inputs=None, batch_size=batch_size, dtype=inputs.dtype)
        return list(state) if isinstance(state, (list, tuple)) else [state]

    def call(self, inputs, mask=None, training=None, initial_state=None):
        if isinstance(inputs, list):
            initial_state = inputs[1:] or None
            inputs = inputs[0]
        if initial_state is None:
            initial_state = self.get_initial_state(inputs)
        elif not isinstance(initial_state, (list, tuple)):
            initial_state = [initial_state]
        if len(initial_state) != len(self.states):
            raise ValueError("Layer has %d states but was passed %d initial states. Received: initial_state=%s"
                             % (len(self.states), len(initial_state), initial_state))
        cell = self.cell

        def step(step_inputs, states):
            output, new_states = cell(step_inputs, list(states), training=training)
            if not isinstance(new_states, (list, tuple)):
                new_states = [new_states]
            return output, new_states
        dims = inputs.shape.as_list()
        last_output, outputs, states = backend.rnn(step, inputs, initial_state, go_backwards=self.go_backwards,
                                                   input_length=dims[0] if self.time_major else dims[1],
                                                   time_major=self.time_major)
        output = outputs if self.return_sequences else last_output
        if self.return_state:
            return [output] + list(states)
        return output

    def get_config(self):
        config = super().get_config()
        config.update({"return_sequences": self.return_sequences, "return_state": self.return_state,
                       "go_backwards": self.go_backwards, "stateful": self.stateful, "unroll": self.unroll,
                       "time_major": self.time_major})
        return config

    def _tracked_sublayers(self):
        return [self.cell]


def _layer_kwargs(kwargs):
    return {k: kwargs.pop(k) for k in list(kwargs) if k in ("return_sequences", "return_state", "go_backwards",
                                                            "stateful", "unroll", "time_major", "name",
                                                            "input_shape", "batch_input_shape", "batch_size",
                                                            "input_dim", "weights", "activity_regularizer")}


class SimpleRNN(RNN):
    """A fully connected RNN whose output is fed back as the next step's state."""

    def __init__(self, units, **kwargs):
        layer_kwargs = _layer_kwargs(kwargs)
        cell = SimpleRNNCell(units, name="simple_rnn_cell", dtype=kwargs.pop("dtype", None),
                             trainable=kwargs.pop("trainable", True), **kwargs)
        super().__init__(cell, **layer_kwargs)

    units = property(lambda self: self.cell.units)


class LSTM(RNN):
    """Long short-term memory (TF1 Keras: hard_sigmoid gates, kernel split per gate)."""

    def __init__(self, units, **kwargs):
        layer_kwargs = _layer_kwargs(kwargs)
        cell = LSTMCell(units, name="lstm_cell", dtype=kwargs.pop("dtype", None),
                        trainable=kwargs.pop("trainable", True), **kwargs)
        super().__init__(cell, **layer_kwargs)

    units = property(lambda self: self.cell.units)


class GRU(RNN):
    """Gated recurrent unit (TF1 Keras: hard_sigmoid gates, reset before the recurrent product)."""

    def __init__(self, units, **kwargs):
        layer_kwargs = _layer_kwargs(kwargs)
        cell = GRUCell(units, name="gru_cell", dtype=kwargs.pop("dtype", None),
                       trainable=kwargs.pop("trainable", True), **kwargs)
        super().__init__(cell, **layer_kwargs)

    units = property(lambda self: self.cell.units)


__all__ = ["RNN", "SimpleRNN", "SimpleRNNCell", "LSTM", "LSTMCell", "GRU", "GRUCell", "nest"]
