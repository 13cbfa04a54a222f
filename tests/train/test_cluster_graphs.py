"""Cluster graphs built in graphlab as TF1 builds them: tf.train.ClusterSpec in all its forms, the device strings
tf.train.replica_device_setter gives each op (round-robin and greedy ps strategies, ps_ops, merge_devices),
the same devices in GraphDefs and meta graphs (clear_devices too), and a local Session's answer to a graph
placed on a cluster (TF's error, then how to run it) - each program run by live TF and by graphlab, and
everything it prints compared."""
import contextlib
import io
import json
import textwrap

import pytest

from tests import tfref

# Dumps every op as TF shows it: name, type, inputs, device and colocation; and a GraphDef's node devices.
_HELPERS = """
def show_graph(g=None):
    g = g or tf.get_default_graph()
    for op in g.get_operations():
        try:
            cls = op.get_attr("_class")
        except ValueError:
            cls = []
        print(op.name, op.type, [t.name for t in op.inputs], repr(op.device), [c.decode() if isinstance(c, bytes) else c for c in cls])


def show_graph_def(gd):
    for n in gd.node:
        print("node", n.name, repr(n.device))


def attempt(fn):
    try:
        print("ok", fn())
    except Exception as e:
        print(type(e).__name__, e)
"""

# TF 2 dropped tf.contrib.training's GreedyLoadBalancingStrategy; TF's side gets TF 1.x's algorithm as a plain
# ps_strategy callable (least-loaded task first, lowest index on ties; a variable weighs its bytes).
_TF_GREEDY = """
class Greedy:
    def __init__(self, n, load_fn):
        self.loads, self.load_fn = [0] * n, load_fn
    def __call__(self, op):
        task = self.loads.index(min(self.loads))
        self.loads[task] += self.load_fn(op)
        return task


def byte_size(op):
    shape = op.outputs[0].get_shape()
    if not shape.is_fully_defined():
        shape = tf.TensorShape(op.get_attr("shape"))
    shape.assert_is_fully_defined()
    return shape.num_elements() * op.outputs[0].dtype.base_dtype.size
"""
_OUR_GREEDY = """
Greedy = tf.contrib.training.GreedyLoadBalancingStrategy
byte_size = tf.contrib.training.byte_size_load_fn
"""

