"""``tf.train.MonitoredSession`` and its helpers (TF1's monitored_session.py and session_manager.py, for one
process): a Scaffold completes the graph (init, ready and summary ops, a Saver) and finalizes it; a
SessionManager restores the latest checkpoint or runs the initializers; the session starts the queue
runners with a Coordinator and calls the hooks around every run. An OutOfRangeError (an input exhausted)
ends the loop quietly, as in TF."""
import time

from graphlab.formats import errors
from graphlab.framework.graph import GraphKeys, get_default_graph
from graphlab.train.session_run_hook import SessionRunArgs, SessionRunContext, SessionRunValues


def _first_in_collection(key, default_fn):
    ops = get_default_graph().get_collection(key)
    if len(ops) > 1:
        raise RuntimeError("More than one item in the collection %s. Please indicate which one to use by "
                           "passing it to the constructor." % key)
    if ops:
        return ops[0]
    op = default_fn()
    if op is not None:
        get_default_graph().add_to_collection(key, op)
    return op


class Scaffold:
    """The pieces a MonitoredSession needs besides the model: the ops that initialize variables and report
    readiness, the summary op and the Saver. Unset ones get TF's defaults when ``finalize()`` runs."""

    def __init__(self, init_op=None, init_feed_dict=None, init_fn=None, ready_op=None,
                 ready_for_local_init_op=None, local_init_op=None, summary_op=None, saver=None,
                 copy_from_scaffold=None, local_init_feed_dict=None):
        if copy_from_scaffold is not None:
            if not isinstance(copy_from_scaffold, Scaffold):
                raise TypeError("copy_from_scaffold is not a Scaffold instance.")
            init_op = init_op or copy_from_scaffold.init_op
            init_feed_dict = init_feed_dict or copy_from_scaffold._init_feed_dict
            init_fn = init_fn or copy_from_scaffold._user_init_fn
            ready_op = ready_op or copy_from_scaffold.ready_op
            ready_for_local_init_op = ready_for_local_init_op or copy_from_scaffold.ready_for_local_init_op
            local_init_op = local_init_op or copy_from_scaffold.local_init_op
            summary_op = summary_op or copy_from_scaffold.summary_op
            saver = saver or copy_from_scaffold.saver
        self._user_init_fn = init_fn
        self._init_fn = (lambda sess: init_fn(self, sess)) if init_fn else None
        self._init_op, self._init_feed_dict = init_op, init_feed_dict
        self._ready_op, self._ready_for_local_init_op = ready_op, ready_for_local_init_op
        self._local_init_op, self._local_init_feed_dict = local_init_op, local_init_feed_dict
        self._summary_op, self._saver = summary_op, saver

    def finalize(self):
        """Create the missing ops (TF's defaults) and finalize the graph."""
        from graphlab.ops.control_flow_ops import group
        from graphlab.summary.summary_ops import merge_all
        from graphlab.tf1_root import tables_initializer
        from graphlab.train.saver import Saver
        from graphlab.ops.variables import (global_variables, global_variables_initializer,
                                        local_variables_initializer, report_uninitialized_variables)
        if self._init_op is None:
            self._init_op = _first_in_collection(GraphKeys.INIT_OP, lambda: group(global_variables_initializer()))
        if self._ready_op is None:
            self._ready_op = _first_in_collection(GraphKeys.READY_OP, report_uninitialized_variables)
        if self._ready_for_local_init_op is None:
            self._ready_for_local_init_op = _first_in_collection(
                GraphKeys.READY_FOR_LOCAL_INIT_OP, lambda: report_uninitialized_variables(global_variables()))
        if self._local_init_op is None:
            self._local_init_op = _first_in_collection(
                GraphKeys.LOCAL_INIT_OP, lambda: group(local_variables_initializer(), tables_initializer()))
        if self._summary_op is None:
            self._summary_op = _first_in_collection(GraphKeys.SUMMARY_OP, merge_all)
        if self._saver is None:
            savers = get_default_graph().get_collection(GraphKeys.SAVERS)
            if len(savers) > 1:
                raise RuntimeError("More than one item in collection %s. Please indicate which one to use by "
                                   "passing it to the constructor." % GraphKeys.SAVERS)
            if savers:
                self._saver = savers[0]
            else:
                self._saver = Saver(sharded=True, allow_empty=True)
                get_default_graph().add_to_collection(GraphKeys.SAVERS, self._saver)
        get_default_graph().finalize()
        return self

    init_fn = property(lambda self: self._init_fn)
    init_op = property(lambda self: self._init_op)
    ready_op = property(lambda self: self._ready_op)
    ready_for_local_init_op = property(lambda self: self._ready_for_local_init_op)
    local_init_op = property(lambda self: self._local_init_op)
    local_init_feed_dict = property(lambda self: self._local_init_feed_dict)
    summary_op = property(lambda self: self._summary_op)
    saver = property(lambda self: self._saver)
    init_feed_dict = property(lambda self: self._init_feed_dict)

    @staticmethod
    def get_or_default(arg_name, collection_key, default_constructor):
        """The single op of ``collection_key``, or ``default_constructor()`` (added to the collection)."""
        return _first_in_collection(collection_key, default_constructor)

    @staticmethod
    def default_local_init_op():
        from graphlab.ops.control_flow_ops import group
        from graphlab.tf1_root import tables_initializer
        from graphlab.ops.variables import local_variables_initializer
        return group(local_variables_initializer(), tables_initializer())


