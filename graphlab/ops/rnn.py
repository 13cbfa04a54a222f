"""Unrolling a cell over time in Python: ``tf.nn.static_rnn`` and ``tf.nn.static_bidirectional_rnn`` (the
while-loop forms are in dynamic_rnn.py).

``static_rnn`` calls the cell once per time step in Python, so a 100-step sequence builds 100 copies of
the cell's ops (sharing one set of variables): the graph grows with the sequence, which is exactly what
``dynamic_rnn``'s while loop avoids. With ``sequence_length``, each step is wrapped in TF's conds: past a
sequence's end its output is zeros and its state is copied through unchanged.
"""
from graphlab.framework import nest, tensor_shape
from graphlab.ops import array_ops, control_flow_ops, math_ops
from graphlab.framework.registry import convert_to_tensor
from graphlab.ops.rnn_cell_impl import assert_like_rnncell, concat_sizes
from graphlab.ops.tensor_array import TensorArray
from graphlab.ops import variable_scope as vs


def infer_state_dtype(explicit_dtype, state):
    """The dtype given, else the one dtype all state tensors share."""
    if explicit_dtype is not None:
        return explicit_dtype
    if nest.is_nested(state):
        found = [t.dtype for t in nest.flatten(state)]
        if not found:
            raise ValueError("Unable to infer dtype from argument state=%s." % (state,))
        if any(d != found[0] for d in found):
            raise ValueError("Argument state=%s has tensors of different inferred dtypes. Unable to infer a "
                             "single representative dtype. Dtypes received: %s" % (state, found))
        return found[0]
    return state.dtype


def initial_state_of(cell, initial_state, batch_size, dtype):
    """The state a run starts from: ``initial_state`` if given, else the cell's zeros of ``dtype``."""
    if initial_state is not None:
        return initial_state
    if not dtype:
        raise ValueError("If no initial_state is provided, argument `dtype` must be specified")
    if getattr(cell, "get_initial_state", None) is not None:
        return cell.get_initial_state(inputs=None, batch_size=batch_size, dtype=dtype)
    return cell.zero_state(batch_size, dtype)


def rnn_step(time, sequence_length, min_sequence_length, max_sequence_length, zero_output, state, call_cell,
             skip_conditionals=False):
    """One step with sequence lengths, as TF builds it: nothing to compute when every sequence has ended
    (time >= max length), no copying while none has (time < min length), otherwise
    ``where(time >= length, old, new)`` row by row. ``skip_conditionals`` (dynamic_rnn) always computes
    and copies, without the conds."""
    flat_state = nest.flatten(state)
    flat_zero_output = nest.flatten(zero_output)
    copy_cond = time >= sequence_length

    def copy_one_through(output, new_output):
        if isinstance(output, TensorArray) or output.shape.ndims == 0:
            return new_output
        return array_ops.where(copy_cond, output, new_output)

    def copy_some_through(flat_new_output, flat_new_state):
        return ([copy_one_through(z, n) for z, n in zip(flat_zero_output, flat_new_output)]
                + [copy_one_through(s, n) for s, n in zip(flat_state, flat_new_state)])

    def maybe_copy_some_through():
        new_output, new_state = call_cell()
        nest.assert_same_structure(zero_output, new_output)
        nest.assert_same_structure(state, new_state)
        flat_new_state, flat_new_output = nest.flatten(new_state), nest.flatten(new_output)
        return control_flow_ops.cond(time < min_sequence_length,
                                     lambda: flat_new_output + flat_new_state,
                                     lambda: copy_some_through(flat_new_output, flat_new_state))

    if skip_conditionals:
        new_output, new_state = call_cell()
        nest.assert_same_structure(zero_output, new_output)
        nest.assert_same_structure(state, new_state)
        final = copy_some_through(nest.flatten(new_output), nest.flatten(new_state))
    else:
        final = control_flow_ops.cond(time >= max_sequence_length, lambda: flat_zero_output + flat_state,
                                      maybe_copy_some_through)
        final = final if isinstance(final, list) else [final]
    final_output, final_state = final[:len(flat_zero_output)], final[len(flat_zero_output):]
    for t, like in zip(final_output + final_state, flat_zero_output + flat_state):
        if not isinstance(t, TensorArray):
            t.set_shape(like.shape)
    return (nest.pack_sequence_as(zero_output, final_output), nest.pack_sequence_as(state, final_state))


