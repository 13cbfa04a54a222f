"""Silencing what native libraries write straight to the process's stderr, for the lessons that start the
reference TensorFlow in their kernel (10 and 11).

TensorFlow's C++ libraries print start-up notices (no CUDA driver, so no GPU; oneDNN on; absl's logging not
initialized) on file descriptor 2, below Python: ``sys.stderr`` and ``warnings`` never see them, and a notebook
stores them with the machine's timestamps and process ids. They say nothing about the lesson, so the lesson
imports TensorFlow (and opens its first session) inside ``native_stderr_hidden()``. Python's own errors still
show: ``sys.stderr`` is not redirected, only the descriptor, and only inside the block.
"""
import contextlib
import os
import sys

__all__ = ["native_stderr_hidden"]


@contextlib.contextmanager
def native_stderr_hidden():
    """Inside the block, writes to file descriptor 2 go to the null device; afterwards it is restored."""
    sys.stderr.flush()
    saved, devnull = os.dup(2), os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    try:
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)
