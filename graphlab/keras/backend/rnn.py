"""``K.rnn``: Keras's own loop over time steps (not tf.nn.dynamic_rnn): the inputs, time-major, go into a
TensorArray; the step function runs once on step 0 outside the loop (to learn the output's shape), then
in a ``while`` loop that writes each output to a second TensorArray; the last output is the stacked
outputs' last row (TF1 Keras always keeps every step's output). With a mask, a masked step keeps the previous
output and states (or zeros, ``zero_output_for_mask``). Unrolling is not implemented."""
from graphlab.framework import dtypes, nest
from graphlab.framework.registry import constant
from graphlab.ops import array_ops, math_ops
from graphlab.ops.tensor_array import TensorArray
from graphlab.ops.while_loop import while_loop


def _swap_batch_timestep(x):
    axes = list(range(len(x.shape)))
    axes[0], axes[1] = 1, 0
    return array_ops.transpose(x, axes)


def _expand_mask(mask_t, input_t, fixed_dim=1):
    """The step's mask broadcast (tiled) to an output's or state's shape."""
    for _ in range(len(input_t.shape) - len(mask_t.shape)):
        mask_t = array_ops.expand_dims(mask_t, -1)
    multiples = [1] * fixed_dim + input_t.shape.as_list()[fixed_dim:]
    return array_ops.tile(mask_t, multiples)


def rnn(step_function, inputs, initial_states, go_backwards=False, mask=None, constants=None, unroll=False,
        input_length=None, time_major=False, zero_output_for_mask=False, return_all_outputs=True):
    """(last_output, outputs, new_states) of ``step_function(input_t, states)`` run over the time axis."""
    if unroll:
        raise NotImplementedError("graphlab's K.rnn does not implement unroll=True (build the loop, or use "
                                  "tf.nn.static_rnn)")
    if not time_major:
        inputs = nest.map_structure(_swap_batch_timestep, inputs)
    flat_inputs = nest.flatten(inputs)
    time_steps = flat_inputs[0].shape.as_list()[0]
    batch = flat_inputs[0].shape.as_list()[1]
    time_steps_t = array_ops.shape(flat_inputs[0])[0]
    for x in flat_inputs:
        x.shape.with_rank_at_least(3)
    if mask is not None:
        if mask.dtype != dtypes.bool:
            mask = math_ops.cast(mask, dtypes.bool)
        if len(mask.shape) == 2:
            mask = array_ops.expand_dims(mask, -1)
        if not time_major:
            mask = _swap_batch_timestep(mask)
    constants = list(constants or [])
    states = tuple(initial_states)
    input_ta = tuple(TensorArray(dtype=x.dtype, size=time_steps_t, tensor_array_name="input_ta_%d" % i)
                     for i, x in enumerate(flat_inputs))
    input_ta = tuple(ta.unstack(x) if not go_backwards else ta.unstack(array_ops.reverse(x, [0]))
                     for ta, x in zip(input_ta, flat_inputs))
    input_time_zero = nest.pack_sequence_as(inputs, [x[0] for x in flat_inputs])
    output_time_zero, _ = step_function(input_time_zero, tuple(initial_states) + tuple(constants))
    output_ta = tuple(TensorArray(dtype=out.dtype, size=time_steps_t, element_shape=out.shape,
                                  tensor_array_name="output_ta_%d" % i)
                      for i, out in enumerate(nest.flatten(output_time_zero)))
    time = constant(0, dtype="int32", name="time")

    loop_kwargs = {"parallel_iterations": 32, "swap_memory": True}
    if mask is not None:
        if go_backwards:
            mask = array_ops.reverse(mask, [0])
        mask_ta = TensorArray(dtype=dtypes.bool, size=time_steps_t, tensor_array_name="mask_ta").unstack(mask)
        flat_zero_output = tuple(array_ops.zeros_like(o) for o in nest.flatten(output_time_zero))

        def masked(mask_t, flat_out, flat_alternative):
            tiled = tuple(_expand_mask(mask_t, o, fixed_dim=len(mask_t.shape)) for o in flat_out)
            return tuple(array_ops.where_v2(m, o, a) for m, o, a in zip(tiled, flat_out, flat_alternative))

        def _masked_step(time, output_ta_t, prev_output, *states):
            current_input = nest.pack_sequence_as(inputs, tuple(ta.read(time) for ta in input_ta))
            mask_t = mask_ta.read(time)
            output, new_states = step_function(current_input, tuple(states) + tuple(constants))
            flat_new_output = masked(mask_t, nest.flatten(output),
                                     flat_zero_output if zero_output_for_mask else nest.flatten(prev_output))
            flat_state, flat_new_state = nest.flatten(states), nest.flatten(new_states)
            for state, new_state in zip(flat_state, flat_new_state):
                if hasattr(new_state, "set_shape"):
                    new_state.set_shape(state.shape)
            new_states = nest.pack_sequence_as(list(new_states), masked(mask_t, flat_new_state, flat_state))
            output_ta_t = tuple(ta.write(time, out) for ta, out in zip(output_ta_t, flat_new_output))
            return (time + 1, output_ta_t, tuple(flat_new_output)) + tuple(new_states)

        final = while_loop(lambda time, *_: time < time_steps_t, _masked_step,
                           (time, output_ta, flat_zero_output) + states, **loop_kwargs)
        new_states = final[3:]
    else:
        def _step(time, output_ta_t, *states):
            current_input = nest.pack_sequence_as(inputs, tuple(ta.read(time) for ta in input_ta))
            output, new_states = step_function(current_input, tuple(states) + tuple(constants))
            flat_state, flat_new_state = nest.flatten(states), nest.flatten(new_states)
            for state, new_state in zip(flat_state, flat_new_state):
                if hasattr(new_state, "set_shape"):
                    new_state.set_shape(state.shape)
            output_ta_t = tuple(ta.write(time, out) for ta, out in zip(output_ta_t, nest.flatten(output)))
            new_states = nest.pack_sequence_as(list(initial_states), flat_new_state)
            return (time + 1, output_ta_t) + tuple(new_states)

        final = while_loop(lambda time, *_: time < time_steps_t, _step, (time, output_ta) + states, **loop_kwargs)
        new_states = final[2:]
    outputs = tuple(o.stack() for o in final[1])
    last_output = tuple(o[-1] for o in outputs)
    outputs = nest.pack_sequence_as(output_time_zero, outputs)
    last_output = nest.pack_sequence_as(output_time_zero, last_output)

    def set_shape(output):
        if hasattr(output, "set_shape"):
            shape = output.shape.as_list()
            shape[0] = time_steps
            shape[1] = batch
            output.set_shape(shape)
        return output
    outputs = nest.map_structure(set_shape, outputs)
    if not time_major:
        outputs = nest.map_structure(_swap_batch_timestep, outputs)
    return last_output, outputs, new_states
