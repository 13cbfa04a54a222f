"""``tf.keras.callbacks``: what runs around ``fit``'s steps and epochs, as tf-keras runs it in graph mode.

``fit`` puts ``BaseLogger`` first, the user's callbacks, then the model's ``History`` and, when verbose,
a ``ProgbarLogger``; each epoch's logs pass through them in that order (BaseLogger replaces the loss by
its sample-weighted mean over the epoch; metrics keep their last, running, value). TensorBoard is
tf-keras's graph-mode one (callbacks_v1): the graph when the model is set, then ``epoch_<name>`` scalars
at step = epoch index, through graphlab's summary FileWriter.
"""
import collections
import copy
import csv
import logging
import os

import numpy as np

from graphlab.formats.protos.summary_pb2 import Summary
from graphlab.keras.backend import variables as kvariables
from graphlab.keras.backend.session import get_graph
from graphlab.keras.utils.generic_utils import Progbar
from graphlab.summary.writer import FileWriter

_log = logging.getLogger("graphlab.keras")


class ModeKeys:
    TRAIN = "train"
    TEST = "test"
    PREDICT = "predict"


def _print_msg(message):
    print(message)


class Callback:
    """Base class: override the ``on_*`` hooks; ``self.model`` and ``self.params`` are set by ``fit``."""

    def __init__(self):
        self.validation_data = None
        self.model = None
        self.params = None
        self._chief_worker_only = None
        self._supports_tf_logs = False

    def set_params(self, params):
        self.params = params

    def set_model(self, model):
        self.model = model

    def on_batch_begin(self, batch, logs=None):
        """A training batch begins (the same as on_train_batch_begin)."""

    def on_batch_end(self, batch, logs=None):
        """A training batch ended (the same as on_train_batch_end)."""

    def on_epoch_begin(self, epoch, logs=None):
        """An epoch begins (training only)."""

    def on_epoch_end(self, epoch, logs=None):
        """An epoch ended; ``logs`` holds the epoch's loss, metrics and ``val_`` ones."""

    def on_train_batch_begin(self, batch, logs=None):
        self.on_batch_begin(batch, logs=logs)

    def on_train_batch_end(self, batch, logs=None):
        self.on_batch_end(batch, logs=logs)

    def on_test_batch_begin(self, batch, logs=None):
        pass

    def on_test_batch_end(self, batch, logs=None):
        pass

    def on_predict_batch_begin(self, batch, logs=None):
        pass

    def on_predict_batch_end(self, batch, logs=None):
        pass

    def on_train_begin(self, logs=None):
        pass

    def on_train_end(self, logs=None):
        pass

    def on_test_begin(self, logs=None):
        pass

    def on_test_end(self, logs=None):
        pass

    def on_predict_begin(self, logs=None):
        pass

    def on_predict_end(self, logs=None):
        pass


