"""tf.train.ExponentialMovingAverage and moving_averages.assign_moving_average as TF1 builds and runs
them: the same ops (names, types, inputs, control inputs, in creation order) as TensorFlow 2.21 in
compat.v1 graph mode, the same names and collections, the same averages after several steps, and
checkpoints whose averages restore into the model's variables in either framework.

TF runs in a subprocess (tests/tfref.py). One documented difference in creation order is normalised:
when a tf.cond branch uses a tensor from outside, TF creates the consumer first and its ``<consumer>/
Switch`` right after; graphlab creates the Switch first so that its graphs stay append-only in creation
order (tests/ops/test_cond_structure.py). Names, types, inputs and control inputs are compared as they are.
"""
import json

import numpy as np
import pytest

import graphlab
from graphlab.train import moving_averages
from tests import tfref
from tests.programs.test_same_graph_as_tf import DUMP, graphlab_ops

# Each snippet runs in both frameworks; `facts` (JSON) is what a user reads off the EMA object.
HELPERS = """
def names(vs):
    return sorted(v.op.name for v in vs)
def restore_map(mapping):
    return sorted((k, v.op.name) for k, v in mapping.items())
"""

SNIPPETS = {
    "ema_on_variables": """
w = tf.Variable(tf.zeros([2, 3]), name="w")
b = tf.Variable(1.0, name="b")
ema = tf.train.ExponentialMovingAverage(decay=0.99)
maintain_averages_op = ema.apply([w, b])
init = tf.global_variables_initializer()
facts = {"op": maintain_averages_op.name, "average": ema.average(w).name, "shape": ema.average(w).shape.as_list(),
         "names": [ema.average_name(w), ema.average_name(b)], "global": names(tf.global_variables()),
         "trainable": names(tf.trainable_variables()),
         "averaged": names(tf.get_collection(tf.GraphKeys.MOVING_AVERAGE_VARIABLES)),
         "restore": restore_map(ema.variables_to_restore()), "ema_name": ema.name}
""",
    # num_updates from the global step or a Python number; float64 casts the decay; a variable applied
    # twice keeps its shadow; a second EMA on the same variable gets `_1`; var_list=None
    "ema_with_num_updates_and_names": """
gs = tf.train.get_or_create_global_step()
with tf.variable_scope("layer"):
    w = tf.get_variable("w", [3, 2])
d = tf.Variable(tf.zeros([2], tf.float64), name="d")
ema = tf.train.ExponentialMovingAverage(decay=0.999, num_updates=gs)
op1 = ema.apply([w, d])
op2 = ema.apply([w])
ema2 = tf.train.ExponentialMovingAverage(0.5, num_updates=7, name="avg")
with tf.name_scope("eval"):
    op3 = ema2.apply()
ema3 = tf.train.ExponentialMovingAverage(0.9)
op4 = ema3.apply([w])
facts = {"ops": [op1.name, op2.name, op3.name, op4.name],
         "names": [ema.average_name(w), ema.average_name(d), ema2.average_name(w), ema3.average_name(w),
                   ema3.average_name(d), ema.average_name(gs)],
         "unknown": ema3.average(d) is None, "global": names(tf.global_variables()),
         "averaged": names(tf.get_collection(tf.GraphKeys.MOVING_AVERAGE_VARIABLES)),
         "restore": restore_map(ema3.variables_to_restore()), "restore_w": restore_map(ema.variables_to_restore([w]))}
""",
    # tensors: shadows start at zero; zero_debias adds biased/local_step; an unknown shape gives a
    # zeros(shape(t)) initial value; a tensor averaged by two EMAs
    "ema_on_tensors_zero_debias": """
x = tf.placeholder(tf.float32, [None, 3], name="x")
mean, var = tf.nn.moments(x, [0])
gs = tf.train.get_or_create_global_step()
ema = tf.train.ExponentialMovingAverage(0.9, num_updates=gs, zero_debias=True)
op = ema.apply([mean, var])
row_mean = tf.reduce_mean(x, 1, name="row_mean")
ema2 = tf.train.ExponentialMovingAverage(0.9)
op2 = ema2.apply([row_mean, mean])
facts = {"names": [ema.average_name(mean), ema.average_name(var), ema2.average_name(row_mean), ema2.average_name(mean)],
         "global": names(tf.global_variables()), "trainable": names(tf.trainable_variables()),
         "averaged": names(tf.get_collection(tf.GraphKeys.MOVING_AVERAGE_VARIABLES)),
         "row_rank": ema2.average(row_mean).shape.ndims, "restore": restore_map(ema.variables_to_restore())}
""",
    # the batch-norm recipe: moments averaged for inference, Adam on the loss, variables averaged after
    # each step; the second EMA made the way TF's docstring shows (apply inside control_dependencies)
    "batch_norm_recipe_with_adam": """
x = tf.placeholder(tf.float32, [None, 4], name="x")
y = tf.placeholder(tf.float32, [None, 1], name="y")
with tf.variable_scope("bn"):
    beta = tf.get_variable("beta", [4], initializer=tf.zeros_initializer())
    gamma = tf.get_variable("gamma", [4], initializer=tf.ones_initializer())
    batch_mean, batch_var = tf.nn.moments(x, [0], name="moments")
    bn_ema = tf.train.ExponentialMovingAverage(decay=0.9)
    bn_update = bn_ema.apply([batch_mean, batch_var])
    h = tf.nn.batch_normalization(x, batch_mean, batch_var, beta, gamma, 1e-3)
w = tf.Variable(tf.ones([4, 1]), name="w")
loss = tf.reduce_mean(tf.square(tf.matmul(h, w) - y))
gs = tf.train.get_or_create_global_step()
opt_op = tf.train.AdamOptimizer(0.01).minimize(loss, global_step=gs)
ema = tf.train.ExponentialMovingAverage(0.99, num_updates=gs)
maintain_averages_op = ema.apply([w, beta])
with tf.control_dependencies([opt_op]):
    training_op = tf.group(maintain_averages_op, bn_update)
    docstring_op = tf.train.ExponentialMovingAverage(0.9, name="ema2").apply([gamma])
facts = {"names": [bn_ema.average_name(batch_mean), ema.average_name(w), ema.average_name(beta)],
         "global": names(tf.global_variables()), "trainable": names(tf.trainable_variables()),
         "restore": restore_map(ema.variables_to_restore())}
""",
    # the classic inference switch: apply inside tf.cond's true branch, the averages in the false one
    "batch_norm_recipe_in_cond": """
x = tf.placeholder(tf.float32, [None, 3], name="x")
phase_train = tf.placeholder(tf.bool, [], name="phase_train")
batch_mean, batch_var = tf.nn.moments(x, [0], name="moments")
ema = tf.train.ExponentialMovingAverage(decay=0.5)
def mean_var_with_update():
    ema_apply_op = ema.apply([batch_mean, batch_var])
    with tf.control_dependencies([ema_apply_op]):
        return tf.identity(batch_mean), tf.identity(batch_var)
mean, var = tf.cond(phase_train, mean_var_with_update,
                    lambda: (ema.average(batch_mean), ema.average(batch_var)))
facts = {"global": names(tf.global_variables())}
""",
    # evaluation: a Saver reading shadows into the model's variables, or only some of them
    "variables_to_restore_and_savers": """
gs = tf.train.get_or_create_global_step()
w = tf.Variable(tf.zeros([3]), name="w")
b = tf.Variable(tf.zeros([]), name="b")
frozen = tf.Variable(2.0, trainable=False, name="frozen")
x = tf.placeholder(tf.float32, [None, 3], name="x")
m, v = tf.nn.moments(x, [0])
ema = tf.train.ExponentialMovingAverage(0.9, zero_debias=True)
op = ema.apply([w, m])
saver = tf.train.Saver(ema.variables_to_restore())
saver2 = tf.train.Saver(ema.variables_to_restore([w]))
saver3 = tf.train.Saver({ema.average_name(w): w, ema.average_name(b): b})
facts = {"all": restore_map(ema.variables_to_restore()), "w_only": restore_map(ema.variables_to_restore([w])),
         "frozen_too": restore_map(ema.variables_to_restore([w, frozen])), "b_name": ema.average_name(b)}
""",
    # the low-level function (batch-norm layers of the TF1 era): debiased by default, helpers named after
    # the variable's full name inside the current variable scope, `_1` for a second update
    "assign_moving_average": """
with tf.variable_scope("scope1"):
    with tf.variable_scope("scope2"):
        moving_mean = tf.get_variable("foo", [2], initializer=tf.zeros_initializer(), trainable=False)
        value = tf.constant([1.0, 3.0], name="value")
        update_1 = moving_averages.assign_moving_average(moving_mean, value, 0.9)
        update_2 = moving_averages.assign_moving_average(moving_mean, value, tf.constant(0.5))
moving_var = tf.Variable(tf.ones([2], tf.float64), trainable=False, name="moving_var")
update_3 = moving_averages.assign_moving_average(moving_var, tf.constant([2.0, 2.0], tf.float64), 0.99,
                                                 zero_debias=False, name="update_var")
facts = {"updates": [update_1.name, update_2.name, update_3.name], "global": names(tf.global_variables()),
         "trainable": names(tf.trainable_variables())}
""",
}
IMPORT = {"tf": "from tensorflow.python.training import moving_averages\n",
          "graphlab": "from graphlab.train import moving_averages\n"}


