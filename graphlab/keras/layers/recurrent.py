"""Keras's recurrent layers as v1 graph mode builds them: SimpleRNN, LSTM and GRU (v1: hard_sigmoid gates,
LSTM implementation 1 with the kernel split per gate, GRU with the reset gate before the recurrent product).

The layer builds its cell's weights under ``<layer>/<cell>/`` (``lstm/lstm_cell/kernel``), makes zero
initial states from the batch size, and runs ``K.rnn``: the cell once outside the loop
(``lstm/lstm_cell_1/...``) and once per step inside ``lstm/while/lstm_cell/...``. Dropout inside the cell
draws its masks once per call (ones while not training).
"""
from graphlab.framework import graph as graph_mod
from graphlab.framework import nest, tensor_shape
from graphlab.keras import activations, backend, constraints, initializers, regularizers
from graphlab.keras.engine.base_layer import Layer
from graphlab.keras.engine.input_spec import InputSpec
from graphlab.keras.layers.core import _serialize
from graphlab.ops import array_ops, nn_ops


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
        self.dropout = min(1.0, max(0.0, dropout))
        self.recurrent_dropout = min(1.0, max(0.0, recurrent_dropout))
        self.reset_dropout_mask()

    # The dropout masks are drawn once per call of the layer (by the step run outside the loop) and reused
    # at every step, as tf-keras's DropoutRNNCellMixin does; while not training they are ones.
    def reset_dropout_mask(self):
        self._dropout_mask = self._recurrent_dropout_mask = None

    def _mask(self, inputs, rate, training, count):
        ones = backend.ones_like(inputs)

        def dropped():
            return nn_ops.dropout(ones, rate=rate)
        if count > 1:
            return [backend.in_train_phase(dropped, ones, training=training) for _ in range(count)]
        return backend.in_train_phase(dropped, ones, training=training)

    def get_dropout_mask_for_cell(self, inputs, training, count=1):
        if self.dropout == 0:
            return None
        if self._dropout_mask is None:
            self._dropout_mask = self._mask(inputs, self.dropout, training, count)
        return self._dropout_mask

    def get_recurrent_dropout_mask_for_cell(self, inputs, training, count=1):
        if self.recurrent_dropout == 0:
            return None
        if self._recurrent_dropout_mask is None:
            self._recurrent_dropout_mask = self._mask(inputs, self.recurrent_dropout, training, count)
        return self._recurrent_dropout_mask

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

    def _cell_config(self):
        """The cell's settings in tf-keras's order (the RNN layers put them after their own)."""
        config = {"units": self.units, "activation": _serialize(self.activation, activations)}
        if self.recurrent_activation is not None:
            config["recurrent_activation"] = _serialize(self.recurrent_activation, activations)
        config.update({
            "use_bias": self.use_bias,
            "kernel_initializer": _serialize(self.kernel_initializer, initializers),
            "recurrent_initializer": _serialize(self.recurrent_initializer, initializers),
            "bias_initializer": _serialize(self.bias_initializer, initializers)})
        if hasattr(self, "unit_forget_bias"):
            config["unit_forget_bias"] = self.unit_forget_bias
        config.update({
            "kernel_regularizer": _serialize(self.kernel_regularizer, regularizers),
            "recurrent_regularizer": _serialize(self.recurrent_regularizer, regularizers),
            "bias_regularizer": _serialize(self.bias_regularizer, regularizers),
            "activity_regularizer": None,
            "kernel_constraint": _serialize(self.kernel_constraint, constraints),
            "recurrent_constraint": _serialize(self.recurrent_constraint, constraints),
            "bias_constraint": _serialize(self.bias_constraint, constraints),
            "dropout": self.dropout, "recurrent_dropout": self.recurrent_dropout})
        if hasattr(self, "implementation"):
            config["implementation"] = self.implementation
        if hasattr(self, "reset_after"):
            config["reset_after"] = self.reset_after
        return config

    def get_config(self):
        config = super().get_config()
        cell = self._cell_config()
        cell.pop("activity_regularizer")
        config.update(cell)
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
        dp_mask = self.get_dropout_mask_for_cell(inputs, training)
        rec_dp_mask = self.get_recurrent_dropout_mask_for_cell(prev_output, training)
        h = backend.dot(inputs * dp_mask if dp_mask is not None else inputs, self.kernel)
        if self.bias is not None:
            h = backend.bias_add(h, self.bias)
        if rec_dp_mask is not None:
            prev_output = prev_output * rec_dp_mask
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
        h_tm1, c_tm1 = states[0], states[1]
        units, rk = self.units, self.recurrent_kernel
        dp_mask = self.get_dropout_mask_for_cell(inputs, training, count=4)
        rec_dp_mask = self.get_recurrent_dropout_mask_for_cell(h_tm1, training, count=4)
        if self.implementation == 1:
            if 0 < self.dropout < 1.0:
                ins = [inputs * dp_mask[g] for g in range(4)]
            else:
                ins = [inputs] * 4
            k_i, k_f, k_c, k_o = array_ops.split(self.kernel, num_or_size_splits=4, axis=1)
            x_i, x_f = backend.dot(ins[0], k_i), backend.dot(ins[1], k_f)
            x_c, x_o = backend.dot(ins[2], k_c), backend.dot(ins[3], k_o)
            if self.use_bias:
                b_i, b_f, b_c, b_o = array_ops.split(self.bias, num_or_size_splits=4, axis=0)
                x_i, x_f = backend.bias_add(x_i, b_i), backend.bias_add(x_f, b_f)
                x_c, x_o = backend.bias_add(x_c, b_c), backend.bias_add(x_o, b_o)
            if 0 < self.recurrent_dropout < 1.0:
                hs = [h_tm1 * rec_dp_mask[g] for g in range(4)]
            else:
                hs = [h_tm1] * 4
            i = self.recurrent_activation(x_i + backend.dot(hs[0], rk[:, :units]))
            f = self.recurrent_activation(x_f + backend.dot(hs[1], rk[:, units:units * 2]))
            c = f * c_tm1 + i * self.activation(x_c + backend.dot(hs[2], rk[:, units * 2:units * 3]))
            o = self.recurrent_activation(x_o + backend.dot(hs[3], rk[:, units * 3:]))
        else:
            if 0.0 < self.dropout < 1.0:
                inputs = inputs * dp_mask[0]
            z = backend.dot(inputs, self.kernel)
            z += backend.dot(h_tm1, rk)
            if self.use_bias:
                z = backend.bias_add(z, self.bias)
            z0, z1, z2, z3 = array_ops.split(z, num_or_size_splits=4, axis=1)
            i, f = self.recurrent_activation(z0), self.recurrent_activation(z1)
            c = f * c_tm1 + i * self.activation(z2)
            o = self.recurrent_activation(z3)
        h = o * self.activation(c)
        return h, [h, c]


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
        h_tm1 = states[0] if isinstance(states, (list, tuple)) else states
        units, k, rk = self.units, self.kernel, self.recurrent_kernel
        dp_mask = self.get_dropout_mask_for_cell(inputs, training, count=3)
        rec_dp_mask = self.get_recurrent_dropout_mask_for_cell(h_tm1, training, count=3)
        if self.implementation == 1:
            ins = [inputs * dp_mask[g] for g in range(3)] if 0.0 < self.dropout < 1.0 else [inputs] * 3
            x_z = backend.dot(ins[0], k[:, :units])
            x_r = backend.dot(ins[1], k[:, units:units * 2])
            x_h = backend.dot(ins[2], k[:, units * 2:])
            if self.use_bias:
                x_z = backend.bias_add(x_z, self.bias[:units])
                x_r = backend.bias_add(x_r, self.bias[units:units * 2])
                x_h = backend.bias_add(x_h, self.bias[units * 2:])
            hs = ([h_tm1 * rec_dp_mask[g] for g in range(3)] if 0.0 < self.recurrent_dropout < 1.0
                  else [h_tm1] * 3)
            recurrent_z = backend.dot(hs[0], rk[:, :units])
            recurrent_r = backend.dot(hs[1], rk[:, units:units * 2])
            z = self.recurrent_activation(x_z + recurrent_z)
            r = self.recurrent_activation(x_r + recurrent_r)
            recurrent_h = backend.dot(r * hs[2], rk[:, units * 2:])
            hh = self.activation(x_h + recurrent_h)
        else:
            if 0.0 < self.dropout < 1.0:
                inputs = inputs * dp_mask[0]
            matrix_x = backend.dot(inputs, k)
            if self.use_bias:
                matrix_x = backend.bias_add(matrix_x, self.bias)
            x_z, x_r, x_h = array_ops.split(matrix_x, 3, axis=-1)
            matrix_inner = backend.dot(h_tm1, rk[:, :2 * units])
            recurrent_z, recurrent_r, _ = array_ops.split(matrix_inner, [units, units, -1], axis=-1)
            z = self.recurrent_activation(x_z + recurrent_z)
            r = self.recurrent_activation(x_r + recurrent_r)
            recurrent_h = backend.dot(r * h_tm1, rk[:, 2 * units:])
            hh = self.activation(x_h + recurrent_h)
        h = z * h_tm1 + (1 - z) * hh
        return h, [h] if isinstance(states, (list, tuple)) else h


