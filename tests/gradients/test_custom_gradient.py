"""Gradients the user defines and variables a function shares, against TF 2.21: tf.RegisterGradient and
tf.NotDifferentiable, Graph.gradient_override_map (by op type, recorded on each op as _gradient_op_type
when it is created, and written into the GraphDef), tf.custom_gradient in graph mode (the IdentityN TF
builds, variables read passed as ``variables=``) and tf.make_template (variables made on the first call and
shared after, TF's names and errors)."""
import numpy as np
import pytest

import graphlab as tf
from tests import tfsnippets as tfcompare

# gradient names are global in a process: each snippet registers its own, made unique by its key
GRAPHS = {
    "override_map_and_registered_gradients": """
@tf.RegisterGradient("TimesThree_graph")
def _g(op, grad):
    return grad * 3.0
g = tf.get_default_graph()
x = tf.placeholder(tf.float32, [2], name="x")
with g.gradient_override_map({"Square": "TimesThree_graph"}):
    y = tf.square(x, name="y")
    z = tf.sin(x)
with g.gradient_override_map({"Square": "Identity"}):
    q = tf.square(x, name="q")
    with g.gradient_override_map({"Square": "Sin"}):
        q2 = tf.square(x, name="q2")
    q3 = tf.square(x, name="q3")
grads = tf.gradients([y, q, q2, q3, z], x)
""",
    "custom_gradient": """
x = tf.placeholder(tf.float32, [2], name="x")
@tf.custom_gradient
def clip_grad(v):
    def grad(dy):
        return tf.clip_by_norm(dy, 1.0)
    return tf.identity(v), grad
c = clip_grad(x * 5.0)
w = tf.Variable(2.0, name="w")
@tf.custom_gradient
def scaled(v):
    out = v * w
    def grad(dy, variables=None):
        return dy * 10.0, [tf.reduce_sum(dy) * 100.0 for _ in variables]
    return out, grad
u = scaled(x)
@tf.custom_gradient
def two_outputs(a):
    return (a * 2.0, a * 3.0), lambda d1, d2: d1 + d2
m = two_outputs(x)
@tf.custom_gradient
def two_inputs(a, b):
    return a * b, lambda dy: (dy * b, dy * a)
t = two_inputs(x, x * 2.0)
grads = tf.gradients(tf.reduce_sum(c) + tf.reduce_sum(u) + tf.reduce_sum(m[0]) + tf.reduce_sum(t), [x, w])
sw = tf.gradients(tf.nn.swish(x, beta=0.5), x)
""",
    "make_template": """
def lin(v, scale=1.0):
    w = tf.get_variable("w", [2], initializer=tf.ones_initializer())
    b = tf.get_variable("b", [], initializer=tf.zeros_initializer())
    return v * w * scale + b
x = tf.placeholder(tf.float32, [2], name="x")
t = tf.make_template("lin", lin)
a1 = t(x); a2 = t(x * 2.0)
t2 = tf.make_template("lin", lin, create_scope_now_=True, scale=3.0)
a3 = t2(x); a4 = t2(x)
with tf.variable_scope("outer"):
    t3 = tf.make_template("lin", lin)
    a5 = t3(x)
a6 = t3(x)
t4 = tf.make_template("lin", lin, unique_name_="custom")
a7 = t4(x); a8 = t4(x)
loss = tf.add_n([tf.reduce_sum(a) for a in (a1, a2, a3, a4, a5, a6, a7, a8)])
grads = tf.gradients(loss, tf.trainable_variables())
""",
}

