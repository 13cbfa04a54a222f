"""The executor's shortcuts with resource variables: cached plans, compiled loop passes and loop-invariant
folding give what the traced plain path gives, and a ReadVariableOp is never folded or hoisted out of a loop
(its value changes when an update ordered before it runs)."""
import numpy as np
import pytest

import graphlab as tf
from graphlab.runtime import loop_runner

TRACE = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)
STEP_BY_STEP_AND_COMPILED = pytest.mark.parametrize("compile_after", [10 ** 9, 0], ids=["step_by_step", "compiled"])


def _lstm_step(units=6, batch=3, time=4, depth=3):
    """A resource-variable LSTM with its loss, gradients, Adam step (ResourceApplyAdam) and feed."""
    rng = np.random.RandomState(0)
    x = tf.placeholder(tf.float32, [batch, time, depth])
    y = tf.placeholder(tf.int64, [batch])
    with tf.variable_scope("model", use_resource=True):
        cell = tf.nn.rnn_cell.BasicLSTMCell(units)
        outputs, _ = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
        logits = tf.matmul(outputs[:, -1], tf.get_variable("readout", [units, 3]))
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    grads = tf.gradients(loss, tf.trainable_variables())
    train = tf.train.AdamOptimizer(0.01).minimize(loss)
    feed = {x: rng.uniform(-2, 2, (batch, time, depth)).astype(np.float32), y: rng.randint(0, 3, batch)}
    return loss, grads, train, feed


@STEP_BY_STEP_AND_COMPILED
def test_resource_training_steps_match_the_traced_plain_path_bit_for_bit(compile_after, monkeypatch):
    monkeypatch.setattr(loop_runner, "COMPILE_AFTER_PASSES", compile_after)
    with tf.Graph().as_default():
        loss, grads, train, feed = _lstm_step()
        assert all(v.op.type == "VarHandleOp" for v in tf.global_variables())
        fast_sess, plain_sess = tf.Session(), tf.Session()
        fast_sess.run(tf.global_variables_initializer())
        for v in tf.global_variables():
            v.load(fast_sess.run(v), plain_sess)
        fast = [fast_sess.run([loss, grads, train], feed)[:2] for _ in range(3)]
        plain = [plain_sess.run([loss, grads, train], feed, options=TRACE)[:2] for _ in range(3)]
        fast_weights = fast_sess.run(tf.global_variables())
        plain_weights = plain_sess.run(tf.global_variables())
    for (fast_loss, fast_grads), (plain_loss, plain_grads) in zip(fast, plain):
        assert fast_loss.tobytes() == plain_loss.tobytes()
        for a, b in zip(fast_grads, plain_grads):
            assert a.tobytes() == b.tobytes()
    for a, b in zip(fast_weights, plain_weights):
        assert np.asarray(a).tobytes() == np.asarray(b).tobytes()


@STEP_BY_STEP_AND_COMPILED
def test_a_read_after_an_update_in_a_loop_is_not_hoisted(compile_after, monkeypatch):
    """Each iteration increments, then reads: the reads sum to 2+3+4 (then 5+6+7 in the next run), in the
    fast and the plain paths alike, run after run (cached plans)."""
    monkeypatch.setattr(loop_runner, "COMPILE_AFTER_PASSES", compile_after)
    with tf.Graph().as_default():
        v = tf.Variable(1.0, use_resource=True)
        scale = tf.constant(2.0)

        def body(i, acc):
            with tf.control_dependencies([acc]):
                inc = v.assign_add(1.0)
            with tf.control_dependencies([inc]):
                return i + 1, acc + v.read_value() * (scale / 2.0)     # scale / 2: loop-invariant
        out = tf.while_loop(lambda i, acc: i < 3, body, [0, 0.0])[1]
        for options in (None, TRACE):
            with tf.Session() as sess:
                sess.run(v.initializer)
                got = [float(sess.run(out, options=options)) for _ in range(4)]
            assert got == [9.0, 18.0, 27.0, 36.0]


def test_reads_are_never_loop_invariant():
    with tf.Graph().as_default():
        v = tf.Variable([1.0, 2.0], use_resource=True)

        def body(i, acc):
            half = tf.constant(1.0) / tf.constant(2.0)           # loop-invariant: folded, as a check
            return i + 1, acc + tf.reduce_sum(v.read_value()) + tf.reduce_sum(tf.gather(v, [1])) * half * 2.0
        out = tf.while_loop(lambda i, acc: i < 4, body, [0, 0.0])[1]
        with tf.Session() as sess:
            sess.run(v.initializer)
            assert float(sess.run(out)) == 20.0
            sess.run(v.assign([2.0, 3.0]))
            assert float(sess.run(out)) == 32.0         # the cached plan reads the new value
            invariant = set()
            for plan in sess._plans.values():
                stack = [plan._frames] if plan._frames is not None else []
                while stack:
                    program = stack.pop()
                    if program.fast is not None:
                        later = {id(step) for step in program.fast.later_body}
                        invariant |= {s[1].op.type for s in program.fast.body if id(s) not in later}
                    stack.extend(step[0].program for step in program.steps if step[1] is None)
    assert "RealDiv" in invariant and not invariant & {"ReadVariableOp", "ResourceGather"}
