"""TF1's recurrent cells (``tf.nn.rnn_cell``): BasicRNNCell, GRUCell, BasicLSTMCell, LSTMCell, MultiRNNCell.

Each builds the ops TF 2.21 builds, in the same order, so graphs and checkpoints match TensorFlow's: one
``kernel`` applied to ``concat([inputs, h], 1)`` and a ``bias`` (zeros, or ones for the GRU gates), the
gates cut apart with ``split``. Variable names are ``<scope>/<cell>/kernel`` and ``<scope>/<cell>/bias``
(GRU: ``gates/`` and ``candidate/``; LSTMCell: ``w_f_diag``..., ``projection/kernel``).
"""
from graphlab.framework import nest
from graphlab.ops import array_ops, math_ops, nn_ops
from graphlab.ops.init_ops import constant_initializer, zeros_initializer
from graphlab.framework.registry import constant
from graphlab.ops.rnn_cell_impl import (LSTMStateTuple, RNNCell, check_input_dtypes, check_supported_dtype,
                                        get_activation)
from graphlab.ops import variable_scope as vs


class _WeightedCell(RNNCell):
    """A cell with variables of its own: it takes a batch of vectors (rank-2 inputs) of a float type; its
    output and (unless an LSTM says otherwise) its state have ``num_units`` columns."""
    _input_ndim = 2

    def __init__(self, num_units, activation=None, reuse=None, name=None, dtype=None, **kwargs):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        check_supported_dtype(self.dtype)
        self._num_units = num_units
        self._activation = get_activation(activation)

    @property
    def state_size(self):
        return self._num_units

    @property
    def output_size(self):
        return self._num_units

    def _input_depth(self, input_shape):
        """The inputs' last dimension, which the kernel's shape needs (and a float dtype for the cell)."""
        if input_shape[-1] is None:
            raise ValueError("Expected inputs.shape[-1] to be known, received shape: %s" % (input_shape,))
        check_supported_dtype(self.dtype)
        return input_shape[-1]

    def __call__(self, inputs, state, scope=None):
        """As TF's LayerRNNCell: straight into the cell's own scope (no re-entry of the caller's scope)."""
        return self._layer_call(inputs, state, scope=scope)

    def _bias(self, name, size, initializer=None):
        return self.add_weight(name, [size], initializer=initializer or zeros_initializer(dtype=self.dtype))


class BasicRNNCell(_WeightedCell):
    """``output = new_state = activation(concat([inputs, state]) @ kernel + bias)``."""

    def build(self, input_shape):
        depth = self._input_depth(input_shape)
        self._kernel = self.add_weight("kernel", [depth + self._num_units, self._num_units])
        self._bias_var = self._bias("bias", self._num_units)

    def call(self, inputs, state):
        check_input_dtypes([inputs, state])
        gate_inputs = math_ops.matmul(array_ops.concat([inputs, state], 1), self._kernel)
        output = self._activation(nn_ops.bias_add(gate_inputs, self._bias_var))
        return output, output


class GRUCell(_WeightedCell):
    """Gated recurrent unit (Cho et al., 2014): reset and update gates from one kernel, then a candidate
    from the reset state; ``new_h = u * h + (1 - u) * candidate``. Gate biases start at 1."""

    def __init__(self, num_units, activation=None, reuse=None, kernel_initializer=None, bias_initializer=None,
                 name=None, dtype=None, **kwargs):
        super().__init__(num_units, activation, reuse, name, dtype, **kwargs)
        self._kernel_initializer = kernel_initializer
        self._bias_initializer = bias_initializer

    def build(self, input_shape):
        depth = self._input_depth(input_shape)
        n = self._num_units
        self._gate_kernel = self.add_weight("gates/kernel", [depth + n, 2 * n], initializer=self._kernel_initializer)
        self._gate_bias = self._bias("gates/bias", 2 * n,
                                     self._bias_initializer or constant_initializer(1.0, dtype=self.dtype))
        self._candidate_kernel = self.add_weight("candidate/kernel", [depth + n, n],
                                                 initializer=self._kernel_initializer)
        self._candidate_bias = self._bias("candidate/bias", n, self._bias_initializer)

    def call(self, inputs, state):
        check_input_dtypes([inputs, state])
        gates = math_ops.matmul(array_ops.concat([inputs, state], 1), self._gate_kernel)
        value = math_ops.sigmoid(nn_ops.bias_add(gates, self._gate_bias))
        r, u = array_ops.split(value=value, num_or_size_splits=2, axis=1)
        candidate = math_ops.matmul(array_ops.concat([inputs, r * state], 1), self._candidate_kernel)
        c = self._activation(nn_ops.bias_add(candidate, self._candidate_bias))
        new_h = u * state + (1 - u) * c
        return new_h, new_h