class StackedRNNCells(Layer):
    """Several cells as one: each step runs them in turn, each feeding the next its output."""

    def __init__(self, cells, **kwargs):
        for cell in cells:
            if "call" not in dir(cell) or not hasattr(cell, "state_size"):
                raise ValueError("All cells must have a `call` method and a `state_size` attribute. Received "
                                 "cells=%s" % (cells,))
        super().__init__(**kwargs)
        self.cells = list(cells)

    def _tracked_sublayers(self):
        return list(self.cells)

    @property
    def state_size(self):
        return tuple(c.state_size for c in self.cells)

    @property
    def output_size(self):
        last = self.cells[-1]
        if getattr(last, "output_size", None) is not None:
            return last.output_size
        return last.state_size[0] if isinstance(last.state_size, (list, tuple)) else last.state_size

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        return tuple(cell.get_initial_state(inputs=inputs, batch_size=batch_size, dtype=dtype)
                     for cell in self.cells)

    def reset_dropout_mask(self):
        for cell in self.cells:
            cell.reset_dropout_mask()

    def call(self, inputs, states, training=None):
        nested = nest.pack_sequence_as(self.state_size, nest.flatten(states))
        new_nested = []
        for cell, cell_states in zip(self.cells, nested):
            cell_states = list(cell_states) if isinstance(cell_states, (list, tuple)) else [cell_states]
            inputs, cell_states = cell(inputs, cell_states, training=training)
            new_nested.append(cell_states)
        return inputs, nest.pack_sequence_as(self.state_size, nest.flatten(new_nested))

    def build(self, input_shape):
        dims = tensor_shape.as_shape(input_shape).as_list()
        for cell in self.cells:
            if not cell.built:
                with graph_mod.name_scope(cell.name):
                    cell.build(tensor_shape.TensorShape(dims))
                    cell.built = True
            size = getattr(cell, "output_size", None)
            if size is None:
                size = cell.state_size[0] if isinstance(cell.state_size, (list, tuple)) else cell.state_size
            dims = [dims[0], size]
        self.built = True

    def get_config(self):
        config = super().get_config()
        config["cells"] = [{"class_name": type(c).__name__, "config": c.get_config()} for c in self.cells]
        return config


