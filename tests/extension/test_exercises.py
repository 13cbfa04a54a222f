"""The lessons' exercise checks print one line, PASS or NOT YET, whatever the learner's code does."""
import contextlib
import io

import numpy as np
import pytest

from graphlab_ipython.exercises import Check


def _said(block, hint="read the section above"):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        with Check("Exercise 1", hint=hint) as check:
            block(check)
    return out.getvalue().strip(), check.verdict


def test_pass_prints_what_was_shown():
    assert _said(lambda c: c.passed("12 ops, as predicted")) == ("PASS: 12 ops, as predicted", "PASS")


def test_starter_ellipsis_is_not_yet_with_the_hint_of_filled():
    assert _said(lambda c: c.filled(..., "replace the ... with a number")) == \
        ("NOT YET: replace the ... with a number", "NOT YET")


def test_the_learners_exception_becomes_a_hint_not_a_traceback():
    def block(check):
        raise ValueError("Input tensor 'start:0' enters the loop with shape (1,), but has shape (2,).\nmore")
    assert _said(block, "use shape_invariants") == (
        "NOT YET: your code raised ValueError: Input tensor 'start:0' enters the loop with shape (1,), but has "
        "shape (2,). Hint: use shape_invariants", "NOT YET")


def test_a_run_error_shows_the_kernels_words_not_the_graph_execution_heading():
    import graphlab as tf
    with tf.Graph().as_default():
        v = tf.Variable(1.0, name="bias")
        doubled = v * 2

        def block(check):
            tf.Session().run(doubled)
        assert _said(block, "run the initializer") == (
            "NOT YET: your code raised FailedPreconditionError: Attempting to use uninitialized value bias. Hint: "
            "run the initializer", "NOT YET")


def test_equal_shows_numpy_results_as_plain_numbers():
    said, _ = _said(lambda c: c.equal(np.float32([0, 3, 4]), [3, 4, 8], "running_totals([3, 1, 4])"))
    assert said == "NOT YET: running_totals([3, 1, 4]): got [0.0, 3.0, 4.0], which is not it yet"


def test_keyboard_interrupt_is_not_swallowed():
    def block(check):
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        _said(block)
