"""Every tf.train optimizer on resource variables, compared with live TF: the ops it builds (ResourceApply*,
ResourceSparseApply*, resource slots such as ``w/Adam``, Adam's sparse step of AssignVariableOp,
ResourceScatterAdd and AssignSubVariableOp, GradientDescent's ResourceScatterAdd), and the variable's and slots'
values after three steps. Also ExponentialMovingAverage's resource shadows."""
import pytest

from tests import tfsnippets

OPTIMIZERS = {
    "gd": "tf.train.GradientDescentOptimizer(0.1)",
    "momentum": "tf.train.MomentumOptimizer(0.1, 0.9)",
    "nesterov": "tf.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True)",
    "adam": "tf.train.AdamOptimizer(0.1)",
    "adagrad": "tf.train.AdagradOptimizer(0.1)",
    "adadelta": "tf.train.AdadeltaOptimizer(1.0)",
    "rmsprop": "tf.train.RMSPropOptimizer(0.1)",
    "rmsprop_centered": "tf.train.RMSPropOptimizer(0.1, momentum=0.5, centered=True)",
    "ftrl": "tf.train.FtrlOptimizer(0.1, l1_regularization_strength=0.01, l2_regularization_strength=0.01)",
    "ftrl_v2": "tf.train.FtrlOptimizer(0.1, l2_shrinkage_regularization_strength=0.1)",
    "proximal_gd": "tf.train.ProximalGradientDescentOptimizer(0.1, 0.01, 0.01)",
    "adagrad_da": "tf.train.AdagradDAOptimizer(0.1, tf.train.get_or_create_global_step(), "
                  "l1_regularization_strength=0.01)",
}
# sparse steps graphlab has (the proximal family and FTRL update dense gradients only: see proximal.py)
SPARSE = ("gd", "momentum", "nesterov", "adam", "adagrad", "adadelta", "rmsprop", "rmsprop_centered")


def _program(make, sparse):
    loss = ("tf.reduce_sum(tf.square(tf.gather(w, [0, 2, 0])))" if sparse
            else "tf.reduce_sum(tf.square(tf.matmul(x, w)))")
    step = "None" if "AdagradDA" in make else "tf.train.get_or_create_global_step()"
    return """
w = tf.Variable([[0.5, -1.0], [1.5, 2.0], [0.25, -0.75]], use_resource=True, name="w")
x = tf.constant([[1.0, 2.0, -1.0]])
loss = %s
opt = %s
train = opt.minimize(loss, global_step=%s)
""" % (loss, make, step)


GRAPHS, RESULTS = {}, {}
for _key, _make in OPTIMIZERS.items():
    for _sparse in (False, True) if _key in SPARSE else (False,):
        _name = _key + ("_sparse" if _sparse else "")
        GRAPHS[_name] = _program(_make, _sparse)
        RESULTS[_name] = _program(_make, _sparse) + """
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
        sess.run(train)
    result = {"w": sess.run(w).tolist(),
              "variables": [[v.name, type(v).__name__, sess.run(v).tolist()] for v in opt.variables()]}
"""

GRAPHS["moving_average"] = """
w = tf.Variable([1.0, 2.0], use_resource=True, name="w")
t = tf.constant([3.0, 4.0]) * 1
ema = tf.train.ExponentialMovingAverage(0.9)
update = ema.apply([w, t])
"""
RESULTS["moving_average"] = GRAPHS["moving_average"] + """
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(2):
        sess.run(update)
        sess.run(w.assign_add([1.0, 1.0]))
    result = [sess.run(ema.average(w)).tolist(), sess.run(ema.average(t)).tolist(), ema.average_name(w),
              sorted(ema.variables_to_restore())]
"""


@pytest.fixture(scope="module")
def theirs():
    return tfsnippets.reference(graphs=GRAPHS, results=RESULTS)


@pytest.mark.parametrize("key", sorted(GRAPHS))
def test_same_graph_as_tf(theirs, key):
    tfsnippets.check_graph(GRAPHS[key], theirs["graphs"][key])


@pytest.mark.parametrize("key", sorted(RESULTS))
def test_same_values_after_steps_as_tf(theirs, key):
    ours = tfsnippets.run_result(RESULTS[key])["result"]
    _same(ours, theirs["results"][key]["result"], key)


def _same(ours, theirs, where):
    """Equal structure and names; float32 training steps equal within a few float32 roundings."""
    if isinstance(theirs, (list, dict)):
        assert type(ours) is type(theirs) and len(ours) == len(theirs), (where, ours, theirs)
        items = theirs.items() if isinstance(theirs, dict) else enumerate(theirs)
        for k, v in items:
            _same(ours[k], v, "%s[%r]" % (where, k))
    elif isinstance(theirs, float):
        assert ours == pytest.approx(theirs, rel=1e-5, abs=1e-6), (where, ours, theirs)
    else:
        assert ours == theirs, (where, ours, theirs)


def test_sparse_step_of_a_dense_only_optimizer_says_so():
    """FTRL and the proximal optimizers have no sparse step in graphlab: a clear error, not a wrong one."""
    import graphlab as tf
    tf.reset_default_graph()
    w = tf.Variable([[1.0], [2.0]], use_resource=True, name="w")
    loss = tf.reduce_sum(tf.gather(w, [0]))
    with pytest.raises(NotImplementedError, match="FtrlOptimizer updates dense gradients only; w:0"):
        tf.train.FtrlOptimizer(0.1).minimize(loss)
