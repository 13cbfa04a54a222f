"""Where in the user's code an op was created: the first stack frame outside graphlab itself."""
import linecache
import os
import sys

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


def caller():
    """The innermost frame that is not graphlab's own code (cheap: a few attribute reads per frame)."""
    frame = sys._getframe(1)
    while frame is not None:
        code = frame.f_code
        filename = code.co_filename
        inside = _cache.get(filename)
        if inside is None:
            inside = _cache[filename] = filename.startswith(_PACKAGE_DIR)
        if not inside:
            return SourceLine(filename, frame.f_lineno, code.co_name)
        frame = frame.f_back
    return None