@pytest.fixture(scope="module")
def tf_results():
    script = DUMP + HELPERS + "\nresults = {}\nsnippets = json.loads(sys.argv[1])\n" + \
        "for key, src in snippets.items():\n" + \
        "    tf.reset_default_graph()\n" + \
        "    scope = {'tf': tf}\n" + \
        "    exec(src, scope)\n" + \
        "    results[key] = [scope['dump'](), scope['facts']]\n" + \
        "print(json.dumps(results))\n"
    sources = {key: DUMP + HELPERS + IMPORT["tf"] + src for key, src in SNIPPETS.items()}
    return tfref.run_tf_json(script, json.dumps(sources))


def _graphlab_facts(source):
    graphlab.reset_default_graph()
    scope = {"tf": graphlab}
    exec(HELPERS + IMPORT["graphlab"] + source, scope)
    return json.loads(json.dumps(scope["facts"]))     # tuples become lists, as they come from TF


@pytest.mark.parametrize("key", sorted(SNIPPETS))
def test_graph_matches_tensorflow_op_for_op(key, tf_results):
    ours = graphlab_ops(HELPERS + IMPORT["graphlab"] + SNIPPETS[key])
    theirs = tf_results[key][0]
    for mine, tfs in zip(ours, theirs):
        assert mine == tfs
    assert len(ours) == len(theirs)


