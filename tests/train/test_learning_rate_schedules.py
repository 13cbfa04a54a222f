"""TF1's learning-rate schedules (tf.train.piecewise_constant, polynomial_decay, natural_exp_decay,
inverse_time_decay, cosine_decay, cosine_decay_restarts, linear_cosine_decay): the same graph as real
TensorFlow op for op, the same values at a range of global steps, and TF's errors for bad arguments.
TensorFlow runs once per module, in a subprocess (tests/tfref.py)."""
import json

import numpy as np
import pytest

import graphlab as tf
import tfref
from tests.programs.test_same_graph_as_tf import DUMP, graphlab_ops

SNIPPETS = {
    "polynomial_decay": """
gs = tf.train.get_or_create_global_step()
a = tf.train.polynomial_decay(0.1, gs, 100, 0.01, power=0.5)
b = tf.train.polynomial_decay(0.1, gs, 100, cycle=True, name="cyclic")
c = tf.train.polynomial_decay(tf.constant(0.5, tf.float64), gs, 30, end_learning_rate=0.1, power=2.0)
""",
    "natural_exp_and_inverse_time_decay": """
gs = tf.train.get_or_create_global_step()
a = tf.train.natural_exp_decay(0.1, gs, 100, 0.5, staircase=True)
b = tf.train.natural_exp_decay(0.1, gs, 100, 0.5, name="smooth")
c = tf.train.inverse_time_decay(0.1, gs, 100, 0.5, staircase=True)
d = tf.train.inverse_time_decay(0.1, gs, 100, 0.5, name="inv")
e = tf.train.exponential_decay(0.1, gs, 100, 0.96)
""",
    "cosine_and_linear_cosine_decay": """
gs = tf.train.get_or_create_global_step()
a = tf.train.cosine_decay(0.1, gs, 100, alpha=0.1)
b = tf.train.cosine_decay(0.1, gs, 100, name="named")
c = tf.train.linear_cosine_decay(0.1, gs, 100)
d = tf.train.linear_cosine_decay(0.1, gs, 100, num_periods=2.0, alpha=0.1, beta=0.01, name="lc")
""",
    "schedule_feeds_an_optimizer": """
x = tf.placeholder(tf.float32, [None, 2], name="x")
w = tf.Variable(tf.ones([2, 1]), name="w")
loss = tf.reduce_sum(tf.square(tf.matmul(x, w)))
gs = tf.train.get_or_create_global_step()
lr = tf.train.polynomial_decay(0.1, gs, 1000, cycle=True)
train = tf.train.GradientDescentOptimizer(lr).minimize(loss, global_step=gs)
""",
    # graphlab's tf.cond creates the Switch that gates an outer tensor just before the op using it, TF
    # just after: same ops, names and inputs, another creation order (checked as sets below)
    "cosine_decay_restarts": """
gs = tf.train.get_or_create_global_step()
a = tf.train.cosine_decay_restarts(0.1, gs, 100)
b = tf.train.cosine_decay_restarts(0.1, gs, 100, t_mul=1.0, m_mul=0.5, alpha=0.2, name="sgdr")
""",
    "piecewise_constant": """
gs = tf.train.get_or_create_global_step()
lr = tf.train.piecewise_constant(gs, [10, 20], [1.0, 0.5, 0.1])
""",
}
IN_ORDER = ["polynomial_decay", "natural_exp_and_inverse_time_decay", "cosine_and_linear_cosine_decay",
            "schedule_feeds_an_optimizer"]