VALUES = {
    "override_and_custom_gradient_values": """
@tf.RegisterGradient("TimesThree_values")
def _g(op, grad):
    return grad * 3.0
tf.NotDifferentiable("Stopped_values")
g = tf.get_default_graph()
x = tf.placeholder(tf.float32, [3])
with g.gradient_override_map({"Square": "TimesThree_values", "Identity": "Stopped_values", "Round": "Identity"}):
    y, i, r = tf.square(x), tf.identity(x * 2.0), tf.round(x)
w = tf.Variable([1.0, 2.0, 3.0], name="w")
@tf.custom_gradient
def f(v):
    def grad(dy, variables):
        return dy * w, [dy * v * 10.0]
    return v * w, grad
@tf.custom_gradient
def log1pexp(v):
    e = tf.exp(v)
    return tf.log(1 + e), lambda dy: dy * (1 - 1 / (1 + e))
gx, gw = tf.gradients(tf.reduce_sum(f(x)) + tf.reduce_sum(y) + tf.reduce_sum(r * r), [x, w])
fetch = [gx, gw, tf.gradients(log1pexp(x * 100.0), x)[0], tf.gradients(tf.nn.swish(x, 0.7), x)[0]]
feed = {x: [0.4, -1.6, 2.2]}
init = tf.global_variables_initializer()
""",
    "template_values": """
def affine(v):
    w = tf.get_variable("w", [3, 2], initializer=tf.constant_initializer(np.arange(6.0).reshape(3, 2) / 10))
    return tf.matmul(v, w)
net = tf.make_template("net", affine)
x = tf.placeholder(tf.float32, [None, 3])
loss = tf.reduce_sum(net(x)) + tf.reduce_sum(net(x * 2.0) ** 2)
fetch = [loss] + tf.gradients(loss, net.trainable_variables)
feed = {x: [[1.0, 2.0, 3.0], [0.5, -1.0, 0.0]]}
init = tf.global_variables_initializer()
""",
}

BUILD_ERRORS = {
    "register_twice": """
@tf.RegisterGradient("Twice_errors")
def _a(op, grad):
    return grad
tf.RegisterGradient("Twice_errors")(lambda op, grad: grad)
""",
    "register_an_op_type_with_a_rule": "tf.RegisterGradient('Square')(lambda op, grad: grad)",
    "not_differentiable_an_op_type_with_a_rule": "tf.NotDifferentiable('Square')",
    "op_type_not_a_string": "tf.RegisterGradient(3)",
    "no_gradient_not_a_string": "tf.no_gradient(3)",
    "override_map_not_strings": "with tf.get_default_graph().gradient_override_map({'Square': 3}):\n    pass",
    "override_map_not_a_dict": "with tf.get_default_graph().gradient_override_map([('Square', 'Sin')]):\n    pass",
    "override_to_an_unknown_gradient": """
x = tf.placeholder(tf.float32, [2], name="x")
with tf.get_default_graph().gradient_override_map({"Square": "Unknown_errors"}):
    w = tf.square(x, name="w")
tf.gradients(w, x)
""",
    "custom_gradient_reads_a_variable_without_variables_arg": """
w = tf.Variable(2.0, name="w")
@tf.custom_gradient
def f(v):
    return v * w, lambda dy: dy
f(tf.placeholder(tf.float32, [2]))
""",
    "custom_gradient_makes_a_variable": """
@tf.custom_gradient
def f(v):
    k = tf.Variable(1.0, name="k")
    return v * k, lambda dy: dy
f(tf.placeholder(tf.float32, [2]))
""",
    "custom_gradient_keyword_arguments": """
@tf.custom_gradient
def f(v):
    return v * 2.0, lambda dy: dy
f(v=tf.placeholder(tf.float32, [2]))
""",
    "custom_gradient_variable_gradients_count": """
w = tf.Variable(2.0, name="w")
@tf.custom_gradient
def f(v):
    return v * w, lambda dy, variables=None: (dy, [])
tf.gradients(f(tf.placeholder(tf.float32, [2])), tf.trainable_variables())
""",
    "template_without_name": "tf.make_template(None, lambda: 1)",
}

