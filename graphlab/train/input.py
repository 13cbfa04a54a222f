"""TF1's queue-based input pipeline builders, op for op as TensorFlow builds them: ``batch``,
``shuffle_batch``, ``batch_join``, ``shuffle_batch_join``, ``maybe_batch``, ``maybe_shuffle_batch``,
``input_producer``, ``string_input_producer``, ``range_input_producer``, ``slice_input_producer`` and
``limit_epochs``. Each adds a QueueRunner to the graph and a ``fraction_of_N_full`` summary of its queue.
"""
from graphlab.framework import dtypes, graph as graph_mod, tensor_shape
from graphlab.framework.graph import GraphKeys
from graphlab.framework.tensor import Tensor
from graphlab.ops import array_ops, control_flow_ops, data_flow_ops, math_ops, random_ops, state_ops
from graphlab.ops.logging_ops import Assert
from graphlab.framework.registry import constant, convert_to_tensor, const_value
from graphlab.train.queue_runner import QueueRunner, add_queue_runner


def _summary(name, value):
    from graphlab.summary import summary_ops
    summary_ops.scalar(name, value)


# ------------------------------------------------------------------------------------------ producers
def match_filenames_once(pattern, name=None):
    """``tf.train.match_filenames_once``: a local variable holding the files matching ``pattern``."""
    from graphlab.ops.reader_ops import matching_files
    from graphlab.ops.variables import Variable
    with graph_mod.name_scope(name, "matching_filenames", [pattern]) as name:
        return Variable(name=name, initial_value=matching_files(pattern), trainable=False, validate_shape=False,
                        collections=[GraphKeys.LOCAL_VARIABLES])


def limit_epochs(tensor, num_epochs=None, name=None):
    """``tensor`` ``num_epochs`` times, then OutOfRangeError (a local ``epochs`` variable counts)."""
    if num_epochs is None:
        return tensor
    if num_epochs <= 0:
        raise ValueError("num_epochs must be > 0 not %d." % num_epochs)
    from graphlab.ops.variables import Variable
    with graph_mod.name_scope(name, "limit_epochs", [tensor]) as name:
        zero64 = constant(0, dtype=dtypes.int64)
        epochs = Variable(zero64, name="epochs", trainable=False, collections=[GraphKeys.LOCAL_VARIABLES])
        counter = state_ops.count_up_to(epochs, num_epochs)
        with graph_mod.get_default_graph().control_dependencies([counter]):
            return array_ops.identity(tensor, name=name)


def input_producer(input_tensor, element_shape=None, num_epochs=None, shuffle=True, seed=None, capacity=32,
                   shared_name=None, summary_name=None, name=None, cancel_op=None):
    """A FIFO queue filled (by a QueueRunner) with the rows of ``input_tensor``, shuffled each epoch."""
    with graph_mod.name_scope(name, "input_producer", [input_tensor]):
        input_tensor = convert_to_tensor(input_tensor, name="input_tensor")
        element_shape = input_tensor.shape[1:].merge_with(tensor_shape.as_shape(element_shape)
                                                          if element_shape is not None else tensor_shape.UNKNOWN)
        if not element_shape.is_fully_defined():
            raise ValueError("Either `input_tensor` must have a fully defined shape or `element_shape` must be "
                             "specified")
        if shuffle:
            input_tensor = random_ops.random_shuffle(input_tensor, seed=seed)
        input_tensor = limit_epochs(input_tensor, num_epochs)
        q = data_flow_ops.FIFOQueue(capacity=capacity, dtypes=[input_tensor.dtype.base_dtype],
                                    shapes=[element_shape], shared_name=shared_name, name=name)
        enq = q.enqueue_many([input_tensor])
        add_queue_runner(QueueRunner(q, [enq], cancel_op=cancel_op))
        if summary_name is not None:
            _summary(summary_name, math_ops.cast(q.size(), dtypes.float32) * (1. / capacity))
        return q


