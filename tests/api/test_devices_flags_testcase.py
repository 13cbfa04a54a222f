"""tf.DeviceSpec, tf.device, tf.colocate_with and the Session's placement (TF's placer errors and
log_device_placement output), tf.flags / tf.app.run on absl, and tf.test.TestCase - against live TF where
TF has an answer to compare with."""
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from tests import tfref
from tests.tfcompare import Cases, install_tests

SPECS = ["/cpu:0", "/job:ps/task:1", "/device:GPU:1", "gpu:*", "/job:worker/replica:0/task:2/device:CPU:3", "", "CPU"]
GRAPHS = {
    "device_blocks": "c = tf.constant(1.0, name='c')\n"
                     "with tf.device('/job:ps'):\n"
                     "    with tf.device('/cpu:0'):\n"
                     "        a = tf.add(c, c, name='a')\n"
                     "    with tf.device(None):\n"
                     "        b = tf.add(c, c, name='b')\n"
                     "v = tf.Variable(1.0, name='v')\n"
                     "with tf.colocate_with(v):\n"
                     "    f = tf.identity(v, name='f')",
}
VALUES = {
    "device_strings": "out = []\n"
                      "g = tf.Graph(); scope = g.as_default(); scope.__enter__()\n"
                      "for d in %r:\n"
                      "    out.append(tf.DeviceSpec.from_string(d).to_string())\n"
                      "with tf.device('/job:ps'):\n"
                      "    with tf.device('/cpu:0'):\n"
                      "        c = tf.constant(1, name='c')\n"
                      "    with tf.device(None):\n"
                      "        d = tf.constant(1, name='d')\n"
                      "    with tf.device(lambda op: '/gpu:1' if op.type == 'Const' else ''):\n"
                      "        e = tf.constant(1, name='e')\n"
                      "with tf.device('/cpu:0'):\n"
                      "    w = tf.Variable(1.0, name='w')\n"
                      "with tf.colocate_with(w.op):\n"
                      "    g = tf.identity(w, name='g')\n"
                      "out += [c.device, d.device, e.device, w.device, g.device, g.op.node_def.device]\n"
                      "out += [x if isinstance(x, str) else x.decode() for x in g.op.get_attr('_class')]\n"
                      "s = tf.DeviceSpec(job='ps', device_type='cpu'); s2 = s.replace(task=3)\n"
                      "m = tf.DeviceSpec.from_string('/job:a/device:CPU:0')\n"
                      "m.merge_from(tf.DeviceSpec.from_string('/task:2/gpu:1'))\n"
                      "out += [s.to_string(), s2.to_string(), repr(s2), m.to_string(),\n"
                      "        tf.DeviceSpec.from_string('/job:a').make_merged_spec(tf.DeviceSpec(device_type='GPU'))"
                      ".to_string()]\n"
                      "scope.__exit__(None, None, None)\n"
                      "fetch = [tf.constant(out)]\n" % (SPECS,),
    "soft_placement": "with tf.Graph().as_default():\n"
                      "    with tf.device('/gpu:0'):\n"
                      "        a = tf.constant([1.0, 2.0], name='a'); b = tf.add(a, a, name='b')\n"
                      "    with tf.Session(config=tf.ConfigProto(allow_soft_placement=True)) as s:\n"
                      "        r = s.run(b)\n"
                      "fetch = [tf.constant(r)]",
}
# Programs whose every op must carry TF's device and colocation (_class) attrs
_PLACEMENT_DUMP = """
def _classes(op):
    try:
        return ",".join(c if isinstance(c, str) else c.decode() for c in op.get_attr("_class"))
    except ValueError:
        return ""
_rows = ["%s|%s|%s" % (op.name, op.device, _classes(op)) for op in tf.get_default_graph().get_operations()]
"""
PLACEMENT_PROGRAMS = {
    "variables_optimizers_saver": """
v = tf.Variable([1.0, 2.0], name="v"); w = tf.get_variable("w", [2]); u = tf.get_variable("u", [2], initializer=tf.zeros_initializer())
loss = tf.reduce_sum(v * w * u)
t1 = tf.train.MomentumOptimizer(0.1, 0.9).minimize(loss); t2 = tf.train.RMSPropOptimizer(0.1).minimize(loss)
t3 = tf.train.AdamOptimizer(0.1).minimize(loss); a1 = v.assign(2.0 * v); a2 = tf.assign_add(v, [1.0, 1.0])
s = tf.train.Saver(); s2 = tf.train.Saver(sharded=True)
""",
    "moving_averages": """
v = tf.Variable([1.0, 2.0], name="v"); w = tf.get_variable("w", [2])
ema = tf.train.ExponentialMovingAverage(0.9); op = ema.apply([v, w])
""",
    "layers_batch_norm_training": """
x = tf.placeholder(tf.float32, [None, 8, 8, 1]); t = tf.placeholder(tf.bool, [])
h = tf.layers.conv2d(x, 4, 3, activation=tf.nn.relu); h = tf.layers.batch_normalization(h, training=t)
h = tf.layers.dropout(tf.layers.flatten(h), 0.5, training=t); logits = tf.layers.dense(h, 3)
h2 = tf.layers.batch_normalization(tf.layers.flatten(x), training=t)
loss = tf.losses.sparse_softmax_cross_entropy(tf.placeholder(tf.int32, [None]), logits) + tf.reduce_mean(h2)
with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
    train = tf.train.AdamOptimizer().minimize(loss, global_step=tf.train.get_or_create_global_step())
""",
    "embeddings_and_scatter": """
e = tf.get_variable("e", [10, 3]); ids = tf.placeholder(tf.int32, [None])
l = tf.reduce_sum(tf.nn.embedding_lookup(e, ids))
t = tf.train.AdamOptimizer().minimize(l); u = tf.scatter_update(e, [0], [[1.0, 2.0, 3.0]])
""",
    "devices_groups_loops": """
x = tf.placeholder(tf.float32, [None, 3])
with tf.device("/job:ps/task:0"):
    w = tf.get_variable("w", [3, 2])
with tf.device("/job:worker"):
    y = tf.matmul(x, w)
    t = tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(y),
                                                        global_step=tf.train.get_or_create_global_step())
with tf.device("/cpu:0"):
    c = tf.Variable(0, name="counter"); inc = tf.assign_add(c, 1); up = tf.count_up_to(c, 5)
    q = tf.FIFOQueue(3, tf.float32); enq = q.enqueue([1.0])
i = tf.constant(0); r = tf.while_loop(lambda i: i < 3, lambda i: i + 1, [i])
g = tf.group(inc, enq, r, t)
z = tf.cond(tf.placeholder(tf.bool, []), lambda: y, lambda: y * 2); gz = tf.gradients(tf.reduce_sum(z), [x, w])
""",
}
for _key, _src in PLACEMENT_PROGRAMS.items():
    VALUES["placement_" + _key] = "with tf.Graph().as_default() as _g:\n" + "".join(
        "    " + line + "\n" for line in (_src + _PLACEMENT_DUMP.replace("tf.get_default_graph()", "_g")).splitlines()
    ) + "fetch = [tf.constant(_rows)]\n"

