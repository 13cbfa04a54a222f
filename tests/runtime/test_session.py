"""Session.run: fetch structures, feeds, errors, pruning and the plan cache (texts from TF 2.21 compat.v1)."""
import collections
import os

import numpy as np
import pytest

import graphlab as tf


def test_nested_fetches_keep_their_structure():
    a = tf.constant(1.0, name="a")
    b = tf.constant([2, 3], name="b")
    Pair = collections.namedtuple("Pair", "x y")
    with tf.Session() as sess:
        out = sess.run({"a": a, "rest": [b, (a, "b:0")], "pair": Pair(a, b), "op": a.op})
    assert set(out) == {"a", "rest", "pair", "op"}
    assert out["a"] == 1.0
    assert isinstance(out["rest"], list) and isinstance(out["rest"][1], tuple)
    np.testing.assert_array_equal(out["rest"][1][1], [2, 3])
    assert isinstance(out["pair"], Pair) and out["pair"].x == 1.0
    assert out["op"] is None


def test_string_names_and_op_targets():
    a = tf.constant(4.0, name="a")
    n = tf.no_op(name="n")
    with tf.Session() as sess:
        assert sess.run("a:0") == 4.0
        assert sess.run("n") is None
        assert sess.run(n) is None
        assert sess.run([a, n]) == [4.0, None]


def test_zero_d_results_are_numpy_scalars():
    with tf.Session() as sess:
        f = sess.run(tf.constant(3.0))
        i = sess.run(tf.constant(3))
        v = sess.run(tf.constant([3]))
        s = sess.run(tf.constant("ab"))
        t = sess.run(tf.constant(True))
    assert type(f) is np.float32 and f == 3.0
    assert type(i) is np.int32
    assert type(v) is np.ndarray and v.dtype == np.int32
    assert s == b"ab"
    assert type(t) is np.bool_


def test_fetch_errors():
    tf.constant(1.0, name="c")
    with tf.Session() as sess:
        with pytest.raises(TypeError) as e:
            sess.run(3)
        assert str(e.value) == ('Argument `fetch` = 3 has invalid type "int" must be a string or Tensor. (Can '
                                'not convert a int into a Tensor or Operation.)')
        with pytest.raises(ValueError) as e:
            sess.run("zzz:0")
        assert str(e.value) == ("Argument `fetch` = zzz:0 cannot be interpreted as a Tensor. (\"The name "
                                "'zzz:0' refers to a Tensor which does not exist. The operation, 'zzz', does "
                                "not exist in the graph.\")")
    other = tf.Graph()
    with other.as_default():
        z = tf.constant(1.0, name="z")
    with tf.Session() as sess:
        with pytest.raises(ValueError) as e:
            sess.run(z)
        assert str(e.value) == ('Argument `fetch` = Tensor("z:0", shape=(), dtype=float32) cannot be interpreted '
                                'as a Tensor. (Tensor Tensor("z:0", shape=(), dtype=float32) is not an element '
                                'of this graph.)')


def test_feeds_and_feed_errors():
    p = tf.placeholder(tf.float32, [None, 3], name="p")
    y = tf.identity(p, name="y")
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(y, {p: np.ones((2, 3))}), np.ones((2, 3)))
        np.testing.assert_array_equal(sess.run(y, {"p:0": [[1, 2, 3]]}), [[1, 2, 3]])
        with pytest.raises(ValueError) as e:
            sess.run(y, {p: np.zeros((2, 4))})
        assert str(e.value) == "Cannot feed value of shape (2, 4) for Tensor p:0, which has shape (?, 3)"
        with pytest.raises(TypeError) as e:
            sess.run(y, {"zz:0": 1})
        assert str(e.value) == ("Cannot interpret feed_dict key as Tensor: The name 'zz:0' refers to a Tensor "
                                "which does not exist. The operation, 'zz', does not exist in the graph.")
        with pytest.raises(TypeError, match="^The value of a feed cannot be a tf.Tensor object"):
            sess.run(y, {p: tf.constant(1.)})


