"""When a run reads a variable, compared with live TF: a reference variable's value is the buffer itself,
read when its consumer runs, and updates change that buffer in place, so control dependencies order reads
after writes (the ``with tf.control_dependencies([update]): y = tf.identity(x)`` idiom) and a value read
earlier in a run shows an update made later in it. And: each thread has its own default graph."""
import pytest

from tests import tfsnippets

_RUN = """
def _runs(*fetch_lists, init=True):
    out = []
    with tf.Session() as sess:
        if init:
            sess.run(tf.global_variables_initializer())
        for fetches in fetch_lists:
            got = sess.run(fetches)
            out.append([np.asarray(g, dtype=np.float64).tolist() for g in got] if isinstance(got, list)
                       else np.asarray(got, dtype=np.float64).tolist())
    return out
"""

RESULTS = {
    # the three snippets, each run twice on one session
    "identity_after_assign_add": _RUN + """
x = tf.Variable(0.0); inc = tf.assign_add(x, 1.0)
with tf.control_dependencies([inc]):
    z = tf.identity(x)
result = _runs(z, z, x)""",
    "add_after_assign": _RUN + """
x = tf.Variable(2.0)
with tf.control_dependencies([tf.assign(x, 5.0)]):
    q = x + 1
result = _runs(q, q)""",
    "gather_after_scatter_add": _RUN + """
v = tf.Variable([1.0, 2.0]); upd = tf.scatter_add(v, [0], [3.0])
with tf.control_dependencies([upd]):
    g = tf.gather(v, [0, 1])
result = _runs(g, g)""",
    # a read that ran before an in-place update shows it at fetch time (TF's buffers)
    "read_before_assign_add_shows_it": _RUN + """
w = tf.Variable(1.0)
r = tf.identity(w)
with tf.control_dependencies([r]):
    a = tf.assign_add(w, 10.0)
result = _runs([r, a], [r, a])""",
    "read_before_assign_shows_it": _RUN + """
y = tf.Variable([1.0, 2.0, 3.0])
ry = tf.identity(y)
with tf.control_dependencies([ry]):
    sa = tf.assign(y, [7.0, 8.0, 9.0])
result = _runs([ry, sa])""",
    "computed_before_update_keeps_its_value": _RUN + """
w = tf.Variable(1.0)
d = w * 2.0
with tf.control_dependencies([d]):
    a = tf.assign_add(w, 10.0)
result = _runs([d, a], [d, a])""",
    "assign_sub_then_read_value": _RUN + """
w = tf.Variable([4.0, 5.0])
s = tf.assign_sub(w, [1.0, 1.0], use_locking=True)
with tf.control_dependencies([s]):
    after = w.read_value() * 1.0
result = _runs(after, after)""",
    "group_and_tuple_order_reads": _RUN + """
a = tf.Variable(0.0); b = tf.Variable(10.0)
both = tf.group(tf.assign_add(a, 1.0), tf.assign_sub(b, 1.0))
with tf.control_dependencies([both]):
    total = tf.identity(a) + tf.identity(b)
t1, t2 = tf.tuple([tf.assign_add(a, 5.0), tf.identity(b)])
result = _runs(total, total, [t1, t2])""",
    "nested_and_none_control_dependencies": _RUN + """
x = tf.Variable(1.0)
with tf.control_dependencies([tf.assign(x, 3.0)]):
    with tf.control_dependencies(None):
        free = tf.identity(x)          # no dependency: it may read before or after; fetch it alone
    with tf.control_dependencies([tf.assign_add(x, 1.0)]):
        both = tf.identity(x)          # after both updates
result = _runs(both, free)""",
    "train_step_then_read": _RUN + """
v = tf.Variable([1.0, 2.0])
loss = tf.reduce_sum(v * v)
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.control_dependencies([train]):
    after = tf.identity(v)
result = _runs(after, after)""",
    "momentum_step_then_read": _RUN + """
v = tf.Variable([1.0, -2.0])
loss = tf.reduce_sum(v * v * v)
train = tf.train.MomentumOptimizer(0.05, 0.9).minimize(loss)
with tf.control_dependencies([train]):
    after = tf.identity(v)
result = _runs(after, after, after)""",
    "adam_step_then_read": _RUN + """
v = tf.Variable([1.0, -2.0, 0.5])
loss = tf.reduce_sum(v * v)
train = tf.train.AdamOptimizer(0.1).minimize(loss)
with tf.control_dependencies([train]):
    after = tf.identity(v)
result = _runs(after, after)""",
    "batch_norm_update_ops": _RUN + """
tf.set_random_seed(1)
x = tf.constant(np.arange(12.0, dtype=np.float32).reshape(4, 3))
y = tf.layers.batch_normalization(x, training=True)
update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
with tf.control_dependencies(update_ops):
    loss = tf.identity(tf.reduce_sum(y * y))
mean = [v for v in tf.global_variables() if "moving_mean" in v.name][0]
with tf.control_dependencies([loss]):
    seen = tf.identity(mean)
result = _runs(seen, seen)""",
    "count_up_to_under_dependency": _RUN + """
c = tf.Variable(0, dtype=tf.int64)
n = tf.count_up_to(c, 10)
with tf.control_dependencies([n]):
    now = tf.identity(c)
result = _runs([n, now], [n, now])""",
    "scatter_update_then_slice": _RUN + """
v = tf.Variable(np.arange(6.0, dtype=np.float32).reshape(3, 2))
u = tf.scatter_update(v, [2, 0], [[9.0, 9.0], [7.0, 7.0]])
with tf.control_dependencies([u]):
    first = tf.identity(v)[0]
    total = tf.reduce_sum(v)
result = _runs([first, total])""",
    # threads: each has a default graph of its own (TF's default-graph stack is thread-local)
    "threads_have_their_own_default_graph": """
import threading
c = tf.constant(3.0, name="c")
seen = {}
def worker():
    g = tf.get_default_graph()
    seen["fresh"] = g is not c.graph and len(g.get_operations()) == 0
    d = tf.constant(1.0, name="d")
    seen["d_in_main_graph"] = d.graph is c.graph
    try:
        tf.Session().run(c)
    except ValueError as e:
        seen["error"] = str(e)
    with c.graph.as_default():
        with tf.Session() as sess:
            seen["repaired"] = float(sess.run(c))
t = threading.Thread(target=worker); t.start(); t.join()
seen["main_ops"] = [op.name for op in tf.get_default_graph().get_operations()]
result = seen""",
    "reset_in_a_thread_leaves_main_graph": """
import threading
tf.constant(1.0, name="kept")
def worker():
    tf.constant(2.0, name="theirs")
    tf.reset_default_graph()
    tf.constant(3.0, name="after_reset")
t = threading.Thread(target=worker); t.start(); t.join()
result = [op.name for op in tf.get_default_graph().get_operations()]""",
    "default_session_is_per_thread": """
import threading
c = tf.constant(4.0)
sess = tf.Session()
seen = {}
with sess.as_default():
    def worker():
        seen["thread_default"] = tf.get_default_session() is None
    t = threading.Thread(target=worker); t.start(); t.join()
    seen["main_default"] = tf.get_default_session() is sess
result = seen""",
}


@pytest.fixture(scope="module")
def theirs():
    return tfsnippets.reference(results=RESULTS)


@pytest.mark.parametrize("key", sorted(RESULTS))
def test_same_as_tf(theirs, key):
    ours = tfsnippets.run_result(RESULTS[key])["result"]
    expected = theirs["results"][key]["result"]
    _same(ours, expected, key)


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


GRAPHS = {
    # tf.tuple / with_dependencies keep a variable's handle a handle (RefIdentity), as TF's _Identity
    "tuple_of_an_update_and_a_value": """
v = tf.Variable(1.0)
t = tf.tuple([tf.assign_add(v, 1.0), tf.constant(2.0)])
""",
}


@pytest.fixture(scope="module")
def their_graphs():
    return tfsnippets.reference(graphs=GRAPHS)


@pytest.mark.parametrize("key", sorted(GRAPHS))
def test_same_graph_as_tf(their_graphs, key):
    tfsnippets.check_graph(GRAPHS[key], their_graphs["graphs"][key])