BUILD_ERRORS = {
    "unknown_attribute": "tf.DeviceSpec.from_string('/foo:0')",
    "two_device_types": "tf.DeviceSpec.from_string('/cpu:0/gpu:0')",
    "bad_index": "tf.DeviceSpec.from_string('/cpu:x')",
    "bad_task": "tf.DeviceSpec.from_string('/task:a')",
    "device_block": "with tf.device('/foo:1'):\n    tf.constant(1)",
    "colocate_with_none": "with tf.colocate_with(None):\n    pass",
}
RUN_ERRORS = {
    "gpu_on_cpu_machine": "with tf.device('/gpu:0'):\n"
                          "    x = tf.constant([1.0, 2.0], name='a'); y = tf.add(x, x, name='b')\n"
                          "fetch = [y]",
    # a cluster device (/job:ps/task:0): TF's message plus graphlab's way out, tests/train/test_cluster_graphs.py
}
CASES = Cases(graphs=GRAPHS, values=VALUES, build_errors=BUILD_ERRORS, run_errors=RUN_ERRORS)
install_tests(globals(), CASES)

PLACEMENT_PROGRAM = """
a = tf.constant([1.0, 2.0], name="a")
with tf.device("/cpu:0"):
    b = tf.add(a, a, name="b")
v = tf.Variable(1.0, name="v")
x = tf.placeholder(tf.float32, name="x")
with tf.Session(config=tf.ConfigProto(log_device_placement=True)) as s:
    print("RUN1", flush=True)
    s.run(b)
    print("RUN2", flush=True)
    s.run(tf.global_variables_initializer())
    print("RUN3", flush=True)
    s.run(b)
"""


