"""The hooks TF1 ships for MonitoredSession (basic_session_run_hooks.py): stop at a step, fail on a NaN loss,
log tensors, count steps, save checkpoints and summaries, feed, run final ops, wait for a global step."""
import logging
import os
import time

import numpy as np

from graphlab.framework.graph import get_default_graph
from graphlab.train.session_run_hook import SessionRunArgs, SessionRunHook

_log = logging.getLogger("tensorflow")


class NanLossDuringTrainingError(RuntimeError):
    def __str__(self):
        return "NaN loss during training."


class SecondOrStepTimer:
    """Triggers every ``every_secs`` seconds or every ``every_steps`` steps (exactly one of them)."""

    def __init__(self, every_secs=None, every_steps=None):
        if (every_secs is None) == (every_steps is None):
            raise ValueError("Exactly one of every_secs and every_steps should be provided.")
        self._every_secs, self._every_steps = every_secs, every_steps
        self.reset()

    def reset(self):
        self._last_triggered_step = None
        self._last_triggered_time = None

    def should_trigger_for_step(self, step):
        if self._last_triggered_step is None:
            return True
        if self._last_triggered_step == step:
            return False
        if self._every_secs is not None and time.time() >= self._last_triggered_time + self._every_secs:
            return True
        return self._every_steps is not None and step >= self._last_triggered_step + self._every_steps

    def update_last_triggered_step(self, step):
        now = time.time()
        if self._last_triggered_time is None:
            elapsed_secs, elapsed_steps = None, None
        else:
            elapsed_secs = now - self._last_triggered_time
            elapsed_steps = step - self._last_triggered_step
        self._last_triggered_time, self._last_triggered_step = now, step
        return elapsed_secs, elapsed_steps

    def last_triggered_step(self):
        return self._last_triggered_step


def _global_step_tensor():
    from graphlab.train.training_util import get_global_step
    step = get_global_step()
    if step is None:
        raise RuntimeError("Global step should be created to use this hook.")
    return step


class StopAtStepHook(SessionRunHook):
    """Requests a stop once the global step reaches ``last_step`` (or ``num_steps`` more steps)."""

    def __init__(self, num_steps=None, last_step=None):
        if num_steps is None and last_step is None:
            raise ValueError("One of num_steps or last_step must be specified.")
        if num_steps is not None and last_step is not None:
            raise ValueError("Only one of num_steps or last_step can be specified.")
        self._num_steps, self._last_step = num_steps, last_step

    def begin(self):
        self._global_step_tensor = _global_step_tensor()

    def after_create_session(self, session, coord):
        if self._last_step is None:
            self._last_step = int(session.run(self._global_step_tensor)) + self._num_steps

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context, run_values):
        if int(run_values.results) + 1 >= self._last_step:
            step = int(run_context.session.run(self._global_step_tensor))
            if step >= self._last_step:
                run_context.request_stop()


class NanTensorHook(SessionRunHook):
    """Stops (or raises NanLossDuringTrainingError) when the loss becomes NaN."""

    def __init__(self, loss_tensor, fail_on_nan_loss=True):
        self._loss_tensor, self._fail_on_nan_loss = loss_tensor, fail_on_nan_loss

    def before_run(self, run_context):
        return SessionRunArgs(self._loss_tensor)

    def after_run(self, run_context, run_values):
        if np.isnan(run_values.results):
            if self._fail_on_nan_loss:
                _log.error("Model diverged with loss = NaN.")
                raise NanLossDuringTrainingError
            _log.warning("Model diverged with loss = NaN. Stopping the training loop.")
            run_context.request_stop()


