"""Data-flow ops: ``FIFOQueue``. The queue's contents live in the session (keyed by the queue op's name),
so an enqueue run through one pruned plan is seen by a dequeue run through another, as TF's texts say.

graphlab runs one ``Session.run`` at a time, so a dequeue that TF would block on (empty, still open queue)
fails at once with an error that says why, instead of hanging the notebook.
"""
import collections

import numpy as np

from graphlab.framework import dtypes, tensor_shape
from graphlab.framework.errors import DeadlineExceededError, InvalidArgumentError, OutOfRangeError
from graphlab.ops import registry
from graphlab.ops.registry import NOT_DIFFERENTIABLE, build_op, no_outputs, register_op


class _QueueState:
    __slots__ = ("items", "closed", "capacity")

    def __init__(self, capacity):
        self.items = collections.deque()
        self.closed = False
        self.capacity = capacity


def _state(ctx, handle):
    return handle


def _queue_kernel(ctx):
    key = ("__queue__", ctx.attrs.get("shared_name") or ctx.op.name)
    q = ctx.state.get(key)
    if q is None:
        q = ctx.state[key] = _QueueState(ctx.attrs["capacity"])
    return q


register_op(
    "FIFOQueueV2",
    outputs=lambda op: [(dtypes.resource, tensor_shape.SCALAR)],
    kernel=_queue_kernel,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="A first-in first-out queue owned by the session; outputs its handle.")


def _check_components(ctx, q, values, many):
    types = ctx.op._inputs[0]._op._attrs["component_types"]
    shapes = ctx.op._inputs[0]._op._attrs["shapes"]
    if len(values) != len(types):
        raise InvalidArgumentError(None, ctx.op, "Enqueue expects %d components, got %d" % (len(types), len(values)))
    out = []
    for i, (v, dt) in enumerate(zip(values, types)):
        v = np.asarray(v, dtype=dt.as_numpy_dtype) if dt != dtypes.string else np.asarray(v, dtype=object)
        if shapes:
            want = shapes[i]
            got = v.shape[1:] if many else v.shape
            if not want.is_compatible_with(got):
                raise InvalidArgumentError(None, ctx.op, "Shape mismatch in tuple component %d. Expected %s, got %s"
                                           % (i, want.bracket_str(), list(got)))
        out.append(v)
    return out


def _enqueue_kernel(ctx, q, *values):
    if q.closed:
        raise ctx.error(_cancelled(), "Queue '%s' is closed." % ctx.op._inputs[0]._op.name)
    values = _check_components(ctx, q, values, False)
    _check_room(ctx, q, 1)
    q.items.append(type(())(np.array(v, copy=True) for v in values))   # the queue's own copy, as TF


def _enqueue_many_kernel(ctx, q, *values):
    if q.closed:
        raise ctx.error(_cancelled(), "Queue '%s' is closed." % ctx.op._inputs[0]._op.name)
    values = _check_components(ctx, q, values, True)
    n = len(values[0]) if values else 0
    if any(len(v) != n for v in values):
        raise InvalidArgumentError(None, ctx.op, "All components of enqueue_many must have the same size in "
                                   "dimension 0")
    _check_room(ctx, q, n)
    for i in range(n):
        q.items.append(type(())(np.array(v[i], copy=True) for v in values))


def _check_room(ctx, q, n):
    if q.capacity > 0 and len(q.items) + n > q.capacity:
        raise DeadlineExceededError(None, ctx.op, "Queue '%s' is full (capacity %d): TensorFlow would wait here "
                                    "for a dequeue from another thread, which never comes in graphlab. Dequeue "
                                    "first or make the queue larger." % (ctx.op._inputs[0]._op.name, q.capacity))


def _cancelled():
    from graphlab.framework.errors import CancelledError
    return CancelledError


def _take(ctx, q, n):
    name = ctx.op._inputs[0]._op.name
    if len(q.items) < n:
        if q.closed:
            raise OutOfRangeError(None, ctx.op, "FIFOQueue '_0_%s' is closed and has insufficient elements "
                                  "(requested %d, current size %d)" % (name, n, len(q.items)))
        raise DeadlineExceededError(None, ctx.op, "FIFOQueue '%s' has %d elements but %d were requested: "
                                    "TensorFlow would block here until another thread enqueues, which never "
                                    "happens in graphlab. Enqueue first, or close the queue." %
                                    (name, len(q.items), n))
    return [q.items.popleft() for _ in range(n)]


def _dequeue_kernel(ctx, q):
    (item,) = _take(ctx, q, 1)
    return item[0] if len(item) == 1 else item


def _dequeue_many_kernel(ctx, q, n):
    items = _take(ctx, q, int(n))
    k = len(ctx.op._outputs)
    stacked = type(())(np.stack([it[i] for it in items]) for i in range(k))
    return stacked[0] if k == 1 else stacked


def _component_outputs(many):
    def outputs(op):
        qop = op._inputs[0]._op
        types = qop._attrs["component_types"]
        shapes = qop._attrs["shapes"] or [tensor_shape.UNKNOWN] * len(types)
        result = []
        for dt, s in zip(types, shapes):
            if many:
                n = registry.const_value(op._inputs[1])
                s = tensor_shape.TensorShape([int(n) if n is not None else None]).concatenate(s)
            result.append((dt, s))
        return result
    return outputs


