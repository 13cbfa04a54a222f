"""The executor's shortcuts for recurrent training steps give what the plain path gives, bit for bit.

A run with ``RunOptions(trace_level=FULL_TRACE)`` takes the general loop runner (every op checked for dead
inputs, nothing folded or fused); a run without it takes the fast one. Both must produce the same values."""
import resource
import sys

import numpy as np
import pytest

import graphlab as tf
from graphlab.runtime import loop_runner, memory

TRACE = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)
STEP_BY_STEP_AND_COMPILED = pytest.mark.parametrize("compile_after", [10 ** 9, 0], ids=["step_by_step", "compiled"])


def _lstm_step(units=8, batch=3, time=5, depth=4):
    """A 2-layer LSTM with its loss, gradients, Adam step and feed, in the default graph."""
    rng = np.random.RandomState(0)
    x = tf.placeholder(tf.float32, [batch, time, depth])
    y = tf.placeholder(tf.int64, [batch])
    cell = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.BasicLSTMCell(units) for _ in range(2)])
    outputs, _ = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
    logits = tf.matmul(outputs[:, -1], tf.get_variable("readout", [units, 3]))
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    grads = tf.gradients(loss, tf.trainable_variables())
    train = tf.train.AdamOptimizer(0.01).minimize(loss)
    feed = {x: rng.uniform(-2, 2, (batch, time, depth)).astype(np.float32), y: rng.randint(0, 3, batch)}
    return loss, grads, train, feed


@STEP_BY_STEP_AND_COMPILED
def test_training_steps_match_the_traced_plain_path_bit_for_bit(compile_after, monkeypatch):
    monkeypatch.setattr(loop_runner, "COMPILE_AFTER_PASSES", compile_after)
    with tf.Graph().as_default():
        loss, grads, train, feed = _lstm_step()
        fast_sess, plain_sess = tf.Session(), tf.Session()
        fast_sess.run(tf.global_variables_initializer())
        for v in tf.global_variables():        # the same start in both sessions, Adam's slots included
            v.load(fast_sess.run(v), plain_sess)
        fast = [fast_sess.run([loss, grads, train], feed)[:2] for _ in range(3)]
        plain = [plain_sess.run([loss, grads, train], feed, options=TRACE)[:2] for _ in range(3)]
        fast_weights = fast_sess.run(tf.global_variables())
        plain_weights = plain_sess.run(tf.global_variables())
    for (fast_loss, fast_grads), (plain_loss, plain_grads) in zip(fast, plain):
        assert fast_loss.tobytes() == plain_loss.tobytes()
        for a, b in zip(fast_grads, plain_grads):
            assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
    for a, b in zip(fast_weights, plain_weights):
        assert np.asarray(a).tobytes() == np.asarray(b).tobytes()


def _fast_loops(sess):
    """The FastLoop of every loop frame in the session's cached plans."""
    found = []

    def walk(program):
        if program.fast is not None:
            found.append(program.fast)
        for step in program.steps:
            if step[1] is None:
                walk(step[0].program)
    for plan in sess._plans.values():
        if plan._frames is not None:
            walk(plan._frames)
    return found


def test_loop_invariant_ops_run_in_the_first_iteration_only():
    with tf.Graph().as_default():
        loss, grads, train, feed = _lstm_step()
        sess = tf.Session()
        sess.run(tf.global_variables_initializer())
        sess.run(grads, feed)
        invariant = set()
        for loop in _fast_loops(sess):
            later = {id(step) for step in loop.later_body}
            invariant |= {step[1].op.type for step in loop.body if id(step) not in later}
    # the concat gradient's axis (FloorMod of two constants) and offsets (ConcatOffset of constants)
    assert invariant == {"FloorMod", "ConcatOffset"}


def test_a_loop_invariant_op_that_fails_reports_its_error_as_before():
    with tf.Graph().as_default():
        def body(i):
            return i + tf.floormod(tf.constant(7), tf.constant(0))    # constants only: loop-invariant
        out = tf.while_loop(lambda i: i < 3, body, [tf.constant(0)])
        with tf.Session() as sess:
            for options in (None, TRACE):
                with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
                    sess.run(out, options=options)