@pytest.mark.parametrize("key", sorted(SNIPPETS))
def test_names_collections_and_restore_maps_match_tensorflow(key, tf_results):
    assert _graphlab_facts(SNIPPETS[key]) == tf_results[key][1]


def test_known_facts_of_the_variable_snippet(tf_results):
    """What the comparison above is about, spelled out for the common case (and TF agrees)."""
    facts = tf_results["ema_on_variables"][1]
    assert facts["op"] == "ExponentialMovingAverage"
    assert facts["names"] == ["w/ExponentialMovingAverage", "b/ExponentialMovingAverage"]
    assert facts["trainable"] == ["b", "w"]
    assert facts["restore"] == [["b/ExponentialMovingAverage", "b"], ["w/ExponentialMovingAverage", "w"]]
    assert _graphlab_facts(SNIPPETS["ema_on_variables"]) == facts


# --- numbers and checkpoints -------------------------------------------------------------------------

# One script for both frameworks (`tf` is graphlab or tensorflow.compat.v1). The optimizer step and the
# averaging run in separate session calls: under tf.control_dependencies([opt_op]) TF does not order the
# reads of w and of the global step inside the averaging ops against the update, so their values would
# depend on TF's scheduling.
NUMBERS = '''
def train(tf, ckpt):
    tf.reset_default_graph()
    rng = np.random.RandomState(0)
    data = rng.randn(6, 8, 3).astype(np.float32)
    targets = rng.randn(6, 8, 1).astype(np.float32)
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    y = tf.placeholder(tf.float32, [None, 1], name="y")
    w = tf.Variable(np.full((3, 1), 0.5, np.float32), name="w")
    b = tf.Variable(0.1, name="b")
    mean, var = tf.nn.moments(x, [0])
    loss = tf.reduce_mean(tf.square(tf.matmul((x - mean) / tf.sqrt(var + 1e-3), w) + b - y))
    gs = tf.train.get_or_create_global_step()
    opt_op = tf.train.AdamOptimizer(0.05).minimize(loss, global_step=gs)
    ema = tf.train.ExponentialMovingAverage(0.9, num_updates=gs)
    maintain_averages_op = ema.apply([w, b])
    stats = tf.train.ExponentialMovingAverage(0.8, zero_debias=True, name="stats")
    stats_op = stats.apply([mean, var])
    plain = tf.train.ExponentialMovingAverage(0.8)
    plain_op = plain.apply([mean])
    biased = tf.get_default_graph().get_tensor_by_name("moments/Squeeze/stats/biased:0")
    steps = tf.get_default_graph().get_tensor_by_name("moments/Squeeze/stats/local_step:0")
    saver = tf.train.Saver()
    keys = ("w", "b", "shadow_w", "shadow_b", "mean", "mean_avg", "var_avg", "biased", "steps", "plain")
    out = {k: [] for k in keys}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out["start"] = [v.tolist() for v in sess.run([ema.average(w), ema.average(b), stats.average(mean)])]
        for step in range(6):
            feed = {x: data[step], y: targets[step]}
            sess.run(opt_op, feed)
            sess.run([maintain_averages_op, stats_op, plain_op], feed)
            values = sess.run([w, b, ema.average(w), ema.average(b), mean, stats.average(mean),
                               stats.average(var), biased, steps, plain.average(mean)], feed)
            for k, v in zip(keys, values):
                out[k].append(np.asarray(v).tolist())
        saver.save(sess, ckpt)
    return out

def evaluate(tf, ckpt):
    """A fresh evaluation graph: the model's variables restored from their shadows."""
    tf.reset_default_graph()
    w = tf.Variable(np.zeros((3, 1), np.float32), name="w")
    b = tf.Variable(0.0, name="b")
    gs = tf.train.get_or_create_global_step()
    ema = tf.train.ExponentialMovingAverage(0.9)
    mapping = ema.variables_to_restore()
    saver = tf.train.Saver(mapping)
    with tf.Session() as sess:
        saver.restore(sess, ckpt)
        return {"keys": sorted(mapping), "w": sess.run(w).tolist(), "b": float(sess.run(b)), "gs": int(sess.run(gs)),
                "stored": sorted([name, list(shape)] for name, shape in tf.train.list_variables(ckpt))}

def shadow_start(tf):
    """A shadow starts from its variable's value when that is set, else from its initial value."""
    tf.reset_default_graph()
    w = tf.Variable(1.0, name="w")
    ema = tf.train.ExponentialMovingAverage(0.5)
    op = ema.apply([w])
    with tf.Session() as sess:
        sess.run(ema.average(w).initializer)
        before = float(sess.run(ema.average(w)))
        sess.run(w.initializer)
        sess.run(w.assign(4.0))
        sess.run(ema.average(w).initializer)
        after = float(sess.run(ema.average(w)))
        sess.run(w.assign(2.0))
        sess.run(op)
        return [before, after, float(sess.run(ema.average(w)))]
'''


