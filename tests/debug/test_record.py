"""graphlab.debug.record and the tfdbg watch form: what a recorded run keeps (every executed op in order, its
frame and iteration, dead inputs and ops, each output's value or summary), that it equals a plain run, and
that its memory stays within the documented bound."""
import numpy as np
import pytest

import graphlab as tf
import graphlab.debug as tf_debug


def _train_step():
    """A small softmax classifier's training step, deterministic (constant initial weights)."""
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    labels = tf.placeholder(tf.float32, [None, 2], name="labels")
    w = tf.Variable(np.arange(6, dtype=np.float32).reshape(3, 2) / 10, name="w")
    b = tf.Variable([0.1, -0.1], name="b")
    logits = tf.add(tf.matmul(x, w), b, name="logits")
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits), name="loss")
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    feed = {x: [[1, 2, 3], [0, -1, 2]], labels: [[1, 0], [0, 1]]}
    return train, loss, w, feed


def test_recorded_values_equal_a_plain_run():
    train, loss, w, feed = _train_step()
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    record = tf_debug.record(sess, [train, loss], feed)
    assert record.error is None and record.results[0] is None
    names = [r.name for r in record.ops]
    assert "w" in names and "logits" in names and "GradientDescent/update_w/ApplyGradientDescent" in names
    assert names.index("logits") < names.index("loss") < names.index("GradientDescent/update_w/ApplyGradientDescent")
    # a fresh session computes the same forward and backward values without the update
    plain = tf.Session()
    plain.run(tf.global_variables_initializer())
    graph = tf.get_default_graph()
    compared = []
    for r in record.executed:
        if r.type in ("ApplyGradientDescent", "NoOp", "Assign") or r.name.startswith("GradientDescent"):
            continue
        for v in r.outputs:
            if v.value is None or v.dtype is None:
                continue
            compared.append((v.name, v.value))
    values = plain.run([graph.get_tensor_by_name(n) for n, _ in compared], feed)
    for (name, kept), value in zip(compared, values):
        np.testing.assert_array_equal(kept, value, err_msg=name)
    assert len(compared) > 20
    assert record.results[1] == values[[n for n, _ in compared].index("loss:0")]


def test_variable_reads_are_kept_as_they_were_when_read():
    """An in-place update later in the run (ApplyGradientDescent) does not change the recorded read of w."""
    train, loss, w, feed = _train_step()
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    before = sess.run(w)
    record = tf_debug.record(sess, train, feed)
    np.testing.assert_array_equal(record.value("w:0").value, before)
    np.testing.assert_array_equal(record.value("w/read:0").value, before)
    after = sess.run(w)
    assert not np.array_equal(after, before)
    np.testing.assert_array_equal(record.value("GradientDescent/update_w/ApplyGradientDescent:0").value, after)


def test_random_values_are_recorded_as_they_were_drawn():
    r = tf.random_uniform([4], seed=3, name="r")
    doubled = tf.multiply(r, 2.0, name="doubled")
    sess = tf.Session()
    record = tf_debug.record(sess, doubled)
    drawn = record.value("r/RandomUniform:0").value
    np.testing.assert_array_equal(record.results, drawn * 2)
    np.testing.assert_array_equal(record.value("doubled:0").value, record.results)
    # the next run draws other numbers, as any second run would
    assert not np.array_equal(sess.run(doubled), record.results)


def test_cond_records_dead_inputs_and_dead_ops():
    x = tf.placeholder(tf.float32, [], name="x")
    y = tf.cond(x > 0, lambda: x * 2.0, lambda: x - 1.0, name="c")
    sess = tf.Session()
    record = tf_debug.record(sess, y, {x: 3.0})
    assert record.results == 6.0
    by = {r.name: r for r in record.ops}
    assert by["c/mul"].dead is False and by["c/sub"].dead is True
    assert "c/sub" not in [r.name for r in record.executed]
    merge = by["c/Merge"]
    assert merge.dead_inputs == [0]          # the false side (input 0) was dead, the true side live
    assert merge.outputs[0].value == 6.0 and merge.outputs[1].value == 1
    switch = by["c/Switch"]
    assert switch.outputs[0].text == "dead" and switch.outputs[1].value
    assert record.feed_values["x:0"].value == 3.0
    # the same graph with the other side taken
    other = tf_debug.record(sess, y, {x: -3.0})
    assert {r.name: r.dead for r in other.ops}["c/mul"] is True and other.results == -4.0