@pytest.mark.skipif(not sys.platform.startswith("linux") or not memory.keep_freed_memory(),
                    reason="glibc's malloc thresholds only")
def test_memory_freed_by_one_step_is_reused_by_the_next_without_page_faults():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [256, 256])

        def body(i, acc):     # 100 iterations keep ~50 MB of (256, 256) results alive for the gradient
            return i + 1, tf.tanh(tf.matmul(acc, x))
        _, out = tf.while_loop(lambda i, acc: i < 100, body, [tf.constant(0), x])
        grad = tf.gradients(tf.reduce_sum(out), x)[0]
        feed = {x: np.full((256, 256), 0.01, np.float32)}
        with tf.Session() as sess:
            sess.run(grad, feed)
            before = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt
            sess.run(grad, feed)
            faults = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt - before
    assert faults < 1000     # the first run's pages are reused (~0); fresh ones would be ~7000


@STEP_BY_STEP_AND_COMPILED
def test_a_kernel_failing_in_a_loop_pass_names_its_op_as_the_plain_path_does(compile_after, monkeypatch):
    monkeypatch.setattr(loop_runner, "COMPILE_AFTER_PASSES", compile_after)
    with tf.Graph().as_default():
        a = tf.placeholder(tf.float32, [2, None], name="a")
        b = tf.placeholder(tf.float32, [None, 2], name="b")

        def body(i, acc):
            return i + 1, acc + tf.matmul(a, b, name="product")
        out = tf.while_loop(lambda i, acc: i < 3, body, [tf.constant(0), tf.zeros([2, 2])])
        feed = {a: np.ones((2, 3), np.float32), b: np.ones((2, 2), np.float32)}   # 3 != 2
        messages = []
        with tf.Session() as sess:
            for options in (None, TRACE):
                with pytest.raises(tf.errors.InvalidArgumentError) as caught:
                    sess.run(out, feed, options=options)
                messages.append(str(caught.value))
                assert caught.value.op.name == "while/product"
    assert messages[0] == messages[1]


def test_gradient_accumulators_are_found_and_user_loops_that_reuse_acc_keep_their_values():
    with tf.Graph().as_default():
        loss, grads, train, feed = _lstm_step()
        sess = tf.Session()
        sess.run(tf.global_variables_initializer())
        sess.run(grads, feed)
        accumulating = [step[1].op.name for loop in _fast_loops(sess) for step in loop.body
                        if step[0].__name__ == "accumulate"]
    # one per weight and bias of the two cells, in the gradient loop
    assert sorted(name for name in accumulating if name.endswith("Enter_grad/Add")) == sorted(
        "gradients/rnn/while/rnn/multi_rnn_cell/cell_%d/basic_lstm_cell/%s/Enter_grad/Add" % (cell, op)
        for cell in (0, 1) for op in ("MatMul", "BiasAdd"))

    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [3])

        def body(i, acc, seen):      # acc + x, acc also kept by another loop variable: no in-place add
            return i + 1, acc + x, seen + acc

        def plain_sum(i, acc):       # acc + x alone: added to in place from the second iteration
            return i + 1, acc + x
        _, acc, seen = tf.while_loop(lambda i, a, s: i < 4, body, [tf.constant(0), tf.zeros([3]), tf.zeros([3])])
        _, total = tf.while_loop(lambda i, a: i < 4, plain_sum, [tf.constant(0), tf.ones([3])])
        with tf.Session() as sess:
            for options in (None, TRACE):
                got = sess.run([acc, seen, total], {x: [1.0, 2.0, 3.0]}, options=options)
                np.testing.assert_array_equal(got[0], [4, 8, 12])
                np.testing.assert_array_equal(got[1], [6, 12, 18])     # 0 + 1x + 2x + 3x
                np.testing.assert_array_equal(got[2], [5, 9, 13])