def _close(ours, theirs):
    np.testing.assert_allclose(np.asarray(ours, np.float64), np.asarray(theirs, np.float64), rtol=2e-6, atol=1e-6)


@pytest.fixture(scope="module")
def ours_trained(tmp_path_factory):
    """graphlab trains and saves (no TensorFlow needed)."""
    base = tmp_path_factory.mktemp("ema")
    (base / "gl").mkdir()
    (base / "tf").mkdir()
    ours_ckpt, tf_ckpt = str(base / "gl" / "model"), str(base / "tf" / "model")
    scope = {"np": np}
    exec(NUMBERS, scope)
    ours = scope["train"](graphlab, ours_ckpt)
    return {"ours": ours, "scope": scope, "ours_ckpt": ours_ckpt, "tf_ckpt": tf_ckpt}


@pytest.fixture(scope="module")
def trained(ours_trained):
    """graphlab trained and saved first; TF then trains, saves, and evaluates both checkpoints."""
    ours, ours_ckpt, tf_ckpt = ours_trained["ours"], ours_trained["ours_ckpt"], ours_trained["tf_ckpt"]
    scope = ours_trained["scope"]
    script = NUMBERS + """
ours_ckpt, tf_ckpt = sys.argv[1], sys.argv[2]
out = {"train": train(tf, tf_ckpt), "eval_tf": evaluate(tf, tf_ckpt), "eval_ours": evaluate(tf, ours_ckpt),
       "start": shadow_start(tf)}
print(json.dumps(out))
"""
    theirs = tfref.run_tf_json(script, ours_ckpt, tf_ckpt)
    return {"ours": ours, "theirs": theirs, "scope": scope, "ours_ckpt": ours_ckpt, "tf_ckpt": tf_ckpt}


