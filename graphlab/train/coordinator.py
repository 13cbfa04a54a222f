"""``tf.train.Coordinator``: how threads agree to stop. A thread calls ``request_stop(exc)`` when it fails,
the others see ``should_stop()``; ``join`` waits for them and re-raises the first exception reported, so a
queue runner's error surfaces in the training loop's thread."""
import contextlib
import sys
import threading
import time

from graphlab.formats import errors


class Coordinator:
    def __init__(self, clean_stop_exception_types=None):
        if clean_stop_exception_types is None:
            clean_stop_exception_types = (errors.OutOfRangeError,)
        self._clean_stop_exception_types = tuple(clean_stop_exception_types)
        self._lock = threading.Lock()
        self._stop_event = threading.Event()
        self._exc_info_to_raise = None
        self._joined = False
        self._registered_threads = set()

    def request_stop(self, ex=None):
        """Ask every thread to stop; ``ex`` (an exception or exc_info triple) is re-raised by ``join``,
        unless it is a clean stop (OutOfRangeError: the input ran out)."""
        with self._lock:
            if self._joined and ex is not None and self._exc_info_to_raise is None:
                return
            if not self._stop_event.is_set():
                if ex and self._exc_info_to_raise is None:
                    if isinstance(ex, tuple):
                        exc_info = ex
                    else:
                        exc_info = (type(ex), ex, ex.__traceback__)
                    if not isinstance(exc_info[1], self._clean_stop_exception_types):
                        self._exc_info_to_raise = exc_info
                self._stop_event.set()

    def clear_stop(self):
        with self._lock:
            self._joined = False
            self._exc_info_to_raise = None
            self._stop_event.clear()

    def should_stop(self):
        return self._stop_event.is_set()

    @contextlib.contextmanager
    def stop_on_exception(self):
        """``with coord.stop_on_exception():`` in a thread: an exception requests a stop instead of escaping."""
        try:
            yield
        except Exception:     # noqa: BLE001  (every error is reported to the coordinator)
            self.request_stop(ex=sys.exc_info())

    def wait_for_stop(self, timeout=None):
        return self._stop_event.wait(timeout)

    def register_thread(self, thread):
        with self._lock:
            self._registered_threads.add(thread)

    def join(self, threads=None, stop_grace_period_secs=120, ignore_live_threads=False):
        """Wait until a stop was requested and the threads ended; re-raise a thread's exception. Threads
        still alive ``stop_grace_period_secs`` after the stop request make a RuntimeError naming them."""
        with self._lock:
            threads = set(threads or ()) | self._registered_threads
        while any(t.is_alive() for t in threads) and not self.wait_for_stop(0.05):
            pass
        deadline = time.monotonic() + stop_grace_period_secs
        while any(t.is_alive() for t in threads) and time.monotonic() < deadline:
            time.sleep(0.01)
        with self._lock:
            self._joined = True
            self._registered_threads = set()
            exc_info = self._exc_info_to_raise
        if exc_info is not None:
            raise exc_info[1].with_traceback(exc_info[2])
        stragglers = [t.name for t in threads if t.is_alive()]
        if stragglers and not ignore_live_threads:
            raise RuntimeError("Coordinator stopped with threads still running: %s" % " ".join(stragglers))

    @property
    def joined(self):
        return self._joined

    def raise_requested_exception(self):
        with self._lock:
            if self._exc_info_to_raise:
                raise self._exc_info_to_raise[1].with_traceback(self._exc_info_to_raise[2])


# ------------------------------------------------------------------------------------------- LooperThread
class LooperThread(threading.Thread):
    """``tf.train.LooperThread``: calls ``target(*args, **kwargs)`` every ``timer_interval_secs`` (or as
    fast as it can when None) until the Coordinator says stop."""

    def __init__(self, coord, timer_interval_secs, target=None, args=None, kwargs=None):
        super().__init__(daemon=True)
        self._coord = coord
        self._timer_interval_secs = timer_interval_secs
        self._target = target
        self._args, self._kwargs = args or (), kwargs or {}
        if target is None and type(self).run_loop is LooperThread.run_loop:
            raise ValueError("'target' must be given, or run_loop overridden")
        coord.register_thread(self)

    @staticmethod
    def loop(coord, timer_interval_secs, target, args=None, kwargs=None):
        looper = LooperThread(coord, timer_interval_secs, target=target, args=args, kwargs=kwargs)
        looper.start()
        return looper

    def run(self):
        with self._coord.stop_on_exception():
            self.start_loop()
            if self._timer_interval_secs is None:
                while not self._coord.should_stop():
                    self.run_loop()
            else:
                next_time = time.time()
                while not self._coord.wait_for_stop(max(0, next_time - time.time())):
                    next_time += self._timer_interval_secs
                    self.run_loop()
            self.stop_loop()

    def start_loop(self):
        pass

    def stop_loop(self):
        pass

    def run_loop(self):
        if self._target:
            self._target(*self._args, **self._kwargs)