class LoggingTensorHook(SessionRunHook):
    """Logs the values of ``tensors`` (a list of tensors/names, or a dict tag -> tensor) every N steps or secs."""

    def __init__(self, tensors, every_n_iter=None, every_n_secs=None, at_end=False, formatter=None):
        if not at_end and (every_n_iter is None) == (every_n_secs is None):
            raise ValueError("either at_end and/or exactly one of every_n_iter and every_n_secs must be provided.")
        if every_n_iter is not None and every_n_iter <= 0:
            raise ValueError("invalid every_n_iter=%s." % every_n_iter)
        if not isinstance(tensors, dict):
            self._tag_order = [getattr(t, "name", t) for t in tensors]
            tensors = {getattr(t, "name", t): t for t in tensors}
        else:
            self._tag_order = sorted(tensors.keys())
        self._tensors = tensors
        self._formatter, self._log_at_end = formatter, at_end
        self._timer = (SecondOrStepTimer(every_secs=every_n_secs, every_steps=every_n_iter)
                       if not (at_end and every_n_iter is None and every_n_secs is None) else None)

    def begin(self):
        if self._timer:
            self._timer.reset()
        self._iter_count = 0
        graph = get_default_graph()
        self._current_tensors = {tag: graph.as_graph_element(t) if isinstance(t, str) else t
                                 for tag, t in self._tensors.items()}

    def before_run(self, run_context):
        self._should_trigger = bool(self._timer) and self._timer.should_trigger_for_step(self._iter_count)
        return SessionRunArgs(self._current_tensors) if self._should_trigger else None

    def _log_tensors(self, values):
        elapsed, _ = self._timer.update_last_triggered_step(self._iter_count) if self._timer else (None, None)
        if self._formatter:
            _log.info(self._formatter(values))
        else:
            text = ", ".join("%s = %s" % (tag, values[tag]) for tag in self._tag_order)
            _log.info("%s (%.3f sec)" % (text, elapsed) if elapsed is not None else text)

    def after_run(self, run_context, run_values):
        if self._should_trigger:
            self._log_tensors(run_values.results)
        self._iter_count += 1

    def end(self, session):
        if self._log_at_end:
            self._log_tensors(session.run(self._current_tensors))


class StepCounterHook(SessionRunHook):
    """Writes ``global_step/sec`` summaries (and logs them) every N steps or seconds."""

    def __init__(self, every_n_steps=100, every_n_secs=None, output_dir=None, summary_writer=None):
        if (every_n_steps is None) == (every_n_secs is None):
            raise ValueError("exactly one of every_n_steps and every_n_secs should be provided.")
        self._timer = SecondOrStepTimer(every_steps=every_n_steps, every_secs=every_n_secs)
        self._summary_writer, self._output_dir = summary_writer, output_dir
        self._summary_tag = "global_step/sec"

    def begin(self):
        from graphlab.summary import FileWriterCache
        if self._summary_writer is None and self._output_dir:
            self._summary_writer = FileWriterCache.get(self._output_dir)
        self._global_step_tensor = _global_step_tensor()

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context, run_values):
        step = int(run_values.results)
        if self._timer.should_trigger_for_step(step):
            elapsed_time, elapsed_steps = self._timer.update_last_triggered_step(step)
            if elapsed_time is not None and elapsed_time > 0:
                per_sec = elapsed_steps / elapsed_time
                if self._summary_writer is not None:
                    from graphlab.formats.protos.summary_pb2 import Summary
                    summary = Summary(value=[Summary.Value(tag=self._summary_tag, simple_value=per_sec)])
                    self._summary_writer.add_summary(summary, step)
                _log.info("%s: %g", self._summary_tag, per_sec)


class CheckpointSaverListener:
    """Called by CheckpointSaverHook around each save: begin, before_save, after_save, end."""

    def begin(self):
        pass

    def before_save(self, session, global_step_value):
        pass

    def after_save(self, session, global_step_value):
        pass

    def end(self, session, global_step_value):
        pass


class CheckpointSaverHook(SessionRunHook):
    """Saves a checkpoint (``checkpoint_dir/model.ckpt-STEP``) every N steps or seconds, and at the end."""

    def __init__(self, checkpoint_dir, save_secs=None, save_steps=None, saver=None, checkpoint_basename="model.ckpt",
                 scaffold=None, listeners=None, save_graph_def=True):
        if saver is not None and scaffold is not None:
            raise ValueError("You cannot provide both saver and scaffold.")
        self._saver, self._scaffold = saver, scaffold
        self._checkpoint_dir = checkpoint_dir
        self._save_path = os.path.join(checkpoint_dir, checkpoint_basename)
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)
        self._listeners = listeners or []
        self._save_graph_def = save_graph_def

    def begin(self):
        self._global_step_tensor = _global_step_tensor()
        for listener in self._listeners:
            listener.begin()

    def after_create_session(self, session, coord):
        global_step = int(session.run(self._global_step_tensor))
        if self._save_graph_def:
            from graphlab.framework.graph_io import write_graph
            os.makedirs(self._checkpoint_dir, exist_ok=True)
            write_graph(session.graph, self._checkpoint_dir, "graph.pbtxt")
        self._save(session, global_step)
        self._timer.update_last_triggered_step(global_step)

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context, run_values):
        stale = int(run_values.results)
        if self._timer.should_trigger_for_step(stale + 1):
            step = int(run_context.session.run(self._global_step_tensor))
            if self._timer.should_trigger_for_step(step):
                self._timer.update_last_triggered_step(step)
                if self._save(run_context.session, step):
                    run_context.request_stop()

    def end(self, session):
        last_step = int(session.run(self._global_step_tensor))
        if last_step != self._timer.last_triggered_step():
            self._save(session, last_step)
        for listener in self._listeners:
            listener.end(session, last_step)

    def _get_saver(self):
        from graphlab.framework.graph import GraphKeys
        if self._saver is not None:
            return self._saver
        if self._scaffold is not None:
            return self._scaffold.saver
        savers = get_default_graph().get_collection(GraphKeys.SAVERS)
        if len(savers) != 1:
            raise RuntimeError("There should be exactly one saver in the SAVERS collection (found %d); pass "
                               "saver or scaffold to CheckpointSaverHook." % len(savers))
        return savers[0]

    def _save(self, session, step):
        _log.info("Saving checkpoints for %d into %s.", step, self._save_path)
        for listener in self._listeners:
            listener.before_save(session, step)
        self._get_saver().save(session, self._save_path, global_step=step)
        should_stop = False
        for listener in self._listeners:
            if listener.after_save(session, step):
                should_stop = True
        return should_stop


