"""Cells that wrap another cell (``tf.nn.rnn_cell.DropoutWrapper``, ``ResidualWrapper``, ``DeviceWrapper``).

A wrapper opens no scope of its own: it calls the wrapped cell, whose variables keep the names they would
have unwrapped (``rnn/basic_lstm_cell/kernel``), and adds its ops in the scope it is called from.
"""
import hashlib
import numbers

from graphlab.framework import graph as graph_mod, nest, tensor_shape
from graphlab.ops import array_ops, math_ops, nn_ops, random_ops
from graphlab.framework.registry import const_value, convert_to_tensor
from graphlab.ops.rnn_cell_impl import LSTMStateTuple, RNNCell, assert_like_rnncell


class _RNNCellWrapper(RNNCell):
    """Sizes and zero state of the wrapped cell; ``__call__`` goes through ``_call_wrapped_cell``."""

    def __init__(self, cell, **kwargs):
        super().__init__(**kwargs)
        assert_like_rnncell("cell", cell)
        self.cell = cell

    @property
    def wrapped_cell(self):
        return self.cell

    @property
    def state_size(self):
        return self.cell.state_size

    @property
    def output_size(self):
        return self.cell.output_size

    def zero_state(self, batch_size, dtype):
        with graph_mod.name_scope(type(self).__name__ + "ZeroState"):
            return self.cell.zero_state(batch_size, dtype)

    def __call__(self, inputs, state, scope=None):
        return self._call_wrapped_cell(inputs, state, self.cell.__call__, scope=scope)

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, **kwargs):
        raise NotImplementedError


def _map_up_to(shallow, fn, *structures):
    """``fn(index, shallow_leaf, *subtrees)`` for each leaf of ``shallow`` (which the other structures
    share down to its leaves), packed like ``shallow``; ``index`` counts the leaves (TF's salt index)."""
    counter = [0]

    def walk(s, *subs):
        if not nest.is_nested(s):
            result = fn(counter[0], s, *subs)
            counter[0] += 1
            return result
        children = [nest._children(x) for x in subs]
        return nest._rebuild(s, [walk(c, *[ch[k] for ch in children])
                                 for k, c in enumerate(nest._children(s))])
    return walk(shallow, *structures)


def _default_state_filter(substate):
    """Which parts of a state to drop out: an LSTM's h but not its memory c; everything else."""
    if isinstance(substate, LSTMStateTuple):
        return LSTMStateTuple(c=False, h=True)
    return True


def _traverse_shallow(traverse_fn, structure):
    """TF's get_traverse_shallow_structure: the state's shape with True where dropout applies."""
    decision = traverse_fn(structure)
    if not nest.is_nested(structure):
        if not isinstance(decision, bool):
            raise TypeError("traverse_fn returned structure: %s for non-structure: %s" % (decision, structure))
        return decision
    if isinstance(decision, bool):
        if not decision:
            return False
        return nest._rebuild(structure, [_traverse_shallow(traverse_fn, c) for c in nest._children(structure)])
    if not nest.is_nested(decision):
        raise TypeError("traverse_fn returned a non-bool scalar: %s for input: %s" % (decision, structure))
    parts = []
    for t, branch in zip(nest._children(decision), nest._children(structure)):
        if not isinstance(t, bool):
            raise TypeError("traverse_fn didn't return a depth=1 structure of bools.  saw: %s  for structure: %s"
                            % (decision, structure))
        parts.append(_traverse_shallow(traverse_fn, branch) if t else False)
    return nest._rebuild(structure, parts)