class SessionManager:
    """Creates a ready-to-use Session: restored from a checkpoint when there is one, else initialized."""

    def __init__(self, local_init_op=None, ready_op=None, ready_for_local_init_op=None, graph=None,
                 recovery_wait_secs=30, local_init_run_options=None, local_init_feed_dict=None):
        self._local_init_op, self._ready_op = local_init_op, ready_op
        self._ready_for_local_init_op = ready_for_local_init_op
        self._graph = graph or get_default_graph()
        self._recovery_wait_secs = recovery_wait_secs
        self._local_init_feed_dict = local_init_feed_dict

    def _new_session(self, config):
        from graphlab.runtime.session import Session
        return Session(graph=self._graph, config=config)

    def _restore_checkpoint(self, sess, saver, checkpoint_dir, checkpoint_filename_with_path,
                            wait_for_checkpoint=False, max_wait_secs=7200):
        from graphlab.train.checkpoint_utils import get_checkpoint_state
        if checkpoint_filename_with_path:
            saver.restore(sess, checkpoint_filename_with_path)
            return True
        if not saver or not checkpoint_dir:
            return False
        state = get_checkpoint_state(checkpoint_dir)
        waited = 0
        while not (state and state.model_checkpoint_path):
            if not wait_for_checkpoint or waited >= max_wait_secs:
                return False
            time.sleep(self._recovery_wait_secs)
            waited += self._recovery_wait_secs
            state = get_checkpoint_state(checkpoint_dir)
        saver.restore(sess, state.model_checkpoint_path)
        saver.recover_last_checkpoints(list(state.all_model_checkpoint_paths))
        return True

    def _ready(self, sess, op):
        import numpy as np
        if op is None:
            return True, None
        names = np.asarray(sess.run(op)).reshape(-1)
        if names.size == 0:
            return True, None
        return False, "Variables not initialized: %s" % ", ".join(
            n.decode() if isinstance(n, bytes) else str(n) for n in names)

    def _local_init(self, sess):
        if self._local_init_op is None:
            return True, None
        ready, msg = self._ready(sess, self._ready_for_local_init_op)
        if not ready:
            return False, msg
        sess.run(self._local_init_op, feed_dict=self._local_init_feed_dict)
        return True, None

    def prepare_session(self, master="", init_op=None, saver=None, checkpoint_dir=None, wait_for_checkpoint=False,
                        max_wait_secs=7200, config=None, init_feed_dict=None, init_fn=None,
                        checkpoint_filename_with_path=None):
        """A session with every variable restored or initialized; RuntimeError if still not ready."""
        sess = self._new_session(config)
        restored = self._restore_checkpoint(sess, saver, checkpoint_dir, checkpoint_filename_with_path,
                                            wait_for_checkpoint, max_wait_secs)
        if not restored:
            if init_op is None and not init_fn and self._local_init_op is None:
                raise RuntimeError("Model is not initialized and no init_op or init_fn or local_init_op was "
                                   "given")
            if init_op is not None:
                sess.run(init_op, feed_dict=init_feed_dict)
            if init_fn:
                init_fn(sess)
        ok, msg = self._local_init(sess)
        if not ok:
            raise RuntimeError("Init operations did not make model ready for local_init.  Init op: %s, init fn: "
                               "%s, error: %s" % (getattr(init_op, "name", init_op), init_fn, msg))
        ready, msg = self._ready(sess, self._ready_op)
        if not ready:
            raise RuntimeError("Init operations did not make model ready.  Init op: %s, init fn: %s, "
                               "local_init_op: %s, error: %s" % (getattr(init_op, "name", init_op), init_fn,
                                                                 self._local_init_op, msg))
        return sess

    def recover_session(self, master="", saver=None, checkpoint_dir=None, wait_for_checkpoint=False,
                        max_wait_secs=7200, config=None, checkpoint_filename_with_path=None):
        """(session, whether it is ready): restored from a checkpoint if one exists."""
        sess = self._new_session(config)
        if not self._restore_checkpoint(sess, saver, checkpoint_dir, checkpoint_filename_with_path,
                                        wait_for_checkpoint, max_wait_secs):
            return sess, False
        ok, _ = self._local_init(sess)
        return sess, ok and self._ready(sess, self._ready_op)[0]

    def wait_for_session(self, master="", config=None, max_wait_secs=float("inf")):
        """A session whose model is ready (one process: it is ready now or never)."""
        sess = self._new_session(config)
        ok, _ = self._local_init(sess)
        if ok and self._ready(sess, self._ready_op)[0]:
            return sess
        sess.close()
        raise errors.DeadlineExceededError(None, None, "Session was not ready after waiting %s secs."
                                           % max_wait_secs)