class BasicLSTMCell(_WeightedCell):
    """The baseline LSTM (no peepholes, clipping or projection); ``forget_bias`` is added to the forget
    gate. The state is ``LSTMStateTuple(c, h)``, or ``concat([c, h], 1)`` when ``state_is_tuple=False``."""

    def __init__(self, num_units, forget_bias=1.0, state_is_tuple=True, activation=None, reuse=None, name=None,
                 dtype=None, **kwargs):
        super().__init__(num_units, activation, reuse, name, dtype, **kwargs)
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple

    @property
    def state_size(self):
        n = self._num_units
        return LSTMStateTuple(n, n) if self._state_is_tuple else 2 * n

    def build(self, input_shape):
        depth = self._input_depth(input_shape)
        self._kernel = self.add_weight("kernel", [depth + self._num_units, 4 * self._num_units])
        self._bias_var = self._bias("bias", 4 * self._num_units)

    def call(self, inputs, state):
        check_input_dtypes([inputs, state])
        one = constant(1, dtype="int32")
        if self._state_is_tuple:
            c, h = state
        else:
            c, h = array_ops.split(value=state, num_or_size_splits=2, axis=one)
        gates = math_ops.matmul(array_ops.concat([inputs, h], 1), self._kernel)
        gates = nn_ops.bias_add(gates, self._bias_var)
        i, j, f, o = array_ops.split(value=gates, num_or_size_splits=4, axis=one)
        forget_bias = constant(self._forget_bias, dtype=f.dtype)
        sigmoid, add, multiply = math_ops.sigmoid, math_ops.add, math_ops.multiply
        new_c = add(multiply(c, sigmoid(add(f, forget_bias))), multiply(sigmoid(i), self._activation(j)))
        new_h = multiply(self._activation(new_c), sigmoid(o))
        new_state = LSTMStateTuple(new_c, new_h) if self._state_is_tuple else array_ops.concat([new_c, new_h], 1)
        return new_h, new_state


class LSTMCell(_WeightedCell):
    """The full LSTM: optional peephole connections (``use_peepholes``), clipping of the cell state
    (``cell_clip``), a projection of the output to ``num_proj`` units (``projection/kernel``, clipped by
    ``proj_clip``). ``initializer`` initialises the kernel, peepholes and projection."""

    def __init__(self, num_units, use_peepholes=False, cell_clip=None, initializer=None, num_proj=None,
                 proj_clip=None, num_unit_shards=None, num_proj_shards=None, forget_bias=1.0,
                 state_is_tuple=True, activation=None, reuse=None, name=None, dtype=None, **kwargs):
        super().__init__(num_units, activation, reuse, name, dtype, **kwargs)
        if num_unit_shards is not None or num_proj_shards is not None:
            raise NotImplementedError("LSTMCell(num_unit_shards=..., num_proj_shards=...) splits the kernel "
                                      "into partitioned variables, which graphlab does not have; TF deprecated "
                                      "them in 2017: leave them out")
        self._use_peepholes = use_peepholes
        self._cell_clip = cell_clip
        self._initializer = initializer
        self._num_proj = num_proj
        self._proj_clip = proj_clip
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple
        out = num_proj if num_proj else num_units
        self._state_size = LSTMStateTuple(num_units, out) if state_is_tuple else num_units + out
        self._output_size = out

    @property
    def state_size(self):
        return self._state_size

    @property
    def output_size(self):
        return self._output_size

    def build(self, input_shape):
        depth = self._input_depth(input_shape)
        n = self._num_units
        h_depth = n if self._num_proj is None else self._num_proj
        self._kernel = self.add_weight("kernel", [depth + h_depth, 4 * n], initializer=self._initializer)
        self._bias_var = self._bias("bias", 4 * n)
        if self._use_peepholes:
            self._w_f_diag = self.add_weight("w_f_diag", [n], initializer=self._initializer)
            self._w_i_diag = self.add_weight("w_i_diag", [n], initializer=self._initializer)
            self._w_o_diag = self.add_weight("w_o_diag", [n], initializer=self._initializer)
        if self._num_proj is not None:
            self._proj_kernel = self.add_weight("projection/kernel", [n, self._num_proj],
                                                initializer=self._initializer)

    def call(self, inputs, state):
        check_input_dtypes([inputs, state])
        num_proj = self._num_units if self._num_proj is None else self._num_proj
        sigmoid, act = math_ops.sigmoid, self._activation
        if self._state_is_tuple:
            c_prev, m_prev = state
        else:
            c_prev = array_ops.slice(state, [0, 0], [-1, self._num_units])
            m_prev = array_ops.slice(state, [0, self._num_units], [-1, num_proj])
        if inputs.shape.with_rank(2)[1].value is None:
            raise ValueError("Could not infer input size from inputs.get_shape()[-1].Received input shape: %s"
                             % inputs.shape)
        lstm_matrix = math_ops.matmul(array_ops.concat([inputs, m_prev], 1), self._kernel)
        lstm_matrix = nn_ops.bias_add(lstm_matrix, self._bias_var)
        i, j, f, o = array_ops.split(value=lstm_matrix, num_or_size_splits=4, axis=1)
        if self._use_peepholes:
            c = (sigmoid(f + self._forget_bias + self._w_f_diag * c_prev) * c_prev
                 + sigmoid(i + self._w_i_diag * c_prev) * act(j))
        else:
            c = sigmoid(f + self._forget_bias) * c_prev + sigmoid(i) * act(j)
        if self._cell_clip is not None:
            c = array_ops.clip_by_value(c, -self._cell_clip, self._cell_clip)
        if self._use_peepholes:
            m = sigmoid(o + self._w_o_diag * c) * act(c)
        else:
            m = sigmoid(o) * act(c)
        if self._num_proj is not None:
            m = math_ops.matmul(m, self._proj_kernel)
            if self._proj_clip is not None:
                m = array_ops.clip_by_value(m, -self._proj_clip, self._proj_clip)
        new_state = LSTMStateTuple(c, m) if self._state_is_tuple else array_ops.concat([c, m], 1)
        return m, new_state