def string_input_producer(string_tensor, num_epochs=None, shuffle=True, seed=None, capacity=32,
                          shared_name=None, name=None, cancel_op=None):
    """A queue of file names (or any strings) for a reader, ``num_epochs`` times over."""
    not_null_err = "string_input_producer requires a non-null input tensor"
    if not isinstance(string_tensor, Tensor) and not len(string_tensor):
        raise ValueError(not_null_err)
    with graph_mod.name_scope(name, "input_producer", [string_tensor]) as name:
        string_tensor = convert_to_tensor(string_tensor, dtype=dtypes.string)
        check = Assert(math_ops.greater(array_ops.size(string_tensor), 0), [not_null_err])
        with graph_mod.get_default_graph().control_dependencies([check]):
            string_tensor = array_ops.identity(string_tensor)
        return input_producer(input_tensor=string_tensor, element_shape=[], num_epochs=num_epochs,
                              shuffle=shuffle, seed=seed, capacity=capacity, shared_name=shared_name, name=name,
                              summary_name="fraction_of_%i_full" % capacity, cancel_op=cancel_op)


def range_input_producer(limit, num_epochs=None, shuffle=True, seed=None, capacity=32, shared_name=None,
                         name=None):
    """A queue of the integers 0 .. limit-1."""
    with graph_mod.name_scope(name, "input_producer", [limit]) as name:
        range_tensor = array_ops.range(limit)
        return input_producer(range_tensor, [], num_epochs, shuffle, seed, capacity, shared_name,
                              "fraction_of_%d_full" % capacity, name)


def slice_input_producer(tensor_list, num_epochs=None, shuffle=True, seed=None, capacity=32,
                         shared_name=None, name=None):
    """One row of each tensor at a time (the same row of each), from a range_input_producer of indices."""
    with graph_mod.name_scope(name, "input_producer", tensor_list):
        tensor_list = [convert_to_tensor(t) for t in tensor_list]
        if not tensor_list:
            raise ValueError("Expected at least one tensor in slice_input_producer().")
        range_size = array_ops.shape(tensor_list[0])[0]
        queue = range_input_producer(range_size, num_epochs=num_epochs, shuffle=shuffle, seed=seed,
                                     capacity=capacity, shared_name=shared_name)
        index = queue.dequeue()
        return [array_ops.gather(t, index) for t in tensor_list]


# ------------------------------------------------------------------------------------------ batching
def _flatten(tensors):
    if isinstance(tensors, dict):
        return [tensors[k] for k in sorted(tensors)]
    if isinstance(tensors, (list, tuple)):
        out = []
        for t in tensors:
            out.extend(_flatten(t))
        return out
    return [tensors]


def _as_original_type(original, dequeued):
    """What TF's batching functions return: a dict for a dict, else the dequeued list, except that one tensor
    comes back as a tensor, not a list of one (TF's own quirk: ``tf.train.batch([x], ...)`` is a Tensor)."""
    if isinstance(original, dict):
        return {k: dequeued[i] for i, k in enumerate(sorted(original, key=str))}
    return dequeued[0] if len(dequeued) == 1 else list(dequeued)


def _validate_keep_input(keep_input, enqueue_many):
    keep_input = convert_to_tensor(keep_input)
    if keep_input.shape.ndims is None:
        raise ValueError("`keep_input` dimensions must be known at graph construction.")
    if not enqueue_many and keep_input.shape.ndims == 1:
        raise ValueError("`keep_input` cannot be a vector when `enqueue_many=False`.")
    if keep_input.shape.ndims > 1:
        raise ValueError("`keep_input` must be 0 or 1 dimensions.")
    return keep_input


def _shapes(tensor_list_list, shapes, enqueue_many):
    if shapes is None:
        first = tensor_list_list[0]
        shapes = [t.shape[1:] if enqueue_many else t.shape for t in first]
        for tl in tensor_list_list[1:]:
            shapes = [s.merge_with(t.shape[1:] if enqueue_many else t.shape) for s, t in zip(shapes, tl)]
        for s, t in zip(shapes, first):
            if not s.is_fully_defined():
                raise ValueError("All shapes must be fully defined: %s" % [t.shape for t in first])
    return [tensor_shape.as_shape(s) for s in shapes]