class SessionCreator:
    """Makes the session a MonitoredSession wraps."""

    def create_session(self):
        raise NotImplementedError("create_session is not implemented for %s." % self)


class ChiefSessionCreator(SessionCreator):
    """Finalizes the Scaffold and prepares the session: restore from ``checkpoint_dir`` or initialize."""

    def __init__(self, scaffold=None, master="", config=None, checkpoint_dir=None,
                 checkpoint_filename_with_path=None):
        self._checkpoint_dir = checkpoint_dir
        self._checkpoint_filename_with_path = checkpoint_filename_with_path
        self._scaffold = scaffold or Scaffold()
        self._master, self._config = master, config

    def _session_manager(self):
        return SessionManager(local_init_op=self._scaffold.local_init_op,
                              local_init_feed_dict=self._scaffold.local_init_feed_dict,
                              ready_op=self._scaffold.ready_op,
                              ready_for_local_init_op=self._scaffold.ready_for_local_init_op,
                              graph=get_default_graph())

    def create_session(self):
        self._scaffold.finalize()
        return self._session_manager().prepare_session(
            self._master, saver=self._scaffold.saver, checkpoint_dir=self._checkpoint_dir,
            checkpoint_filename_with_path=self._checkpoint_filename_with_path, config=self._config,
            init_op=self._scaffold.init_op, init_feed_dict=self._scaffold.init_feed_dict,
            init_fn=self._scaffold.init_fn)