class CallbackList:
    """Calls every callback's hook in order."""

    def __init__(self, callbacks=None, model=None, **params):
        self.callbacks = list(callbacks or [])
        self.model = None
        self.params = {}
        if model is not None:
            self.set_model(model)
        if params:
            self.set_params(params)

    def __iter__(self):
        return iter(self.callbacks)

    def append(self, callback):
        self.callbacks.append(callback)

    def set_params(self, params):
        self.params = params
        for callback in self.callbacks:
            callback.set_params(params)

    def set_model(self, model):
        self.model = model
        for callback in self.callbacks:
            callback.set_model(model)

    def _call(self, hook, *args):
        for callback in self.callbacks:
            getattr(callback, hook)(*args)

    def _process_logs(self, logs):
        """Unless every callback takes them as they are, logs reach callbacks as Python numbers (one new
        dict that all callbacks share), as tf-keras converts them."""
        if logs is None:
            return {}
        if all(getattr(cb, "_supports_tf_logs", False) for cb in self.callbacks):
            return logs
        return {k: (v.item() if isinstance(v, (np.ndarray, np.generic)) and np.ndim(v) == 0 else v)
                for k, v in logs.items()}

    def _call_batch_hook(self, mode, hook, batch, logs=None):
        self._call("on_%s_batch_%s" % (mode, hook), batch, self._process_logs(logs))

    def _call_begin_hook(self, mode):
        self._call("on_%s_begin" % mode, None)

    def _call_end_hook(self, mode):
        self._call("on_%s_end" % mode, None)

    def on_epoch_begin(self, epoch, logs=None):
        self._call("on_epoch_begin", epoch, self._process_logs(logs))

    def on_epoch_end(self, epoch, logs=None):
        self._call("on_epoch_end", epoch, self._process_logs(logs))

    def on_train_begin(self, logs=None):
        self._call("on_train_begin", logs)

    def on_train_end(self, logs=None):
        self._call("on_train_end", logs)

    def on_test_begin(self, logs=None):
        self._call("on_test_begin", logs)

    def on_test_end(self, logs=None):
        self._call("on_test_end", logs)

    def on_predict_begin(self, logs=None):
        self._call("on_predict_begin", logs)

    def on_predict_end(self, logs=None):
        self._call("on_predict_end", logs)


def configure_callbacks(callbacks, model, do_validation=False, batch_size=None, epochs=None, steps_per_epoch=None,
                        samples=None, verbose=1, count_mode="steps", mode=ModeKeys.TRAIN):
    """The callbacks a loop runs: for training BaseLogger + yours + History (+ ProgbarLogger if verbose)."""
    if isinstance(callbacks, CallbackList):
        return callbacks
    callbacks = list(callbacks or [])
    if mode == ModeKeys.TRAIN:
        model.history = History()
        callbacks = [BaseLogger()] + callbacks + [model.history]
        if verbose:
            callbacks.append(ProgbarLogger(count_mode))
    callback_list = CallbackList(callbacks)
    callback_list.set_model(model)
    metric_names = model.metrics_names
    for cbk in callback_list:
        if isinstance(cbk, (BaseLogger, ProgbarLogger)):
            cbk.stateful_metrics = metric_names[1:]
    callback_metrics = []
    if mode != ModeKeys.PREDICT:
        callback_metrics = list(metric_names)
        if do_validation:
            callback_metrics += ["val_" + n for n in metric_names]
    callback_list.set_params({"batch_size": batch_size, "epochs": epochs, "steps": steps_per_epoch,
                              "samples": samples, "verbose": verbose, "do_validation": do_validation,
                              "metrics": callback_metrics})
    model.stop_training = False
    return callback_list


def make_logs(model, logs, outputs, mode, prefix=""):
    """Name a step's (or epoch's) outputs by the model's metrics_names."""
    if mode in (ModeKeys.TRAIN, ModeKeys.TEST) and model.metrics_names:
        for label, output in zip(model.metrics_names, outputs):
            logs[prefix + label] = output
    else:
        logs["outputs"] = outputs
    return logs


class BaseLogger(Callback):
    """Averages the non-stateful values (the loss) over the epoch's samples, weighting batches by size."""

    def __init__(self, stateful_metrics=None):
        super().__init__()
        self.stateful_metrics = set(stateful_metrics or [])

    def on_epoch_begin(self, epoch, logs=None):
        self.seen = 0
        self.totals = {}

    def on_batch_end(self, batch, logs=None):
        logs = logs or {}
        batch_size = logs.get("size", 0)
        self.seen += batch_size * logs.get("num_steps", 1)
        for k, v in logs.items():
            if k in self.stateful_metrics:
                self.totals[k] = v
            elif k in self.totals:
                self.totals[k] += v * batch_size
            else:
                self.totals[k] = v * batch_size

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            for k in self.params["metrics"]:
                if k in self.totals:
                    logs[k] = self.totals[k] if k in self.stateful_metrics else self.totals[k] / self.seen