STEPS = [0, 1, 5, 10, 11, 15, 20, 21, 50, 99, 100, 101, 150, 299, 300, 301, 700]
VALUES = """
gs = tf.train.get_or_create_global_step()
new_step = tf.placeholder(tf.int64, [], name="new_step")
set_step = tf.assign(gs, new_step)
lrs = [tf.train.piecewise_constant(gs, [10, 20, 100], [1.0, 0.5, 0.1, 0.01]),
       tf.train.piecewise_constant(tf.cast(gs, tf.float32), [15.0], [3, 4]),
       tf.train.polynomial_decay(0.1, gs, 100, 0.01, power=0.5),
       tf.train.polynomial_decay(0.1, gs, 100, cycle=True),
       tf.train.polynomial_decay(0.5, gs, 30, end_learning_rate=0.1, power=2.0, cycle=True),
       tf.train.natural_exp_decay(0.1, gs, 100, 0.5, staircase=True),
       tf.train.natural_exp_decay(0.1, gs, 10, 0.3),
       tf.train.inverse_time_decay(0.1, gs, 100, 0.5, staircase=True),
       tf.train.inverse_time_decay(0.1, gs, 7, 0.5),
       tf.train.cosine_decay(0.1, gs, 100, alpha=0.1),
       tf.train.cosine_decay(1.0, gs, 250),
       tf.train.cosine_decay_restarts(0.1, gs, 100),
       tf.train.cosine_decay_restarts(0.1, gs, 20, t_mul=1.0, m_mul=0.5, alpha=0.2),
       tf.train.cosine_decay_restarts(0.1, gs, 10, t_mul=3.0, m_mul=0.9),
       tf.train.linear_cosine_decay(0.1, gs, 100),
       tf.train.linear_cosine_decay(0.1, gs, 100, num_periods=2.0, alpha=0.1, beta=0.01)]
def values(steps):
    out = []
    with tf.Session(config=session_config) as sess:
        sess.run(tf.global_variables_initializer())
        for s in steps:
            sess.run(set_step, {new_step: s})
            out.append([v.item() for v in sess.run(lrs)])
    return out
"""

ERRORS = {
    "too_few_values": "tf.train.piecewise_constant(gs, [10, 20], [1.0, 0.5])",
    "too_many_values": "tf.train.piecewise_constant(gs, [10], [1.0, 0.5, 0.1])",
    "float_boundary_for_int64_step": "tf.train.piecewise_constant(gs, [10.0], [1.0, 0.5])",
    "int64_boundary_for_int32_x": "tf.train.piecewise_constant(tf.constant(3), [10, tf.constant(20, tf.int64)], "
                                  "[1.0, 0.5, 0.1])",
    # TF's where_v2(step == 0, 1.0, ...) takes the 1.0 as float32 whatever the schedule's dtype
    "float64_polynomial_cycle": "tf.train.polynomial_decay(tf.constant(0.5, tf.float64), gs, 30, cycle=True)",
    "mixed_value_dtypes": "tf.train.piecewise_constant(gs, [10], [1.0, 1])",
    "polynomial_without_step": "tf.train.polynomial_decay(0.1, None, 10)",
    "cosine_without_step": "tf.train.cosine_decay(0.1, None, 10)",
    "inverse_time_without_step": "tf.train.inverse_time_decay(0.1, None, 10, 0.5)",
    "natural_exp_without_step": "tf.train.natural_exp_decay(0.1, None, 10, 0.5)",
    "restarts_without_step": "tf.train.cosine_decay_restarts(0.1, None, 10)",
    "linear_cosine_without_step": "tf.train.linear_cosine_decay(0.1, None, 10)",
}
ERROR_SETUP = "gs = tf.train.get_or_create_global_step()\n"


def _error_of(src):
    """(exception type name, message) that running ``src`` after ERROR_SETUP raises, or None."""
    return """
def error_of(tf, src):
    tf.reset_default_graph()
    gs = tf.train.get_or_create_global_step()
    try:
        eval(src, {"tf": tf, "gs": gs})
    except Exception as e:
        return [type(e).__name__, str(e)]
    return None
"""


@pytest.fixture(scope="module")
def tf_reference():
    script = DUMP + _error_of(None) + """
args = json.loads(sys.argv[1])
graphs = {}
for key, src in args["snippets"].items():
    tf.reset_default_graph()
    exec(src)
    graphs[key] = dump()
tf.reset_default_graph()
# TF's graph optimizer (grappler) rewrites a division by a constant into a multiplication by its reciprocal:
# 150 / 30 becomes 150 * (1 / 30) = 5.0000005, and a cyclic polynomial decay then takes the next cycle
# (0.111 instead of 0.1). graphlab runs the graph as written, so compare with TF's unoptimized graph.
from tensorflow.core.protobuf import rewriter_config_pb2
session_config = tf.ConfigProto()
session_config.graph_options.rewrite_options.disable_meta_optimizer = True
exec(args["values"])
vals = values(args["steps"])
errors = {key: error_of(tf, src) for key, src in args["errors"].items()}
print(json.dumps({"graphs": graphs, "values": vals, "errors": errors}))
"""
    return tfref.run_tf_json(script, json.dumps({"snippets": SNIPPETS, "values": VALUES, "steps": STEPS,
                                                 "errors": ERRORS}))