class WorkerSessionCreator(ChiefSessionCreator):
    """A non-chief's session: waits until the model is ready (in one process: it must be ready now)."""

    def __init__(self, scaffold=None, master="", config=None, max_wait_secs=30 * 60):
        super().__init__(scaffold, master, config)
        self._max_wait_secs = max_wait_secs

    def create_session(self):
        self._scaffold.finalize()
        return self._session_manager().wait_for_session(self._master, config=self._config,
                                                        max_wait_secs=self._max_wait_secs)


class _MonitoredSession:
    """The session loop shared by MonitoredSession and SingularMonitoredSession."""

    def __init__(self, session_creator, hooks, should_recover=False, stop_grace_period_secs=120):
        from graphlab.train.coordinator import Coordinator
        from graphlab.train.queue_runner import start_queue_runners
        self._graph_was_finalized = get_default_graph()._finalized   # closing unfinalizes it again (TF)
        self._hooks = list(hooks or [])
        for hook in self._hooks:
            hook.begin()
        self._sess = (session_creator or ChiefSessionCreator()).create_session()
        self._coord = Coordinator(clean_stop_exception_types=[])
        self._threads = start_queue_runners(sess=self._sess, coord=self._coord)
        self._stop_grace_period_secs = stop_grace_period_secs
        for hook in self._hooks:
            hook.after_create_session(self._sess, self._coord)
        self._should_stop = False
        self._closed = False

    @property
    def graph(self):
        return self._sess.graph

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Run ``fetches`` with every hook's additions; after_run sees their results."""
        context = SessionRunContext(original_args=SessionRunArgs(fetches, feed_dict), session=self._sess)
        hook_args = {}
        feed = dict(feed_dict or {})
        for hook in self._hooks:
            request = hook.before_run(context)
            if request is not None:
                hook_args[hook] = request
                for key, value in (request.feed_dict or {}).items():
                    if key in feed:
                        raise RuntimeError("Same tensor is fed by a SessionRunHook and user.")
                    feed[key] = value
        merged = {"caller": fetches, "hooks": {id(h): a.fetches for h, a in hook_args.items()}}
        try:
            outputs = self._sess.run(merged, feed_dict=feed or None, options=options, run_metadata=run_metadata)
        except errors.OutOfRangeError:
            self._should_stop = True
            raise
        for hook in self._hooks:
            result = outputs["hooks"].get(id(hook)) if hook in hook_args else None
            hook.after_run(context, SessionRunValues(results=result, options=options, run_metadata=run_metadata))
        self._should_stop = self._should_stop or context.stop_requested
        return outputs["caller"]

    def run_step_fn(self, step_fn):
        """``step_fn(step_context)`` with ``step_context.run_with_hooks`` and ``request_stop``."""
        monitored = self

        class _StepContext:
            session = property(lambda ctx: monitored._sess)

            def run_with_hooks(ctx, *args, **kwargs):
                return monitored.run(*args, **kwargs)

            def request_stop(ctx):
                monitored._should_stop = True
        return step_fn(_StepContext())

    def should_stop(self):
        return self._should_stop or self._coord.should_stop()

    def close(self):
        self._close(exception_type=None)

    def _close(self, exception_type):
        if self._closed:
            return
        self._closed = True
        try:
            if exception_type is None:
                for hook in self._hooks:
                    hook.end(self._sess)
        finally:
            self._coord.request_stop()
            try:
                # as TF: a thread still blocked after the grace period (a chief's sync queue runner waiting
                # for gradients that will not come) is left to the session's close, which cancels its op
                self._coord.join(self._threads, stop_grace_period_secs=self._stop_grace_period_secs,
                                 ignore_live_threads=True)
            except errors.OutOfRangeError:
                pass
            self._sess.close()
            if not self._graph_was_finalized:
                self._sess.graph._unsafe_unfinalize()

    def __enter__(self):
        return self

    def __exit__(self, exception_type, exception_value, traceback):
        if exception_type in (errors.OutOfRangeError, StopIteration):
            exception_type = None
        self._close(exception_type)
        return exception_type is None and exception_value is not None   # an input ran out: stop quietly


