"""``tf.train.Supervisor``: TF1's training helper before MonitoredTrainingSession, still used by classic
tutorials (tensorflow/models' PTB language model, the old MNIST and CIFAR trainers). It completes the graph
with TF's default ops (init, ready, local init, a Saver, the merged summaries, the global step), finalizes it,
and hands out a session restored from the latest checkpoint in ``logdir`` or freshly initialized. The chief
also writes ``graph.pbtxt`` and the graph to the event file, and runs three background services on a
Coordinator: summaries every ``save_summaries_secs``, a ``global_step/sec`` counter, and a checkpoint every
``save_model_secs``. ``managed_session`` stops them all on the way out; an OutOfRangeError (an input ran out)
ends the block quietly, any other error is raised again once the threads have stopped."""
import contextlib
import os
import time

from graphlab.formats.protos.event_pb2 import SessionLog
from graphlab.formats.protos.summary_pb2 import Summary
from graphlab.framework.graph import GraphKeys, get_default_graph
from graphlab.train import training_util
from graphlab.train.coordinator import Coordinator
from graphlab.train.coordinator import LooperThread


class Supervisor:
    """``tf.train.Supervisor(logdir=...)``; ``with sv.managed_session() as sess:`` trains until
    ``sv.should_stop()``."""

    # Passed for ready_op, init_op, summary_op, saver, global_step ...: "use TF's default".
    USE_DEFAULT = 0

    def __init__(self, graph=None, ready_op=USE_DEFAULT, ready_for_local_init_op=USE_DEFAULT, is_chief=True,
                 init_op=USE_DEFAULT, init_feed_dict=None, local_init_op=USE_DEFAULT, logdir=None,
                 summary_op=USE_DEFAULT, saver=USE_DEFAULT, global_step=USE_DEFAULT, save_summaries_secs=120,
                 save_model_secs=600, recovery_wait_secs=30, stop_grace_secs=120, checkpoint_basename="model.ckpt",
                 session_manager=None, summary_writer=USE_DEFAULT, init_fn=None, local_init_run_options=None):
        from graphlab.framework.meta_graph import create_meta_graph_def
        graph = graph if graph is not None else get_default_graph()
        self._graph = graph
        with graph.as_default():
            self._complete_graph(ready_op, ready_for_local_init_op, init_op, local_init_op, saver, summary_op,
                                 global_step)
            self._meta_graph_def = create_meta_graph_def(
                graph=graph, graph_def=graph.as_graph_def(add_shapes=True),
                saver_def=self._saver.saver_def if self._saver else None)
        self._init_feed_dict, self._init_fn = init_feed_dict, init_fn
        self._is_chief = is_chief
        self._coord = Coordinator()
        self._recovery_wait_secs, self._stop_grace_secs = recovery_wait_secs, stop_grace_secs
        self._local_init_run_options = local_init_run_options
        # Only a chief writes checkpoints and events.
        self._logdir = self._save_summaries_secs = self._save_model_secs = None
        self._save_path = self._summary_writer = None
        self._graph_added_to_summary = False
        if is_chief:
            self._logdir = logdir
            self._save_summaries_secs, self._save_model_secs = save_summaries_secs, save_model_secs
            if logdir:
                self._save_path = os.path.join(logdir, checkpoint_basename)
            if summary_writer is Supervisor.USE_DEFAULT:
                if logdir:
                    from graphlab.summary.writer import FileWriter
                    self._summary_writer = FileWriter(logdir)
            else:
                self._summary_writer = summary_writer
        self._session_manager = session_manager or self._default_session_manager()
        self._verify_setup()
        graph.finalize()   # the graph may not change any more, as in TF

    # --- the graph's default ops -------------------------------------------------------------------------

    def _complete_graph(self, ready_op, ready_for_local_init_op, init_op, local_init_op, saver, summary_op,
                        global_step):
        """Fill every USE_DEFAULT with the op found in its collection or TF's default (then collected)."""
        from graphlab.ops.control_flow_ops import group
        from graphlab.summary.summary_ops import merge_all
        from graphlab.tf1_root import tables_initializer
        from graphlab.train.saver import Saver
        from graphlab.ops.variables import (global_variables, global_variables_initializer,
                                        local_variables_initializer, report_uninitialized_variables)
        default = Supervisor.USE_DEFAULT
        if ready_op is default:
            ready_op = _collected_or_new(GraphKeys.READY_OP, report_uninitialized_variables)
        if ready_for_local_init_op is default:     # no default op: TF keeps None for old programs' sake
            ready_for_local_init_op = _first_in_collection(GraphKeys.READY_FOR_LOCAL_INIT_OP)
        if init_op is default:
            init_op = _collected_or_new(GraphKeys.INIT_OP, global_variables_initializer)
        if local_init_op is default:
            local_init_op = _collected_or_new(
                GraphKeys.LOCAL_INIT_OP, lambda: group(local_variables_initializer(), tables_initializer()))
        if saver is default:
            saver = _collected_or_new(GraphKeys.SAVERS, lambda: Saver() if global_variables() else None)
        if summary_op is default:
            summary_op = _collected_or_new(GraphKeys.SUMMARY_OP, merge_all)
        if global_step is default:
            global_step = _collected_or_new(GraphKeys.GLOBAL_STEP, _global_step_by_name)
        self._ready_op, self._ready_for_local_init_op = ready_op, ready_for_local_init_op
        self._init_op, self._local_init_op = init_op, local_init_op
        self._saver, self._summary_op, self._global_step = saver, summary_op, global_step

    def _default_session_manager(self):
        from graphlab.train.monitored_session import SessionManager
        return SessionManager(local_init_op=self._local_init_op, ready_op=self._ready_op,
                              ready_for_local_init_op=self._ready_for_local_init_op, graph=self._graph,
                              recovery_wait_secs=self._recovery_wait_secs,
                              local_init_run_options=self._local_init_run_options)

    def _verify_setup(self):
        """A non-chief (a replica) needs every variable placed on a device, as TF checks."""
        if self._is_chief:
            return
        for op in self._graph.get_operations():
            if op.type in ("Variable", "VariableV2") and not op.device:
                raise ValueError("When using replicas, all Variables must have their device set: %s" % op)

    # --- properties --------------------------------------------------------------------------------------

    is_chief = property(lambda self: self._is_chief)
    session_manager = property(lambda self: self._session_manager)
    coord = property(lambda self: self._coord)
    init_op = property(lambda self: self._init_op)
    init_feed_dict = property(lambda self: self._init_feed_dict)
    ready_op = property(lambda self: self._ready_op)
    ready_for_local_init_op = property(lambda self: self._ready_for_local_init_op)
    summary_writer = property(lambda self: self._summary_writer)
    summary_op = property(lambda self: self._summary_op)
    save_summaries_secs = property(lambda self: self._save_summaries_secs)
    global_step = property(lambda self: self._global_step)
    saver = property(lambda self: self._saver)
    save_model_secs = property(lambda self: self._save_model_secs)
    save_path = property(lambda self: self._save_path)

    # --- sessions ----------------------------------------------------------------------------------------

    def _write_graph(self):
        """graph.pbtxt in logdir, and the graph and meta graph at the head of the event file (once)."""
        from graphlab.framework.graph_io import write_graph
        if self._logdir:
            write_graph(self._graph.as_graph_def(add_shapes=True), self._logdir, "graph.pbtxt")
        if self._summary_writer and not self._graph_added_to_summary:
            self._summary_writer.add_graph(graph_def=self._graph.as_graph_def(add_shapes=True))
            self._summary_writer.add_meta_graph(self._meta_graph_def)
            self._graph_added_to_summary = True

    def start_standard_services(self, sess):
        """Start the summary, step-counter and checkpoint threads the constructor's arguments ask for;
        returns them (None without a logdir)."""
        if not self._is_chief:
            raise RuntimeError("Only chief supervisor can start standard services. Because only chief "
                               "supervisors can write events.")
        if not self._logdir:
            return None
        if self._global_step is not None and self._summary_writer:
            step = training_util.global_step(sess, self._global_step)
            self._summary_writer.add_session_log(SessionLog(status=SessionLog.START), step)
        threads = []
        if self._save_summaries_secs and self._summary_writer:
            if self._summary_op is not None:
                threads.append(SVSummaryThread(self, sess))
            if self._global_step is not None:
                threads.append(SVStepCounterThread(self, sess))
        if self._saver and self._save_model_secs:
            threads.append(SVTimerCheckpointThread(self, sess))
        for t in threads:
            t.start()
        return threads

    def prepare_or_wait_for_session(self, master="", config=None, wait_for_checkpoint=False, max_wait_secs=7200,
                                    start_standard_services=True):
        """A ready session: the chief restores the latest checkpoint in logdir or initializes the model (and
        starts the services); a non-chief waits for the model to be ready. Queue runners start too."""
        self._coord.clear_stop()      # a second session after stop() gets running threads again
        if self._summary_writer:
            self._summary_writer.reopen()
        if self._is_chief:
            sess = self._session_manager.prepare_session(
                master, init_op=self._init_op, saver=self._saver, checkpoint_dir=self._logdir,
                wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs, config=config,
                init_feed_dict=self._init_feed_dict, init_fn=self._init_fn)
            self._write_graph()
            if start_standard_services:
                self.start_standard_services(sess)
        else:
            sess = self._session_manager.wait_for_session(master, config=config, max_wait_secs=max_wait_secs)
        if start_standard_services:
            self.start_queue_runners(sess)
        return sess

    def start_queue_runners(self, sess, queue_runners=None):
        """Daemon threads for the graph's queue runners (or ``queue_runners``), on the supervisor's
        Coordinator so ``stop()`` ends them."""
        if queue_runners is None:
            queue_runners = self._graph.get_collection(GraphKeys.QUEUE_RUNNERS)
        threads = []
        for qr in queue_runners:
            threads.extend(qr.create_threads(sess, coord=self._coord, daemon=True, start=True))
        return threads

    def loop(self, timer_interval_secs, target, args=None, kwargs=None):
        """A started thread calling ``target(*args, **kwargs)`` every ``timer_interval_secs`` (None: without
        pause) until a stop is requested; ``stop()`` joins it."""
        return LooperThread.loop(self._coord, timer_interval_secs, target, args=args, kwargs=kwargs)

    def stop(self, threads=None, close_summary_writer=True, ignore_live_threads=False):
        """Request a stop, join the services, queue runners and loops (re-raising an error one of them, or
        the training block, reported), then log STOP and close the summary writer. The session stays open."""
        self._coord.request_stop()
        try:
            self._coord.join(threads, stop_grace_period_secs=self._stop_grace_secs,
                             ignore_live_threads=ignore_live_threads)
        finally:
            if close_summary_writer and self._summary_writer:
                self._summary_writer.add_session_log(SessionLog(status=SessionLog.STOP))
                self._summary_writer.close()
                self._graph_added_to_summary = False

    def request_stop(self, ex=None):
        self._coord.request_stop(ex=ex)

    def should_stop(self):
        return self._coord.should_stop()

    def stop_on_exception(self):
        return self._coord.stop_on_exception()

    def wait_for_stop(self):
        self._coord.wait_for_stop()

    def summary_computed(self, sess, summary, global_step=None):
        """Write a summary a training loop computed itself, at ``global_step`` (default: the current one)."""
        if not self._summary_writer:
            raise RuntimeError("Writing a summary requires a summary writer.")
        if global_step is None and self._global_step is not None:
            global_step = training_util.global_step(sess, self._global_step)
        self._summary_writer.add_summary(summary, global_step)

    @contextlib.contextmanager
    def managed_session(self, master="", config=None, start_standard_services=True, close_summary_writer=True):
        """``with sv.managed_session() as sess:``: a prepared session; on exit the threads stop and the
        session closes. An error in the block is re-raised after that, except OutOfRangeError, which ends
        training cleanly."""
        sess = None
        try:
            sess = self.prepare_or_wait_for_session(master=master, config=config,
                                                    start_standard_services=start_standard_services)
            yield sess
        except Exception as e:     # noqa: BLE001  (handed to the Coordinator; stop() re-raises it)
            self.request_stop(e)
        finally:
            try:
                self.stop(close_summary_writer=close_summary_writer)
            finally:
                try:
                    if sess is not None:
                        sess.close()
                except Exception:   # noqa: BLE001  (closing errors are ignored, as in TF)
                    pass

    # TF's old CamelCase names.
    PrepareSession = prepare_or_wait_for_session
    StartQueueRunners = start_queue_runners
    StartStandardServices = start_standard_services
    Stop = stop
    RequestStop = request_stop
    Loop = loop
    ShouldStop = should_stop
    StopOnException = stop_on_exception
    WaitForStop = wait_for_stop
    SummaryComputed = summary_computed


