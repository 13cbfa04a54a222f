"""Small helpers Keras's engine shares: names and argument inspection, and Keras's progress bar."""
import inspect
import os
import re
import sys
import time

import numpy as np


def to_snake_case(name):
    """Conv2DTranspose -> conv2d_transpose, as Keras names layers after their class."""
    intermediate = re.sub("(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    snake = re.sub("([a-z])([A-Z])", r"\1_\2", intermediate).lower()
    return snake if snake[0] != "_" else "private" + snake


def deserialize_from_table(config, table, custom_objects, unknown_message):
    """A Keras object from a name or a {"class_name", "config"} dict: the class (or factory) of that name
    in ``custom_objects``, else in ``table``, called with the config; ``unknown_message % name`` (a
    ValueError) for a name in neither. What initializers and regularizers deserialize alike."""
    name, kwargs = (config, {}) if isinstance(config, str) else (config["class_name"], config.get("config", {}))
    if custom_objects and name in custom_objects:
        return custom_objects[name](**kwargs)
    if name not in table:
        raise ValueError(unknown_message % name)
    return table[name](**kwargs)


def get_from_identifier(identifier, deserialize, kind):
    """Keras's ``get`` of a module (losses, regularizers, initializers): None stays None, a name or config is
    deserialized, a callable is used as it is; anything else is a ValueError naming the ``kind``."""
    if identifier is None:
        return None
    if isinstance(identifier, (str, dict)):
        return deserialize(identifier)
    if callable(identifier):
        return identifier
    raise ValueError("Could not interpret %s identifier: %s" % (kind, identifier))


def has_arg(fn, name):
    """Whether ``fn`` takes an argument ``name`` (or **kwargs)."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    if name in params:
        return True
    return any(p.kind == p.VAR_KEYWORD for p in params.values()) and False


def dimension_value(dim):
    """An int or None from a Dimension, an int or None."""
    return getattr(dim, "value", dim)


def normalize_tuple(value, n, name):
    """An int or an n-sequence of ints as an n-tuple (conv and pooling sizes)."""
    if isinstance(value, int):
        return (value,) * n
    try:
        value_tuple = tuple(value)
    except TypeError:
        raise ValueError("The `%s` argument must be a tuple of %d integers. Received: %s" % (name, n, value))
    if len(value_tuple) != n:
        raise ValueError("The `%s` argument must be a tuple of %d integers. Received: %s" % (name, n, value))
    for single in value_tuple:
        if not isinstance(single, int):
            raise ValueError("The `%s` argument must be a tuple of %d integers. Received: %s including element "
                             "%s of type %s" % (name, n, value, single, type(single)))
    return value_tuple


# ---------------------------------------------------------------------------------------------- Progbar
class Progbar:
    """``tf.keras.utils.Progbar``: Keras's progress line, printed exactly as tf-keras prints it.

    verbose=1 redraws one line: ``12/60 [====>.........................] - ETA: 0s - loss: 0.4303``, the
    final form ending ``- 0s 4ms/sample - loss: ...``. verbose=2 prints only the final line of each epoch,
    ``60/60 - 0s - loss: ... - 41ms/epoch - 4ms/sample``. Numbers average over the samples seen, except the
    ``stateful_metrics``, which show their latest value.

    How the line is redrawn: in a terminal (and anywhere tf-keras thinks the display is dynamic) as tf-keras
    does, backspaces over the previous line then a carriage return. In a notebook kernel only the carriage
    return: Jupyter's stream output treats ``\\r`` as "go back to the start of the line" and so shows one live
    bar, while backspaces would be kept as characters. What a notebook stores is then every redraw joined by
    ``\\r``; the lessons' nbval sanitizer keeps what follows the last ``\\r`` of a line, which is what the
    page shows.
    """

    def __init__(self, target, width=30, verbose=1, interval=0.05, stateful_metrics=None, unit_name="step"):
        self.target = target
        self.width = width
        self.verbose = verbose
        self.interval = interval
        self.unit_name = unit_name
        self.stateful_metrics = set(stateful_metrics) if stateful_metrics else set()
        self._notebook = "ipykernel" in sys.modules
        self._dynamic_display = ((hasattr(sys.stdout, "isatty") and sys.stdout.isatty()) or self._notebook
                                 or "posix" in sys.modules or "PYCHARM_HOSTED" in os.environ)
        self._total_width = 0
        self._seen_so_far = 0
        self._values = {}
        self._values_order = []
        self._start = time.time()
        self._last_update = 0
        self._time_at_epoch_start = self._start
        self._time_at_epoch_end = None
        self._time_after_first_step = None

    def update(self, current, values=None, finalize=None):
        """Show ``current`` steps (or samples) done, with (name, value) pairs to average or show."""
        if finalize is None:
            finalize = False if self.target is None else current >= self.target
        for k, v in values or []:
            if k not in self._values_order:
                self._values_order.append(k)
            if k not in self.stateful_metrics:
                weight = max(current - self._seen_so_far, 1)
                if k not in self._values:
                    self._values[k] = [v * weight, weight]
                else:
                    self._values[k][0] += v * weight
                    self._values[k][1] += weight
            else:
                self._values[k] = [v, 1]
        self._seen_so_far = current
        now = time.time()
        info = " - %.0fs" % (now - self._start)
        if current == self.target:
            self._time_at_epoch_end = now
        if self.verbose == 1:
            if now - self._last_update < self.interval and not finalize:
                return
            self._print(self._bar_line(current, now, info, finalize))
        elif self.verbose == 2 and finalize:
            self._print(self._epoch_line(current, now, info))
        self._last_update = now

    def _bar_line(self, current, now, info, finalize):
        prev_total_width = self._total_width
        if self._notebook:
            message = "\r"
        elif self._dynamic_display:
            message = "\b" * prev_total_width + "\r"
        else:
            message = "\n"
        if self.target is not None:
            digits = int(np.log10(self.target)) + 1
            bar = ("%" + str(digits) + "d/%d [") % (current, self.target)
            prog_width = int(self.width * float(current) / self.target)
            if prog_width > 0:
                bar += "=" * (prog_width - 1) + (">" if current < self.target else "=")
            bar += "." * (self.width - prog_width) + "]"
        else:
            bar = "%7d/Unknown" % current
        self._total_width = len(bar)
        message += bar
        time_per_unit = self._estimate_step_duration(current, now)
        if self.target is None or finalize:
            info += self._format_time(time_per_unit, self.unit_name)
        else:
            eta = time_per_unit * (self.target - current)
            if eta > 3600:
                eta_format = "%d:%02d:%02d" % (eta // 3600, (eta % 3600) // 60, eta % 60)
            elif eta > 60:
                eta_format = "%d:%02d" % (eta // 60, eta % 60)
            else:
                eta_format = "%ds" % eta
            info = " - ETA: " + eta_format
        for k in self._values_order:
            info += " - %s:" % k
            if isinstance(self._values[k], list):
                avg = np.mean(self._values[k][0] / max(1, self._values[k][1]))
                info += (" %.4f" % avg) if abs(avg) > 1e-3 else (" %.4e" % avg)
            else:
                info += " %s" % self._values[k]
        self._total_width += len(info)
        if prev_total_width > self._total_width:
            info += " " * (prev_total_width - self._total_width)
        if finalize:
            info += "\n"
        return message + info

    def _epoch_line(self, current, now, info):
        digits = int(np.log10(self.target)) + 1
        info = ("%" + str(digits) + "d/%d") % (current, self.target) + info
        for k in self._values_order:
            avg = np.mean(self._values[k][0] / max(1, self._values[k][1]))
            info += " - %s:" % k + ((" %.4f" % avg) if avg > 1e-3 else (" %.4e" % avg))
        if self._time_at_epoch_end:
            time_per_epoch = self._time_at_epoch_end - self._time_at_epoch_start
            avg_time_per_step = time_per_epoch / self.target
            self._time_at_epoch_start = now
            self._time_at_epoch_end = None
            info += " -" + self._format_time(time_per_epoch, "epoch")
            info += " -" + self._format_time(avg_time_per_step, self.unit_name)
            info += "\n"
        return info

    @staticmethod
    def _print(message):
        sys.stdout.write(message)
        sys.stdout.flush()

    def add(self, n, values=None):
        self.update(self._seen_so_far + n, values)

    @staticmethod
    def _format_time(time_per_unit, unit_name):
        if time_per_unit >= 1 or time_per_unit == 0:
            return " %.0fs/%s" % (time_per_unit, unit_name)
        if time_per_unit >= 1e-3:
            return " %.0fms/%s" % (time_per_unit * 1e3, unit_name)
        return " %.0fus/%s" % (time_per_unit * 1e6, unit_name)

    def _estimate_step_duration(self, current, now):
        if not current:
            return 0
        if self._time_after_first_step is not None and current > 1:
            time_per_unit = (now - self._time_after_first_step) / (current - 1)
        else:
            time_per_unit = (now - self._start) / current
        if current == 1:
            self._time_after_first_step = now
        return time_per_unit

    def _update_stateful_metrics(self, stateful_metrics):
        self.stateful_metrics = self.stateful_metrics.union(stateful_metrics)