class RNN(Layer):
    """Run ``cell`` over the time axis of [batch, time, features] inputs."""

    def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False, stateful=False,
                 unroll=False, time_major=False, **kwargs):
        if stateful or unroll:
            raise NotImplementedError("graphlab's recurrent layers do not implement stateful=True or unroll=True")
        if isinstance(cell, (list, tuple)):
            cell = StackedRNNCells(cell)
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
        if isinstance(size, tuple):       # a stack of cells: one entry per cell
            return [None] * len(size)
        return [None] * (len(size) if isinstance(size, list) else 1)

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

    def compute_mask(self, inputs, mask):
        if isinstance(mask, list):
            mask = mask[0]
        output_mask = mask if self.return_sequences else None
        if self.return_state:
            return [output_mask] + [None] * len(self.states)
        return output_mask

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
        cell.reset_dropout_mask()

        def step(step_inputs, states):
            output, new_states = cell(step_inputs, list(states), training=training)
            if not isinstance(new_states, (list, tuple)):
                new_states = [new_states]
            return output, new_states
        dims = inputs.shape.as_list()
        if mask is not None:
            mask = nest.flatten(mask)[0]
        last_output, outputs, states = backend.rnn(step, inputs, initial_state, go_backwards=self.go_backwards,
                                                   mask=mask, input_length=dims[0] if self.time_major else dims[1],
                                                   time_major=self.time_major,
                                                   zero_output_for_mask=self.zero_output_for_mask)
        output = outputs if self.return_sequences else last_output
        if self.return_state:
            return [output] + list(states)
        return output

    def get_config(self):
        config = super().get_config()
        config.update({"return_sequences": self.return_sequences, "return_state": self.return_state,
                       "go_backwards": self.go_backwards, "stateful": self.stateful, "unroll": self.unroll,
                       "time_major": self.time_major})
        if type(self) is RNN:
            config["cell"] = {"class_name": type(self.cell).__name__, "config": self.cell.get_config()}
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        if cls is not RNN:
            return cls(**config)
        from graphlab.keras.layers.serialization import deserialize    # (serialization imports the layers)
        config = dict(config)
        cell = deserialize(config.pop("cell"), custom_objects=custom_objects)
        return cls(cell, **config)

    def _tracked_sublayers(self):
        return [self.cell]