class SummarySaverHook(SessionRunHook):
    """Runs the summary op every N steps or seconds and writes its result to the event file."""

    def __init__(self, save_steps=None, save_secs=None, output_dir=None, summary_writer=None, scaffold=None,
                 summary_op=None):
        if (scaffold is None) == (summary_op is None):
            raise ValueError("Exactly one of scaffold or summary_op must be provided.")
        self._summary_op, self._scaffold = summary_op, scaffold
        self._summary_writer, self._output_dir = summary_writer, output_dir
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)

    def begin(self):
        from graphlab.summary import FileWriterCache
        if self._summary_writer is None and self._output_dir:
            self._summary_writer = FileWriterCache.get(self._output_dir)
        self._next_step = None
        self._global_step_tensor = _global_step_tensor()

    def _ops(self):
        op = self._summary_op if self._summary_op is not None else self._scaffold.summary_op
        if op is None:
            return None
        return op if isinstance(op, list) else [op]

    def before_run(self, run_context):
        self._request_summary = self._next_step is None or self._timer.should_trigger_for_step(self._next_step)
        requests = {"global_step": self._global_step_tensor}
        ops = self._ops()
        if self._request_summary and ops:
            requests["summary"] = ops
        return SessionRunArgs(requests)

    def after_run(self, run_context, run_values):
        if not self._summary_writer:
            return
        stale = int(run_values.results["global_step"])
        step = stale + 1
        if self._next_step is None or self._request_summary:
            step = int(run_context.session.run(self._global_step_tensor))
        if self._next_step is None:
            from graphlab.formats.protos.event_pb2 import SessionLog
            self._summary_writer.add_session_log(SessionLog(status=SessionLog.START), step)
        if self._request_summary:
            self._timer.update_last_triggered_step(step)
            for summary in run_values.results.get("summary", []):
                self._summary_writer.add_summary(summary, step)
        self._next_step = step + 1

    def end(self, session=None):
        if self._summary_writer:
            self._summary_writer.flush()


class FeedFnHook(SessionRunHook):
    """Feeds ``feed_fn()`` (a dict) into every run."""

    def __init__(self, feed_fn):
        self.feed_fn = feed_fn

    def before_run(self, run_context):
        return SessionRunArgs(fetches=None, feed_dict=self.feed_fn())


class FinalOpsHook(SessionRunHook):
    """Runs ``final_ops`` when the session ends; their values are in ``final_ops_values``."""

    def __init__(self, final_ops, final_ops_feed_dict=None):
        self._final_ops, self._final_ops_feed_dict = final_ops, final_ops_feed_dict
        self._final_ops_values = None

    @property
    def final_ops_values(self):
        return self._final_ops_values

    def end(self, session):
        if self._final_ops is not None:
            self._final_ops_values = session.run(self._final_ops, feed_dict=self._final_ops_feed_dict)


class GlobalStepWaiterHook(SessionRunHook):
    """Delays the first run until the global step reaches ``wait_until_step`` (others advance it)."""

    def __init__(self, wait_until_step):
        self._wait_until_step = wait_until_step

    def begin(self):
        self._worker_is_started = False
        self._global_step_tensor = _global_step_tensor()

    def before_run(self, run_context):
        if self._worker_is_started or self._wait_until_step <= 0:
            self._worker_is_started = True
            return None
        while int(run_context.session.run(self._global_step_tensor)) < self._wait_until_step:
            if run_context.stop_requested:
                return None
            time.sleep(0.5)
        self._worker_is_started = True
        return None