class MultiRNNCell(RNNCell):
    """Cells stacked in layers: each cell's output is the next one's input, each in its own variable scope
    ``cell_<i>``. The state is the tuple of the layers' states (or, with ``state_is_tuple=False``, their
    concatenation)."""

    def __init__(self, cells, state_is_tuple=True):
        super().__init__()
        if not cells:
            raise ValueError("Must specify at least one cell for MultiRNNCell.")
        if not nest.is_nested(cells):
            raise TypeError("cells must be a list or tuple, but received: %s." % (cells,))
        self._cells = cells
        self._state_is_tuple = state_is_tuple
        if not state_is_tuple and any(nest.is_nested(c.state_size) for c in cells):
            raise ValueError("Some cells return tuples of states, but the flag state_is_tuple is not set. State "
                             "sizes are: %s" % [c.state_size for c in cells])

    @property
    def state_size(self):
        if self._state_is_tuple:
            return tuple(cell.state_size for cell in self._cells)
        return sum(cell.state_size for cell in self._cells)

    @property
    def output_size(self):
        return self._cells[-1].output_size

    def zero_state(self, batch_size, dtype):
        from graphlab.framework import graph as graph_mod
        with graph_mod.name_scope(type(self).__name__ + "ZeroState"):
            if self._state_is_tuple:
                return tuple(cell.zero_state(batch_size, dtype) for cell in self._cells)
            return super().zero_state(batch_size, dtype)

    @property
    def trainable_weights(self):
        if not self.trainable:
            return []
        return [w for cell in self._cells for w in cell.trainable_weights]

    @property
    def non_trainable_weights(self):
        weights = [w for cell in self._cells for w in cell.non_trainable_weights]
        if not self.trainable:
            return [w for cell in self._cells for w in cell.trainable_weights] + weights
        return weights

    def call(self, inputs, state):
        position = 0
        layer_input = inputs
        new_states = []
        for i, cell in enumerate(self._cells):
            with vs.variable_scope("cell_%d" % i):
                if self._state_is_tuple:
                    if not nest.is_nested(state):
                        raise ValueError("Expected state to be a tuple of length %d, but received: %s"
                                         % (len(self.state_size), state))
                    layer_state = state[i]
                else:
                    layer_state = array_ops.slice(state, [0, position], [-1, cell.state_size])
                    position += cell.state_size
                layer_input, new_state = cell(layer_input, layer_state)
                new_states.append(new_state)
        new_states = tuple(new_states) if self._state_is_tuple else array_ops.concat(new_states, 1)
        return layer_input, new_states
