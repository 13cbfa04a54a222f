"""Queues as TensorFlow 1 has them: ``FIFOQueue``, ``RandomShuffleQueue``, ``PaddingFIFOQueue`` and
``PriorityQueue``, with their V2 ops. A queue's contents live in the session (graphlab/ops/queue_state.py),
so an enqueue run through one pruned plan is seen by a dequeue run through another, and by other threads.

The kernels block as TF's do: a dequeue waits for enough elements, for ``close`` (then ``OutOfRangeError``)
or for the run's deadline (``DeadlineExceededError``); an enqueue waits for room. A dequeue that fails or is
interrupted puts back what it had taken, so nothing is lost.
"""
import hashlib
import weakref

import numpy as np

from graphlab.framework import dtypes, random_seed, tensor_shape
from graphlab.formats.errors import CancelledError, InvalidArgumentError, OutOfRangeError
from graphlab.framework import graph as graph_mod
from graphlab.framework import registry
from graphlab.ops import queue_state
from graphlab.framework.registry import NOT_DIFFERENTIABLE, build_op, no_outputs, register_op
from graphlab.runtime.waiting import wait_for

_HANDLE = [(dtypes.resource, tensor_shape.SCALAR)]


def _queue_state(ctx, make):
    """The session's state for this queue op (created on first run; shared_name shares it)."""
    key = ("__queue__", ctx.attrs.get("shared_name") or ctx.op.name)
    q = ctx.state.get(key)
    if q is None:
        with ctx.session._lock:
            q = ctx.state.get(key)
            if q is None:
                # TF's resource name: the shared name when there is one, else private "_<n>_<node name>"
                shared = ctx.attrs.get("shared_name")
                number = sum(1 for k in ctx.state if isinstance(k, tuple) and k[0] == "__queue__")
                q = ctx.state[key] = make(shared or "_%d_%s" % (number, ctx.op.name.split("/")[-1]))
    return q


register_op("FIFOQueueV2", outputs=lambda op: _HANDLE, grad=NOT_DIFFERENTIABLE, stateful=True,
            kernel=lambda ctx: _queue_state(ctx, lambda n: queue_state.FIFOState(n, ctx.attrs["capacity"])),
            doc="A first-in first-out queue owned by the session; outputs its handle.")
register_op("PaddingFIFOQueueV2", outputs=lambda op: _HANDLE, grad=NOT_DIFFERENTIABLE, stateful=True,
            kernel=lambda ctx: _queue_state(ctx, lambda n: queue_state.PaddingFIFOState(n, ctx.attrs["capacity"])),
            doc="A FIFO queue whose dequeue_many pads components to the largest shape in the batch.")
register_op("PriorityQueueV2", outputs=lambda op: _HANDLE, grad=NOT_DIFFERENTIABLE, stateful=True,
            kernel=lambda ctx: _queue_state(ctx, lambda n: queue_state.PriorityState(n, ctx.attrs["capacity"])),
            doc="A queue whose elements leave lowest int64 priority (component 0) first.")
register_op("RandomShuffleQueueV2", outputs=lambda op: _HANDLE, grad=NOT_DIFFERENTIABLE, stateful=True,
            kernel=lambda ctx: _queue_state(ctx, lambda n: queue_state.RandomShuffleState(
                n, ctx.attrs["capacity"], ctx.attrs["min_after_dequeue"], ctx.attrs["seed"], ctx.attrs["seed2"])),
            doc="A queue that dequeues uniformly at random, keeping min_after_dequeue elements until closed.")

_QUEUE_TYPES = ("FIFOQueueV2", "PaddingFIFOQueueV2", "PriorityQueueV2", "RandomShuffleQueueV2")


def queue_op_of(tensor):
    """The queue op behind a queue handle tensor (through Identity), or None."""
    op = tensor._op
    while op._type == "Identity" and op._inputs:
        op = op._inputs[0]._op
    return op if op._type in _QUEUE_TYPES else None


