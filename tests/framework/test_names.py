"""TF1 naming, with expectations taken from TF 2.21 compat.v1 (Graph.name_scope docstring, seed 002)."""
import graphlab as tf


def test_name_scope_docstring_examples():
    g = tf.Graph()
    with g.as_default():
        c = tf.constant(5.0, name="c")
        assert c.op.name == "c"
        c_1 = tf.constant(6.0, name="c")
        assert c_1.op.name == "c_1"
        with g.name_scope("nested") as scope:
            assert scope == "nested/"
            assert tf.constant(10.0, name="c").op.name == "nested/c"
            with g.name_scope("inner"):
                assert tf.constant(20.0, name="c").op.name == "nested/inner/c"
            with g.name_scope("inner"):
                assert tf.constant(30.0, name="c").op.name == "nested/inner_1/c"
            with g.name_scope(""):          # "" returns to the top level
                assert tf.constant(50.0, name="c").op.name == "c_2"
            with g.name_scope(scope):       # a name ending in "/" re-enters exactly
                assert tf.constant(40.0, name="c").op.name == "nested/c_1"
        with g.name_scope("nested/"):
            assert tf.constant(1.0, name="c").op.name == "nested/c_2"


def test_uniqueness_is_case_insensitive():
    tf.constant(1.0, name="c")
    tf.constant(1.0, name="c")
    tf.constant(1.0, name="c")
    assert tf.constant(1.0, name="C").op.name == "C_3"


def test_composed_names_are_marked_used():
    assert tf.constant(1.0, name="cool_const").op.name == "cool_const"
    assert tf.constant(1.0, name="cool_const").op.name == "cool_const_1"
    assert tf.constant(1.0, name="cool_const_1").op.name == "cool_const_1_1"


def test_seed_002_unique_names():
    a = tf.constant(0.)
    b = tf.constant(1.)
    c = tf.constant(2., name="cool_const")
    d = tf.constant(3., name="cool_const")
    assert [a.name, b.name, c.name, d.name] == ["Const:0", "Const_1:0", "cool_const:0", "cool_const_1:0"]


def test_seed_002_variable_scope_names():
    a = tf.constant(0.)
    b = tf.constant(1.)
    with tf.variable_scope("first_scope"):
        c = a + b
        d = tf.constant(2., name="cool_const")
        coef1 = tf.get_variable("coef", [], initializer=tf.constant_initializer(2.))
        with tf.variable_scope("second_scope"):
            e = coef1 * d
            coef2 = tf.get_variable("coef", [], initializer=tf.constant_initializer(3.))
            f = tf.constant(1.)
            g = coef2 * f
    assert (a.name, b.name) == ("Const:0", "Const_1:0")
    assert (c.name, d.name) == ("first_scope/add:0", "first_scope/cool_const:0")
    assert (e.name, f.name, g.name) == ("first_scope/second_scope/mul:0", "first_scope/second_scope/Const:0",
                                        "first_scope/second_scope/mul_1:0")
    assert coef1.name == "first_scope/coef:0"
    assert coef2.name == "first_scope/second_scope/coef:0"


def test_implicit_constants_live_in_the_ops_scope():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    y = tf.multiply(x, 2.0, name="y")
    assert [op.name for op in tf.get_default_graph().get_operations()] == ["x", "y/y", "y"]
    assert y.name == "y:0"
    assert y.op.inputs[1].name == "y/y:0"


def test_tf_name_scope_function_and_default_name():
    with tf.name_scope(None, "default") as s:
        assert s == "default/"
    with tf.name_scope("given", "default") as s:
        assert s == "given/"
    with tf.name_scope(None, "default") as s:
        assert s == "default_1/"


def test_op_default_names_count_per_type():
    x = tf.constant(1.0)
    assert (x + x).name == "add:0"
    assert (x + x).name == "add_1:0"
    assert (x * x).name == "mul:0"