PROGRAMS = {
    "cluster_spec_forms": """
        cs = tf.train.ClusterSpec({"ps": ["127.0.0.1:1"], "worker": ["a:1", "b:2"]})
        print(cs, repr(cs), cs.as_dict(), cs.jobs, cs.task_indices("worker"), cs.num_tasks("worker"))
        print(cs.job_tasks("worker"), cs.task_address("ps", 0), bool(cs), bool(tf.train.ClusterSpec({})))
        print(cs.as_cluster_def())
        sparse = tf.train.ClusterSpec({"worker": {1: "b:2", 3: "c:3"}, "ps": {0: "p:1"}})
        print(sparse, sparse.job_tasks("worker"), sparse.task_indices("worker"), sparse.as_dict())
        print(sparse.as_cluster_def().SerializeToString() == tf.train.ClusterSpec(sparse.as_cluster_def())
              .as_cluster_def().SerializeToString())
        print(tf.train.ClusterSpec(cs.as_cluster_def()) == cs, tf.train.ClusterSpec(cs) == cs, cs != sparse)
        print(tf.train.ClusterSpec({"a": []}).as_dict(), tf.train.ClusterSpec({"w": {0: "x", 1: "y"}}).as_dict())
        cd = tf.train.ClusterDef()
        job = cd.job.add(); job.name = "ps"; job.tasks[2] = "h:2"
        print(tf.train.ClusterSpec(cd).as_dict(), type(cs.as_cluster_def()).__name__)
        attempt(lambda: tf.train.ClusterSpec(3))
        attempt(lambda: tf.train.ClusterSpec({"w": [b"x:1"]}).as_dict())
        attempt(lambda: tf.train.ClusterSpec({"w": 3}))
        attempt(lambda: tf.train.ClusterSpec({"w": ["x", 3]}))
        attempt(lambda: tf.train.ClusterSpec({1: ["x"]}))
        attempt(lambda: tf.train.ClusterSpec({"w": {"a": "x"}}))
        attempt(lambda: cs.num_tasks("x"))
        attempt(lambda: cs.task_indices("zz"))
        attempt(lambda: cs.job_tasks("x"))
        attempt(lambda: cs.task_address("worker", 5))
        attempt(lambda: hash(cs))
    """,
    "round_robin_training_graph": """
        cs = tf.train.ClusterSpec({"ps": ["a:1", "b:1"], "worker": ["a:1", "b:2"]})
        with tf.device(tf.train.replica_device_setter(cluster=cs)):
            w = tf.Variable(tf.zeros([3, 2]), name="w")
            b = tf.Variable(1.0, name="b")
            c = tf.Variable(2.0, name="c")
            x = tf.placeholder(tf.float32, [None, 3], name="x")
            loss = tf.reduce_mean(tf.matmul(x, w) * b + c)
            gs = tf.train.get_or_create_global_step()
            train = tf.train.AdamOptimizer(0.1).minimize(loss, global_step=gs)
            saver = tf.train.Saver()
            init = tf.global_variables_initializer()
        show_graph()
    """,
    "round_robin_from_dict_and_cluster_def": """
        spec = {"ps": ["a:1", "b:1", "c:1"], "worker": ["a:1"]}
        for cluster in (spec, tf.train.ClusterSpec(spec).as_cluster_def()):
            with tf.Graph().as_default() as g:
                with tf.device(tf.train.replica_device_setter(cluster=cluster, worker_device="/job:worker/task:0")):
                    vs = [tf.Variable(float(i), name="v%d" % i) for i in range(4)]
                    total = tf.add_n(vs, name="total")
                show_graph(g)
        print(tf.train.replica_device_setter(ps_tasks=0), tf.train.replica_device_setter(cluster={"worker": ["a:1"]}))
        attempt(lambda: tf.train.replica_device_setter(cluster=3))
        attempt(lambda: tf.train.replica_device_setter(ps_tasks=2, ps_strategy=3))
    """,
    "inner_devices_ps_ops_merge": """
        with tf.device(tf.train.replica_device_setter(ps_tasks=2, ps_device="/job:ps/device:CPU:0",
                                                      worker_device="/job:worker/task:1",
                                                      ps_ops=["VariableV2", "FIFOQueueV2"])):
            a = tf.Variable(tf.ones([2]), name="a")
            with tf.device("/job:ps/task:1"):
                pinned = tf.Variable(1, name="pinned")
            with tf.device("/job:other"):
                elsewhere = tf.Variable(1, name="elsewhere")
            with tf.device("/cpu:0"):
                local = tf.identity(a, name="local")
            q = tf.FIFOQueue(3, tf.float32, name="q")
            enq = q.enqueue([1.0], name="enq")
        with tf.device(tf.train.replica_device_setter(ps_tasks=2, merge_devices=False)):
            with tf.device("/job:worker/task:3"):
                kept = tf.Variable(2.0, name="kept")
            fresh = tf.Variable(3.0, name="fresh")
        with tf.device(tf.train.replica_device_setter(ps_tasks=1, ps_device="", worker_device="")):
            bare = tf.Variable(4.0, name="bare")
        show_graph()
    """,
    "greedy_load_balancing": """
        with tf.device(tf.train.replica_device_setter(ps_tasks=3, ps_strategy=Greedy(3, byte_size))):
            big = tf.Variable(tf.zeros([100]), name="big")
            small = tf.Variable(tf.zeros([10]), name="small")
            mid = tf.Variable(tf.zeros([50]), name="mid")
            doubles = tf.Variable(tf.zeros([5], tf.float64), name="doubles")
            scalar = tf.Variable(1, name="scalar")
            again = tf.Variable(tf.zeros([3, 4]), name="again")
            y = big[0] + small[0]
        show_graph()
    """,
    "graph_def_and_meta_graph_devices": """
        with tf.device(tf.train.replica_device_setter(ps_tasks=2, worker_device="/job:worker/task:0")):
            w = tf.Variable(tf.ones([2, 2]), name="w")
            b = tf.Variable(tf.zeros([2]), name="b")
            y = tf.add(tf.matmul(tf.ones([1, 2]), w), b, name="y")
            gs = tf.train.get_or_create_global_step()
            train = tf.train.GradientDescentOptimizer(0.5).minimize(tf.reduce_sum(y), global_step=gs)
        show_graph_def(tf.get_default_graph().as_graph_def())
        for clear in (False, True):
            mg = tf.train.export_meta_graph(clear_devices=clear)
            print("clear_devices", clear)
            show_graph_def(mg.graph_def)
            with tf.Graph().as_default() as g2:
                tf.train.import_meta_graph(mg)
                print("imported", [(op.name, op.device) for op in g2.get_operations()][:6])
            with tf.Graph().as_default() as g3:
                with tf.device(tf.train.replica_device_setter(ps_tasks=2, worker_device="/job:worker/task:1")):
                    tf.train.import_meta_graph(mg)
                print("imported under a setter", [(op.name, op.device) for op in g3.get_operations()][:8])
        with tf.Graph().as_default() as g4:
            tf.train.import_meta_graph(tf.train.export_meta_graph(graph=tf.get_default_graph()), clear_devices=True)
            print("import clear_devices", sorted(set(op.device for op in g4.get_operations())))
    """,
}