def _components(queue_op):
    """(dtypes, shapes) of a queue's elements as its dequeues output them (priority first)."""
    types = list(queue_op._attrs["component_types"])
    shapes = list(queue_op._attrs["shapes"]) or [tensor_shape.UNKNOWN] * len(types)
    if queue_op._type == "PriorityQueueV2":
        types, shapes = [dtypes.int64] + types, [tensor_shape.SCALAR] + shapes
    return types, shapes


# ------------------------------------------------------------------------------------------ enqueue
_ELEMENT_SHAPES = weakref.WeakKeyDictionary()     # enqueue op -> its queue's component shapes, as tuples


def _element_shapes(op):
    """The shapes an enqueue op's elements must fit, each a tuple of sizes (None: any size) or None (any
    shape); None when the queue is not known. Worked out once per op: an enqueue runs once per element."""
    shapes = _ELEMENT_SHAPES.get(op, False)
    if shapes is False:
        shapes = None
        if queue_op_of(op._inputs[0]) is not None:
            shapes = [None if s.ndims is None else tuple(s.as_list()) for s in _components(op._inputs[0]._op)[1]]
        _ELEMENT_SHAPES[op] = shapes
    return shapes


def _fits(shape, wanted):
    return wanted is None or (len(shape) == len(wanted) and all(w is None or w == d for d, w in zip(shape, wanted)))


def _element(ctx, q, values, index=None):
    """One element, the queue's own copy, with TF's run-time shape check."""
    shapes = _element_shapes(ctx.op)
    item = []
    for i, v in enumerate(values):
        strings = getattr(v, "dtype", None) == object
        v = np.array(v if index is None else v[index], dtype=object if strings else None, copy=True)
        if shapes and not _fits(v.shape, shapes[i]):
            raise InvalidArgumentError(None, ctx.op, "Shape mismatch in tuple component %d. Expected %s, got %s"
                                       % (i, _dims(_components(ctx.op._inputs[0]._op)[1][i]), _dims(v.shape)))
        item.append(v)
    return tuple(item)


def _dims(shape):
    dims = shape.as_list() if isinstance(shape, tensor_shape.TensorShape) else list(shape)
    return "[%s]" % ",".join("?" if d is None else str(d) for d in dims)


def _put(ctx, q, item):
    with q.cond:
        if q.closed:
            raise CancelledError(None, ctx.op, "%s '%s' is closed." % (q.kind, q.name))
        if not q.has_room():
            wait_for(ctx, q.writers, lambda: q.has_room() or q.cancelled)
        if q.cancelled:
            raise CancelledError(None, ctx.op, "Enqueue operation was cancelled")
        q.put(item)
        q.added()


def _enqueue_kernel(ctx, q, *values):
    _put(ctx, q, _element(ctx, q, values))


def _enqueue_many_kernel(ctx, q, *values):
    n = len(values[0]) if values and np.ndim(values[0]) else 0
    if any(np.ndim(v) == 0 or len(v) != n for v in values):
        raise InvalidArgumentError(None, ctx.op, "Expected all components of enqueue_many to have the same "
                                   "size in dimension 0, got %s" % [np.shape(v)[:1] for v in values])
    for i in range(n):       # element by element, as room frees up; those already in stay there
        _put(ctx, q, _element(ctx, q, values, i))


register_op("QueueEnqueueV2", inputs=["handle: resource", "components: list"], outputs=no_outputs,
            kernel=_enqueue_kernel, grad=NOT_DIFFERENTIABLE, stateful=True,
            doc="Adds one element; waits while the queue is full.")
register_op("QueueEnqueueManyV2", inputs=["handle: resource", "components: list"], outputs=no_outputs,
            kernel=_enqueue_many_kernel, grad=NOT_DIFFERENTIABLE, stateful=True,
            doc="Adds each slice along dimension 0 as one element.")


