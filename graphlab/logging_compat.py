"""``tf.logging``: TF1's logging module, mapped onto Python's ``logging`` (logger "tensorflow").

TF1 tutorials call ``tf.logging.set_verbosity(tf.logging.INFO)`` and ``tf.logging.info(...)``; the levels are
Python's, so the messages go wherever the "tensorflow" logger's handlers send them (stderr by default).
"""
import logging as _logging
import sys as _sys

DEBUG = _logging.DEBUG
INFO = _logging.INFO
WARN = _logging.WARN
ERROR = _logging.ERROR
FATAL = _logging.FATAL

_logger = None


def get_logger():
    """The "tensorflow" logger, given a stderr handler the first time (as TF's absl-based logger has)."""
    global _logger
    if _logger is None:
        logger = _logging.getLogger("tensorflow")
        if not logger.handlers:
            handler = _logging.StreamHandler(_sys.stderr)
            handler.setFormatter(_logging.Formatter("%(levelname)s:%(name)s:%(message)s"))
            logger.addHandler(handler)
            logger.propagate = False
        if logger.level == _logging.NOTSET:
            logger.setLevel(WARN)
        _logger = logger
    return _logger


def set_verbosity(v):
    get_logger().setLevel(v)


def get_verbosity():
    return get_logger().getEffectiveLevel()


def log(level, msg, *args, **kwargs):
    get_logger().log(level, msg, *args, **kwargs)


def debug(msg, *args, **kwargs):
    get_logger().debug(msg, *args, **kwargs)


def info(msg, *args, **kwargs):
    get_logger().info(msg, *args, **kwargs)


def warning(msg, *args, **kwargs):
    get_logger().warning(msg, *args, **kwargs)


warn = warning


def error(msg, *args, **kwargs):
    get_logger().error(msg, *args, **kwargs)


def fatal(msg, *args, **kwargs):
    get_logger().fatal(msg, *args, **kwargs)


def log_first_n(level, msg, n, *args):
    """Log only the first n calls from the same line of code."""
    caller = _sys._getframe(1)
    key = (caller.f_code.co_filename, caller.f_lineno)
    count = _counts.get(key, 0)
    _counts[key] = count + 1
    if count < n:
        log(level, msg, *args)


_counts = {}
