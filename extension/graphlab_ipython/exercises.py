"""Checks for the lessons' exercises: each prints one line, ``PASS: ...`` or ``NOT YET: <hint>``.

A lesson ships its exercises unsolved, so a check runs first against a starter (``...`` left in place, or a
broken program still broken). It must then give a hint, never a traceback: a learner reads a traceback from
the check cell as "the lesson is broken", while "NOT YET: ..." says "your turn". So a check is written as a
``with`` block whose failures, of any kind, become that one line::

    with Check("Exercise 1", hint="make a one-shot iterator and run get_next() until OutOfRangeError") as check:
        check.filled(count_batches(dataset), "count_batches still returns ...")
        check.equal(count_batches(dataset), (4, 10), "batches and elements of range(10).batch(3)")
        check.passed("4 batches, the last one smaller")

``check.that``/``filled``/``equal`` stop the block at the first failure with their message; any other
exception raised inside (the learner's code failing) becomes "NOT YET: your code raised ...: <hint>".
The solutions live outside the lessons (notebooks/solutions/), and tests/notebooks/test_lessons.py injects
each one, and each likely wrong answer, in place of the exercise cell.
"""

__all__ = ["Check", "NotYet"]


class NotYet(Exception):
    """Raised inside a check block to stop it with a hint for the learner."""


class Check:
    """One exercise's check: a context manager that prints PASS or NOT YET (never raises)."""

    def __init__(self, exercise, hint=""):
        self.exercise = exercise
        self.hint = hint
        self.verdict = None          # "PASS" or "NOT YET" after the block, for tests and for the learner
        self._praise = None

    # --- inside the block ---------------------------------------------------------------------------
    def that(self, condition, hint):
        """Stop with ``hint`` unless ``condition`` holds."""
        if not condition:
            raise NotYet(hint)

    def filled(self, value, hint):
        """Stop with ``hint`` while ``value`` is still the starter's ``...`` (or None, what ``...`` returns)."""
        if value is Ellipsis or value is None:
            raise NotYet(hint)
        return value

    def equal(self, got, expected, what):
        """Stop unless ``got == expected``, saying what was compared and what came out."""
        try:
            same = bool(got == expected)
        except ValueError:                       # numpy arrays compare elementwise
            import numpy as np
            same = np.array_equal(np.asarray(got), np.asarray(expected))
        if not same:
            raise NotYet("%s: got %r, which is not it yet" % (what, _plain(got)))

    def passed(self, praise):
        """What the learner has shown, printed after ``PASS:``."""
        self._praise = praise

    # --- the block ----------------------------------------------------------------------------------
    def __enter__(self):
        return self

    def __exit__(self, kind, error, traceback):
        if kind is None:
            self.verdict = "PASS"
            print("PASS: %s" % (self._praise or "%s is solved." % self.exercise))
            return False
        if not issubclass(kind, Exception):      # KeyboardInterrupt, SystemExit: the user's, not ours
            return False
        self.verdict = "NOT YET"
        if isinstance(error, NotYet):
            message = str(error)
        else:
            message = "your code raised %s: %s" % (kind.__name__, _first_line(error))
            if self.hint:
                message = message.rstrip(".") + ". Hint: %s" % self.hint
        print("NOT YET: %s" % message)
        return True


def _plain(value):
    """numpy values as the plain Python numbers and lists a learner typed (not ``np.float32(3.0)``)."""
    tolist = getattr(value, "tolist", None)
    if tolist is not None:
        return tolist()
    if isinstance(value, (list, tuple)):
        return type(value)(_plain(v) for v in value)
    return value


def _first_line(error):
    """The line that says what went wrong: TF's restore errors put it after "Original error:", a run's
    error after "Graph execution error:" and the "Node: 'name'" line of where the node was defined."""
    text = str(error).strip()
    if "Original error:" in text:
        text = text.split("Original error:", 1)[1].strip() or text
    if text.startswith("Graph execution error:"):
        text = text[len("Graph execution error:"):].strip()
        lines = text.splitlines()
        nodes = [i for i, line in enumerate(lines) if line.startswith("Node: ")]
        text = "\n".join(lines[nodes[0] + 1:] if nodes else lines).strip()
    return text.splitlines()[0] if text else "(no message)"