class History(Callback):
    """``model.history``: ``history`` maps each log name to its value per epoch; ``epoch`` the indices."""

    def __init__(self):
        super().__init__()
        self.history = {}

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        self.epoch.append(epoch)
        for k, v in logs.items():
            self.history.setdefault(k, []).append(v)
        self.model.history = self


class ProgbarLogger(Callback):
    """Prints ``Epoch i/n`` and the progress bar (verbose=1) or one line per epoch (verbose=2)."""

    def __init__(self, count_mode="samples", stateful_metrics=None):
        super().__init__()
        if count_mode == "samples":
            self.use_steps = False
        elif count_mode == "steps":
            self.use_steps = True
        else:
            raise ValueError(f'Unknown `count_mode`: {count_mode}. Expected values are ["samples", "steps"]')
        self._supports_tf_logs = True
        self.stateful_metrics = set(stateful_metrics) if stateful_metrics else set()
        self.seen = 0
        self.progbar = None
        self.target = None
        self.verbose = 1
        self.epochs = 1
        self._called_in_fit = False

    def set_params(self, params):
        self.verbose = params["verbose"]
        self.epochs = params["epochs"]
        if self.use_steps and "steps" in params:
            self.target = params["steps"]
        elif not self.use_steps and "samples" in params:
            self.target = params["samples"]
        else:
            self.target = None

    def on_train_begin(self, logs=None):
        self._called_in_fit = True

    def on_test_begin(self, logs=None):
        if not self._called_in_fit:
            self._reset_progbar()
            self._maybe_init_progbar()

    def on_predict_begin(self, logs=None):
        self._reset_progbar()
        self._maybe_init_progbar()

    def on_epoch_begin(self, epoch, logs=None):
        self._reset_progbar()
        self._maybe_init_progbar()
        if self.verbose and self.epochs > 1:
            _print_msg(f"Epoch {epoch + 1}/{self.epochs}")

    def on_train_batch_end(self, batch, logs=None):
        self._batch_update_progbar(batch, logs)

    def on_test_batch_end(self, batch, logs=None):
        if not self._called_in_fit:
            self._batch_update_progbar(batch, logs)

    def on_predict_batch_end(self, batch, logs=None):
        self._batch_update_progbar(batch, None)

    def on_epoch_end(self, epoch, logs=None):
        self._finalize_progbar(logs)

    def on_test_end(self, logs=None):
        if not self._called_in_fit:
            self._finalize_progbar(logs)

    def on_predict_end(self, logs=None):
        self._finalize_progbar(logs)

    def _reset_progbar(self):
        self.seen = 0
        self.progbar = None

    def _maybe_init_progbar(self):
        self.stateful_metrics = set(self.stateful_metrics)
        if self.model is not None:
            self.stateful_metrics |= {m.name for m in self.model.metrics}
        if self.progbar is None:
            self.progbar = Progbar(target=self.target, verbose=self.verbose, stateful_metrics=self.stateful_metrics,
                                   unit_name="step" if self.use_steps else "sample")
        self.progbar._update_stateful_metrics(self.stateful_metrics)

    def _batch_update_progbar(self, batch, logs=None):
        logs = logs or {}
        self._maybe_init_progbar()
        if self.use_steps:
            self.seen = batch + 1
        else:
            logs = copy.copy(logs)
            batch_size = logs.pop("size", 0)
            num_steps = logs.pop("num_steps", 1)
            logs.pop("batch", None)
            self.seen += num_steps * batch_size
        if self.verbose == 1:
            self.progbar.update(self.seen, list(logs.items()), finalize=False)

    def _finalize_progbar(self, logs):
        logs = logs or {}
        if self.target is None:
            self.target = self.seen
            self.progbar.target = self.target
        self.progbar.update(self.target, list(logs.items()), finalize=True)