def _first_in_collection(key):
    """The first item of the default graph's collection ``key``, or None (TF logs when there are several)."""
    items = get_default_graph().get_collection(key)
    return items[0] if items else None


def _collected_or_new(key, make):
    """The collection's first item, else ``make()`` added to the collection (when not None)."""
    item = _first_in_collection(key)
    if item is None:
        item = make()
        if item is not None:
            get_default_graph().add_to_collection(key, item)
    return item


def _global_step_by_name():
    """The tensor named ``global_step:0`` when it is an integer, as TF's Supervisor looks it up."""
    from graphlab.framework import dtypes
    try:
        gs = get_default_graph().get_tensor_by_name("global_step:0")
    except (KeyError, ValueError):
        return None
    return gs if gs.dtype.base_dtype in (dtypes.int32, dtypes.int64) else None


class SVSummaryThread(LooperThread):
    """Runs the supervisor's summary op every ``save_summaries_secs`` and writes it at the global step."""

    def __init__(self, sv, sess):
        super().__init__(sv.coord, sv.save_summaries_secs)
        self._sv, self._sess = sv, sess

    def run_loop(self):
        if self._sv.global_step is not None:
            summary, step = self._sess.run([self._sv.summary_op, self._sv.global_step])
        else:
            summary, step = self._sess.run(self._sv.summary_op), None
        if self._sv.summary_writer:
            self._sv.summary_writer.add_summary(summary, step)


