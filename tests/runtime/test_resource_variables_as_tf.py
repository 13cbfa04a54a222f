"""Resource variables (``use_resource=True``, a resource variable_scope, ``tf.enable_resource_variables()``)
compared with live TF: the ops TF builds for them (VarHandleOp, ReadVariableOp under the control dependencies
in force, AssignVariableOp, ResourceGather/Scatter ...), the values of runs (every read a snapshot, so an
update later in the same run does not change it), feeds, cond and while loops, gradients, and TF's errors."""
import numpy as np
import pytest

import graphlab as tf
from tests import tfsnippets

GRAPHS = {
    "variable_and_identity": """
v = tf.Variable(1.0, use_resource=True)
y = tf.identity(v)""",
    "updates_and_reads": """
v = tf.Variable([1.0, 2.0], use_resource=True)
a = tf.assign_add(v, [1.0, 1.0])
b = v.assign([3.0, 4.0])
c = v.assign_sub([1.0, 1.0], read_value=False)
s = tf.scatter_add(v, [0], [3.0])
n = tf.scatter_nd_update(v, [[0]], [5.0])
g = tf.gather(v, [0, 1])
r = v.read_value()
z = v + 1
m = v * v
with tf.control_dependencies([a]):
    d = tf.identity(v)
t = tf.tuple([a, tf.constant(2.0)])""",
    # reads of what an update returned: value() and identity after the update, a gather not ordered by it
    "reads_of_an_update": """
v = tf.Variable([[1.0, 2.0], [3.0, 4.0]], use_resource=True)
u = v.assign([[5.0, 6.0], [7.0, 8.0]])
outs = [tf.gather(u, [0]), tf.identity(u), u.read_value(), u + 1, tf.gather_nd(u, [[1, 1]]),
        u.assign_add([[1.0, 1.0], [1.0, 1.0]]), tf.scatter_add(u, [0], [[1.0, 1.0]])]""",
    "every_scatter": """
v = tf.Variable([1.0, 2.0, 3.0], use_resource=True)
ops = [tf.scatter_update(v, [1], [5.0]), tf.scatter_sub(v, [0], [1.0]), tf.scatter_mul(v, [2], [2.0]),
       tf.scatter_div(v, [2], [2.0]), tf.scatter_min(v, [0], [0.0]), tf.scatter_max(v, [1], [9.0]),
       tf.scatter_nd_add(v, [[1]], [1.0]), tf.scatter_nd_sub(v, [[2]], [1.0]), tf.gather_nd(v, [[1]])]""",
    "get_variable_in_resource_scope": """
with tf.variable_scope("outer", use_resource=True):
    w = tf.get_variable("w", shape=[2, 3], initializer=tf.ones_initializer())
    with tf.variable_scope("inner"):
        b = tf.get_variable("b", shape=[3], initializer=tf.zeros_initializer())
    v = tf.Variable(2.0, name="plain")
ref = tf.get_variable("ref", shape=[2])
y = tf.matmul(tf.ones([1, 2]), w) + b""",
    "functions_that_read_where_tf_does": """
v = tf.Variable([[1.0, 2.0], [3.0, 4.0]], use_resource=True, name="v")
fs = [tf.zeros_like(v), tf.ones_like(v), tf.shape(v), tf.size(v), tf.rank(v), tf.cast(v, tf.int32),
      tf.cast(v, tf.float32), tf.abs(v), tf.sign(v), tf.round(v), tf.divide(v, v), tf.add_n([v, v]),
      tf.reduce_sum(v), v[0], tf.reshape(v, [4])]""",
    "gradients": """
v = tf.Variable([1.0, 2.0, 3.0], use_resource=True)
loss = tf.reduce_sum(v * v) + tf.reduce_sum(tf.gather(v, [2, 0]))
g = tf.gradients(loss, v)
g2 = tf.gradients(tf.reduce_sum(tf.gather_nd(v, [[1]])), [v])""",
    "cond_and_while": """
v = tf.Variable(1.0, use_resource=True)
c = tf.cond(tf.constant(True), lambda: v.read_value() * 2.0, lambda: tf.identity(v))
def body(i):
    with tf.control_dependencies([v.assign_add(1.0)]):
        return i + 1
w = tf.while_loop(lambda i: i < 3, body, [0])""",
    # TF's resource_variable_ops_test round trip: a meta graph without a SaverDef imports with a default Saver
    "meta_graph_round_trip": """
with tf.Graph().as_default() as g1:
    with tf.variable_scope("foo", use_resource=True):
        a = tf.get_variable("a", initializer=10.0)
    tf.train.MomentumOptimizer(learning_rate=0.001, momentum=0.1).minimize(
        a, colocate_gradients_with_ops=True, global_step=tf.train.get_or_create_global_step())
    meta = tf.train.export_meta_graph(graph=g1)
tf.train.import_meta_graph(meta, import_scope="")""",
    "initializers_and_reports": """
v = tf.Variable([1.0], use_resource=True)
r = tf.Variable([2.0])
init = tf.global_variables_initializer()
report = tf.report_uninitialized_variables()
is_init = tf.is_variable_initialized(v)""",
    # a reference variable's operator with a resource variable on the right reads the resource variable
    # inside the operator's scope ('sub/ReadVariableOp'); the resource variable on the left reads first
    "reference_variable_operator_with_resource_operand": """
a = tf.Variable(1.0, name='a')
r = tf.Variable(2.0, name='r', use_resource=True)
outs = [a - r, a + r, a * r, a / r, a // r, a % r, a ** r, r - a, 3.0 - r, a[None] + r]""",
}

