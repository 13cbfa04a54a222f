"""Math ops: names, inputs, dtypes, static shapes and values as real TensorFlow 1 gives them (expectations
observed with tensorflow.compat.v1 2.21 in graph mode and hard-coded here)."""
import numpy as np
import pytest

import graphlab as tf
from graphlab.framework import registry


def P(dtype=tf.float32, shape=(2, 3), name="x"):
    return tf.placeholder(dtype, shape, name=name)


def graph_ops():
    return [(o.name, o.type, [i.name for i in o.inputs]) for o in tf.get_default_graph().get_operations()]


def run(t, feed=None):
    with tf.Session() as sess:
        return sess.run(t, feed)


# ------------------------------------------------------------------------------------- names (from TF)
NAME_CASES = {
    "tf.add": (lambda: tf.add(P(), 1.0), [("Add/y", "Const", []), ("Add", "AddV2", ["x:0", "Add/y:0"])]),
    "x+y": (lambda: P() + P(name="y"), [("add", "AddV2", ["x:0", "y:0"])]),
    "2+x": (lambda: 2.0 + P(), [("add/x", "Const", []), ("add", "AddV2", ["add/x:0", "x:0"])]),
    "tf.subtract": (lambda: tf.subtract(P(), 1.0), [("Sub/y", "Const", []), ("Sub", "Sub", ["x:0", "Sub/y:0"])]),
    "x-2": (lambda: P() - 2.0, [("sub/y", "Const", []), ("sub", "Sub", ["x:0", "sub/y:0"])]),
    "2-x": (lambda: 2.0 - P(), [("sub/x", "Const", []), ("sub", "Sub", ["sub/x:0", "x:0"])]),
    "x*2": (lambda: P() * 2.0, [("mul/y", "Const", []), ("mul", "Mul", ["x:0", "mul/y:0"])]),
    "x/2": (lambda: P() / 2.0, [("truediv/y", "Const", []), ("truediv", "RealDiv", ["x:0", "truediv/y:0"])]),
    "2/x": (lambda: 2.0 / P(), [("truediv/x", "Const", []), ("truediv", "RealDiv", ["truediv/x:0", "x:0"])]),
    "tf.divide": (lambda: tf.divide(P(), 2.0),
                  [("truediv/y", "Const", []), ("truediv", "RealDiv", ["x:0", "truediv/y:0"])]),
    "tf.div": (lambda: tf.div(P(), 2.0), [("div/y", "Const", []), ("div", "RealDiv", ["x:0", "div/y:0"])]),
    "tf.div int": (lambda: tf.div(P(tf.int32), 2),
                   [("div/y", "Const", []), ("div", "FloorDiv", ["x:0", "div/y:0"])]),
    "tf.realdiv": (lambda: tf.realdiv(P(), 2.0),
                   [("RealDiv/y", "Const", []), ("RealDiv", "RealDiv", ["x:0", "RealDiv/y:0"])]),
    "int x/2": (lambda: P(tf.int32) / 2,
                [("truediv/y", "Const", []), ("truediv/Cast", "Cast", ["x:0"]),
                 ("truediv/Cast_1", "Cast", ["truediv/y:0"]),
                 ("truediv", "RealDiv", ["truediv/Cast:0", "truediv/Cast_1:0"])]),
    "x//2": (lambda: P() // 2.0, [("floordiv/y", "Const", []), ("floordiv", "FloorDiv", ["x:0", "floordiv/y:0"])]),
    "2//x": (lambda: 2.0 // P(), [("floordiv/x", "Const", []), ("floordiv", "FloorDiv", ["floordiv/x:0", "x:0"])]),
    "tf.floordiv": (lambda: tf.floordiv(P(), 2.0),
                    [("floordiv/y", "Const", []), ("floordiv", "FloorDiv", ["x:0", "floordiv/y:0"])]),
    "x%2": (lambda: P() % 2.0, [("mod/y", "Const", []), ("mod", "FloorMod", ["x:0", "mod/y:0"])]),
    "tf.mod": (lambda: tf.mod(P(), 2.0),
               [("FloorMod/y", "Const", []), ("FloorMod", "FloorMod", ["x:0", "FloorMod/y:0"])]),
    "x**2": (lambda: P() ** 2.0, [("pow/y", "Const", []), ("pow", "Pow", ["x:0", "pow/y:0"])]),
    "2**x": (lambda: 2.0 ** P(), [("pow/x", "Const", []), ("pow", "Pow", ["pow/x:0", "x:0"])]),
    "tf.pow": (lambda: tf.pow(P(), 2.0), [("Pow/y", "Const", []), ("Pow", "Pow", ["x:0", "Pow/y:0"])]),
    "-x": (lambda: -P(), [("Neg", "Neg", ["x:0"])]),
    "abs(x)": (lambda: abs(P()), [("Abs", "Abs", ["x:0"])]),
    "x@y": (lambda: P() @ P(shape=(3, 4), name="y"), [("matmul", "MatMul", ["x:0", "y:0"])]),
    "tf.matmul": (lambda: tf.matmul(P(), P(shape=(3, 4), name="y")), [("MatMul", "MatMul", ["x:0", "y:0"])]),
    "~b": (lambda: ~P(tf.bool), [("LogicalNot", "LogicalNot", ["x:0"])]),
    "b&c": (lambda: P(tf.bool) & P(tf.bool, name="y"), [("and", "LogicalAnd", ["x:0", "y:0"])]),
    "b|c": (lambda: P(tf.bool) | P(tf.bool, name="y"), [("or", "LogicalOr", ["x:0", "y:0"])]),
    "b^c": (lambda: P(tf.bool) ^ P(tf.bool, name="y"),
            [("xor/LogicalOr", "LogicalOr", ["x:0", "y:0"]), ("xor/LogicalAnd", "LogicalAnd", ["x:0", "y:0"]),
             ("xor/LogicalNot", "LogicalNot", ["xor/LogicalAnd:0"]),
             ("xor", "LogicalAnd", ["xor/LogicalOr:0", "xor/LogicalNot:0"])]),
    "tf.logical_xor": (lambda: tf.logical_xor(P(tf.bool), P(tf.bool, name="y")),
                       [("LogicalOr", "LogicalOr", ["x:0", "y:0"]), ("LogicalAnd", "LogicalAnd", ["x:0", "y:0"]),
                        ("LogicalNot", "LogicalNot", ["LogicalAnd:0"]),
                        ("LogicalXor", "LogicalAnd", ["LogicalOr:0", "LogicalNot:0"])]),
    "x<2": (lambda: P() < 2.0, [("Less/y", "Const", []), ("Less", "Less", ["x:0", "Less/y:0"])]),
    "x<=2": (lambda: P() <= 2.0, [("LessEqual/y", "Const", []), ("LessEqual", "LessEqual", ["x:0", "LessEqual/y:0"])]),
    "2<x": (lambda: 2.0 < P(), [("Greater/y", "Const", []), ("Greater", "Greater", ["x:0", "Greater/y:0"])]),
    "x>=2": (lambda: P() >= 2.0,
             [("GreaterEqual/y", "Const", []), ("GreaterEqual", "GreaterEqual", ["x:0", "GreaterEqual/y:0"])]),
    "tf.equal": (lambda: tf.equal(P(), 2.0), [("Equal/y", "Const", []), ("Equal", "Equal", ["x:0", "Equal/y:0"])]),
    "tf.maximum": (lambda: tf.maximum(P(), 2.0),
                   [("Maximum/y", "Const", []), ("Maximum", "Maximum", ["x:0", "Maximum/y:0"])]),
    "tf.squared_difference": (lambda: tf.squared_difference(P(), 2.0),
                              [("SquaredDifference/y", "Const", []),
                               ("SquaredDifference", "SquaredDifference", ["x:0", "SquaredDifference/y:0"])]),
    "to_float": (lambda: tf.to_float(P(tf.int32)), [("ToFloat", "Cast", ["x:0"])]),
    "add_n": (lambda: tf.add_n([P(), P(name="y")]), [("AddN", "AddN", ["x:0", "y:0"])]),
    "reduce_sum": (lambda: tf.reduce_sum(P()), [("Const", "Const", []), ("Sum", "Sum", ["x:0", "Const:0"])]),
    "reduce_sum axis": (lambda: tf.reduce_sum(P(), axis=1),
                        [("Sum/reduction_indices", "Const", []), ("Sum", "Sum", ["x:0", "Sum/reduction_indices:0"])]),
    "reduce_mean": (lambda: tf.reduce_mean(P()), [("Const", "Const", []), ("Mean", "Mean", ["x:0", "Const:0"])]),
    "reduce_any": (lambda: tf.reduce_any(P(tf.bool), 1),
                   [("Any/reduction_indices", "Const", []), ("Any", "Any", ["x:0", "Any/reduction_indices:0"])]),
    "argmax": (lambda: tf.argmax(P(), 1),
               [("ArgMax/dimension", "Const", []), ("ArgMax", "ArgMax", ["x:0", "ArgMax/dimension:0"])]),
    "count_nonzero": (lambda: tf.count_nonzero(P()),
                      [("count_nonzero/zeros", "Const", []),
                       ("count_nonzero/NotEqual", "NotEqual", ["x:0", "count_nonzero/zeros:0"]),
                       ("count_nonzero/Cast", "Cast", ["count_nonzero/NotEqual:0"]),
                       ("count_nonzero/Const", "Const", []),
                       ("count_nonzero/Sum", "Sum", ["count_nonzero/Cast:0", "count_nonzero/Const:0"])]),
}


@pytest.mark.parametrize("case", sorted(NAME_CASES))
def test_op_names_match_tf(case):
    build, expected = NAME_CASES[case]
    build()
    ops = [o for o in graph_ops() if o[1] != "Placeholder"]
    assert ops == [tuple(e) for e in expected]


UNARY_NAMES = ["square", "sqrt", "rsqrt", "exp", "log", "log1p", "sin", "cos", "tanh", "sigmoid", "sign",
               "reciprocal", "floor", "ceil", "round"]


@pytest.mark.parametrize("fn", UNARY_NAMES)
def test_unary_op_names(fn):
    t = getattr(tf, fn)(P())
    expected = {"log1p": "Log1p"}.get(fn, fn.capitalize())
    assert (t.name, t.op.type, t.dtype, t.shape.as_list()) == (expected + ":0", expected, tf.float32, [2, 3])
    assert getattr(tf.math, fn) is getattr(tf, fn)


def test_cast_attrs_and_identity_when_same_dtype():
    x = P()
    c = tf.cast(x, tf.int32)
    assert (c.name, c.dtype, c.op.get_attr("SrcT"), c.op.get_attr("DstT"), c.op.get_attr("Truncate")) == \
        ("Cast:0", tf.int32, tf.float32, tf.int32, False)
    assert tf.cast(x, tf.float32) is x
    assert tf.cast(1.5, tf.int32).op.inputs[0].name == "Cast_1/x:0"


def test_divide_with_name_converts_inside_scope():
    t = tf.divide(1, 2, name="q")
    assert [o.name for o in tf.get_default_graph().get_operations()] == ["q/x", "q/y", "q/Cast", "q/Cast_1", "q"]
    assert t.dtype == tf.float64 and run(t) == 0.5


def test_add_n_single_input():
    x = P()
    assert tf.add_n([x]) is x
    assert tf.add_n([x], name="n").name == "n:0"


def test_reduction_attrs_and_shapes():
    x = P()
    assert tf.reduce_sum(x, axis=[0, 1], keepdims=True).shape.as_list() == [1, 1]
    s = tf.reduce_sum(x, 0, keep_dims=True)
    assert s.shape.as_list() == [1, 3] and s.op.get_attr("keep_dims") is True
    assert s.op.get_attr("Tidx") == tf.int32
    assert tf.reduce_sum(x, -1).shape.as_list() == [2]
    assert tf.reduce_sum(tf.placeholder(tf.float32, None), 1).shape.ndims is None
    assert tf.reduce_sum(x, tf.placeholder(tf.int32, None)).shape.ndims is None
    assert tf.reduce_mean(P(tf.int32, name="i")).dtype == tf.int32
    assert tf.argmax(x).shape.as_list() == [3]
    assert tf.argmax(x, dimension=1).dtype == tf.int64
    assert tf.argmin(x, 1, output_type=tf.int32).dtype == tf.int32
    assert tf.reduce_all(P(tf.bool, name="b")).dtype == tf.bool


# ------------------------------------------------------------------------------ build-time errors
def test_matmul_shape_error_names_op_and_shapes():
    with pytest.raises(ValueError) as e:
        tf.matmul(P(shape=(2, 3)), P(shape=(4, 5), name="y"))
    assert str(e.value) == ("Dimensions must be equal, but are 3 and 4 for '{{node MatMul}} = MatMul[T=DT_FLOAT, "
                            "grad_a=false, grad_b=false, transpose_a=false, transpose_b=false](x, y)' "
                            "with input shapes: [2,3], [4,5].")
    with pytest.raises(ValueError, match="Shape must be rank 2 but is rank 1 for '{{node MatMul_1}}"):
        tf.matmul(P(shape=(3,), name="v"), P(shape=(3, 5), name="w"))
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 2"):
        tf.matmul(P(shape=(3, 2), name="a"), P(shape=(4, 2), name="b"), adjoint_a=True, adjoint_b=True)


def test_broadcast_shape_errors():
    with pytest.raises(ValueError, match=r"Dimensions must be equal, but are 2 and 4 for '\{\{node Add\}\} = AddV2\[T=DT_FLOAT\]"
                                         r"\(x, y\)' with input shapes: \[2,3\], \[4,5\]\."):
        tf.add(P(shape=(2, 3)), P(shape=(4, 5), name="y"))
    tf.reset_default_graph()
    with pytest.raises(ValueError, match="but are 3 and 4 for '{{node add}}"):
        P(shape=(2, 3), name="a") + P(shape=(2, 4), name="b")


def test_dtype_mismatch_errors():
    with pytest.raises(TypeError, match="Input 'y' of 'AddV2' Op has type int32 that does not match type "
                                        "float32 of argument 'x'."):
        tf.add(P(), P(tf.int32, name="y"))
    with pytest.raises(TypeError, match="Input 'y' of 'AddV2' Op has type float32 that does not match type "
                                        "int32 of argument 'x'."):
        P(tf.int32, name="i") + 1.5
    with pytest.raises(TypeError, match="Value passed to parameter 'x' has DataType int32 not in list of "
                                        "allowed values: bfloat16, float16, float32, float64"):
        tf.sqrt(P(tf.int32, name="j"))


def test_reduction_axis_errors():
    with pytest.raises(ValueError, match="Invalid reduction dimension 2 for input with 2 dimensions"):
        tf.reduce_sum(P(), 2)
    with pytest.raises(ValueError, match=r"Dimension \(2\) must be in the range \[-2, 2\), where 2 is the "
                                         r"number of dimensions in the input"):
        tf.argmax(P(name="y"), 2)


# ------------------------------------------------------------------------------------- values (from TF)
def test_integer_division_values():
    a = np.array([[-7, 7, -7], [7, 3, -3]], np.int32)
    b = np.array([[2, 2, -2], [-2, 3, 5]], np.int32)
    x, y = P(tf.int32), P(tf.int32, name="y")
    fd, fm, td, mean = run([x // y, x % y, tf.truediv(x, y), tf.reduce_mean(x, 1)], {x: a, y: b})
    np.testing.assert_array_equal(fd, [[-4, 3, 3], [-4, 1, -1]])
    np.testing.assert_array_equal(fm, [[1, 1, -1], [-1, 0, 2]])
    np.testing.assert_allclose(td, [[-3.5, 3.5, 3.5], [-3.5, 1.0, -0.6]])
    assert td.dtype == np.float64 and fd.dtype == np.int32 and fm.dtype == np.int32
    np.testing.assert_array_equal(mean, [-2, 2])
    assert mean.dtype == np.int32
    np.testing.assert_array_equal(run(x ** y, {x: a, y: np.abs(b)}), [[49, 49, 49], [49, 27, -243]])


def test_integer_division_by_zero():
    x, y = P(tf.int32), P(tf.int32, name="y")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
        run(x // y, {x: np.ones((2, 3)), y: np.zeros((2, 3))})


def test_cast_round_sign_values():
    f = P()
    v = [[-1.7, 2.5, 0.5], [1.5, -0.5, 0]]
    c, r, s, b = run([tf.cast(f, tf.int32), tf.round(f), tf.sign(f), tf.cast(f, tf.bool)], {f: v})
    np.testing.assert_array_equal(c, [[-1, 2, 0], [1, 0, 0]])
    np.testing.assert_array_equal(r, [[-2, 2, 0], [2, -0.0, 0]])
    np.testing.assert_array_equal(s, [[-1, 1, 1], [1, -1, 0]])
    np.testing.assert_array_equal(b, [[True, True, True], [True, True, False]])
    assert c.dtype == np.int32 and r.dtype == np.float32


def test_unary_values():
    x = P()
    v = np.array([[0.5, 1.0, 2.0], [3.0, 4.0, 9.0]], np.float32)
    fns = {"square": np.square, "sqrt": np.sqrt, "rsqrt": lambda a: 1 / np.sqrt(a), "exp": np.exp,
           "log": np.log, "log1p": np.log1p, "sin": np.sin, "cos": np.cos, "tanh": np.tanh,
           "sigmoid": lambda a: 1 / (1 + np.exp(-a)), "reciprocal": lambda a: 1 / a, "negative": np.negative,
           "abs": np.abs, "floor": np.floor, "ceil": np.ceil}
    outs = run([getattr(tf, k)(x) for k in fns], {x: v})
    for (k, ref), out in zip(fns.items(), outs):
        assert out.dtype == np.float32, k
        np.testing.assert_allclose(out, ref(v), rtol=1e-6, err_msg=k)
    big = run(tf.sigmoid(x), {x: [[-1000, 1000, 0]] * 2})
    np.testing.assert_allclose(big[0], [0, 1, 0.5])


def test_broadcasting_binary_values():
    x = P(shape=(2, 1))
    y = P(shape=(3,), name="y")
    ops = [x + y, x - y, x * y, x / y, tf.maximum(x, y), tf.minimum(x, y), tf.squared_difference(x, y),
           x ** y, x < y, tf.equal(x, y)]
    assert all(t.shape.as_list() == [2, 3] for t in ops)
    a, b = np.array([[1.0], [2.0]], np.float32), np.array([1.0, 2.0, 3.0], np.float32)
    outs = run(ops, {x: a, y: b})
    refs = [a + b, a - b, a * b, a / b, np.maximum(a, b), np.minimum(a, b), (a - b) ** 2, a ** b, a < b, a == b]
    for out, ref in zip(outs, refs):
        np.testing.assert_allclose(out, ref, rtol=1e-6)
        assert out.dtype == ref.dtype


def test_unknown_dims_broadcast():
    t = P(shape=(None, 3)) + P(shape=(3,), name="b")
    assert t.shape.as_list() == [None, 3]


def test_logical_values():
    x, y = P(tf.bool, (4,)), P(tf.bool, (4,), name="y")
    a, b = np.array([True, True, False, False]), np.array([True, False, True, False])
    out = run([x & y, x | y, x ^ y, ~x, tf.logical_xor(x, y)], {x: a, y: b})
    for o, ref in zip(out, [a & b, a | b, a ^ b, ~a, a ^ b]):
        np.testing.assert_array_equal(o, ref)


def test_matmul_values_and_variants():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.arange(12, dtype=np.float32).reshape(3, 4)
    x, y = P(), P(shape=(3, 4), name="y")
    np.testing.assert_allclose(run(x @ y, {x: a, y: b}), a @ b)
    xt = P(shape=(3, 2), name="xt")
    t = tf.matmul(xt, y, transpose_a=True)
    assert t.shape.as_list() == [2, 4] and t.op.get_attr("transpose_a") is True
    np.testing.assert_allclose(run(t, {xt: a.T, y: b}), a @ b)
    assert tf.matmul(P(tf.int32, name="i"), P(tf.int32, (3, 4), name="j")).dtype == tf.int32
    assert tf.matmul(P(shape=(None, 3), name="u"), P(shape=(3, None), name="w")).shape.as_list() == [None, None]
    bx, by = P(shape=(5, 2, 3), name="bx"), P(shape=(3, 4), name="by")
    bm = tf.matmul(bx, by)
    assert (bm.op.type, bm.op.name, bm.shape.as_list()) == ("BatchMatMulV2", "MatMul_4", [5, 2, 4])  # "matmul" counts: names are case-insensitive
    av = np.random.RandomState(0).rand(5, 2, 3).astype(np.float32)
    np.testing.assert_allclose(run(bm, {bx: av, by: b}), av @ b, rtol=1e-5)


def test_reduction_values():
    v = np.array([[1, -2, 3], [4, 5, -6]], np.float32)
    x = P()
    outs = run([tf.reduce_sum(x), tf.reduce_sum(x, 1), tf.reduce_mean(x, 0, keepdims=True), tf.reduce_max(x, 1),
                tf.reduce_min(x), tf.reduce_prod(x, [0, 1]), tf.argmax(x, 1), tf.argmin(x, 0),
                tf.count_nonzero(x), tf.reduce_any(x > 4.0), tf.reduce_all(x > -7.0, axis=0)], {x: v})
    refs = [v.sum(), v.sum(1), v.mean(0, keepdims=True), v.max(1), v.min(), v.prod(), v.argmax(1), v.argmin(0),
            np.int64(6), True, np.array([True] * 3)]
    for out, ref in zip(outs, refs):
        np.testing.assert_allclose(out, ref)
    assert outs[0].dtype == np.float32 and np.ndim(outs[0]) == 0
    assert outs[6].dtype == np.int64 and outs[8].dtype == np.int64
    si = run(tf.reduce_sum(P(tf.int32, name="i"), 1), {"i:0": v.astype(np.int32)})
    assert si.dtype == np.int32


def test_operators_on_variables_and_numpy_left_operand():
    x = P()
    t = np.float32(2.0) * x
    assert t.op.type == "Mul"


# ---------------------------------------------------------------------- registry consistency
SAMPLES = {
    "AddV2": 2, "Sub": 2, "Mul": 2, "RealDiv": 2, "FloorDiv": 2, "FloorMod": 2, "Pow": 2, "Maximum": 2,
    "Minimum": 2, "SquaredDifference": 2, "Equal": 2, "NotEqual": 2, "Less": 2, "LessEqual": 2, "Greater": 2,
    "GreaterEqual": 2,
}


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64, tf.int32, tf.int64, tf.float16])
def test_kernels_return_declared_dtype_and_shape(dtype):
    """Each math kernel's value has exactly the dtype and shape its output rule declared."""
    rng = np.random.RandomState(1)
    npdt = dtype.as_numpy_dtype
    a = (rng.rand(2, 3) * 4 + 1).astype(npdt)
    b = (rng.rand(3) * 3 + 1).astype(npdt)
    x, y = P(dtype, (2, 3)), P(dtype, (3,), name="y")
    tensors = [x + y, x - y, x * y, tf.realdiv(x, y) if dtype.is_floating else x // y, x // y, x % y, x ** y,
               tf.maximum(x, y), tf.minimum(x, y), tf.squared_difference(x, y), x < y, tf.equal(x, y),
               -x, abs(x), tf.square(x), tf.sign(x), tf.add_n([x, x]), tf.cast(x, tf.bool), x / y,
               tf.reduce_sum(x), tf.reduce_sum(x, 1), tf.reduce_mean(x, 0, keepdims=True), tf.reduce_max(x),
               tf.reduce_min(x, 0), tf.reduce_prod(x, 1), tf.argmax(x, 1), tf.argmin(x, 0, output_type=tf.int32),
               tf.matmul(x, tf.reshape(y, [3, 1]) if hasattr(tf, "reshape") else P(dtype, (3, 1), name="m"))]
    if dtype.is_floating:
        tensors += [getattr(tf, f)(x) for f in UNARY_NAMES]
    feed = {x: a, y: b}
    if not hasattr(tf, "reshape"):
        feed["m:0"] = b.reshape(3, 1)
    outs = run(tensors, feed)
    for t, out in zip(tensors, outs):
        out = np.asarray(out)
        assert out.dtype == t.dtype.as_numpy_dtype, (t.op.type, out.dtype)
        assert list(out.shape) == t.shape.as_list(), t.op.type


def test_every_math_op_has_a_gradient_slot():
    from graphlab.ops import math_ops
    import inspect
    src = inspect.getsource(math_ops)
    for op_type in registry.registered_types():
        if '"%s"' % op_type in src:
            assert registry.get_opdef(op_type).grad is not None, op_type


# ------------------------------------------------------------------------------- gradient rules
GRAD_CASES = [("add", tf.add, [(2, 3), (3,)], 0), ("pow", tf.pow, [(2, 3), (2, 3)], 1),
              ("sqd", tf.squared_difference, [(2, 3), (2, 3)], 0), ("max", tf.maximum, [(2, 3), (2, 3)], 0),
              ("div", tf.divide, [(2, 3), (2, 3)], 1), ("matmulT",
               lambda a, b: tf.matmul(a, b, transpose_a=True, transpose_b=True), [(3, 2), (4, 3)], 0),
              ("mean", lambda a: tf.reduce_mean(a, 0, keepdims=True) * np.array([1., 2., 3.]), [(2, 3)], 0),
              ("max_r", lambda a: tf.reduce_max(a, 1) * np.array([1., 2.]), [(2, 3)], 0),
              ("prod", lambda a: tf.reduce_prod(a, 0), [(2, 3)], 1)] + \
    [(u, getattr(tf, u), [(2, 3)], 1) for u in ("sqrt", "rsqrt", "log1p", "tanh", "sigmoid", "square", "abs")]


@pytest.mark.parametrize("case", GRAD_CASES, ids=[c[0] for c in GRAD_CASES])
def test_gradient_rules_match_numeric(case):
    from graphlab.gradients import gradients
    _, fn, shapes, positive = case
    rng = np.random.RandomState(0)
    xs = [tf.placeholder(tf.float64, s) for s in shapes]
    y = tf.reduce_sum(fn(*xs))
    grads = gradients(y, xs)
    vals = [rng.rand(*s) + (0.5 if positive else -0.5) for s in shapes]
    feed = dict(zip(xs, vals))
    with tf.Session() as sess:
        got = sess.run(grads, feed)
        for x, v, g in zip(xs, vals, got):
            num = np.zeros_like(v)
            for idx in np.ndindex(v.shape):
                vp, vm = v.copy(), v.copy()
                vp[idx] += 1e-6
                vm[idx] -= 1e-6
                num[idx] = (sess.run(y, {**feed, x: vp}) - sess.run(y, {**feed, x: vm})) / 2e-6
            np.testing.assert_allclose(g, num, rtol=1e-4, atol=1e-6)