class MonitoredSession(_MonitoredSession):
    """``tf.train.MonitoredSession``: a session that initializes or restores itself, runs hooks, starts
    queue runners, and ends quietly when an input runs out (use it as a context manager)."""

    def __init__(self, session_creator=None, hooks=None, stop_grace_period_secs=120):
        super().__init__(session_creator, hooks, should_recover=True, stop_grace_period_secs=stop_grace_period_secs)


class SingularMonitoredSession(_MonitoredSession):
    """``tf.train.SingularMonitoredSession``: a MonitoredSession that makes its own ChiefSessionCreator and
    gives access to the raw session."""

    def __init__(self, hooks=None, scaffold=None, master="", config=None, checkpoint_dir=None,
                 stop_grace_period_secs=120, checkpoint_filename_with_path=None):
        creator = ChiefSessionCreator(scaffold=scaffold, master=master, config=config, checkpoint_dir=checkpoint_dir,
                                      checkpoint_filename_with_path=checkpoint_filename_with_path)
        super().__init__(creator, hooks, stop_grace_period_secs=stop_grace_period_secs)

    def raw_session(self):
        return self._sess


def MonitoredTrainingSession(master="", is_chief=True, checkpoint_dir=None, scaffold=None, hooks=None,  # noqa: N802
                             chief_only_hooks=None, save_checkpoint_secs=600, save_summaries_steps=100,
                             save_summaries_secs=None, config=None, stop_grace_period_secs=120,
                             log_step_count_steps=100, max_wait_secs=7200, save_checkpoint_steps=None,
                             summary_dir=None, save_graph_def=True):
    """``tf.train.MonitoredTrainingSession``: a MonitoredSession with TF's default hooks for the chief:
    step counting, summaries every ``save_summaries_steps`` and checkpoints every ``save_checkpoint_secs``
    (or ``save_checkpoint_steps``) into ``checkpoint_dir``."""
    from graphlab.train import basic_session_run_hooks as basic
    scaffold = scaffold or Scaffold()
    all_hooks = list(hooks or [])
    if not is_chief:
        return MonitoredSession(WorkerSessionCreator(scaffold, master, config, max_wait_secs), all_hooks,
                                stop_grace_period_secs)
    all_hooks.extend(chief_only_hooks or [])
    summary_dir = summary_dir or checkpoint_dir
    if summary_dir:
        if log_step_count_steps and log_step_count_steps > 0:
            all_hooks.append(basic.StepCounterHook(output_dir=summary_dir, every_n_steps=log_step_count_steps))
        if (save_summaries_steps and save_summaries_steps > 0) or (save_summaries_secs and save_summaries_secs > 0):
            all_hooks.append(basic.SummarySaverHook(scaffold=scaffold, save_steps=save_summaries_steps,
                                                    save_secs=save_summaries_secs, output_dir=summary_dir))
    if checkpoint_dir:
        if (save_checkpoint_secs and save_checkpoint_secs > 0) or (save_checkpoint_steps and save_checkpoint_steps > 0):
            all_hooks.append(basic.CheckpointSaverHook(checkpoint_dir, save_steps=save_checkpoint_steps,
                                                       save_secs=save_checkpoint_secs, scaffold=scaffold,
                                                       save_graph_def=save_graph_def))
    creator = ChiefSessionCreator(scaffold=scaffold, checkpoint_dir=checkpoint_dir, master=master, config=config)
    return MonitoredSession(creator, all_hooks, stop_grace_period_secs)


def basic_train_loop(supervisor, train_step_fn, args=None, kwargs=None, master=""):
    """``tf.train.basic_train_loop``: call ``train_step_fn(sess, *args, **kwargs)`` until the supervisor
    (anything with ``managed_session`` and ``should_stop``) says stop."""
    with supervisor.managed_session(master) as sess:
        while not supervisor.should_stop():
            train_step_fn(sess, *(args or ()), **(kwargs or {}))
