"""Where in the user's code an op was created: the first stack frame outside graphlab itself."""
import contextlib
import linecache
import os
import sys
import threading

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


class SourceLine:
    """A (file, line, function) triple; the text of the line is read lazily, only when shown."""

    __slots__ = ("filename", "lineno", "function")

    def __init__(self, filename, lineno, function):
        self.filename, self.lineno, self.function = filename, lineno, function

    @property
    def text(self):
        return linecache.getline(self.filename, self.lineno).strip()

    def short(self):
        return "%s:%d" % (os.path.basename(self.filename), self.lineno)

    def __repr__(self):
        return "<%s:%d in %s>" % (self.filename, self.lineno, self.function)

    def __str__(self):
        line = self.text
        head = 'File "%s", line %d, in %s' % (self.filename, self.lineno, self.function)
        return head + ("\n    " + line if line else "")


_cache = {}
_lines = {}   # (file, line, function) -> its one SourceLine


class _Pinned(threading.local):
    line = None


_pinned = _Pinned()


def caller(frame=None):
    """The innermost frame that is not graphlab's own code, starting the search at ``frame`` (default:
    the frame that called ``caller``).

    All ops built by one line of user code share one SourceLine: a loop like ``x = x + 1`` makes
    thousands of ops but only one record of where they came from (and one object less per op for the
    garbage collector to walk)."""
    if frame is None:
        frame = sys._getframe(1)
    while frame is not None:
        code = frame.f_code
        filename = code.co_filename
        inside = _cache.get(filename)
        if inside is None:
            inside = _cache[filename] = filename.startswith(_PACKAGE_DIR)
        if not inside:
            key = (filename, frame.f_lineno, code.co_name)
            line = _lines.get(key)
            if line is None:
                line = _lines[key] = SourceLine(*key)
            return line
        frame = frame.f_back
    return None


def call_pinned(fn, frame, *args):
    """``fn(*args)`` with every op it builds attributed to the user's line found from ``frame``.

    Walking up the stack is the costly part of recording where an op came from: each frame looked at
    becomes a Python object. An operator like ``x + 1`` builds two ops from several nested graphlab calls;
    searching once from the operator's caller, instead of from deep inside each op, keeps that cost to
    one frame. Only for code that calls no user code while it runs (operators do not)."""
    if _pinned.line is not None:
        return fn(*args)
    _pinned.line = caller(frame)
    try:
        return fn(*args)
    finally:
        _pinned.line = None


@contextlib.contextmanager
def pinned_from(frame):
    """Inside the block, every op built is attributed to the user's line found from ``frame`` (once, here)
    rather than by a walk up the stack per op: how ``tf.gradients`` records its thousands of ops. Code in
    the block that calls user code must run that code under ``unpinned`` (its ops belong to its own lines)."""
    if _pinned.line is not None:
        yield
        return
    _pinned.line = caller(frame)
    try:
        yield
    finally:
        _pinned.line = None


@contextlib.contextmanager
def unpinned():
    """Inside a ``pinned_from`` block, around a call into user code (a gradient registered by the user):
    ops built there are attributed by walking the stack, to the user's own lines, as outside the block."""
    saved, _pinned.line = _pinned.line, None
    try:
        yield
    finally:
        _pinned.line = saved