# ------------------------------------------------------------------------------------------ dequeue
def _wait_to_read(ctx, q, need):
    """Wait (lock held) until ``need`` elements may be dequeued or the queue is closed; the enqueues wake
    this dequeue only once that many are there (queue_state.FIFOState.added)."""
    if q.available() >= need or q.closed:
        return
    q.reader_needs.append(need)
    q.removed(0)          # enqueues held back by removed() fill the free places now
    try:
        wait_for(ctx, q.readers, lambda: q.available() >= need or q.closed)
    finally:
        q.reader_needs.remove(need)


def _served(ctx, q, n):
    """A RandomShuffleQueue's dequeue: queued behind earlier ones and given its elements as they come in
    (queue_state.RandomShuffleState.serve); returns what it got by the time it is complete or the queue
    closed, taken off the queue and counted as removed."""
    attempt = queue_state.Attempt(n)
    q.attempts.append(attempt)
    try:
        q.serve()
        wait_for(ctx, q.readers, lambda: attempt.done or q.closed)
    finally:
        if not attempt.done:
            q.attempts.remove(attempt)
    return attempt.taken


def _take(ctx, q, n, up_to=False, many=True):
    """n elements (fewer for dequeue_up_to on a closed queue), waiting as TF does."""
    taken, told = [], 0           # told: how many of the taken places the enqueues were told about
    try:
        with q.cond:
            if isinstance(q, queue_state.RandomShuffleState) and n:
                taken = _served(ctx, q, n)
                told = len(taken)
            whole = q.capacity <= 0 or n <= q.capacity
            # all at once when the queue can hold n: two concurrent dequeue_many then never split the elements
            if len(taken) < n:
                _wait_to_read(ctx, q, n if whole else 1)
            while len(taken) < n:
                if q.available():
                    taken.append(q.take())
                    continue
                if q.closed:
                    if up_to and taken:
                        break
                    raise OutOfRangeError(None, ctx.op, "%s '%s' is closed and has insufficient elements "
                                          "(requested %d, current size %d)" % (q.kind_taking(many), q.name, n,
                                                                               len(q) + len(taken)))
                q.removed(len(taken) - told)        # room for the enqueues this dequeue now waits for
                told = len(taken)
                _wait_to_read(ctx, q, 1)
            q.removed(len(taken) - told)
    except BaseException:      # closed, timed out, cancelled or interrupted: nothing is lost
        if taken:
            with q.cond:
                q.put_back(taken)
                q.added()
        raise
    return taken


def _dequeue_kernel(ctx, q):
    (item,) = _take(ctx, q, 1, many=False)
    return item[0] if len(item) == 1 else item


def _dequeue_many(up_to):
    def kernel(ctx, q, n):
        n = int(n)
        if n < 0:
            raise InvalidArgumentError(None, ctx.op, "Batch size provided (%d) must be >= 0" % n)
        qop = queue_op_of(ctx.op._inputs[0])
        if qop is not None and qop._type != "PaddingFIFOQueueV2" and not all(
                s.is_fully_defined() for s in _components(qop)[1]):
            raise InvalidArgumentError(None, ctx.op, "%s's DequeueMany and DequeueUpTo require the components "
                                       "to have specified shapes." % q.kind)
        k = len(ctx.op._outputs)
        if n == 0 and qop is not None:
            types, shapes = _components(qop)
            return _single([np.zeros([0] + s.as_list(), dtype=t.as_numpy_dtype if t != dtypes.string else object)
                            for t, s in zip(types, shapes)])
        items = _take(ctx, q, n, up_to)
        return _single(queue_state.stack_components(items, k, isinstance(q, queue_state.PaddingFIFOState)))
    return kernel


def _single(values):
    return values[0] if len(values) == 1 else tuple(values)


def _dequeue_outputs(kind):
    def outputs(op):
        qop = queue_op_of(op._inputs[0])
        types = op._attrs["component_types"]
        shapes = _components(qop)[1] if qop is not None else [tensor_shape.UNKNOWN] * len(types)
        if kind == "one":
            return list(zip(types, shapes))
        n = registry.const_value(op._inputs[1]) if kind == "many" else None
        lead = tensor_shape.TensorShape([int(n) if n is not None else None])
        return [(t, lead.concatenate(s)) for t, s in zip(types, shapes)]
    return outputs


