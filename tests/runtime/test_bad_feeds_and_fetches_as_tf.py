"""What a learner sees when a feed cannot be converted, a fetch is None, a queue is used after closing, or a
fed reference reaches an op that updates it: TF's error class and words, checked against TF 2.21 run beside
us (and tf.tuple of a variable, which TF reads rather than passing the reference on)."""
import pytest

from tests import tfsnippets

FEEDS = """
import numpy as np
class Thing:
    def __repr__(self):
        return "Thing()"
x = tf.placeholder(tf.float32, [None], name='e0')
i = tf.placeholder(tf.int32, None, name='i')
b = tf.placeholder(tf.bool, None, name='b')
sess = tf.Session()
result = []
for t, v in [(x, 'text'), (x, ['a', 'b']), (x, None), (x, {'a': 1}), (x, [[1, 2], [3]]), (x, Thing()),
             (i, 'text'), (i, '3'), (x, '3.5'), (x, [1.0, 'z']), (i, 2.5), (x, np.array(['a'])), (x, b'abc'),
             (i, [1 << 40]), (i, 1 << 40), (x, [None]), (b, [1, 0]), (b, 'yes'), (x, [True, False])]:
    try:
        out = sess.run(tf.identity(t), {t: v})
        result.append(["ok", out.dtype.name, np.asarray(out, dtype=object).reshape(-1).tolist()])
    except Exception as e:
        result.append([type(e).__name__, str(e)])
result = json.loads(json.dumps(result, default=str))
"""

FETCH_NONE = """
sess = tf.Session()
c = tf.constant(1.0)
result = []
for fetches in [None, [c, None], {'a': None}, 3, [3.5]]:
    try:
        sess.run(fetches)
        result.append("ok")
    except Exception as e:
        result.append([type(e).__name__, str(e)])
"""

QUEUES = """
result = []
for shared in [None, 'q1_shared']:
    for kind in ['random_shuffle', 'fifo', 'padding_fifo', 'priority']:
        tf.reset_default_graph()
        if kind == 'random_shuffle':
            q = tf.RandomShuffleQueue(6, 0, [tf.float32], shapes=[[2]], shared_name=shared)
        elif kind == 'fifo':
            q = tf.FIFOQueue(6, [tf.float32], shapes=[[2]], shared_name=shared, name='myq')
        elif kind == 'padding_fifo':
            q = tf.PaddingFIFOQueue(6, [tf.float32], shapes=[[2]], shared_name=shared)
        else:
            q = tf.PriorityQueue(6, [tf.float32], shapes=[[2]], shared_name=shared)
        close = q.close()
        ops = [q.dequeue(), q.dequeue_many(2), q.dequeue_many(1), q.dequeue_up_to(3), close,
               q.enqueue((1, [1.0, 2.0]) if kind == 'priority' else [[1.0, 2.0]])]
        with tf.Session() as sess:
            sess.run(close)
            for op in ops:
                try:
                    sess.run(op)
                    result.append("ok")
                except tf.errors.OpError as e:
                    lines = e.message.split("\\n")       # the kernel's own words follow the "Node:" line
                    words = lines[[n for n, line in enumerate(lines) if line.startswith("Node: ")][0] + 1]
                    # a private queue's number counts queues across TF's whole process
                    words = re.sub(r"'_[0-9]+_", "'_N_", words)
                    result.append([type(e).__name__, words])
"""

FED_REFERENCES = """
def case(build):
    tf.reset_default_graph()
    v = tf.Variable([1.0, 2.0], name='v')
    fetch, feed = build(v)
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        try:
            return np.asarray(s.run(fetch, feed)).tolist()
        except tf.errors.OpError as e:
            return [type(e).__name__, e.message]
def ref_cond(v):
    return tf.cond(tf.constant(True), lambda: tf.assign(v, [5., 6.]), lambda: tf.assign_sub(v, [1., 1.]))
def two_feeds(v):
    c = ref_cond(v)
    a = tf.placeholder(tf.float32, [], name='a')
    return [tf.tuple([c])[0], a + 1], {a: 1.0, c: [0., 0.]}
result = [case(build) for build in [
    lambda v: (tf.assign(v, [3., 4.]), {v: [0., 0.]}),
    lambda v: (tf.assign_add(v, [3., 4.]), {v: [0., 0.]}),
    lambda v: (tf.tuple([v])[0], {v: [0., 0.]}),
    lambda v: (tf.identity(v), {v: [0., 0.]}),
    lambda v: (tf.tuple([ref_cond(v), tf.constant(1.0)])[0], {ref_cond(v): [0., 0.]}),
    lambda v: (ref_cond(v) + 1, {ref_cond(v): [0., 0.]}),
    two_feeds]]
tf.reset_default_graph()
v = tf.Variable([1.0, 2.0], name='v')
t = tf.tuple([v, tf.constant(1.0)])
result.append([(o.name, o.type, [i.name for i in o.inputs], [c.name for c in o.control_inputs])
               for o in tf.get_default_graph().get_operations() if o.name.startswith('tuple')])
result.append(t[0].dtype.name)
result = json.loads(json.dumps(result))
"""

SNIPPETS = {"feeds": FEEDS, "fetch_none": FETCH_NONE, "queues": QUEUES, "fed_references": FED_REFERENCES}


@pytest.fixture(scope="module")
def tf_results():
    snippets = {k: "import json, re\nimport numpy as np\n" + v for k, v in SNIPPETS.items()}
    return tfsnippets.reference(results=snippets)["results"]


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_same_errors_as_tf(name, tf_results):
    ours = tfsnippets.run_result("import json, re\nimport numpy as np\n" + SNIPPETS[name])
    theirs = tf_results[name]
    assert ours["result"] is not None
    for i, (mine, tfs) in enumerate(zip(ours["result"], theirs["result"])):
        assert mine == tfs, (name, i)
    assert len(ours["result"]) == len(theirs["result"])