def test_while_loop_records_frames_and_iterations():
    i0 = tf.constant(0, name="i0")
    a0 = tf.constant(1.0, name="a0")
    _, a = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * 2.0), [i0, a0], name="loop")
    sess = tf.Session()
    record = tf_debug.record(sess, a)
    assert record.results == 8.0
    muls = [r for r in record.find("loop/mul") if not r.dead]
    assert [r.iteration for r in muls] == [0, 1, 2]
    assert [float(r.outputs[0].value) for r in muls] == [2.0, 4.0, 8.0]
    assert all(r.frame == "loop/while_context" for r in muls)
    conds = record.find("loop/LoopCond")
    assert [bool(r.outputs[0].value) for r in conds] == [True, True, True, False]
    assert [r.iteration for r in conds] == [0, 1, 2, 3]
    # in the pass that ends the loop the body is dead
    assert [r.dead for r in record.find("loop/mul")] == [False, False, False, True]
    enters = record.find("loop/Enter_1")
    assert len(enters) == 1 and enters[0].iteration == 0 and enters[0].outputs[0].value == 1.0
    outside = record.find("a0")[0]
    assert outside.frame == "" and outside.iteration is None
    # the plain run (compiled loop) gives the same value
    assert sess.run(a) == 8.0


def test_nested_loops_record_both_iterations():
    def outer(i, total):
        _, inner = tf.while_loop(lambda j, s: j < 2, lambda j, s: (j + 1, s + 1.0), [0, total], name="inner")
        return i + 1, inner
    _, total = tf.while_loop(lambda i, t: i < 3, outer, [0, 0.0], name="outer")
    record = tf_debug.record(tf.Session(), total)
    assert record.results == 6.0
    adds = [r for r in record.find("outer/inner/add_1") if not r.dead]
    assert [r.iterations for r in adds] == [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]
    assert adds[0].frame == "outer/while_context/outer/inner/while_context"


def test_large_tensors_are_summarized_within_the_memory_bound():
    big = tf.random_normal([1000, 1000], seed=1, name="big")
    doubled = tf.multiply(big, 2.0, name="doubled")
    small = tf.reduce_sum(doubled, name="small")
    sess = tf.Session()
    record = tf_debug.record(sess, [doubled, small])
    value = record.value("doubled:0")
    assert value.value is None and value.summarized
    plain = record.results[0]
    assert value.shape == (1000, 1000) and value.dtype == "float32"
    assert value.min == float(plain.min()) and value.max == float(plain.max())
    assert value.mean == pytest.approx(float(plain.mean(dtype=np.float64)))
    assert value.first == plain.reshape(-1)[:8].tolist()
    counts, edges = value.histogram
    assert sum(counts) == plain.size and len(counts) == 20
    assert record.kept_bytes < 4096 * 8 * len(record.ops)
    # a budget: whole values stop being kept once max_bytes is used, the rest are summarized
    xs = [tf.fill([1000], float(k), name="f%d" % k) for k in range(20)]
    total = tf.add_n(xs, name="total")
    limited = tf_debug.record(sess, total, full_elements=4096, max_bytes=10 * 4000)
    kept = [v for r in limited.ops for v in r.outputs if v.value is not None and v.size == 1000]
    assert 8 <= len(kept) < 10 and limited.kept_bytes <= 10 * 4000      # (the fills' small inputs count too)
    assert limited.value("f19:0").summarized and limited.value("f19:0").mean == 19.0
    assert limited.value("total:0").summarized and limited.value("total:0").mean == 190.0
    # and a bound on the number of op records
    capped = tf_debug.record(sess, total, max_ops=5)
    assert len(capped.ops) == 5 and capped.dropped > 0