register_op("QueueDequeueV2", inputs=["handle: resource"], outputs=_dequeue_outputs("one"),
            kernel=_dequeue_kernel, grad=NOT_DIFFERENTIABLE, stateful=True,
            doc="Removes one element; waits while the queue is empty and open.")
register_op("QueueDequeueManyV2", inputs=["handle: resource", "n: int32"], outputs=_dequeue_outputs("many"),
            kernel=_dequeue_many(False), grad=NOT_DIFFERENTIABLE, stateful=True,
            doc="Removes n elements, stacked along a new dimension 0.")
register_op("QueueDequeueUpToV2", inputs=["handle: resource", "n: int32"], outputs=_dequeue_outputs("up_to"),
            kernel=_dequeue_many(True), grad=NOT_DIFFERENTIABLE, stateful=True,
            doc="Removes n elements, or what is left (at least one) once the queue is closed.")


# ------------------------------------------------------------------------------------- size, close
def _close_kernel(ctx, q):
    with q.cond:
        if q.closed:        # TF's QueueBase::Close: closing twice is an error, the queue stays as it is
            raise CancelledError(None, ctx.op, "Queue '%s' is already closed." % q.name)
        q.closed = True
        if ctx.attrs.get("cancel_pending_enqueues"):
            q.cancelled = True
        q.wake_all()


register_op("QueueSizeV2", inputs=["handle: resource"], outputs=lambda op: [(dtypes.int32, tensor_shape.SCALAR)],
            kernel=lambda ctx, q: np.int32(len(q)), grad=NOT_DIFFERENTIABLE, stateful=True,
            doc="The number of elements in the queue.")
register_op("QueueIsClosedV2", inputs=["handle: resource"], outputs=lambda op: [(dtypes.bool, tensor_shape.SCALAR)],
            kernel=lambda ctx, q: np.bool_(q.closed), grad=NOT_DIFFERENTIABLE, stateful=True,
            doc="Whether the queue is closed.")
register_op("QueueCloseV2", inputs=["handle: resource"], outputs=no_outputs, kernel=_close_kernel,
            grad=NOT_DIFFERENTIABLE, stateful=True,
            doc="No more enqueues; dequeues drain what is left, then raise OutOfRangeError.")


# ------------------------------------------------------------------------------------ Python classes
def _as_shape_list(shapes, count):
    if shapes is None:
        return None
    if isinstance(shapes, tensor_shape.TensorShape):
        shapes = [shapes]
    if not isinstance(shapes, (list, tuple)):
        raise TypeError("shapes must be a list of shapes, got %r" % (shapes,))
    if all(s is None or isinstance(s, (int, tensor_shape.Dimension)) for s in shapes):
        shapes = [shapes]          # one shape given for the only component
    shapes = [tensor_shape.as_shape(s) for s in shapes]
    if len(shapes) != count:
        raise ValueError("Queue shapes must have the same length as dtypes")
    return shapes


