"""``tf.nn.dynamic_rnn`` and ``tf.nn.bidirectional_dynamic_rnn``: the cell run inside a ``tf.while_loop``.

Unlike static_rnn, the graph does not grow with the sequence: the inputs go into a TensorArray
(``rnn/dynamic_rnn/input_0``), one loop iteration reads step ``time``, calls the cell once (its ops live in
the loop frame, ``rnn/while/basic_lstm_cell/...``) and writes the output to another TensorArray, stacked
after the loop. Built exactly as TF 2.21 builds it, so graphs, checkpoints and GraphDefs match TensorFlow's.
"""
from graphlab.framework import dtypes, graph as graph_mod, nest, tensor_shape
from graphlab.framework.tensor import Tensor
from graphlab.ops import array_ops, logging_ops, math_ops
from graphlab.framework.registry import const_value, constant, convert_to_tensor
from graphlab.ops.rnn import infer_state_dtype, initial_state_of, rnn_step
from graphlab.ops.rnn_cell_impl import assert_like_rnncell, concat_sizes
from graphlab.ops.tensor_array import TensorArray
from graphlab.ops.while_loop import while_loop
from graphlab.ops import variable_scope as vs


def _transpose_batch_time(x):
    """[batch, time, ...] <-> [time, batch, ...], keeping what is known of the shape."""
    shape = x.shape
    if shape.ndims is not None and shape.ndims < 2:
        return x
    perm = array_ops.concat(([1, 0], array_ops.range(2, array_ops.rank(x))), axis=0)
    x_t = array_ops.transpose(x, perm)
    x_t.set_shape(tensor_shape.TensorShape([shape[1].value, shape[0].value]).concatenate(shape[2:]))
    return x_t


def _best_effort_input_batch_size(flat_input):
    """The batch size of time-major inputs: an int when some input knows it, else a tensor."""
    for input_ in flat_input:
        shape = input_.shape
        if shape.ndims is None:
            continue
        if shape.ndims < 2:
            raise ValueError("Input tensor should have rank >= 2. Received input=%s of rank %d"
                             % (input_, shape.ndims))
        if shape[1].value is not None:
            return shape[1].value
    return array_ops.shape(flat_input[0])[1]


def _assert_has_shape(x, shape):
    x_shape = array_ops.shape(x)
    packed_shape = array_ops.stack(shape)
    return logging_ops.Assert(math_ops.reduce_all(math_ops.equal(x_shape, packed_shape)),
                              ["Expected shape for Tensor %s is " % x.name, packed_shape, " but saw shape: ", x_shape])


def dynamic_rnn(cell, inputs, sequence_length=None, initial_state=None, dtype=None, parallel_iterations=None,
                swap_memory=False, time_major=False, scope=None):
    """``tf.nn.dynamic_rnn``: ``cell`` over the time axis of ``inputs`` ([batch, time, depth], or
    [time, batch, depth] with ``time_major``) in a while loop. Returns (outputs shaped like the inputs'
    batch and time axes, final state). With ``sequence_length`` a row's outputs are zeros after its end
    and its state stops changing there; the loop stops after the longest sequence."""
    assert_like_rnncell("cell", cell)
    with vs.variable_scope(scope or "rnn"):
        flat_input = nest.flatten(inputs)
        if not time_major:
            flat_input = tuple(_transpose_batch_time(convert_to_tensor(t)) for t in flat_input)
        parallel_iterations = parallel_iterations or 32
        if sequence_length is not None:
            sequence_length = math_ops.cast(sequence_length, dtypes.int32)
            if sequence_length.shape.ndims not in (None, 1):
                raise ValueError("Argument sequence_length must be a vector of length batch_size. Received "
                                 "sequence_length=%s of shape: %s" % (sequence_length, sequence_length.shape))
            sequence_length = array_ops.identity(sequence_length, name="sequence_length")
        batch_size = _best_effort_input_batch_size(flat_input)
        state = initial_state_of(cell, initial_state, batch_size, dtype)
        if sequence_length is not None:
            graph = graph_mod.get_default_graph()
            with graph.control_dependencies([_assert_has_shape(sequence_length, [batch_size])]):
                sequence_length = array_ops.identity(sequence_length, name="CheckSeqLen")
        inputs = nest.pack_sequence_as(inputs, flat_input)
        outputs, final_state = _dynamic_rnn_loop(cell, inputs, state, parallel_iterations, swap_memory,
                                                 sequence_length, dtype)
        if not time_major:
            outputs = nest.map_structure(_transpose_batch_time, outputs)
        return outputs, final_state