class TerminateOnNaN(Callback):
    """Stops training when a batch's loss is NaN or infinite."""

    def __init__(self):
        super().__init__()
        self._supports_tf_logs = True

    def on_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is not None and (np.isnan(loss) or np.isinf(loss)):
            _print_msg(f"Batch {batch}: Invalid loss, terminating training")
            self.model.stop_training = True


def _monitor_op(mode, monitor, name):
    if mode not in ("auto", "min", "max"):
        _log.warning("%s mode %s is unknown, fallback to auto mode.", name, mode)
        mode = "auto"
    if mode == "min":
        return np.less
    if mode == "max":
        return np.greater
    return None


class ModelCheckpoint(Callback):
    """Saves the model (``model.save``) or its weights (``model.save_weights``) after epochs, to a path that
    may name the epoch and logs (``weights.{epoch:02d}-{val_loss:.2f}.h5``); with ``save_best_only`` only
    when ``monitor`` improved."""

    def __init__(self, filepath, monitor="val_loss", verbose=0, save_best_only=False, save_weights_only=False,
                 mode="auto", save_freq="epoch", options=None, initial_value_threshold=None, **kwargs):
        super().__init__()
        self._supports_tf_logs = True
        self.monitor = monitor
        self.verbose = verbose
        self.filepath = os.fspath(filepath)
        self.save_best_only = save_best_only
        self.save_weights_only = save_weights_only
        self.save_freq = save_freq
        self.epochs_since_last_save = 0
        self._batches_seen_since_last_saving = 0
        self._last_batch_seen = -1
        self._current_epoch = 0
        self.best = initial_value_threshold
        self.period = kwargs.pop("period", 1)
        self.load_weights_on_restart = kwargs.pop("load_weights_on_restart", False)
        op = _monitor_op(mode, monitor, "ModelCheckpoint")
        if op is None:
            op = np.greater if ("acc" in monitor or monitor.startswith("fmeasure")) else np.less
        self.monitor_op = op
        if self.best is None:
            self.best = -np.inf if op is np.greater else np.inf
        if save_freq != "epoch" and not isinstance(save_freq, int):
            raise ValueError(f'Unrecognized save_freq: {save_freq}. Expected save_freq are "epoch" or integer')

    def on_epoch_begin(self, epoch, logs=None):
        self._current_epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        if self.save_freq == "epoch":
            return
        add = batch + 1 if batch <= self._last_batch_seen else batch - self._last_batch_seen
        self._batches_seen_since_last_saving += add
        self._last_batch_seen = batch
        if self._batches_seen_since_last_saving >= self.save_freq:
            self._batches_seen_since_last_saving = 0
            self._save_model(self._current_epoch, batch, logs)

    def on_epoch_end(self, epoch, logs=None):
        self.epochs_since_last_save += 1
        if self.save_freq == "epoch":
            self._save_model(epoch, None, logs)

    def _file_path(self, epoch, batch, logs):
        try:
            if batch is None or "batch" in logs:
                return self.filepath.format(epoch=epoch + 1, **logs)
            return self.filepath.format(epoch=epoch + 1, batch=batch + 1, **logs)
        except KeyError as e:
            raise KeyError(f'Failed to format this callback filepath: "{self.filepath}". Reason: {e}') from None

    def _save_model(self, epoch, batch, logs):
        logs = logs or {}
        if not (isinstance(self.save_freq, int) or self.epochs_since_last_save >= self.period):
            return
        self.epochs_since_last_save = 0
        filepath = self._file_path(epoch, batch, logs)
        dirname = os.path.dirname(filepath)
        if dirname and not os.path.exists(dirname):
            os.makedirs(dirname)
        if os.path.isdir(filepath) and self.save_weights_only and filepath.endswith(".h5"):
            raise IOError("Please specify a non-directory filepath for ModelCheckpoint. Filepath used is an "
                          f"existing directory: {filepath}")
        if self.save_best_only:
            current = logs.get(self.monitor)
            if current is None:
                _log.warning("Can save best model only with %s available, skipping.", self.monitor)
            elif self.monitor_op(current, self.best):
                if self.verbose > 0:
                    _print_msg(f"\nEpoch {epoch + 1}: {self.monitor} improved from {self.best:.5f} to "
                               f"{current:.5f}, saving model to {filepath}")
                self.best = current
                self._save(filepath)
            elif self.verbose > 0:
                _print_msg(f"\nEpoch {epoch + 1}: {self.monitor} did not improve from {self.best:.5f}")
        else:
            if self.verbose > 0:
                _print_msg(f"\nEpoch {epoch + 1}: saving model to {filepath}")
            self._save(filepath)

    def _save(self, filepath):
        if self.save_weights_only:
            self.model.save_weights(filepath, overwrite=True)
        else:
            self.model.save(filepath, overwrite=True)