class QueueBase:
    """What every queue class shares: ``enqueue``, ``enqueue_many``, ``dequeue``, ``dequeue_many``,
    ``dequeue_up_to``, ``close``, ``is_closed`` and ``size``, with TF's op names (``<queue>_enqueue`` ...)."""

    _op_type = None

    def __init__(self, dtypes_, shapes, names, attrs, name):
        if not isinstance(dtypes_, (list, tuple)):
            dtypes_ = [dtypes_]
        self._dtypes = [dtypes.as_dtype(d).base_dtype for d in dtypes_]
        self._shapes = _as_shape_list(shapes, len(self._dtypes))
        if names is not None:
            names = list(names) if isinstance(names, (list, tuple)) else [names]
            if len(names) != len(self._dtypes):
                raise ValueError("Queue names must have the same length as dtypes")
        self._names = names
        self._queue_ref = build_op(self._op_type, (), attrs=attrs, name=name).outputs[0]
        self._name = self._queue_ref.op.name.split("/")[-1]   # TF's: op names below use only the last part

    @property
    def queue_ref(self):
        return self._queue_ref

    @property
    def name(self):
        return self._queue_ref.op.name

    @property
    def dtypes(self):
        return list(self._dtypes)

    @property
    def shapes(self):
        return list(self._shapes) if self._shapes else [tensor_shape.UNKNOWN] * len(self._dtypes)

    @property
    def names(self):
        return self._names

    def _check(self, vals, many, what):
        if isinstance(vals, dict):
            if self._names is None:
                raise ValueError("Queue must have names to enqueue a dictionary")
            if sorted(vals) != sorted(self._names):
                raise ValueError("Keys in dictionary to enqueue do not match names of Queue.  Dictionary: "
                                 "(%s), Queue: (%s)" % (sorted(vals), sorted(self._names)))
            vals = [vals[n] for n in self._names]
        if not isinstance(vals, (list, tuple)):
            vals = [vals]
        tensors = [registry.convert_to_tensor(v, dtype=dt, name="component_%d" % i)
                   for i, (v, dt) in enumerate(zip(vals, self._dtypes))]
        for t, shape in zip(tensors, self.shapes):
            got = t.shape[1:] if many and t.shape.ndims else t.shape
            if many and t.shape.ndims == 0:
                raise ValueError("Shape must be at least rank 1 but is rank 0 for '%s'" % what)
            got.assert_is_compatible_with(shape)
        return tensors

    def _scope(self, name, default):
        return graph_mod.name_scope(name, "%s_%s" % (self._name, default))

    def enqueue(self, vals, name=None):
        with self._queue_ref.graph.as_default(), self._scope(name, "enqueue") as scope:
            tensors = self._check(vals, False, scope)
            return build_op("QueueEnqueueV2", [self._queue_ref, tensors], name=scope,
                            attrs={"Tcomponents": [t.dtype.base_dtype for t in tensors], "timeout_ms": -1})

    def enqueue_many(self, vals, name=None):
        with self._queue_ref.graph.as_default(), self._scope(name, "EnqueueMany") as scope:
            tensors = self._check(vals, True, scope)
            return build_op("QueueEnqueueManyV2", [self._queue_ref, tensors], name=scope,
                            attrs={"Tcomponents": [t.dtype.base_dtype for t in tensors], "timeout_ms": -1})

    def _result(self, op):
        outs = list(op.outputs)
        if self._names:
            return dict(zip(self._names, outs))
        return outs[0] if len(outs) == 1 else outs

    def _dequeue(self, op_type, n, name, default):
        inputs = [self._queue_ref] if n is None else [self._queue_ref, n]
        with self._queue_ref.graph.as_default():
            op = build_op(op_type, inputs, attrs={"component_types": list(self._dtypes), "timeout_ms": -1},
                          name=name or "%s_%s" % (self._name, default))
        return self._result(op)

    def dequeue(self, name=None):
        return self._dequeue("QueueDequeueV2", None, name, "Dequeue")

    def dequeue_many(self, n, name=None):
        return self._dequeue("QueueDequeueManyV2", n, name, "DequeueMany")

    def dequeue_up_to(self, n, name=None):
        return self._dequeue("QueueDequeueUpToV2", n, name, "DequeueUpTo")

    def close(self, cancel_pending_enqueues=False, name=None):
        with self._queue_ref.graph.as_default():
            return build_op("QueueCloseV2", [self._queue_ref], name=name or "%s_Close" % self._name,
                            attrs={"cancel_pending_enqueues": bool(cancel_pending_enqueues)})

    def is_closed(self, name=None):
        with self._queue_ref.graph.as_default():
            return build_op("QueueIsClosedV2", [self._queue_ref], name=name or "%s_IsClosed" % self._name).outputs[0]

    def size(self, name=None):
        with self._queue_ref.graph.as_default():
            return build_op("QueueSizeV2", [self._queue_ref], name=name or "%s_Size" % self._name).outputs[0]