_RUN = """
def _runs(*fetch_lists, init=True, feed=None):
    out = []
    with tf.Session() as sess:
        if init:
            sess.run(tf.global_variables_initializer())
        for fetches in fetch_lists:
            got = sess.run(fetches, feed)
            out.append([np.asarray(g, dtype=np.float64).tolist() for g in got] if isinstance(got, list)
                       else np.asarray(got, dtype=np.float64).tolist())
    return out
"""

RESULTS = {
    # the three snippets with resource variables, each run twice on one session
    "identity_after_assign_add": _RUN + """
x = tf.Variable(0.0, use_resource=True); inc = tf.assign_add(x, 1.0)
with tf.control_dependencies([inc]):
    z = tf.identity(x)
result = _runs(z, z, x)""",
    "add_after_assign": _RUN + """
x = tf.Variable(2.0, use_resource=True)
with tf.control_dependencies([tf.assign(x, 5.0)]):
    q = x + 1
result = _runs(q, q)""",
    "gather_after_scatter_add": _RUN + """
v = tf.Variable([1.0, 2.0], use_resource=True); upd = tf.scatter_add(v, [0], [3.0])
with tf.control_dependencies([upd]):
    g = tf.gather(v, [0, 1])
result = _runs(g, g)""",
    # a read is a snapshot: an update ordered after it in the same run does not change it (unlike a
    # reference variable's buffer)
    "read_before_assign_add_keeps_its_value": _RUN + """
w = tf.Variable(1.0, use_resource=True)
r = tf.identity(w)
with tf.control_dependencies([r]):
    a = tf.assign_add(w, 10.0)
result = _runs([r, a], [r, a])""",
    "read_before_scatter_keeps_its_value": _RUN + """
y = tf.Variable([1.0, 2.0, 3.0], use_resource=True)
ry = y.read_value()
with tf.control_dependencies([ry]):
    sa = tf.scatter_nd_add(y, [[0], [2]], [7.0, 9.0])
with tf.control_dependencies([sa]):
    after = tf.identity(y)
result = _runs([ry, sa, after], [ry, after])""",
    "assign_then_methods_chain": _RUN + """
v = tf.Variable([4.0, 5.0], use_resource=True)
a = v.assign([1.0, 1.0]).assign_add([2.0, 3.0]).assign_sub([0.5, 0.5])
result = _runs(a, v)""",
    "feed_replaces_only_the_initial_read": """
v = tf.Variable([1.0, 2.0], use_resource=True)
y = tf.identity(v)
with tf.Session() as sess:
    sess.run(v.initializer)
    got = sess.run([y, v], {v: [7.0, 8.0]})
    result = [np.asarray(g, dtype=np.float64).tolist() for g in got]""",
    "cond_and_while_values": _RUN + """
v = tf.Variable(1.0, use_resource=True)
p = tf.placeholder(tf.bool, [])
c = tf.cond(p, lambda: tf.identity(v.assign_add(2.0)), lambda: v.read_value() * 10.0)
def body(i, acc):       # each increment after the previous iteration's read (TF runs iterations in parallel)
    with tf.control_dependencies([acc]):
        inc = v.assign_add(1.0)
    with tf.control_dependencies([inc]):
        return i + 1, acc + v.read_value()
w = tf.while_loop(lambda i, acc: i < 3, body, [0, 0.0])
out = []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    out.append(float(sess.run(c, {p: True})))
    out.append(float(sess.run(c, {p: False})))
    i, acc = sess.run(w)
    out.append([int(i), float(acc), float(sess.run(v))])
result = out""",
    "gradients_values": _RUN + """
v = tf.Variable([1.0, 2.0, 3.0], use_resource=True)
loss = tf.reduce_sum(v * v) + tf.reduce_sum(tf.gather(v, [2, 0]))
g = tf.gradients(loss, v)[0]
sparse = tf.gradients(tf.reduce_sum(tf.gather(v, [2, 2, 0])), v)[0]
result = _runs([g, tf.convert_to_tensor(sparse)])""",
    # an IMPALA-style actor (scalable_agent's build_actor, reduced): state in resource local variables, read
    # once, unrolled with tf.scan, written back under control dependencies the outputs depend on
    "actor_unroll": """
def agent_step(obs, state):
    with tf.variable_scope("agent", reuse=tf.AUTO_REUSE):
        w = tf.get_variable("w", [2, 3], initializer=tf.constant_initializer(0.5))
        h = tf.tanh(tf.matmul(obs, w) + state)
        logits = tf.matmul(h, tf.get_variable("policy", [3, 3], initializer=tf.constant_initializer(0.1)))
    return tf.argmax(logits, axis=1, output_type=tf.int32), h

def step(carry, _):
    env_state, obs, agent_state = carry
    action, agent_state = agent_step(obs, agent_state)
    env_state = env_state + tf.cast(action, tf.float32) + 1.0
    return env_state, tf.stack([env_state, env_state * 0.5], axis=1), agent_state

def create_state(t):
    with tf.variable_scope(None, default_name="state"):
        return tf.get_local_variable(t.op.name, initializer=t, use_resource=True)

persistent = [create_state(t) for t in (tf.zeros([1]), tf.zeros([1, 2]), tf.zeros([1, 3]))]
first = [v.read_value() for v in persistent]
output = tf.scan(step, tf.range(4), tuple(first))
assigns = [v.assign(t[-1]) for v, t in zip(persistent, output)]
with tf.control_dependencies(assigns):
    env_states = tf.concat([first[0], tf.reshape(output[0], [-1])], 0)
with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
    result = [sorted(v.name for v in tf.local_variables()), [sess.run(env_states).tolist() for _ in range(3)],
              [sess.run(v).tolist() for v in persistent]]""",
    "is_initialized_and_report": """
v = tf.Variable([1.0], use_resource=True, name="rv")
r = tf.Variable([2.0], name="ref")
with tf.Session() as sess:
    before = sess.run(tf.report_uninitialized_variables()).tolist()
    flag = bool(sess.run(tf.is_variable_initialized(v)))
    sess.run(v.initializer)
    after = sess.run(tf.report_uninitialized_variables()).tolist()
    result = [[b.decode() for b in before], flag, [a.decode() for a in after], bool(sess.run(v.is_initialized()))]""",
    "enable_resource_variables": """
tf.enable_resource_variables()
try:
    a = tf.Variable(1.0)
    with tf.variable_scope("s", use_resource=False):
        b = tf.get_variable("b", shape=[])
    c = tf.Variable(1.0, use_resource=False)
    result = [tf.resource_variables_enabled(), a.op.type, b.op.type, c.op.type]
finally:
    tf.disable_resource_variables()
result.append(tf.resource_variables_enabled())""",
    # count_up_to of a resource variable (ResourceCountUpTo), as num_epochs builds it under
    # enable_resource_variables
    "count_up_to_and_num_epochs": """
tf.enable_resource_variables()
try:
    v = tf.Variable(0, name="epochs", trainable=False)
    c = tf.count_up_to(v, 3)
    q = tf.train.string_input_producer(["a", "b"], num_epochs=2, shuffle=False)
    item = q.dequeue()
    types = [[op.name, op.type] for op in tf.get_default_graph().get_operations() if "Count" in op.type]
    out = []
    with tf.Session() as s:
        s.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        for _ in range(4):
            try:
                out.append(int(s.run(c)))
            except tf.errors.OutOfRangeError as e:
                out.append(type(e).__name__)
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(s, coord)
        try:
            while True:
                out.append(s.run(item).decode())
        except tf.errors.OutOfRangeError:
            out.append("end")
        coord.request_stop()
        coord.join(threads)
finally:
    tf.disable_resource_variables()
result = [types, out]""",
    "initialized_value_and_repr": """
v = tf.Variable([1.0, 2.0], use_resource=True, name="v")
try:
    v.initialized_value()
    raised = None
except NotImplementedError as e:
    raised = ["NotImplementedError", str(e)]
u = v.assign_add([1.0, 1.0])
result = [repr(v), raised, repr(u), v.handle.name, v.value().name, str(v.dtype), u.name]""",
    "tuple_rejects_a_variable_in_control_inputs": """
v = tf.Variable(1.0, use_resource=True)
try:
    tf.tuple([tf.constant(1.0)], control_inputs=[v.assign_add(1.0)])
    result = None
except TypeError as e:
    result = str(e)""",
}