def test_log_device_placement_prints_as_tf(capsys):
    theirs = tfref.run_tf(PLACEMENT_PROGRAM)
    import graphlab as tf
    tf.reset_default_graph()
    exec(PLACEMENT_PROGRAM, {"tf": tf})
    ours = capsys.readouterr().out
    assert ours == theirs[theirs.index("RUN1"):]


FLAGS_PROGRAM = """
import sys
tf.flags.DEFINE_integer("steps", 10, "How many steps.")
tf.app.flags.DEFINE_string("name", "x", "A name.")
tf.flags.DEFINE_boolean("fake", False, "Fake data.")
tf.flags.DEFINE_float("rate", 0.5, "A rate.")
FLAGS = tf.flags.FLAGS
def main(argv):
    print(FLAGS.steps, FLAGS.name, FLAGS.fake, FLAGS.rate, argv[1:], tf.app.flags.FLAGS is tf.flags.FLAGS)
    return 3
tf.app.run(main, argv=["prog", "--steps=7", "--fake", "--unknown=1", "extra"])
"""


def test_flags_and_app_run_as_tf():
    tf_exe = tfref.require_tf()
    theirs = subprocess.run([tf_exe, "-c", tfref.PRELUDE + FLAGS_PROGRAM], capture_output=True, text=True,
                            env=tfref._env())
    ours = subprocess.run([sys.executable, "-c", "import graphlab as tf\n" + FLAGS_PROGRAM], capture_output=True,
                          text=True, cwd=tfref.REPO)
    assert theirs.returncode == ours.returncode == 3, (theirs.stderr[-2000:], ours.stderr[-2000:])
    assert ours.stdout.splitlines()[-1] == theirs.stdout.splitlines()[-1] == \
        "7 x True 0.5 ['--unknown=1', 'extra'] True"


def test_flags_read_before_run_parse_sys_argv_tolerantly():
    code = textwrap.dedent("""
        import sys
        sys.argv = ["prog", "--lr=0.25", "--kernel-arg", "x"]
        import graphlab as tf
        tf.flags.DEFINE_float("lr", 0.1, "rate")
        print(tf.flags.FLAGS.lr)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tfref.REPO)
    assert out.stdout.strip() == "0.25", out.stderr


def test_testcase_assertions_sessions_and_devices():
    import unittest

    import graphlab as tf

    class Case(tf.test.TestCase):
        def test_all(self):
            x = tf.constant([1.0, 2.0])
            with self.cached_session() as sess:
                self.assertAllClose(sess.run(x * 2), [2.0, 4.0])
                self.assertIs(tf.get_default_session(), sess)
            with self.test_session() as again:
                self.assertIs(again, sess)
            self.assertAllClose(x, [1.0, 2.0 + 1e-7])
            self.assertAllClose({"a": x, "b": [[1, 2], [3]]}, {"a": np.array([1.0, 2.0]), "b": [[1, 2], [3]]})
            self.assertAllEqual(self.evaluate(x), [1.0, 2.0])
            self.assertAllInRange(x, 1.0, 2.0)
            with self.assertRaises(AssertionError):
                self.assertAllInRange(x, 1.0, 2.0, open_upper_bound=True)
            with self.assertRaises(AssertionError):
                self.assertAllClose(x, [1.0, 2.1])
            self.assertShapeEqual(np.zeros([2]), x)
            self.assertNear(1.0, 1.05, 0.1)
            self.assertDeviceEqual("/cpu:0", "/device:CPU:0")
            with self.session() as other:
                self.assertIsNot(other, sess)
            self.assertTrue(self.get_temp_dir())
            with self.assertRaisesOpError("assertion failed"):
                self.evaluate(tf.Assert(tf.constant(False), ["no"]))
            self.assertFalse(tf.test.is_gpu_available())
            self.assertEqual(tf.test.gpu_device_name(), "")

    result = unittest.TextTestRunner(stream=open("/dev/null", "w")).run(Case("test_all"))
    assert result.wasSuccessful(), result.failures + result.errors


def test_test_main_runs_the_module_tests():
    code = textwrap.dedent("""
        import graphlab as tf

        class T(tf.test.TestCase):
            def test_add(self):
                with self.cached_session():
                    self.assertAllEqual(tf.add(1, 2), 3)

        if __name__ == "__main__":
            tf.test.main()
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tfref.REPO)
    assert out.returncode == 0 and "Ran 1 test" in out.stderr and "OK" in out.stderr, out.stderr