def _program(key, side):
    prefix = _HELPERS + (_TF_GREEDY if side == "tf" else _OUR_GREEDY)
    return prefix + textwrap.dedent(PROGRAMS[key])


_TF_MAIN = """
import contextlib, io
out = {}
for key, src in json.loads(sys.argv[1]).items():
    tf.reset_default_graph()
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            exec(src, {"tf": tf, "np": np})
    except Exception as e:
        buf.write("FAILED %s: %s" % (type(e).__name__, e))
    out[key] = buf.getvalue()
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def tf_outputs():
    return tfref.run_tf_json(_TF_MAIN, json.dumps({k: _program(k, "tf") for k in PROGRAMS}))


@pytest.mark.parametrize("key", sorted(PROGRAMS))
def test_cluster_graph_prints_as_tf(key, tf_outputs):
    import graphlab as tf
    import numpy as np
    tf.reset_default_graph()
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(_program(key, "graphlab"), {"tf": tf, "np": np})
    theirs = tf_outputs[key]
    assert "FAILED" not in theirs, theirs
    assert buf.getvalue().splitlines() == theirs.splitlines()


RUN_ON_PS = """
with tf.device(tf.train.replica_device_setter(ps_tasks=1)):
    v = tf.Variable(1.0, name="v")
    y = tf.add(v, 1.0, name="y")
try:
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
except tf.errors.InvalidArgumentError as e:
    print(json.dumps([line for line in e.message.splitlines() if line.startswith("Cannot assign")][0]))
try:
    with tf.Session(config=tf.ConfigProto(allow_soft_placement=True)) as sess:
        sess.run(tf.global_variables_initializer())
except tf.errors.InvalidArgumentError as e:
    print(json.dumps([line for line in e.message.splitlines() if line.startswith("Cannot assign")][0]))
"""


def test_local_session_refuses_a_cluster_graph_with_tf_error_and_a_way_out(capsys):
    theirs = tfref.run_tf(RUN_ON_PS).strip().splitlines()
    import graphlab as tf
    tf.reset_default_graph()
    exec(RUN_ON_PS, {"tf": tf, "json": json})
    ours = capsys.readouterr().out.strip().splitlines()
    tf_message, ours_message = json.loads(theirs[-2]), json.loads(ours[-2])
    assert tf_message.startswith("Cannot assign a device for operation v: {{node v}} was explicitly assigned to "
                                 "/job:ps/task:0")
    assert ours_message.startswith(tf_message)
    hint = ours_message[len(tf_message):]
    assert "allow_soft_placement" in hint and "clear_devices=True" in hint and "graphlab cluster" in hint
    assert "/job:ps/task:0" in hint
    assert ours[-1] == ours[-2] and theirs[-1] == theirs[-2]  # soft placement forgives no other task, as TF


def test_server_is_an_honest_omission_naming_the_hand_off():
    import graphlab as tf
    spec = tf.train.ClusterSpec({"worker": ["127.0.0.1:2222"]})
    with pytest.raises(tf.errors.UnimplementedError) as err:
        tf.train.Server(spec, job_name="worker", task_index=0)
    assert "tf.train.Server is not available in graphlab" in str(err.value)
    assert "graphlab cluster" in str(err.value) and "lesson 11" in str(err.value)