def test_missing_feed_error_carries_op_and_line():
    p = tf.placeholder(tf.float32, [None, 3], name="p"); line = __import__("inspect").currentframe().f_lineno  # noqa: E702,E501
    y = tf.identity(p, name="y")
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            sess.run(y)
    err = e.value
    assert err.message == ("Graph execution error:\n\nDetected at node 'p' defined at (most recent call last):\n"
                           '    File "%s", line %d, in test_missing_feed_error_carries_op_and_line\n'
                           "Node: 'p'\nYou must feed a value for placeholder tensor 'p' with dtype float and shape "
                           "[?,3]\n\t [[{{node p}}]]" % (__file__, line))
    assert err.op.name == "p"
    assert err.error_code == tf.errors.INVALID_ARGUMENT
    assert os.path.samefile(err.op.source_line.filename, __file__)
    assert err.op.source_line.lineno == line
    assert str(err) == err.message + ('\n\nOriginal stack trace for \'p\':\n  File "%s", line %d, in '
                                      'test_missing_feed_error_carries_op_and_line\n' % (__file__, line))


def test_feeding_any_tensor_cuts_the_graph():
    p = tf.placeholder(tf.float32, name="p")
    a = tf.add(p, 1.0, name="a")
    b = tf.multiply(a, 2.0, name="b")
    with tf.Session() as sess:
        assert sess.run(b, {a: 10.0}) == 20.0       # p is never needed
        assert sess.last_run.executed == ["b/y", "b"]
        assert sess.run(b, {p: 1.0}) == 4.0
        assert sess.last_run.executed == ["a/y", "a", "b/y", "b"]


def test_plan_cache_and_executed_ops():
    x = tf.constant(1.0, name="x")
    y = tf.add(x, 1.0, name="y")
    tf.multiply(y, 3.0, name="unused")
    v = tf.Variable(0.0, name="v")
    with tf.control_dependencies([v.initializer]):
        z = tf.identity(y, name="z")
    with tf.Session() as sess:
        sess.run(y)
        assert sess.last_run.cached is False
        assert sess.last_run.executed == ["x", "y/y", "y"]
        sess.run(y)
        assert sess.last_run.cached is True
        sess.run([y, x])                              # another fetch combination: a new plan
        assert sess.last_run.cached is False
        sess.run(z)                                   # control inputs are followed
        assert set(sess.last_run.executed) == {"x", "y/y", "y", "v/initial_value", "v", "v/Assign", "z"}
        assert sess.run(v) == 0.0


def test_operation_run_and_two_sessions():
    v = tf.Variable(1.0, name="v")
    inc = v.assign_add(1.0)
    with tf.Session() as s1:
        v.initializer.run()
        inc.op.run()
        assert v.eval() == 2.0
        with tf.Session() as s2:
            s2.run(v.initializer)
            assert s2.run(v) == 1.0
        assert s1.run(v) == 2.0


def test_closed_session_raises():
    c = tf.constant(1.0)
    sess = tf.Session()
    sess.close()
    with pytest.raises(RuntimeError, match=r"^Attempted to use a closed Session\.$"):
        sess.run(c)
    with tf.Session() as sess2:
        pass
    with pytest.raises(RuntimeError):
        sess2.run(c)


def test_session_context_sets_default_session_and_graph():
    g = tf.Graph()
    with g.as_default():
        c = tf.constant(2.0)
    with tf.Session(graph=g) as sess:
        assert tf.get_default_session() is sess
        assert tf.get_default_graph() is g
        assert c.eval() == 2.0
    assert tf.get_default_session() is None


def test_error_family():
    for name, code in [("InvalidArgumentError", 3), ("NotFoundError", 5), ("FailedPreconditionError", 9),
                       ("OutOfRangeError", 11), ("UnimplementedError", 12), ("DataLossError", 15)]:
        cls = getattr(tf.errors, name)
        err = cls(None, None, "msg")
        assert isinstance(err, tf.errors.OpError)
        assert err.error_code == code and err.message == "msg" and err.op is None


def test_a_constant_keeps_its_value_whatever_happens_to_arrays_outside_the_graph():
    """As in TF: the graph holds its own copy of a constant, and every fetch is the caller's own array."""
    source = np.array([1.0, 2.0], np.float32)
    c = tf.constant(source)
    doubled = tf.identity(c) * 1.0
    source[0] = 99.0                        # the user's array changes after the constant was made
    sess = tf.Session()
    fetched, again = sess.run(c), sess.run(tf.reshape(c, [2, 1]))
    fetched += 10.0                         # and a fetched result is changed in place
    again[:] = -1.0
    np.testing.assert_array_equal(sess.run(c), [1.0, 2.0])
    np.testing.assert_array_equal(sess.run(doubled), [1.0, 2.0])
    np.testing.assert_array_equal(sess.run(c), c.op.get_attr("value"))