@pytest.mark.parametrize("key", IN_ORDER)
def test_graph_matches_tensorflow_op_for_op(key, tf_reference):
    ours = graphlab_ops(SNIPPETS[key])
    theirs = tf_reference["graphs"][key]
    for mine, tfs in zip(ours, theirs):
        assert mine == tfs
    assert len(ours) == len(theirs)


def _as_set(rows):
    return sorted(json.dumps(row) for row in rows)


@pytest.mark.parametrize("key", ["cosine_decay_restarts", "piecewise_constant"])
def test_schedules_built_on_conds_match_tensorflow_op_for_op(tf_reference, key):
    """cosine_decay_restarts (a cond on t_mul == 1) and piecewise_constant (TF's exclusive tf.case: the
    at-most-one-true Assert, then nested conds): TF's ops, with TF's cond input Switches moved before
    their consumer as graphlab creates them (tests/programs/test_same_graph_as_tf.py)."""
    ours = graphlab_ops(SNIPPETS[key])
    theirs = tf_reference["graphs"][key]
    for mine, tfs in zip(ours, theirs):
        assert mine == tfs
    assert len(ours) == len(theirs)


def test_schedule_values_match_tensorflow_at_each_step(tf_reference):
    scope = {"tf": tf, "session_config": None}
    exec(VALUES, scope)
    ours = scope["values"](STEPS)
    theirs = tf_reference["values"]
    assert len(ours) == len(theirs) == len(STEPS)
    for step, mine, tfs in zip(STEPS, ours, theirs):
        # float32 pow, exp, cos and log may round an ulp apart from Eigen's
        np.testing.assert_allclose(mine, tfs, rtol=1e-6, atol=0, err_msg="at global step %d" % step)


def test_schedule_values_are_the_documented_formulas():
    """Independent of TF: a few values worked out by hand."""
    gs = tf.train.get_or_create_global_step()
    new_step = tf.placeholder(tf.int64, [])
    set_step = tf.assign(gs, new_step)
    piecewise = tf.train.piecewise_constant(gs, [10, 20], [1.0, 0.5, 0.1])
    poly = tf.train.polynomial_decay(1.0, gs, 10, end_learning_rate=0.0, power=1.0, cycle=True)
    inverse = tf.train.inverse_time_decay(1.0, gs, 10, 1.0, staircase=True)
    assert piecewise.name == "PiecewiseConstant/case/cond/Merge:0"
    assert poly.name == "PolynomialDecay:0" and inverse.name == "InverseTimeDecay:0"
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        got = {}
        for s in [0, 10, 11, 20, 21, 25]:
            sess.run(set_step, {new_step: s})
            got[s] = sess.run([piecewise, poly, inverse])
    assert [got[s][0] for s in [0, 10, 11, 20, 21]] == [1.0, 1.0, 0.5, 0.5, np.float32(0.1)]
    assert got[0][1] == 1.0 and got[10][1] == 0.0
    assert np.isclose(got[25][1], 1 - 25 / 30, rtol=1e-6)   # cycle: the horizon grew to 30 steps
    assert [got[s][2] for s in [0, 10, 25]] == [1.0, 0.5, np.float32(1 / 3)]


@pytest.mark.parametrize("key", sorted(ERRORS))
def test_bad_arguments_raise_tensorflows_errors(key, tf_reference):
    expected = tf_reference["errors"][key]
    assert expected is not None
    scope = {}
    exec(_error_of(None), scope)
    assert scope["error_of"](tf, ERRORS[key]) == expected