class FIFOQueue(QueueBase):
    """``tf.FIFOQueue(capacity, dtypes, shapes=None, names=None, shared_name=None, name="fifo_queue")``."""

    _op_type = "FIFOQueueV2"

    def __init__(self, capacity, dtypes, shapes=None, names=None, shared_name=None, name="fifo_queue"):  # noqa
        shapes_ = _as_shape_list(shapes, len(dtypes) if isinstance(dtypes, (list, tuple)) else 1)
        graph = graph_mod.get_default_graph()
        # TF 2.21 builds the FIFOQueue op itself out of control dependencies and on a CPU (merged with the
        # outer device: "/job:ps/task:0" becomes "/job:ps/task:0/device:CPU:*"); the ops using it are not
        with graph.control_dependencies(None), graph.device("CPU"):
            super().__init__(dtypes, shapes, names, _queue_attrs(dtypes, shapes_, capacity, shared_name), name)


class PaddingFIFOQueue(QueueBase):
    """``tf.PaddingFIFOQueue``: like FIFOQueue, but shapes may have unknown dimensions (None), and
    ``dequeue_many`` pads each component with zeros to the largest shape in the batch."""

    _op_type = "PaddingFIFOQueueV2"

    def __init__(self, capacity, dtypes, shapes, names=None, shared_name=None, name="padding_fifo_queue"):  # noqa
        shapes_ = _as_shape_list(shapes, len(dtypes) if isinstance(dtypes, (list, tuple)) else 1)
        super().__init__(dtypes, shapes, names, _queue_attrs(dtypes, shapes_, capacity, shared_name), name)


class RandomShuffleQueue(QueueBase):
    """``tf.RandomShuffleQueue``: dequeues a uniformly random element, and (until closed) only while more
    than ``min_after_dequeue`` elements wait, so what comes out is well mixed."""

    _op_type = "RandomShuffleQueueV2"

    def __init__(self, capacity, min_after_dequeue, dtypes, shapes=None, names=None, seed=None,  # noqa
                 shared_name=None, name="random_shuffle_queue"):
        shapes_ = _as_shape_list(shapes, len(dtypes) if isinstance(dtypes, (list, tuple)) else 1)
        seed1, seed2 = random_seed.get_seed(seed)
        if seed1 is None and seed2 is None:
            seed1, seed2 = 0, 0
        elif seed is None and shared_name is not None:
            # TF: a shared queue seeded only by the graph must not depend on op order (seed2 usually counts
            # the graph's ops): seed2 comes from the graph seed and the shared name alone
            digest = hashlib.md5((str(seed1) + shared_name).encode("utf-8")).hexdigest()
            seed2 = int(digest[:8], 16) & 0x7FFFFFFF
        attrs = _queue_attrs(dtypes, shapes_, capacity, shared_name)
        attrs.update({"min_after_dequeue": int(min_after_dequeue), "seed": int(seed1), "seed2": int(seed2)})
        super().__init__(dtypes, shapes, names, attrs, name)


class PriorityQueue(QueueBase):
    """``tf.PriorityQueue(capacity, types, shapes)``: elements are (int64 priority, *components); the lowest
    priority leaves first."""

    _op_type = "PriorityQueueV2"

    def __init__(self, capacity, types, shapes, names=None, shared_name=None, name="priority_queue"):
        types = list(types) if isinstance(types, (list, tuple)) else [types]
        shapes_ = _as_shape_list(shapes, len(types))
        attrs = _queue_attrs(types, shapes_, capacity, shared_name)
        super().__init__([dtypes.int64] + types, [tensor_shape.SCALAR] + list(shapes_),
                         None if names is None else ["priority"] + list(names), attrs, name)


def _queue_attrs(types, shapes, capacity, shared_name):
    types = types if isinstance(types, (list, tuple)) else [types]
    return {"component_types": [dtypes.as_dtype(t).base_dtype for t in types], "shapes": shapes or [],
            "capacity": int(capacity), "container": "", "shared_name": shared_name or ""}


__all__ = ["FIFOQueue", "PaddingFIFOQueue", "PriorityQueue", "RandomShuffleQueue", "QueueBase"]