register_op("QueueEnqueueV2", inputs=["handle: resource", "components: list"], outputs=no_outputs,
            kernel=_enqueue_kernel, grad=NOT_DIFFERENTIABLE, stateful=True, doc="Adds one element.")
register_op("QueueEnqueueManyV2", inputs=["handle: resource", "components: list"], outputs=no_outputs,
            kernel=_enqueue_many_kernel, grad=NOT_DIFFERENTIABLE, stateful=True,
            doc="Adds each slice along dimension 0 as one element.")
register_op("QueueDequeueV2", inputs=["handle: resource"], outputs=_component_outputs(False),
            kernel=_dequeue_kernel, grad=NOT_DIFFERENTIABLE, stateful=True, doc="Removes one element.")
register_op("QueueDequeueManyV2", inputs=["handle: resource", "n: int32"], outputs=_component_outputs(True),
            kernel=_dequeue_many_kernel, grad=NOT_DIFFERENTIABLE, stateful=True,
            doc="Removes n elements, stacked along a new dimension 0.")
register_op("QueueSizeV2", inputs=["handle: resource"], outputs=lambda op: [(dtypes.int32, tensor_shape.SCALAR)],
            kernel=lambda ctx, q: np.int32(len(q.items)), grad=NOT_DIFFERENTIABLE, stateful=True,
            doc="The number of elements in the queue.")


def _close_kernel(ctx, q):
    q.closed = True
    if ctx.attrs.get("cancel_pending_enqueues"):
        pass


register_op("QueueCloseV2", inputs=["handle: resource"], outputs=no_outputs, kernel=_close_kernel,
            grad=NOT_DIFFERENTIABLE, stateful=True, doc="No more enqueues; dequeues drain what is left.")


class FIFOQueue:
    """``tf.FIFOQueue(capacity, dtypes, shapes=None, names=None, shared_name=None, name="fifo_queue")``."""

    def __init__(self, capacity, dtypes, shapes=None, names=None, shared_name=None, name="fifo_queue"):  # noqa
        from graphlab.framework import dtypes as dtypes_mod
        if not isinstance(dtypes, (list, type(()))):
            dtypes = [dtypes]
        self._dtypes = [dtypes_mod.as_dtype(d).base_dtype for d in dtypes]
        if shapes is not None:
            if not isinstance(shapes, (list, type(()))) or (shapes and not isinstance(shapes[0], (
                    list, type(()), tensor_shape.TensorShape)) and len(self._dtypes) == 1):
                shapes = [shapes]
            shapes = [tensor_shape.as_shape(s) for s in shapes]
            if len(shapes) != len(self._dtypes):
                raise ValueError("Queue shapes must have the same length as dtypes")
        self._shapes = shapes
        self._names = names
        self._queue_ref = build_op("FIFOQueueV2", (), attrs={
            "component_types": self._dtypes, "shapes": shapes or [], "capacity": int(capacity),
            "container": "", "shared_name": shared_name or ""}, name=name).outputs[0]
        self._name = self._queue_ref.op.name

    @property
    def queue_ref(self):
        return self._queue_ref

    @property
    def name(self):
        return self._name

    @property
    def dtypes(self):
        return list(self._dtypes)

    @property
    def shapes(self):
        return list(self._shapes) if self._shapes else [tensor_shape.UNKNOWN] * len(self._dtypes)

    def _values(self, vals):
        if isinstance(vals, dict):
            vals = [vals[n] for n in self._names]
        if not isinstance(vals, (list, type(()))):
            vals = [vals]
        return [registry.convert_to_tensor(v, dtype=dt, name="component_%d" % i)
                for i, (v, dt) in enumerate(zip(vals, self._dtypes))]

    def enqueue(self, vals, name=None):
        graph = self._queue_ref.graph
        with graph.name_scope(name or "%s_enqueue" % self._name) as scope:
            vals = self._values(vals)
            return build_op("QueueEnqueueV2", [self._queue_ref, vals], attrs={"timeout_ms": -1}, name=scope)

    def enqueue_many(self, vals, name=None):
        graph = self._queue_ref.graph
        with graph.name_scope(name or "%s_EnqueueMany" % self._name) as scope:
            vals = self._values(vals)
            return build_op("QueueEnqueueManyV2", [self._queue_ref, vals], attrs={"timeout_ms": -1}, name=scope)

    def _attrs(self):
        return {"component_types": self._dtypes, "timeout_ms": -1}

    def dequeue(self, name=None):
        op = build_op("QueueDequeueV2", [self._queue_ref], attrs=self._attrs(),
                      name=name or "%s_Dequeue" % self._name)
        return op.outputs[0] if len(op.outputs) == 1 else op.outputs

    def dequeue_many(self, n, name=None):
        op = build_op("QueueDequeueManyV2", [self._queue_ref, n], attrs=self._attrs(),
                      name=name or "%s_DequeueMany" % self._name)
        return op.outputs[0] if len(op.outputs) == 1 else op.outputs

    def size(self, name=None):
        return build_op("QueueSizeV2", [self._queue_ref], name=name or "%s_Size" % self._name).outputs[0]

    def close(self, cancel_pending_enqueues=False, name=None):
        return build_op("QueueCloseV2", [self._queue_ref], attrs={"cancel_pending_enqueues": cancel_pending_enqueues},
                        name=name or "%s_Close" % self._name)


__all__ = ["FIFOQueue"]