class EarlyStopping(Callback):
    """Stops training when ``monitor`` has not improved by ``min_delta`` for ``patience`` epochs."""

    def __init__(self, monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto", baseline=None,
                 restore_best_weights=False, start_from_epoch=0):
        super().__init__()
        self.monitor = monitor
        self.patience = patience
        self.verbose = verbose
        self.baseline = baseline
        self.min_delta = abs(min_delta)
        self.wait = 0
        self.stopped_epoch = 0
        self.restore_best_weights = restore_best_weights
        self.best_weights = None
        self.start_from_epoch = start_from_epoch
        op = _monitor_op(mode, monitor, "EarlyStopping")
        if op is None:
            op = np.greater if monitor.endswith(("acc", "accuracy", "auc")) else np.less
        self.monitor_op = op
        self.min_delta *= 1 if op is np.greater else -1

    def on_train_begin(self, logs=None):
        self.wait = 0
        self.stopped_epoch = 0
        self.best = np.inf if self.monitor_op is np.less else -np.inf
        self.best_weights = None
        self.best_epoch = 0

    def on_epoch_end(self, epoch, logs=None):
        current = self.get_monitor_value(logs)
        if current is None or epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = self.model.get_weights()
            self.best_epoch = epoch
        self.wait += 1
        if self._is_improvement(current, self.best):
            self.best = current
            self.best_epoch = epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._is_improvement(current, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            _print_msg(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None:
            if self.verbose > 0:
                _print_msg(f"Restoring model weights from the end of the best epoch: {self.best_epoch + 1}.")
            self.model.set_weights(self.best_weights)

    def get_monitor_value(self, logs):
        value = (logs or {}).get(self.monitor)
        if value is None:
            _log.warning("Early stopping conditioned on metric `%s` which is not available. Available metrics "
                         "are: %s", self.monitor, ",".join(list((logs or {}).keys())))
        return value

    def _is_improvement(self, monitor_value, reference_value):
        return self.monitor_op(monitor_value - self.min_delta, reference_value)


class LearningRateScheduler(Callback):
    """Sets the optimizer's learning rate at each epoch's start to ``schedule(epoch, lr)``."""

    def __init__(self, schedule, verbose=0):
        super().__init__()
        self.schedule = schedule
        self.verbose = verbose

    def on_epoch_begin(self, epoch, logs=None):
        if not hasattr(self.model.optimizer, "lr"):
            raise ValueError('Optimizer must have a "lr" attribute.')
        try:
            lr = float(kvariables.get_value(self.model.optimizer.lr))
            lr = self.schedule(epoch, lr)
        except TypeError:
            lr = self.schedule(epoch)
        if not isinstance(lr, (float, np.float32, np.float64)) and not hasattr(lr, "op"):
            raise ValueError(f'The output of the "schedule" function should be float. Got: {lr}')
        kvariables.set_value(self.model.optimizer.lr, kvariables.get_value(lr) if hasattr(lr, "op") else lr)
        if self.verbose > 0:
            _print_msg(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to {lr}.")

    def on_epoch_end(self, epoch, logs=None):
        logs = logs if logs is not None else {}
        logs["lr"] = kvariables.get_value(self.model.optimizer.lr)


class ReduceLROnPlateau(Callback):
    """Multiplies the learning rate by ``factor`` when ``monitor`` stops improving for ``patience`` epochs."""

    def __init__(self, monitor="val_loss", factor=0.1, patience=10, verbose=0, mode="auto", min_delta=1e-4,
                 cooldown=0, min_lr=0, **kwargs):
        super().__init__()
        self.monitor = monitor
        if factor >= 1.0:
            raise ValueError(f"ReduceLROnPlateau does not support a factor >= 1.0. Got {factor}")
        if "epsilon" in kwargs:
            min_delta = kwargs.pop("epsilon")
            _log.warning("`epsilon` argument is deprecated and will be removed, use `min_delta` instead.")
        self.factor = factor
        self.min_lr = min_lr
        self.min_delta = min_delta
        self.patience = patience
        self.verbose = verbose
        self.cooldown = cooldown
        self.cooldown_counter = 0
        self.wait = 0
        self.best = 0
        self.mode = mode
        self.monitor_op = None
        self._reset()

    def _reset(self):
        if self.mode not in ("auto", "min", "max"):
            _log.warning("Learning rate reduction mode %s is unknown, fallback to auto mode.", self.mode)
            self.mode = "auto"
        if self.mode == "min" or (self.mode == "auto" and "acc" not in self.monitor):
            self.monitor_op = lambda a, b: np.less(a, b - self.min_delta)
            self.best = np.inf
        else:
            self.monitor_op = lambda a, b: np.greater(a, b + self.min_delta)
            self.best = -np.inf
        self.cooldown_counter = 0
        self.wait = 0

    def on_train_begin(self, logs=None):
        self._reset()

    def in_cooldown(self):
        return self.cooldown_counter > 0

    def on_epoch_end(self, epoch, logs=None):
        logs = logs if logs is not None else {}
        logs["lr"] = kvariables.get_value(self.model.optimizer.lr)
        current = logs.get(self.monitor)
        if current is None:
            _log.warning("Learning rate reduction is conditioned on metric `%s` which is not available. "
                         "Available metrics are: %s", self.monitor, ",".join(list(logs.keys())))
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self.monitor_op(current, self.best):
            self.best = current
            self.wait = 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience:
                old_lr = kvariables.get_value(self.model.optimizer.lr)
                if old_lr > np.float32(self.min_lr):
                    new_lr = max(old_lr * self.factor, self.min_lr)
                    kvariables.set_value(self.model.optimizer.lr, new_lr)
                    if self.verbose > 0:
                        _print_msg(f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning rate to {new_lr}.")
                    self.cooldown_counter = self.cooldown
                    self.wait = 0


class CSVLogger(Callback):
    """Writes one CSV row per epoch: ``epoch`` then the logs in sorted order (``val_`` columns always)."""

    def __init__(self, filename, separator=",", append=False):
        self.sep = separator
        self.filename = os.fspath(filename)
        self.append = append
        self.writer = None
        self.keys = None
        self.append_header = True
        super().__init__()

    def on_train_begin(self, logs=None):
        if self.append:
            if os.path.exists(self.filename):
                with open(self.filename) as f:
                    self.append_header = not bool(len(f.readline()))
            mode = "a"
        else:
            mode = "w"
        self.csv_file = open(self.filename, mode, newline="")  # noqa: SIM115  (closed in on_train_end)

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}

        def handle_value(k):
            if isinstance(k, str):
                return k
            if isinstance(k, collections.abc.Iterable) and not (isinstance(k, np.ndarray) and k.ndim == 0):
                return '"[%s]"' % ", ".join(map(str, k))
            return k
        if self.keys is None:
            self.keys = sorted(logs.keys())
            if not any(key.startswith("val_") for key in self.keys):
                self.keys.extend(["val_" + k for k in self.keys])
        if not self.writer:
            sep = self.sep

            class Dialect(csv.excel):
                delimiter = sep
            self.writer = csv.DictWriter(self.csv_file, fieldnames=["epoch"] + self.keys, dialect=Dialect)
            if self.append_header:
                self.writer.writeheader()
        row = collections.OrderedDict({"epoch": epoch})
        row.update((key, handle_value(logs.get(key, "NA"))) for key in self.keys)
        self.writer.writerow(row)
        self.csv_file.flush()

    def on_train_end(self, logs=None):
        self.csv_file.close()
        self.writer = None


class LambdaCallback(Callback):
    """A callback from functions: ``on_epoch_end=lambda epoch, logs: ...`` and so on."""

    def __init__(self, on_epoch_begin=None, on_epoch_end=None, on_batch_begin=None, on_batch_end=None,
                 on_train_begin=None, on_train_end=None, **kwargs):
        super().__init__()
        self.__dict__.update(kwargs)
        for name, fn in (("on_epoch_begin", on_epoch_begin), ("on_epoch_end", on_epoch_end),
                         ("on_batch_begin", on_batch_begin), ("on_batch_end", on_batch_end),
                         ("on_train_begin", on_train_begin), ("on_train_end", on_train_end)):
            if fn is not None:
                setattr(self, name, fn)


class TensorBoard(Callback):
    """tf-keras's graph-mode TensorBoard: the graph when the model is set (``write_graph``), then a scalar
    per log value each epoch, tagged ``epoch_<name>`` at step = epoch (or ``batch_<name>`` every
    ``update_freq`` samples). Histograms, images and embeddings are not written by graphlab."""

    def __init__(self, log_dir="./logs", histogram_freq=0, batch_size=32, write_graph=True, write_grads=False,
                 write_images=False, embeddings_freq=0, embeddings_layer_names=None, embeddings_metadata=None,
                 embeddings_data=None, update_freq="epoch", profile_batch=2):
        super().__init__()
        if histogram_freq or write_grads or write_images or embeddings_freq:
            raise NotImplementedError("graphlab's TensorBoard callback writes the graph and scalars only "
                                      "(histogram_freq, write_grads, write_images and embeddings_freq must be 0)")
        self.log_dir = os.fspath(log_dir)
        self.histogram_freq = histogram_freq
        self.write_graph = write_graph
        self.batch_size = batch_size
        self.update_freq = 1 if update_freq == "batch" else update_freq
        self._samples_seen = 0
        self._samples_seen_at_last_write = 0
        self._total_batches_seen = 0
        self.writer = None

    def set_model(self, model):
        self.model = model
        self.writer = FileWriter(self.log_dir, get_graph() if self.write_graph else None)

    def _write_custom_summaries(self, step, logs=None):
        for name, value in (logs or {}).items():
            if isinstance(value, np.ndarray):
                value = value.item()
            summary = Summary()
            entry = summary.value.add()
            entry.simple_value = value
            entry.tag = name
            self.writer.add_summary(summary, step)
        self.writer.flush()

    def on_batch_end(self, batch, logs=None):
        logs = logs or {}
        self._samples_seen += logs.get("size", 1)
        if self.update_freq != "epoch" and self._samples_seen - self._samples_seen_at_last_write >= self.update_freq:
            self._write_custom_summaries(self._total_batches_seen, {
                "batch_" + k: v for k, v in logs.items() if k not in ("batch", "size", "num_steps")})
            self._samples_seen_at_last_write = self._samples_seen
        self._total_batches_seen += 1

    def on_epoch_end(self, epoch, logs=None):
        logs = {"epoch_" + k: v for k, v in (logs or {}).items() if k not in ("batch", "size", "num_steps")}
        self._write_custom_summaries(epoch if self.update_freq == "epoch" else self._samples_seen, logs)

    def on_train_end(self, logs=None):
        self.writer.close()