class DropoutWrapper(_RNNCellWrapper):
    """Dropout on the cell's inputs, outputs and state, each with its own keep probability (floats or
    scalar tensors; 1.0 builds nothing). ``variational_recurrent=True`` draws one mask per sequence (made
    when the wrapper is built) and reuses it at every step (Gal & Ghahramani, 2016); it needs ``dtype``, and
    ``input_size`` when inputs are dropped. ``seed`` salts each tensor's op seed as TF does."""

    def __init__(self, cell, input_keep_prob=1.0, output_keep_prob=1.0, state_keep_prob=1.0,
                 variational_recurrent=False, input_size=None, dtype=None, seed=None,
                 dropout_state_filter_visitor=None, **kwargs):
        super().__init__(cell, dtype=dtype, **kwargs)
        if dropout_state_filter_visitor is not None and not callable(dropout_state_filter_visitor):
            raise TypeError("dropout_state_filter_visitor must be callable. Received: %s"
                            % dropout_state_filter_visitor)
        self._dropout_state_filter = dropout_state_filter_visitor or _default_state_filter
        with graph_mod.name_scope("DropoutWrapperInit"):
            for prob, attr in [(input_keep_prob, "input_keep_prob"), (state_keep_prob, "state_keep_prob"),
                               (output_keep_prob, "output_keep_prob")]:
                tensor = convert_to_tensor(prob)
                known = const_value(tensor)
                if known is not None:
                    if known < 0 or known > 1:
                        raise ValueError("Parameter %s must be between 0 and 1. Received %s" % (attr, known))
                    setattr(self, "_" + attr, float(known))
                else:
                    setattr(self, "_" + attr, tensor)
        self._variational_recurrent = variational_recurrent
        self._input_size = input_size
        self._seed = seed
        self._recurrent_input_noise = self._recurrent_state_noise = self._recurrent_output_noise = None
        if variational_recurrent:
            if dtype is None:
                raise ValueError("When variational_recurrent=True, dtype must be provided")

            def noise_for(kind):
                def batch_noise(i, size, _):
                    shape = array_ops.concat(([1], tensor_shape.as_shape(size).as_list()), 0)
                    return random_ops.random_uniform(shape, seed=self._gen_seed(kind, i), dtype=dtype)
                return batch_noise
            if not isinstance(self._input_keep_prob, numbers.Real) or self._input_keep_prob < 1.0:
                if input_size is None:
                    raise ValueError("When variational_recurrent=True and input_keep_prob < 1.0 or is unknown, "
                                     "input_size must be provided")
                self._recurrent_input_noise = _map_up_to(input_size, noise_for("input"), input_size)
            self._recurrent_state_noise = _map_up_to(cell.state_size, noise_for("state"), cell.state_size)
            self._recurrent_output_noise = _map_up_to(cell.output_size, noise_for("output"), cell.output_size)

    def _gen_seed(self, salt_prefix, index):
        """TF's per-tensor seed: the first 31 bits of md5(str(seed) + '<salt>_<index>')."""
        if self._seed is None:
            return None
        text = (str(self._seed) + "%s_%d" % (salt_prefix, index)).encode("utf-8")
        return int(hashlib.md5(text).hexdigest()[:8], 16) & 0x7FFFFFFF

    def build(self, input_shape):
        self.cell.build(input_shape)
        self.built = True

    def _variational_dropout(self, value, noise, keep_prob):
        binary = math_ops.floor(keep_prob + noise)
        result = math_ops.divide(value, keep_prob) * binary
        result.set_shape(value.shape)
        return result

    def _dropout(self, values, salt_prefix, recurrent_noise, keep_prob, shallow=None):
        shallow = values if shallow is None else shallow
        if not self._variational_recurrent:
            def drop(i, do_dropout, v):
                if not isinstance(do_dropout, bool) or do_dropout:
                    return nn_ops.dropout(v, rate=1.0 - keep_prob, seed=self._gen_seed(salt_prefix, i))
                return v
            return _map_up_to(shallow, drop, values)

        def drop_variational(i, do_dropout, v, noise):
            if not isinstance(do_dropout, bool) or do_dropout:
                return self._variational_dropout(v, noise, keep_prob)
            return v
        return _map_up_to(shallow, drop_variational, values, recurrent_noise)

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, **kwargs):
        def should_drop(p):
            return not isinstance(p, float) or p < 1
        if should_drop(self._input_keep_prob):
            inputs = self._dropout(inputs, "input", self._recurrent_input_noise, self._input_keep_prob)
        output, new_state = cell_call_fn(inputs, state, **kwargs)
        if should_drop(self._state_keep_prob):
            shallow = _traverse_shallow(self._dropout_state_filter, new_state)
            new_state = self._dropout(new_state, "state", self._recurrent_state_noise, self._state_keep_prob,
                                      shallow)
        if should_drop(self._output_keep_prob):
            output = self._dropout(output, "output", self._recurrent_output_noise, self._output_keep_prob)
        return output, new_state


class ResidualWrapper(_RNNCellWrapper):
    """``output = inputs + cell(inputs)`` (or ``residual_fn(inputs, outputs)``); the state is the cell's."""

    def __init__(self, cell, residual_fn=None, **kwargs):
        super().__init__(cell, **kwargs)
        self._residual_fn = residual_fn

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, **kwargs):
        outputs, new_state = cell_call_fn(inputs, state, **kwargs)

        def default_residual_fn(inputs, outputs):
            nest.assert_same_structure(inputs, outputs)

            def add(inp, out):
                inp.shape.assert_is_compatible_with(out.shape)
                return inp + out
            return nest.map_structure(add, inputs, outputs)
        return (self._residual_fn or default_residual_fn)(inputs, outputs), new_state


class DeviceWrapper(_RNNCellWrapper):
    """Runs the cell under ``tf.device(device)`` (accepted; graphlab runs everything on the CPU)."""

    def __init__(self, cell, device, **kwargs):
        super().__init__(cell, **kwargs)
        self._device = device

    def zero_state(self, batch_size, dtype):
        graph = graph_mod.get_default_graph()
        with graph_mod.name_scope(type(self).__name__ + "ZeroState"), graph.device(self._device):
            return self.cell.zero_state(batch_size, dtype)

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, **kwargs):
        with graph_mod.get_default_graph().device(self._device):
            return cell_call_fn(inputs, state, **kwargs)


__all__ = ["DropoutWrapper", "ResidualWrapper", "DeviceWrapper"]
