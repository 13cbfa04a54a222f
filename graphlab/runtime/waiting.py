"""Waiting inside a kernel, as TensorFlow's blocking ops do (a dequeue on an empty queue, an enqueue on a
full one): until the condition holds, the session is closed (``CancelledError``), or the run's deadline
passes (``DeadlineExceededError``, from ``ConfigProto(operation_timeout_in_ms=...)`` or
``RunOptions(timeout_in_ms=...)``).

The wait sleeps in short slices, so Ctrl-C (KeyboardInterrupt) stops it at once and leaves the queue as it
was. A run that has waited for ``NOTICE_AFTER_SECONDS`` is reported once to every ``blocked_listeners``
callable as ``listener(session, op, waited_seconds)``: the IPython extension uses this to explain the
classic trap, a dequeue whose queue runners were never started. The engine itself never prints.
"""
import threading
import time

from graphlab.formats.errors import CancelledError, DeadlineExceededError

SLICE_SECONDS = 0.05
NOTICE_AFTER_SECONDS = 2.0
blocked_listeners = []

_run = threading.local()     # the deadline of the run on this thread (time.monotonic() value or None)


class RunDeadline:
    """``with RunDeadline(timeout_ms):`` around one ``Session.run``; 0 or less means no deadline."""

    def __init__(self, timeout_ms):
        self._deadline = time.monotonic() + timeout_ms / 1000.0 if timeout_ms and timeout_ms > 0 else None

    def __enter__(self):
        self._saved = getattr(_run, "deadline", None)
        _run.deadline = self._deadline
        return self

    def __exit__(self, *exc):
        _run.deadline = self._saved


def wait_for(ctx, condition, ready):
    """Wait on ``condition`` (a threading.Condition held by the caller) until ``ready()`` is true.

    Raises CancelledError when the session closes, DeadlineExceededError when the run's deadline passes."""
    if ready():
        return
    deadline = getattr(_run, "deadline", None)
    session = ctx.session
    started = time.monotonic()
    noticed = False
    while not ready():
        if session._closing.is_set():
            raise CancelledError(None, ctx.op, "Session has been closed.")
        now = time.monotonic()
        if deadline is not None and now >= deadline:
            raise DeadlineExceededError(None, ctx.op, "Timed out waiting for notification")
        if not noticed and now - started >= NOTICE_AFTER_SECONDS and blocked_listeners:
            noticed = True
            condition.release()      # listeners may look at the graph or print; never with the queue held
            try:
                _tell(session, ctx.op, now - started)
            finally:
                condition.acquire()
            continue
        timeout = SLICE_SECONDS if deadline is None else max(0.0, min(SLICE_SECONDS, deadline - now))
        condition.wait(timeout)


def _tell(session, op, waited):
    for listener in list(blocked_listeners):
        try:
            listener(session, op, waited)
        except Exception:       # a listener's failure must not break the run
            pass
