"""``tf.train.QueueRunner`` and ``start_queue_runners``: threads that run a queue's enqueue ops in a loop,
so a training loop can dequeue batches. Each thread calls ``Session.run(enqueue_op)`` until the input ends
(OutOfRangeError: the last thread closes the queue, so dequeues drain it and then raise OutOfRangeError),
the coordinator asks to stop (the queue is closed with its pending enqueues cancelled), or an error, which
is reported to the coordinator and re-raised by ``coord.join()``.

``waiting_on(session, op)`` tells who should be filling the queue a blocked op waits on, and whether any of
them runs: the IPython extension uses it to explain a forgotten ``start_queue_runners``.
"""
import threading
import weakref

from graphlab.formats import errors

from graphlab.formats.protos import queue_runner_pb2
from graphlab.framework import graph as graph_mod, meta_graph
from graphlab.framework.graph import GraphKeys

# session -> [(runner, thread)] for every thread start_queue_runners/create_threads started
_THREADS = weakref.WeakKeyDictionary()
_THREADS_LOCK = threading.Lock()


class QueueRunner:
    def __init__(self, queue=None, enqueue_ops=None, close_op=None, cancel_op=None,
                 queue_closed_exception_types=None, queue_runner_def=None, import_scope=None):
        if queue_runner_def is not None:
            if queue or enqueue_ops:
                raise ValueError("queue_runner_def and queue are mutually exclusive.")
            self._init_from_proto(queue_runner_def, import_scope)
        else:
            if not queue or not enqueue_ops:
                raise ValueError("Must provide queue and enqueue_ops.")
            self._queue = queue
            self._enqueue_ops = list(enqueue_ops)
            self._close_op = close_op if close_op is not None else queue.close()
            self._cancel_op = cancel_op if cancel_op is not None else queue.close(cancel_pending_enqueues=True)
            # what a meta graph records: TF's default (OutOfRangeError) unless the user chose
            self._declared_exception_types = tuple(queue_closed_exception_types or (errors.OutOfRangeError,))
            self._queue_closed_exception_types = tuple(
                queue_closed_exception_types or (errors.OutOfRangeError, errors.CancelledError))
        self._lock = threading.Lock()
        self._runs_per_session = weakref.WeakKeyDictionary()
        self._exceptions_raised = []

    queue = property(lambda self: self._queue)
    enqueue_ops = property(lambda self: self._enqueue_ops)
    close_op = property(lambda self: self._close_op)
    cancel_op = property(lambda self: self._cancel_op)
    queue_closed_exception_types = property(lambda self: self._queue_closed_exception_types)
    exceptions_raised = property(lambda self: list(self._exceptions_raised))

    @property
    def name(self):
        return self._queue.name

    @property
    def _queue_op(self):
        """The queue's op: a queue object's, or the op itself for a runner read from a meta graph (there TF
        gives ``queue`` as the Operation)."""
        ref = getattr(self._queue, "queue_ref", None)
        return ref.op if ref is not None else self._queue

    def _init_from_proto(self, queue_runner_def, import_scope):
        """A runner rebuilt from a meta graph's QueueRunnerDef: its ops looked up by name in the default graph
        (below ``import_scope``), as TF's QueueRunner(queue_runner_def=...)."""
        graph = graph_mod.get_default_graph()

        def element(name):
            return graph.as_graph_element(graph_mod.prepend_name_scope(name, import_scope))
        self._queue = element(queue_runner_def.queue_name)
        self._enqueue_ops = [element(name) for name in queue_runner_def.enqueue_op_name]
        self._close_op = element(queue_runner_def.close_op_name)
        self._cancel_op = element(queue_runner_def.cancel_op_name)
        codes = list(queue_runner_def.queue_closed_exception_types)
        self._declared_exception_types = tuple(errors.exception_type_from_error_code(c) for c in codes) or (
            errors.OutOfRangeError,)      # TF's rule for QueueRunnerDefs written before the field existed
        self._queue_closed_exception_types = self._declared_exception_types

    def to_proto(self, export_scope=None):
        """This runner as a QueueRunnerDef (names relative to ``export_scope``), or None when its queue is
        outside that scope."""
        if export_scope and not self._queue.name.startswith(export_scope):
            return None

        def strip(name):
            return graph_mod.strip_name_scope(name, export_scope)
        proto = queue_runner_pb2.QueueRunnerDef(queue_name=strip(self._queue.name),
                                                close_op_name=strip(self._close_op.name),
                                                cancel_op_name=strip(self._cancel_op.name))
        proto.enqueue_op_name.extend(strip(op.name) for op in self._enqueue_ops)
        proto.queue_closed_exception_types.extend(
            errors.error_code_from_exception_type(cls) for cls in self._declared_exception_types)
        return proto

    @staticmethod
    def from_proto(queue_runner_def, import_scope=None):
        return QueueRunner(queue_runner_def=queue_runner_def, import_scope=import_scope)

    def _run(self, sess, enqueue_op, coord):
        decremented = False
        try:
            while not (coord and coord.should_stop()):
                try:
                    sess.run(enqueue_op)
                except self._queue_closed_exception_types:
                    with self._lock:       # the input ran out: the last thread closes the queue
                        self._runs_per_session[sess] -= 1
                        decremented = True
                        if self._runs_per_session[sess] == 0:
                            try:
                                sess.run(self._close_op)
                            except Exception:      # noqa: BLE001  (the session may be closing too)
                                pass
                    return
        except RuntimeError:
            if not sess._closed:
                raise
        except Exception as e:     # noqa: BLE001  (reported to the coordinator, re-raised by join)
            if coord:
                coord.request_stop(e)
            else:
                with self._lock:
                    self._exceptions_raised.append(e)
                raise
        finally:
            if not decremented:
                with self._lock:
                    self._runs_per_session[sess] -= 1

    def _close_on_stop(self, sess, coord):
        coord.wait_for_stop()
        try:
            sess.run(self._cancel_op)
        except Exception:          # noqa: BLE001  (session already closed)
            pass

    def create_threads(self, sess, coord=None, daemon=False, start=False):
        """Threads (one per enqueue op, plus one that cancels the queue when ``coord`` stops) for ``sess``."""
        with self._lock:
            if self._runs_per_session.get(sess, 0) > 0:
                return []             # already running for this session
            self._runs_per_session[sess] = len(self._enqueue_ops)
            self._exceptions_raised = []
        threads = [threading.Thread(target=self._run, args=(sess, op, coord), daemon=daemon,
                                    name="QueueRunnerThread-%s-%s" % (self.name, op.name))
                   for op in self._enqueue_ops]
        if coord:
            threads.append(threading.Thread(target=self._close_on_stop, args=(sess, coord), daemon=daemon,
                                            name="QueueRunnerThread-%s-close_on_stop" % self.name))
        with _THREADS_LOCK:
            _THREADS.setdefault(sess, []).extend((self, t) for t in threads[:len(self._enqueue_ops)])
        for t in threads:
            if coord:
                coord.register_thread(t)
            if start:
                t.start()
        return threads