def test_shadows_and_debiased_averages_after_six_steps_match_tensorflow(trained):
    ours, theirs = trained["ours"], trained["theirs"]["train"]
    assert ours["start"] == theirs["start"] == [[[0.5], [0.5], [0.5]], 0.10000000149011612, [0.0, 0.0, 0.0]]
    for key in ("w", "b", "shadow_w", "shadow_b", "mean", "mean_avg", "var_avg", "biased", "steps", "plain"):
        _close(ours[key], theirs[key])
    assert ours["steps"] == [float(i) for i in range(1, 7)]
    # the debiased average of a constant stream would be that constant; here: biased / (1 - 0.8 ** steps)
    _close(ours["mean_avg"][-1], np.asarray(ours["biased"][-1]) / (1 - 0.8 ** 6))
    # no zero_debias: the plain shadow is biased toward its zero start
    _close(ours["plain"][-1], ours["biased"][-1])


def test_num_updates_lowers_the_decay_early(ours_trained):
    """decay = min(0.9, (1 + step) / (10 + step)): 2/11 at global step 1, then 3/12, ... (never 0.9 here)."""
    ours = ours_trained["ours"]
    shadow = 0.1
    for step, b in enumerate(ours["b"], start=1):
        decay = min(0.9, (1.0 + step) / (10.0 + step))
        shadow -= (shadow - b) * (1 - decay)
        _close(ours["shadow_b"][step - 1], shadow)


def test_a_shadow_starts_from_its_variables_value_or_initial_value(trained):
    ours = trained["scope"]["shadow_start"](graphlab)
    assert ours == trained["theirs"]["start"] == [1.0, 4.0, 3.0]


def test_saver_round_trip_restores_the_averages_into_the_variables(ours_trained):
    ours = ours_trained["scope"]["evaluate"](graphlab, ours_trained["ours_ckpt"])
    last = ours_trained["ours"]
    assert ours["keys"] == ["b/ExponentialMovingAverage", "global_step", "w/ExponentialMovingAverage"]
    _close(ours["w"], last["shadow_w"][-1])
    _close(ours["b"], last["shadow_b"][-1])
    assert ours["gs"] == 6
    assert ours["w"] != last["w"][-1]