BUILD_ERRORS = {
    "assign_of_another_shape": """
v = tf.Variable([1.0, 2.0], use_resource=True)
v.assign([1.0, 2.0, 3.0])""",
    "tf_assign_of_another_shape": """
v = tf.Variable([1.0, 2.0], use_resource=True)
tf.assign(v, [1.0, 2.0, 3.0])""",
    "assign_add_of_another_shape": """
v = tf.Variable([1.0, 2.0], use_resource=True)
v.assign_add([1.0, 2.0, 3.0])""",
    "assign_add_of_a_scalar": """
v = tf.Variable([1.0, 2.0], use_resource=True)
tf.assign_add(v, 1.0)""",
    "assign_of_another_dtype": """
v = tf.Variable([1.0, 2.0], use_resource=True)
v.assign(tf.constant([1, 2]))""",
}

_UNINIT = """
v = tf.Variable([1.0, 2.0], use_resource=True)
w = tf.Variable(1.0, use_resource=True, name="w")
y = tf.identity(v)
a = tf.assign_add(v, [1.0, 1.0])
p = tf.placeholder(tf.float32, None)
feed = {}
"""

RUN_ERRORS = {
    "read_uninitialized_no_container": _UNINIT + "fetch = y",
    "fetch_uninitialized_variable": _UNINIT + "fetch = v",
    "update_uninitialized_no_container": _UNINIT + "fetch = a.op",
    "read_uninitialized_container_exists": _UNINIT + "init = w.initializer\nfetch = y",
    "update_uninitialized_container_exists": _UNINIT + "init = w.initializer\nfetch = a.op",
    "scatter_uninitialized": _UNINIT + "fetch = tf.scatter_add(v, [0], [1.0])",
    "fed_assign_of_another_shape": _UNINIT + "init = v.initializer\nfetch = v.assign(p)\nfeed = {p: [1.0, 2.0, 3.0]}",
    "fed_assign_of_a_scalar": _UNINIT + "init = v.initializer\nfetch = v.assign(p)\nfeed = {p: 5.0}",
    "fed_assign_add_of_another_shape": _UNINIT + "init = v.initializer\nfetch = tf.assign_add(v, p)\n"
                                                 "feed = {p: [1.0, 2.0, 3.0]}",
    "gather_out_of_range": _UNINIT + "init = v.initializer\nfetch = tf.gather(v, [0, 5])",
    "scatter_out_of_range": _UNINIT + "init = v.initializer\nfetch = tf.scatter_update(v, [3], [1.0])",
}