def _dynamic_shapes(tensor_list_list, shapes, enqueue_many):
    if shapes is not None:
        return [tensor_shape.as_shape(s) for s in shapes]
    first = tensor_list_list[0]
    shapes = [t.shape[1:] if enqueue_many else t.shape for t in first]
    if any(s.ndims is None for s in shapes):
        raise ValueError("When dynamic_pad=True, all tensors must have known rank: %s" % shapes)
    return shapes


def _enqueue(queue, tensor_list_list, threads, enqueue_many, keep_input, join):
    fn = queue.enqueue_many if enqueue_many else queue.enqueue
    known = const_value(keep_input)
    if known is not None and known.ndim == 0 and bool(known):
        ops = [fn(tl) for tl in tensor_list_list] if join else [fn(tensor_list_list[0])] * threads
    elif enqueue_many:
        def masked(tl):
            return fn([array_ops.boolean_mask(t, keep_input) for t in tl])
        ops = [masked(tl) for tl in tensor_list_list] if join else [masked(tensor_list_list[0])] * threads
    else:
        def maybe(tl):
            return control_flow_ops.cond(keep_input, lambda: fn(tl), control_flow_ops.no_op)
        ops = [maybe(tl) for tl in tensor_list_list] if join else [maybe(tensor_list_list[0])] * threads
    add_queue_runner(QueueRunner(queue, ops))


def _batch(tensors_list, batch_size, num_threads, capacity, enqueue_many, shapes, dynamic_pad,
           allow_smaller_final_batch, shared_name, name, keep_input, default_name, join,
           min_after_dequeue=None, seed=None):
    flat_list = [_flatten(t) for t in tensors_list]
    with graph_mod.name_scope(name, default_name, flat_list[0] + [keep_input]) as name:
        keep_input = _validate_keep_input(keep_input, enqueue_many)
        flat_list = [[convert_to_tensor(t) for t in fl] for fl in flat_list]
        types = [t.dtype.base_dtype for t in flat_list[0]]
        if min_after_dequeue is None:
            shapes = (_dynamic_shapes if dynamic_pad else _shapes)(flat_list, shapes, enqueue_many)
            queue_class = data_flow_ops.PaddingFIFOQueue if dynamic_pad else data_flow_ops.FIFOQueue
            queue = queue_class(capacity=capacity, dtypes=types, shapes=shapes, shared_name=shared_name)
        else:
            shapes = _shapes(flat_list, shapes, enqueue_many)
            queue = data_flow_ops.RandomShuffleQueue(capacity=capacity, min_after_dequeue=min_after_dequeue,
                                                     seed=seed, dtypes=types, shapes=shapes,
                                                     shared_name=shared_name)
        _enqueue(queue, flat_list, num_threads, enqueue_many, keep_input, join)
        if min_after_dequeue is None:
            full = math_ops.cast(queue.size(), dtypes.float32) * (1. / capacity)
            _summary("fraction_of_%d_full" % capacity, full)
        else:
            full = math_ops.cast(math_ops.maximum(0, queue.size() - min_after_dequeue), dtypes.float32) * (
                1. / (capacity - min_after_dequeue))
            _summary("fraction_over_%d_of_%d_full" % (min_after_dequeue, capacity - min_after_dequeue), full)
        if allow_smaller_final_batch:
            dequeued = queue.dequeue_up_to(batch_size, name=name)
        else:
            dequeued = queue.dequeue_many(batch_size, name=name)
        if not isinstance(dequeued, list):
            dequeued = [dequeued]
        return _as_original_type(tensors_list[0], dequeued)