def test_checkpoints_have_tensorflows_keys_and_restore_across_frameworks(trained):
    theirs = trained["theirs"]
    ours_own = trained["scope"]["evaluate"](graphlab, trained["ours_ckpt"])
    ours_from_tf = trained["scope"]["evaluate"](graphlab, trained["tf_ckpt"])
    assert ours_own["stored"] == theirs["eval_tf"]["stored"]
    assert [k for k, _ in ours_own["stored"]] == [
        "b", "b/Adam", "b/Adam_1", "b/ExponentialMovingAverage", "beta1_power", "beta2_power", "global_step",
        "moments/Squeeze/ExponentialMovingAverage", "moments/Squeeze/stats", "moments/Squeeze/stats/biased",
        "moments/Squeeze/stats/local_step", "moments/Squeeze_1/stats", "moments/Squeeze_1/stats/biased",
        "moments/Squeeze_1/stats/local_step", "w", "w/Adam", "w/Adam_1", "w/ExponentialMovingAverage"]
    # graphlab reads TF's averages, TF reads graphlab's
    _close(ours_from_tf["w"], theirs["train"]["shadow_w"][-1])
    _close(ours_from_tf["b"], theirs["train"]["shadow_b"][-1])
    _close(theirs["eval_ours"]["w"], trained["ours"]["shadow_w"][-1])
    assert theirs["eval_ours"]["keys"] == ours_own["keys"]


# --- errors ------------------------------------------------------------------------------------------

def test_integer_variables_and_tensors_are_refused_with_tensorflows_message():
    ema = graphlab.train.ExponentialMovingAverage(0.9)
    i = graphlab.Variable(3, name="i")
    with pytest.raises(TypeError, match=r"^The variables must be half, float, or double: i:0$"):
        ema.apply([i])
    with pytest.raises(TypeError, match=r"^The variables must be half, float, or double: Const:0$"):
        ema.apply([graphlab.constant([1, 2])])
    assert graphlab.global_variables() == [i]     # nothing half-made


def test_applying_twice_reuses_the_shadow_and_returns_a_new_op():
    """TF 2.21 no longer raises here: the second apply adds another update of the same shadow."""
    w = graphlab.Variable(1.0, name="w")
    ema = graphlab.train.ExponentialMovingAverage(0.5)
    first, second = ema.apply([w]), ema.apply([w])
    assert (first.name, second.name) == ("ExponentialMovingAverage", "ExponentialMovingAverage_1")
    assert [v.op.name for v in graphlab.global_variables()] == ["w", "w/ExponentialMovingAverage"]
    assert graphlab.get_collection(graphlab.GraphKeys.MOVING_AVERAGE_VARIABLES) == [w]
    with graphlab.Session() as sess:
        sess.run(graphlab.global_variables_initializer())
        sess.run(w.assign(3.0))
        sess.run(first)
        sess.run(second)
        assert sess.run(ema.average(w)) == 2.5


def test_reading_an_average_before_initializing_names_the_shadow():
    w = graphlab.Variable([1.0, 2.0], name="w")
    ema = graphlab.train.ExponentialMovingAverage(0.5)
    ema.apply([w])
    with graphlab.Session() as sess:
        sess.run(w.initializer)
        with pytest.raises(graphlab.errors.FailedPreconditionError,
                           match="Attempting to use uninitialized value w/ExponentialMovingAverage"):
            sess.run(ema.average(w))


def test_assign_moving_average_returns_the_new_value():
    v = graphlab.Variable([0.0, 0.0], trainable=False, name="v")
    update = moving_averages.assign_moving_average(v, [2.0, 4.0], 0.5, zero_debias=False)
    debiased = graphlab.Variable([0.0, 0.0], trainable=False, name="d")
    update_d = moving_averages.assign_moving_average(debiased, [2.0, 4.0], 0.5)
    with graphlab.Session() as sess:
        sess.run(graphlab.global_variables_initializer())
        assert sess.run(update).tolist() == [1.0, 2.0]
        assert sess.run(update).tolist() == [1.5, 3.0]
        assert sess.run(update_d).tolist() == [2.0, 4.0]     # a constant stream, debiased from the start
        assert sess.run(update_d).tolist() == [2.0, 4.0]
