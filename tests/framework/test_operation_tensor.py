"""Operation and Tensor: structure, attributes, static shapes, the user's line, eval and run."""
import os

import numpy as np
import pytest

import graphlab as tf


def test_operation_structure():
    a = tf.constant(1.0, name="a")
    b = tf.constant(2.0, name="b")
    with tf.control_dependencies([a]):
        c = tf.add(a, b, name="c")
    op = c.op
    assert op.type == "AddV2"
    assert op.name == "c"
    assert op.inputs == (a, b)
    assert op.outputs == [c]
    assert op.control_inputs == []          # a is already a data input, as TF drops it
    assert op.graph is tf.get_default_graph()
    assert a.consumers() == [op]
    assert repr(op) == "<tf.Operation 'c' type=AddV2>"


def test_control_inputs_recorded():
    a = tf.constant(1.0, name="a")
    with tf.control_dependencies([a]):
        b = tf.constant(2.0, name="b")
        n = tf.no_op(name="n")
    assert b.op.control_inputs == [a.op]
    assert n.control_inputs == [a.op]
    with tf.control_dependencies(None):
        assert tf.constant(3.0).op.control_inputs == []


def test_get_attr():
    p = tf.placeholder(tf.float32, [None, 3], name="p")
    assert p.op.get_attr("dtype") == tf.float32
    assert p.op.get_attr("shape").as_list() == [None, 3]
    with pytest.raises(ValueError):
        p.op.get_attr("nope")


def test_tensor_dtype_shape_and_names():
    p = tf.placeholder(tf.float32, [None, 3], name="p")
    assert p.name == "p:0"
    assert p.dtype == tf.float32
    assert p.shape.as_list() == [None, 3]
    assert str(p.shape) == "(?, 3)"
    assert p.get_shape().ndims == 2
    assert str(p) == 'Tensor("p:0", shape=(?, 3), dtype=float32)'
    assert p.value_index == 0
    assert p.op.outputs[0] is p
    q = tf.placeholder(tf.int32, name="q")
    assert q.shape.ndims is None
    assert str(q.shape) == "<unknown>"


def test_set_shape_narrows():
    p = tf.placeholder(tf.float32, [None, 3])
    p.set_shape([2, 3])
    assert p.shape.as_list() == [2, 3]
    with pytest.raises(ValueError):
        p.set_shape([2, 4])


def test_source_line_points_at_this_file():
    c = tf.constant(1.0, name="here"); line = __import__("inspect").currentframe().f_lineno  # noqa: E702
    src = c.op.source_line
    assert os.path.samefile(src.filename, __file__)
    assert src.lineno == line
    assert "tf.constant(1.0, name=\"here\")" in src.text



def _line_of(marker):
    """The number of the line in this file that ends with ``# <marker>``."""
    with open(__file__) as f:
        for number, text in enumerate(f, 1):
            if text.rstrip().endswith("# " + marker):
                return number
    raise AssertionError(marker)


def _scale(t):
    return t * 3.0  # inside-helper


def test_operator_ops_and_their_constants_point_at_the_line_using_the_operator():
    x = tf.placeholder(tf.float32, [], name="x")
    for _ in range(3):
        x = x + 1  # loop-line
    y = _scale(x)  # helper-call
    z = tf.cond(tf.constant(True), lambda: y - 1.0, lambda: y)  # cond-line
    loss = tf.losses.mean_squared_error(tf.zeros([2]), tf.ones([2]) * y)  # loss-line
    g = tf.get_default_graph()
    line = {op.name: op.source_line.lineno for op in g.get_operations()}
    assert line["add_2"] == line["add_2/y"] == _line_of("loop-line")
    # the innermost line outside graphlab wins: the helper's own line, not the line calling it
    assert line["mul"] == line["mul/y"] == _line_of("inside-helper")
    assert line["cond/sub"] == line["cond/sub/y"] == _line_of("cond-line")
    # graphlab's own use of operators (inside tf.losses) is attributed to the user's call
    assert all(line[op.name] == _line_of("loss-line") for op in g.get_operations()
               if op.name.startswith("mean_squared_error/"))
    assert z.op.source_line is not None and loss.op.source_line is not None


def _doubled_gradient(op, grad):
    return grad * 2.0  # user-rule


def test_gradient_ops_point_at_the_gradients_call_and_a_users_rule_at_its_own_line():
    x = tf.placeholder(tf.float32, [], name="x")
    with tf.get_default_graph().gradient_override_map({"Identity": "DoubledForLineTest"}):
        y = tf.identity(tf.square(x))
    tf.RegisterGradient("DoubledForLineTest")(_doubled_gradient)
    tf.gradients(y, x)  # gradients-line
    ops = tf.get_default_graph().get_operations()
    grad_ops = [op for op in ops if op.name.startswith("gradients/")]
    user_ops = [op for op in grad_ops if op.name.startswith("gradients/Identity_grad/")]
    assert user_ops and all(op.source_line.lineno == _line_of("user-rule") for op in user_ops)
    assert all(op.source_line.lineno == _line_of("gradients-line") for op in grad_ops if op not in user_ops)


def test_operator_overloads_build_named_ops():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]], name="x")
    ops = {"add": x + 1.0, "mul": x * 2.0}
    assert ops["add"].op.type == "AddV2" and ops["add"].name == "add:0"
    assert ops["mul"].op.type == "Mul" and ops["mul"].name == "mul:0"
    assert (2.0 * x).op.inputs[1] is x     # reflected: the constant goes first
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(ops["add"]), [[2, 3], [4, 5]])


def test_more_overloads():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]], name="x")
    results = {"sub": x - 1.0, "neg": -x, "matmul": x @ x, "lt": x < 2.0, "slice": x[0], "div": x / 2.0}
    with tf.Session() as sess:
        out = sess.run(results)
    np.testing.assert_allclose(out["sub"], [[0, 1], [2, 3]])
    np.testing.assert_allclose(out["neg"], [[-1, -2], [-3, -4]])
    np.testing.assert_allclose(out["matmul"], [[7, 10], [15, 22]])
    np.testing.assert_array_equal(out["lt"], [[True, False], [False, False]])
    np.testing.assert_allclose(out["slice"], [1, 2])
    np.testing.assert_allclose(out["div"], [[.5, 1], [1.5, 2]])
    assert results["matmul"].op.type == "MatMul"
    assert results["lt"].op.type == "Less"


def test_tensor_is_not_a_python_bool():
    with pytest.raises(TypeError, match="Using a `tf.Tensor` as a Python `bool` is not allowed"):
        bool(tf.constant(True))


def test_eval_and_run_use_default_session():
    v = tf.Variable(3.0, name="v")
    c = v * 2.0
    with tf.Session() as sess:
        v.initializer.run()
        assert c.eval() == 6.0
        assert c.eval(session=sess) == 6.0
    with pytest.raises(ValueError, match="No default session is registered"):
        c.eval()


def test_interactive_session_makes_eval_work():
    c = tf.constant(2.0) + 3.0
    sess = tf.InteractiveSession()
    try:
        assert tf.get_default_session() is sess
        assert c.eval() == 5.0
    finally:
        sess.close()
    assert tf.get_default_session() is None