RESULTS = {
    # the override is recorded when the op is made, and TF writes it into the GraphDef; an imported graph
    # keeps it; a NotDifferentiable gradient gives None
    "recorded_override": """
@tf.RegisterGradient("Half_results")
def _h(op, grad):
    return grad * 0.5
tf.NotDifferentiable("Never_results")
g = tf.get_default_graph()
x = tf.placeholder(tf.float32, [2], name="x")
with g.gradient_override_map({"Square": "Half_results", "Identity": "Never_results"}):
    y = tf.square(x, name="y")
    i = tf.identity(x, name="i")
z = tf.square(x, name="z")
gd = g.as_graph_def()
attrs = {n.name: n.attr["_gradient_op_type"].s.decode() for n in gd.node if "_gradient_op_type" in n.attr}
tf.reset_default_graph()
tf.import_graph_def(gd, name="imported")
imp = tf.get_default_graph()
gy = tf.gradients(imp.get_tensor_by_name("imported/y:0"), imp.get_tensor_by_name("imported/x:0"))[0]
with tf.Session() as sess:
    half = sess.run(gy, {"imported/x:0": [1.0, 2.0]}).tolist()
never = tf.gradients(imp.get_tensor_by_name("imported/i:0"), imp.get_tensor_by_name("imported/x:0"))
result = {"attrs": attrs, "imported_gradient": half, "not_differentiable": [g is None for g in never]}
""",
    # a template's variables and scopes; a later call making a trainable variable is TF's ValueError
    "template_variables_and_misuse": """
def bad(v):
    return v * tf.Variable(1.0, name="fresh")
def good(v):
    return v * tf.get_variable("k", [], initializer=tf.ones_initializer())
t = tf.make_template("bad", bad)
x = tf.placeholder(tf.float32, [], name="x")
t(x)
try:
    t(x)
    message = None
except ValueError as e:
    message = str(e).split("\\n")[0]
k = tf.make_template("good", good)
k(x); k(x)
result = {"message": message, "names": [v.name for v in tf.global_variables()],
          "scope": k.variable_scope_name, "vars": [v.name for v in k.trainable_variables], "name": k.name,
          "globals": [v.name for v in k.global_variables], "none_yet": tf.make_template("later", good).variables}
""",
}


@pytest.fixture(scope="module")
def tf_results():
    return tfcompare.reference(graphs=GRAPHS, values=VALUES, build_errors=BUILD_ERRORS, results=RESULTS)


@pytest.mark.parametrize("key", sorted(GRAPHS))
def test_graph_matches_tensorflow_op_for_op(key, tf_results):
    tfcompare.check_graph(GRAPHS[key], tf_results["graphs"][key])


@pytest.mark.parametrize("key", sorted(VALUES))
def test_values_match_tensorflow(key, tf_results):
    tfcompare.check_values(tfcompare.run_ours(VALUES[key]), tf_results["values"][key], what=key)


@pytest.mark.parametrize("key", sorted(BUILD_ERRORS))
def test_errors_match_tensorflow(key, tf_results):
    kind, text = tf_results["build_errors"][key]
    if "Previous registration was in" in text:    # where the first registration was: a file of each library
        graphlab_kind, ours = _error_of(BUILD_ERRORS[key])
        assert graphlab_kind == kind
        assert ours.split(" (Previous registration")[0] == text.strip("\"'").split(" (Previous")[0]
    elif text.startswith("Num gradients"):        # TF prints the op's NodeDef, graphlab its name
        graphlab_kind, ours = _error_of(BUILD_ERRORS[key])
        assert graphlab_kind == kind and "do not match num inputs" in ours
    else:
        tfcompare.check_build_error(BUILD_ERRORS[key], tf_results["build_errors"][key])


def _error_of(src):
    tf.reset_default_graph()
    with pytest.raises(Exception) as info:
        exec(src, {"tf": tf, "np": np})
    return type(info.value).__name__, str(info.value).strip("\"'")


@pytest.mark.parametrize("key", sorted(RESULTS))
def test_results_match_tensorflow(key, tf_results):
    assert tfcompare.run_result(RESULTS[key]) == tf_results["results"][key]


def test_override_counts_when_the_op_is_made_not_when_gradients_run():
    g = tf.get_default_graph()
    x = tf.placeholder(tf.float32, [2])
    y = tf.square(x)
    with g.gradient_override_map({"Square": "Identity"}):
        grad_inside = tf.gradients(y, x)[0]        # y was made outside the block: Square's own rule
        z = tf.square(x)
    assert z.op.get_attr("_gradient_op_type") == "Identity"
    with pytest.raises(ValueError, match="has no attr named '_gradient_op_type'"):
        y.op.get_attr("_gradient_op_type")
    with tf.Session() as sess:
        a, b = sess.run([grad_inside, tf.gradients(z, x)[0]], {x: [3.0, 4.0]})
    np.testing.assert_array_equal(a, [6.0, 8.0])
    np.testing.assert_array_equal(b, [1.0, 1.0])