def _layer_kwargs(kwargs):
    return {k: kwargs.pop(k) for k in list(kwargs) if k in ("return_sequences", "return_state", "go_backwards",
                                                            "stateful", "unroll", "time_major", "name",
                                                            "input_shape", "batch_input_shape", "batch_size",
                                                            "input_dim", "weights", "activity_regularizer")}


class _NamedRNN(RNN):
    """SimpleRNN, LSTM and GRU: the layer and its cell's settings in one config."""

    def get_config(self):
        config = super().get_config()
        cell = self.cell._cell_config()
        cell["activity_regularizer"] = _serialize(self.activity_regularizer, regularizers)
        config.update(cell)
        return config


class SimpleRNN(_NamedRNN):
    """A fully connected RNN whose output is fed back as the next step's state."""

    def __init__(self, units, **kwargs):
        layer_kwargs = _layer_kwargs(kwargs)
        cell = SimpleRNNCell(units, name="simple_rnn_cell", dtype=kwargs.pop("dtype", None),
                             trainable=kwargs.pop("trainable", True), **kwargs)
        super().__init__(cell, **layer_kwargs)

    units = property(lambda self: self.cell.units)


class LSTM(_NamedRNN):
    """Long short-term memory (TF1 Keras: hard_sigmoid gates, kernel split per gate)."""

    def __init__(self, units, **kwargs):
        layer_kwargs = _layer_kwargs(kwargs)
        cell = LSTMCell(units, name="lstm_cell", dtype=kwargs.pop("dtype", None),
                        trainable=kwargs.pop("trainable", True), **kwargs)
        super().__init__(cell, **layer_kwargs)

    units = property(lambda self: self.cell.units)


class GRU(_NamedRNN):
    """Gated recurrent unit (TF1 Keras: hard_sigmoid gates, reset before the recurrent product)."""

    def __init__(self, units, **kwargs):
        layer_kwargs = _layer_kwargs(kwargs)
        cell = GRUCell(units, name="gru_cell", dtype=kwargs.pop("dtype", None),
                       trainable=kwargs.pop("trainable", True), **kwargs)
        super().__init__(cell, **layer_kwargs)

    units = property(lambda self: self.cell.units)


__all__ = ["RNN", "StackedRNNCells", "SimpleRNN", "SimpleRNNCell", "LSTM", "LSTMCell", "GRU", "GRUCell", "nest"]