@pytest.fixture(scope="module")
def theirs():
    return tfsnippets.reference(graphs=GRAPHS, results=RESULTS, build_errors=BUILD_ERRORS, run_errors=RUN_ERRORS)


@pytest.mark.parametrize("key", sorted(GRAPHS))
def test_same_graph_as_tf(theirs, key):
    tfsnippets.check_graph(GRAPHS[key], theirs["graphs"][key])


@pytest.mark.parametrize("key", sorted(RESULTS))
def test_same_results_as_tf(theirs, key):
    ours = tfsnippets.run_result(RESULTS[key])["result"]
    _same(ours, theirs["results"][key]["result"], key)


@pytest.mark.parametrize("key", sorted(BUILD_ERRORS))
def test_same_build_error_as_tf(theirs, key):
    tfsnippets.check_build_error(BUILD_ERRORS[key], theirs["build_errors"][key])


@pytest.mark.parametrize("key", sorted(RUN_ERRORS))
def test_same_run_error_as_tf(theirs, key):
    tfsnippets.check_run_error(RUN_ERRORS[key], theirs["run_errors"][key])


def _same(ours, theirs, where):
    """Equal structure; numbers equal within float32 rounding (both sides compute in float32)."""
    if isinstance(theirs, (list, dict)):
        assert type(ours) is type(theirs) and len(ours) == len(theirs), (where, ours, theirs)
        items = theirs.items() if isinstance(theirs, dict) else enumerate(theirs)
        for k, v in items:
            _same(ours[k], v, "%s[%r]" % (where, k))
    elif isinstance(theirs, float):
        assert ours == pytest.approx(theirs, rel=1e-6, abs=1e-7), (where, ours, theirs)
    else:
        assert ours == theirs, (where, ours, theirs)


def test_a_fetched_value_is_the_callers_own():
    """Changing an array a run returned changes neither the variable nor later reads (TF gives copies)."""
    tf.reset_default_graph()
    v = tf.Variable([1.0, 2.0], use_resource=True)
    with tf.Session() as sess:
        sess.run(v.initializer)
        got = sess.run(v)
        got[0] = 99.0
        assert sess.run(v).tolist() == [1.0, 2.0]


def test_reads_in_other_threads_see_updates_whole():
    """An update holds the variable's lock, so a read in another thread gets all of it or none of it."""
    import threading
    tf.reset_default_graph()
    v = tf.Variable(np.zeros(20000, np.float32), use_resource=True)
    inc = v.assign_add(np.ones(20000, np.float32), read_value=False)
    read = v.read_value()
    torn = []
    with tf.Session() as sess:
        sess.run(v.initializer)

        def reader():
            for _ in range(200):
                x = sess.run(read)
                if x.min() != x.max():
                    torn.append(x)
        t = threading.Thread(target=reader)
        t.start()
        for _ in range(200):
            sess.run(inc)
        t.join()
    assert not torn