def _dynamic_rnn_loop(cell, inputs, initial_state, parallel_iterations, swap_memory, sequence_length=None,
                      dtype=None):
    """The while loop over time-major ``inputs``: returns (time-major outputs, final state)."""
    state = initial_state
    flat_input = nest.flatten(inputs)
    flat_output_size = nest.flatten(cell.output_size)
    time_steps = array_ops.shape(flat_input[0])[0]
    batch_size = _best_effort_input_batch_size(flat_input)
    got_shapes = tuple(t.shape.with_rank_at_least(3) for t in flat_input)
    const_time_steps, const_batch_size = got_shapes[0].as_list()[:2]
    for t, shape in zip(flat_input, got_shapes):
        if not shape[2:].is_fully_defined():
            raise ValueError("Input size (depth of inputs) must be accessible via shape inference, but saw "
                             "value None for input=%s." % t)
        if shape[0].value != const_time_steps:
            raise ValueError("Time steps is not the same for all the elements in the input in a batch. Received "
                             "time steps=%s for input=%s." % (shape[0].value, t))
        if shape[1].value != const_batch_size:
            raise ValueError("Batch_size is not the same for all the elements in the input. Received batch "
                             "size=%s for input=%s." % (shape[1].value, t))

    zero_output = nest.pack_sequence_as(cell.output_size, [
        array_ops.zeros(concat_sizes(batch_size, size), infer_state_dtype(dtype, state))
        for size in flat_output_size])
    if sequence_length is not None:
        min_sequence_length = math_ops.reduce_min(sequence_length)
        max_sequence_length = math_ops.reduce_max(sequence_length)
    else:
        max_sequence_length = time_steps
    time = constant(0, dtype=dtypes.int32, name="time")
    with graph_mod.name_scope("dynamic_rnn") as base_name:
        pass

    def new_array(name, element_shape, dtype):
        return TensorArray(dtype=dtype, size=time_steps, element_shape=element_shape,
                           tensor_array_name=base_name + name)
    output_ta = tuple(
        new_array("output_%d" % i, tensor_shape.TensorShape([const_batch_size]).concatenate(_static_size(size)),
                  infer_state_dtype(dtype, state))
        for i, size in enumerate(flat_output_size))
    input_ta = tuple(new_array("input_%d" % i, t.shape[1:], t.dtype) for i, t in enumerate(flat_input))
    input_ta = tuple(ta.unstack(t) for ta, t in zip(input_ta, flat_input))

    def time_step(time, output_ta_t, state):
        input_t = tuple(ta.read(time) for ta in input_ta)
        for input_, shape in zip(input_t, got_shapes):
            input_.set_shape(shape[1:])
        input_t = nest.pack_sequence_as(inputs, input_t)

        def call_cell():
            return cell(input_t, state)
        if sequence_length is not None:
            output, new_state = rnn_step(time, sequence_length, min_sequence_length, max_sequence_length,
                                         zero_output, state, call_cell, skip_conditionals=True)
        else:
            output, new_state = call_cell()
        output_ta_t = tuple(ta.write(time, out) for ta, out in zip(output_ta_t, nest.flatten(output)))
        return time + 1, output_ta_t, new_state

    loop_bound = math_ops.minimum(time_steps, math_ops.maximum(1, max_sequence_length))
    _, output_final_ta, final_state = while_loop(
        lambda time, *_: time < loop_bound, time_step, (time, output_ta, state),
        parallel_iterations=parallel_iterations, maximum_iterations=time_steps, swap_memory=swap_memory)
    final_outputs = tuple(ta.stack() for ta in output_final_ta)
    for output, size in zip(final_outputs, flat_output_size):
        static = concat_sizes([const_time_steps, const_batch_size], size, static=True)
        if static is not None:
            output.set_shape(static)
    return nest.pack_sequence_as(cell.output_size, final_outputs), final_state


def _static_size(size):
    if isinstance(size, Tensor):
        return tensor_shape.as_shape(const_value(size))
    return tensor_shape.as_shape(size)


def bidirectional_dynamic_rnn(cell_fw, cell_bw, inputs, sequence_length=None, initial_state_fw=None,
                              initial_state_bw=None, dtype=None, parallel_iterations=None, swap_memory=False,
                              time_major=False, scope=None):
    """``tf.nn.bidirectional_dynamic_rnn``: a forward dynamic_rnn (scope ``fw``) and one over the inputs
    reversed in time (``bw``; each row's first ``sequence_length`` steps when given), under
    ``bidirectional_rnn``. Returns ((output_fw, output_bw), (state_fw, state_bw)), the backward outputs
    reversed back into input order."""
    assert_like_rnncell("cell_fw", cell_fw)
    assert_like_rnncell("cell_bw", cell_bw)
    time_axis, batch_axis = (0, 1) if time_major else (1, 0)

    def reverse(input_):
        if sequence_length is not None:
            return array_ops.reverse_sequence(input=input_, seq_lengths=sequence_length, seq_axis=time_axis,
                                              batch_axis=batch_axis)
        return array_ops.reverse(input_, axis=[time_axis])

    with vs.variable_scope(scope or "bidirectional_rnn"):
        with vs.variable_scope("fw") as fw_scope:
            output_fw, state_fw = dynamic_rnn(
                cell=cell_fw, inputs=inputs, sequence_length=sequence_length, initial_state=initial_state_fw,
                dtype=dtype, parallel_iterations=parallel_iterations, swap_memory=swap_memory,
                time_major=time_major, scope=fw_scope)
        with vs.variable_scope("bw") as bw_scope:
            inputs_reverse = nest.map_structure(reverse, inputs)
            tmp, state_bw = dynamic_rnn(
                cell=cell_bw, inputs=inputs_reverse, sequence_length=sequence_length,
                initial_state=initial_state_bw, dtype=dtype, parallel_iterations=parallel_iterations,
                swap_memory=swap_memory, time_major=time_major, scope=bw_scope)
    output_bw = reverse(tmp)
    return (output_fw, output_bw), (state_fw, state_bw)


__all__ = ["dynamic_rnn", "bidirectional_dynamic_rnn"]
