"""use_locking=True updates are atomic under any interleaving: a step-by-step check pauses one run right
after its update has read the variable and lets a second run try a whole update meanwhile. With the lock the
second waits until the first is done (TF's variable mutex, held for the whole update), and both updates count
(the result equals the two applied one after the other); without it the second runs inside the first.
Several op families are checked: AssignAdd, AssignSub, ApplyGradientDescent, ApplyAdagrad (a slot too),
ScatterAdd, SparseApplyAdagrad."""
import sys
import threading

import numpy as np
import pytest

import graphlab as tf
from graphlab.ops.state_ops import VariableRef

READ = VariableRef.read.__code__


def _build(kind, locking):
    v = tf.Variable(np.arange(1, 5, dtype=np.float32), name="v")
    if kind == "AssignAdd":
        return v, tf.assign_add(v, np.ones(4, np.float32), use_locking=locking)
    if kind == "AssignSub":
        return v, tf.assign_sub(v, np.full(4, 0.5, np.float32), use_locking=locking)
    if kind == "ApplyGradientDescent":
        return v, tf.train.GradientDescentOptimizer(0.1, use_locking=locking).apply_gradients(
            [(tf.constant(np.ones(4, np.float32)), v)])
    if kind == "ApplyAdagrad":
        return v, tf.train.AdagradOptimizer(0.1, use_locking=locking).apply_gradients(
            [(tf.constant(np.full(4, 2.0, np.float32)), v)])
    if kind == "ScatterAdd":
        return v, tf.scatter_add(v, [1, 3], [10.0, 20.0], use_locking=locking)
    if kind == "SparseApplyAdagrad":
        grad = tf.IndexedSlices(tf.constant([[1.0], [2.0]]), tf.constant([0, 2]), tf.constant([4, 1]))
        v2 = tf.Variable(np.arange(4, dtype=np.float32).reshape(4, 1), name="v2")
        return v2, tf.train.AdagradOptimizer(0.1, use_locking=locking).apply_gradients([(grad, v2)])
    raise AssertionError(kind)


def _sequential(kind):
    with tf.Graph().as_default():
        v, update = _build(kind, True)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(update)
            sess.run(update)
            return sess.run(v)


def _interleaved(kind, locking):
    """Run A pauses just after reading the variable; run B does a whole update (or waits for the lock, up to
    half a second); then A goes on. (The variable's final value, whether B finished inside A's update.)"""
    with tf.Graph().as_default():
        v, update = _build(kind, locking)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(update)       # plans built and slots made before the race
            sess.run(tf.variables_initializer(tf.global_variables()))
            a_has_read, b_done = threading.Event(), threading.Event()
            paused, inside = [], []

            def tracer(frame, event, arg):
                if frame.f_code is READ and not paused:
                    def local(frame, event, arg):
                        if event == "return" and not paused:
                            paused.append(1)
                            a_has_read.set()
                            inside.append(b_done.wait(0.5))   # B finished (no lock) or waits on the lock
                        return local
                    return local
                return None

            def run_a():
                sys.settrace(tracer)
                try:
                    sess.run(update)
                finally:
                    sys.settrace(None)

            def run_b():
                a_has_read.wait(10)
                sess.run(update)
                b_done.set()

            threads = [threading.Thread(target=run_a), threading.Thread(target=run_b)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            assert paused, "run A never read the variable"
            return sess.run(v), inside[0]


KINDS = ["AssignAdd", "AssignSub", "ApplyGradientDescent", "ApplyAdagrad", "ScatterAdd", "SparseApplyAdagrad"]


@pytest.mark.parametrize("kind", KINDS)
def test_locked_update_is_atomic_under_interleaving(kind):
    value, b_inside_a = _interleaved(kind, True)
    assert not b_inside_a
    np.testing.assert_allclose(value, _sequential(kind), rtol=1e-6)


@pytest.mark.parametrize("kind", ["AssignAdd", "ApplyGradientDescent", "ScatterAdd"])
def test_the_check_sees_an_unlocked_update_run_inside_another(kind):
    _, b_inside_a = _interleaved(kind, False)
    assert b_inside_a