class SVStepCounterThread(LooperThread):
    """Writes ``<global step op>/sec``, the steps per second since the last call, every
    ``save_summaries_secs``."""

    def __init__(self, sv, sess, step_counter=None):
        super().__init__(sv.coord, sv.save_summaries_secs)
        self._sv, self._sess = sv, sess
        self._step_counter = sv.global_step if step_counter is None else step_counter
        self._summary_tag = "%s/sec" % self._step_counter.op.name
        self._last_time, self._last_step = 0.0, 0

    def start_loop(self):
        self._last_time = time.time()
        self._last_step = training_util.global_step(self._sess, self._step_counter)

    def run_loop(self):
        step = training_util.global_step(self._sess, self._step_counter)
        added, self._last_step = step - self._last_step, step
        now = time.time()
        elapsed, self._last_time = now - self._last_time, now
        rate = added / elapsed if elapsed > 0.0 else float("inf")
        if self._sv.summary_writer:
            summary = Summary(value=[Summary.Value(tag=self._summary_tag, simple_value=rate)])
            self._sv.summary_writer.add_summary(summary, step)


class SVTimerCheckpointThread(LooperThread):
    """Saves ``logdir/model.ckpt-<step>`` every ``save_model_secs`` (the first right at the start) and logs
    a CHECKPOINT session event."""

    def __init__(self, sv, sess):
        super().__init__(sv.coord, sv.save_model_secs)
        self._sv, self._sess = sv, sess

    def run_loop(self):
        sv = self._sv
        sv.saver.save(self._sess, sv.save_path, global_step=sv.global_step)
        if sv.summary_writer and sv.global_step is not None:
            step = training_util.global_step(self._sess, sv.global_step)
            sv.summary_writer.add_session_log(
                SessionLog(status=SessionLog.CHECKPOINT, checkpoint_path=sv.save_path), step)