def static_rnn(cell, inputs, initial_state=None, dtype=None, sequence_length=None, scope=None):
    """``tf.nn.static_rnn``: ``cell`` applied to each tensor of the list ``inputs`` ([batch, depth] each)
    in turn, in the variable scope ``scope`` (default ``rnn``). Returns (list of outputs, final state).
    Without ``initial_state`` the state starts at zeros of ``dtype``. With ``sequence_length`` (one length
    per batch row), outputs past a row's length are zeros and its state stops changing."""
    assert_like_rnncell("cell", cell)
    if not nest.is_nested(inputs):
        raise TypeError("Argument `inputs` must be a sequence. Received: %s" % (inputs,))
    if not inputs:
        raise ValueError("Argument `inputs` must not be empty.")
    outputs = []
    with vs.variable_scope(scope or "rnn") as varscope:
        first_input = inputs
        while nest.is_nested(first_input):
            first_input = first_input[0]
        if first_input.shape.ndims != 1:
            fixed_batch_size = first_input.shape.with_rank_at_least(2)[0]
            for flat_input in nest.flatten(inputs):
                input_shape = flat_input.shape.with_rank_at_least(2)
                fixed_batch_size.assert_is_compatible_with(input_shape[0])
                for i, size in enumerate(input_shape.dims[1:]):
                    if size.value is None:
                        raise ValueError("Input size (dimension %d of input %s) must be accessible via shape "
                                         "inference, but saw value None." % (i, flat_input))
        else:
            fixed_batch_size = first_input.shape[0]
        batch_size = fixed_batch_size.value or array_ops.shape(first_input)[0]
        state = initial_state_of(cell, initial_state, batch_size, dtype)

        if sequence_length is not None:
            sequence_length = convert_to_tensor(sequence_length, name="sequence_length")
            if sequence_length.shape.ndims not in (None, 1):
                raise ValueError("Argument `sequence_length` must be a vector of length %s. Received "
                                 "sequence_length=%s." % (batch_size, sequence_length))

            def zero_output_for(output_size):
                output = array_ops.zeros(concat_sizes(batch_size, output_size), infer_state_dtype(dtype, state))
                static = concat_sizes(fixed_batch_size.value, output_size, static=True)
                if static is not None:
                    output.set_shape(static)
                return output
            output_size = cell.output_size
            zero_output = nest.pack_sequence_as(
                output_size, [zero_output_for(size) for size in nest.flatten(output_size)])
            sequence_length = math_ops.cast(sequence_length, "int32")
            min_sequence_length = math_ops.reduce_min(sequence_length)
            max_sequence_length = math_ops.reduce_max(sequence_length)

        for time, input_ in enumerate(inputs):
            if time > 0:
                varscope.reuse_variables()

            def call_cell(input_=input_, state=state):
                return cell(input_, state)
            if sequence_length is not None:
                output, state = rnn_step(time, sequence_length, min_sequence_length, max_sequence_length,
                                          zero_output, state, call_cell)
            else:
                output, state = call_cell()
            outputs.append(output)
        return outputs, state


def reverse_seq(input_seq, lengths):
    """The list of time steps reversed; with ``lengths``, each row's first ``length`` steps reversed
    (stack, ReverseSequence, unstack), the padding left in place."""
    if lengths is None:
        return list(reversed(input_seq))
    flat_input_seq = tuple(nest.flatten(input_) for input_ in input_seq)
    flat_results = [[] for _ in input_seq]
    for sequence in zip(*flat_input_seq):
        shape = tensor_shape.unknown_shape(sequence[0].shape.ndims) if sequence[0].shape.ndims is not None \
            else tensor_shape.UNKNOWN
        for input_ in sequence:
            shape.assert_is_compatible_with(input_.shape)
            input_.set_shape(shape)
        reversed_ = array_ops.reverse_sequence(array_ops.stack(sequence), lengths, 0, 1)
        for r, flat_result in zip(array_ops.unstack(reversed_), flat_results):
            r.set_shape(shape)
            flat_result.append(r)
    return [nest.pack_sequence_as(input_, flat) for input_, flat in zip(input_seq, flat_results)]


def static_bidirectional_rnn(cell_fw, cell_bw, inputs, initial_state_fw=None, initial_state_bw=None, dtype=None,
                             sequence_length=None, scope=None):
    """``tf.nn.static_bidirectional_rnn``: a forward ``static_rnn`` (scope ``fw``) and one over the reversed
    inputs (``bw``), under ``bidirectional_rnn``; each step's outputs are concatenated ``[fw, bw]``.
    Returns (outputs, final forward state, final backward state)."""
    assert_like_rnncell("cell_fw", cell_fw)
    assert_like_rnncell("cell_bw", cell_bw)
    if not nest.is_nested(inputs):
        raise TypeError("Argument `inputs` must be a sequence. Received: %s" % (inputs,))
    if not inputs:
        raise ValueError("Argument `inputs` must not be empty.")
    with vs.variable_scope(scope or "bidirectional_rnn"):
        with vs.variable_scope("fw") as fw_scope:
            output_fw, state_fw = static_rnn(cell_fw, inputs, initial_state_fw, dtype, sequence_length,
                                             scope=fw_scope)
        with vs.variable_scope("bw") as bw_scope:
            reversed_inputs = reverse_seq(inputs, sequence_length)
            tmp, state_bw = static_rnn(cell_bw, reversed_inputs, initial_state_bw, dtype, sequence_length,
                                       scope=bw_scope)
    output_bw = reverse_seq(tmp, sequence_length)
    flat_outputs = tuple(array_ops.concat([fw, bw], 1)
                         for fw, bw in zip(nest.flatten(output_fw), nest.flatten(output_bw)))
    return nest.pack_sequence_as(output_fw, flat_outputs), state_fw, state_bw


__all__ = ["static_rnn", "static_bidirectional_rnn"]