def batch(tensors, batch_size, num_threads=1, capacity=32, enqueue_many=False, shapes=None, dynamic_pad=False,
          allow_smaller_final_batch=False, shared_name=None, name=None):
    """``tf.train.batch``: batches of ``batch_size`` from a FIFO queue that ``num_threads`` runners fill."""
    return _batch([tensors], batch_size, num_threads, capacity, enqueue_many, shapes, dynamic_pad,
                  allow_smaller_final_batch, shared_name, name, True, "batch", False)


def maybe_batch(tensors, keep_input, batch_size, num_threads=1, capacity=32, enqueue_many=False, shapes=None,
                dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None, name=None):
    """``tf.train.maybe_batch``: like batch, but only elements whose ``keep_input`` is true are enqueued."""
    return _batch([tensors], batch_size, num_threads, capacity, enqueue_many, shapes, dynamic_pad,
                  allow_smaller_final_batch, shared_name, name, keep_input, "batch", False)


def batch_join(tensors_list, batch_size, capacity=32, enqueue_many=False, shapes=None, dynamic_pad=False,
               allow_smaller_final_batch=False, shared_name=None, name=None):
    """``tf.train.batch_join``: one runner thread per tensor list, all into one queue."""
    return _batch(list(tensors_list), batch_size, len(tensors_list), capacity, enqueue_many, shapes, dynamic_pad,
                  allow_smaller_final_batch, shared_name, name, True, "batch_join", True)


def shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, num_threads=1, seed=None, enqueue_many=False,
                  shapes=None, allow_smaller_final_batch=False, shared_name=None, name=None):
    """``tf.train.shuffle_batch``: batches drawn at random from a RandomShuffleQueue that keeps at least
    ``min_after_dequeue`` elements to mix (until the input ends)."""
    return _batch([tensors], batch_size, num_threads, capacity, enqueue_many, shapes, False,
                  allow_smaller_final_batch, shared_name, name, True, "shuffle_batch", False,
                  min_after_dequeue, seed)


def maybe_shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, keep_input, num_threads=1, seed=None,
                        enqueue_many=False, shapes=None, allow_smaller_final_batch=False, shared_name=None,
                        name=None):
    return _batch([tensors], batch_size, num_threads, capacity, enqueue_many, shapes, False,
                  allow_smaller_final_batch, shared_name, name, keep_input, "shuffle_batch", False,
                  min_after_dequeue, seed)


def shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, seed=None, enqueue_many=False,
                       shapes=None, allow_smaller_final_batch=False, shared_name=None, name=None):
    return _batch(list(tensors_list), batch_size, len(tensors_list), capacity, enqueue_many, shapes, False,
                  allow_smaller_final_batch, shared_name, name, True, "shuffle_batch_join", True,
                  min_after_dequeue, seed)


# ----------------------------------------------------------------- deprecated maybe_*_join helpers
def maybe_batch_join(tensors_list, keep_input, batch_size, capacity=32, enqueue_many=False, shapes=None,
                     dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None, name=None):
    """``tf.train.maybe_batch_join``: batch_join, enqueuing only elements whose ``keep_input`` is true."""
    return _batch(list(tensors_list), batch_size, len(tensors_list), capacity, enqueue_many, shapes, dynamic_pad,
                  allow_smaller_final_batch, shared_name, name, keep_input, "batch_join", True)


def maybe_shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, keep_input, seed=None,
                             enqueue_many=False, shapes=None, allow_smaller_final_batch=False, shared_name=None,
                             name=None):
    """``tf.train.maybe_shuffle_batch_join``: shuffle_batch_join, keeping only elements with ``keep_input``."""
    return _batch(list(tensors_list), batch_size, len(tensors_list), capacity, enqueue_many, shapes, False,
                  allow_smaller_final_batch, shared_name, name, keep_input, "shuffle_batch_join", True,
                  min_after_dequeue, seed)


__all__ = ["maybe_batch_join", "maybe_shuffle_batch_join", "batch", "batch_join", "input_producer", "limit_epochs", "match_filenames_once", "maybe_batch", "maybe_shuffle_batch",
           "range_input_producer", "shuffle_batch", "shuffle_batch_join", "slice_input_producer",
           "string_input_producer"]