def add_queue_runner(qr, collection=GraphKeys.QUEUE_RUNNERS):
    """``tf.train.add_queue_runner``: remember ``qr`` so ``start_queue_runners`` starts it."""
    graph_mod.get_default_graph().add_to_collection(collection, qr)


def start_queue_runners(sess=None, coord=None, daemon=True, start=True, collection=GraphKeys.QUEUE_RUNNERS):
    """``tf.train.start_queue_runners``: start the threads of every queue runner in the graph's collection."""
    from graphlab.framework.default_stacks import get_default_session
    if sess is None:
        sess = get_default_session()
        if not sess:
            raise ValueError("Cannot start queue runners: No default session is registered. Use `with "
                             "sess.as_default()` or pass an explicit session to tf.start_queue_runners(sess=sess)")
    with sess.graph.as_default():
        threads = []
        for qr in sess.graph.get_collection(collection):
            threads.extend(qr.create_threads(sess, coord=coord, daemon=daemon, start=start))
    return threads


def waiting_on(session, op):
    """For a blocked queue op: (queue name, names of the runners that enqueue into it, names of those with
    a live thread in ``session``); None when ``op`` does not use a queue."""
    from graphlab.ops.data_flow_ops import queue_op_of
    queue_op = queue_op_of(op._inputs[0]) if op._inputs else None
    if queue_op is None:
        return None
    runners = [qr for qr in session.graph.get_collection(GraphKeys.QUEUE_RUNNERS)
               if qr._queue_op is queue_op]
    with _THREADS_LOCK:
        started = list(_THREADS.get(session, ()))
    live = [qr.name for qr, t in started if t.is_alive() and qr in runners]
    return queue_op.name, [qr.name for qr in runners], sorted(set(live))


# A meta graph stores the "queue_runners" collection as QueueRunnerDef protos, as TF registers it.
meta_graph.register_proto_function(
    GraphKeys.QUEUE_RUNNERS, queue_runner_pb2.QueueRunnerDef, lambda runner, scope: runner.to_proto(scope),
    lambda proto, graph, scope, _rebuilt: QueueRunner(queue_runner_def=proto, import_scope=scope), QueueRunner)

__all__ = ["QueueRunner", "add_queue_runner", "start_queue_runners", "waiting_on"]