def test_nan_and_inf_are_counted_and_the_first_is_found():
    logits = tf.constant([[1000.0, 0.0]], name="logits")
    probs = tf.nn.softmax(logits, name="probs")
    logp = tf.log(probs, name="logp")
    loss = tf.reduce_sum(tf.multiply(tf.constant([[1.0, 0.0]]), logp), name="loss")
    record = tf_debug.record(tf.Session(), loss)
    first = record.first_inf_or_nan()
    assert first.name == "logp" and first.outputs[0].inf_count == 1
    assert np.isnan(record.results)
    assert record.value("loss:0").nan_count == 1
    assert tf_debug.has_inf_or_nan(None, record.value("logp:0"))
    assert not tf_debug.has_inf_or_nan(None, record.value("probs:0"))


def test_a_failing_run_keeps_what_ran_before():
    x = tf.placeholder(tf.float32, [2], name="x")
    y = tf.debugging.check_numerics(tf.log(x, name="logx"), "log of x", name="checked")
    record = tf_debug.record(tf.Session(), y, {x: [1.0, -1.0]})
    assert record.results is None and isinstance(record.error, tf.errors.InvalidArgumentError)
    assert record.ops[-1].name == "logx" and record.ops[-1].outputs[0].nan_count == 1
    assert "run failed: InvalidArgumentError" in record.listing()


def test_run_options_watch_form_and_allowlists():
    train, loss, w, feed = _train_step()
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    sess.run(loss, feed)
    assert sess.last_run.record is None          # no watches: nothing recorded
    options = tf.RunOptions()
    tf_debug.watch_graph(options, sess.graph, node_name_regex_allowlist=r"logits.*")
    value = sess.run(loss, feed, options=options)
    record = sess.last_run.record
    watched = [r for r in record.ops if r.outputs]
    assert {r.name for r in watched} == {"logits"}
    assert record.value("logits:0").shape == (2, 2)
    assert value == sess.run(loss, feed)
    # the listing has one line an op, tfdbg's columns
    lines = record.listing().splitlines()
    assert len(lines) == len(record.ops) + 1 and "MatMul" in record.listing()
    with pytest.raises(tf.errors.UnimplementedError, match="no debugger server for the debug URL 'grpc://"):
        tf_debug.watch_graph(tf.RunOptions(), sess.graph, debug_urls=["grpc://localhost:6064"])
    with pytest.raises(tf.errors.UnimplementedError, match="the debug op 'DebugNumericSummary' is not supported"):
        tf_debug.watch_graph(tf.RunOptions(), sess.graph, debug_ops="DebugNumericSummary")


def test_traced_and_watched_run_fills_both():
    x = tf.constant([1.0, 2.0], name="x")
    y = tf.square(x, name="y")
    sess = tf.Session()
    options = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)
    tf_debug.watch_graph(options, sess.graph)
    metadata = tf.RunMetadata()
    sess.run(y, options=options, run_metadata=metadata)
    assert metadata.executed_ops() == ["x", "y"]
    assert [r.name for r in sess.last_run.record.ops] == ["x", "y"]


def test_queue_items_are_recorded_as_dequeued():
    queue = tf.FIFOQueue(10, tf.float32, shapes=[[]], name="q")
    fill = queue.enqueue_many([[1.0, 2.0, 3.0]])
    item = queue.dequeue(name="item")
    twice = tf.multiply(item, 2.0, name="twice")
    sess = tf.Session()
    sess.run(fill)
    first = tf_debug.record(sess, twice)
    second = tf_debug.record(sess, twice)
    assert [first.value("item:0").value, second.value("item:0").value] == [1.0, 2.0]
    assert [first.results, second.results] == [2.0, 4.0]
    assert sess.run(twice) == 6.0        # the recordings took their items, as runs do


def test_strings_and_booleans_are_recorded_with_tf_dtype_names():
    words = tf.constant(["a", "bb"], name="words")
    joined = tf.strings.join([words, words], name="joined")
    flags = tf.greater(tf.constant([1.0, -1.0]), 0.0, name="flags")
    record = tf_debug.record(tf.Session(), [joined, flags])
    assert record.value("joined:0").dtype == "string" and list(record.value("joined:0").value) == [b"aa", b"bbbb"]
    assert record.value("flags:0").dtype == "bool" and record.value("flags:0").max == 1.0