def test_results_computed_only_from_constants_stay_right_run_after_run():
    """The plan keeps what constant-only ops compute after its first run (as TF folds constants); each
    run still reports them as executed, and what a caller does to a fetched result never leaks back."""
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    scale = tf.reshape(tf.range(3.0), [1, 3]) * 2.0               # constants only
    big = tf.ones([600, 600]) * 3.0                               # 1.4 MB: recomputed, not kept
    y = x * scale
    sess = tf.Session()
    feed = {x: np.ones((2, 3), np.float32)}
    runs = []
    for _ in range(3):
        got_scale, got_y, got_big = sess.run([scale, y, big], feed)
        runs.append(list(sess.last_run.executed))
        np.testing.assert_array_equal(got_scale, [[0.0, 2.0, 4.0]])
        np.testing.assert_array_equal(got_y, [[0.0, 2.0, 4.0]] * 2)
        assert got_big.shape == (600, 600) and float(got_big.min()) == float(got_big.max()) == 3.0
        got_scale += 100.0
        got_big[:] = 0.0
    assert runs[0] == runs[1] == runs[2]
    assert {"range", "Reshape", "mul", "ones", "mul_1"} <= set(runs[0])


def test_last_run_names_the_untaken_cond_branch_as_dead():
    """An op on the side of a tf.cond the run did not take does not run (TF propagates deadness): it is in
    last_run.dead, not in last_run.executed; an op built before the cond runs whichever side is taken,
    and an output-less op (an Assert) on the untaken side is dead too."""
    tf.reset_default_graph()
    counter = tf.Variable(0, name="counter")
    flag = tf.placeholder(tf.bool, [], name="flag")
    outside = tf.assign_add(counter, 1, name="outside")
    leaky = tf.cond(flag, lambda: tf.cast(outside, tf.float32) * 2.0, lambda: tf.constant(0.0))
    checked = tf.Assert(flag, [flag], name="check")
    sess = tf.Session()
    sess.run(counter.initializer)
    sess.run(leaky, {flag: False})
    assert "outside" in sess.last_run.executed
    # the Switch's untaken output, the branch's ops and its constant (which hangs on that output)
    assert sess.last_run.dead == ["cond/switch_t", "cond/Cast", "cond/mul/y", "cond/mul"]
    assert not set(sess.last_run.dead) & set(sess.last_run.executed)
    sess.run(leaky, {flag: True})
    assert sess.last_run.dead == ["cond/switch_f", "cond/Const"]
    sess.run(checked, {flag: True})
    assert "check/AssertGuard/Assert" in sess.last_run.dead
    sess.run(outside)
    assert sess.last_run.dead == []


def test_intra_op_parallelism_threads_limits_blas_during_run_only():
    """ConfigProto(intra_op_parallelism_threads=1): a matmul runs with one BLAS thread; afterwards BLAS has
    the threads it had before (threadpoolctl reads them from the library itself)."""
    from threadpoolctl import ThreadpoolController
    before = [lib.num_threads for lib in ThreadpoolController().lib_controllers if lib.user_api == "blas"]
    seen = []

    def blas_threads(x):
        seen.extend(lib.num_threads for lib in ThreadpoolController().lib_controllers if lib.user_api == "blas")
        return x

    x = tf.constant(np.ones((4, 4), np.float32))
    y = tf.py_func(blas_threads, [tf.matmul(x, x)], tf.float32)
    with tf.Session(config=tf.ConfigProto(intra_op_parallelism_threads=1)) as sess:
        np.testing.assert_array_equal(sess.run(y), np.full((4, 4), 4, np.float32))
    assert seen and set(seen) == {1}
    assert [lib.num_threads for lib in ThreadpoolController().lib_controllers if lib.user_api == "blas"] == before
    seen.clear()
    with tf.Session(config=tf.ConfigProto(intra_op_parallelism_threads=0)) as sess:   # 0: left as it is
        sess.run(y)
    assert seen == before
