"""graphlab.lint's cluster checks: variables of a cluster graph off the ps tasks (graphlab's graph and real
TF's), MonitoredTrainingSession without is_chief or with no chief, a chief that never initializes; and the
command line reporting them."""
import subprocess
import sys
import textwrap

import pytest

import graphlab as tf
from graphlab import lint
from graphlab.lint import cluster
from tests import tfref


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


def test_variables_on_a_worker_without_a_device_setter_are_reported():
    with tf.device("/job:worker/task:0"):
        w = tf.Variable(tf.zeros([2]), name="w")
        tf.Variable(1.0, name="b")
        tf.reduce_sum(w)
    [finding] = cluster.variables_off_ps(tf.get_default_graph())
    assert finding.message.startswith("2 variables of this cluster graph not on a ps task, e.g. w on "
                                      "/job:worker/task:0: each worker would train its own copy.")
    assert "replica_device_setter" in finding.message
    assert finding.where.lineno > 0
    assert any("2 variables of this cluster graph not on a ps task" in line
               for line in lint.lint_graph(tf.get_default_graph()))


def test_a_device_setter_and_local_variables_are_fine_and_a_local_graph_is_not_a_cluster():
    tf.Variable(1.0, name="plain")
    assert cluster.variables_off_ps(tf.get_default_graph()) == []
    with tf.device(tf.train.replica_device_setter(ps_tasks=2, worker_device="/job:worker/task:1")):
        tf.Variable(tf.zeros([2]), name="w")
        tf.Variable(0, name="local_step", trainable=False, collections=[tf.GraphKeys.LOCAL_VARIABLES])
    # "plain" has no device while the rest is on the cluster: it is the one finding
    [finding] = cluster.variables_off_ps(tf.get_default_graph())
    assert "1 variable of this cluster graph not on a ps task, e.g. plain on no device" in finding.message


def test_real_tensorflow_graph_gets_the_same_finding():
    out = tfref.run_tf_with_graphlab("""
        import tensorflow.compat.v1 as tf
        tf.disable_v2_behavior()
        from graphlab import graphview
        from graphlab.lint import cluster
        with tf.device("/job:worker/task:0"):
            w = tf.Variable(tf.zeros([2]), name="w")
        with tf.device(tf.train.replica_device_setter(ps_tasks=1)):
            v = tf.Variable(tf.zeros([2]), name="v")
        print([f.message for f in cluster.variables_off_ps(graphview.adapt(tf.get_default_graph()))])
    """)
    assert "['1 variable of this cluster graph not on a ps task, e.g. w on /job:worker/task:0: each worker" \
        in out


SCRIPT = '''
import tensorflow.compat.v1 as tf
server = tf.distribute.Server(cluster, job_name="worker", task_index=index)
with tf.train.MonitoredTrainingSession(master=server.target) as sess:
    pass
with tf.train.MonitoredTrainingSession(master=server.target, is_chief=False) as sess:
    pass
with tf.train.MonitoredTrainingSession(master=server.target, is_chief=(index == 0)) as sess:
    pass
'''


def test_monitored_training_session_without_is_chief_or_without_a_chief():
    found = cluster.session_mistakes(SCRIPT, "worker.py")
    assert [f.where for f in found] == ["worker.py:4", "worker.py:6"]
    assert found[0].message.startswith("MonitoredTrainingSession(master=...) without is_chief: it defaults to True")
    assert found[1].message.startswith("MonitoredTrainingSession(is_chief=False) on every worker: no chief")


def test_a_chief_that_never_initializes():
    script = textwrap.dedent('''
        import tensorflow.compat.v1 as tf
        server = tf.train.Server(cluster, job_name="worker", task_index=0)
        loss = build()
        with tf.Session(server.target) as sess:
            sess.run(loss)
    ''')
    [finding] = cluster.session_mistakes(script, "w.py")
    assert finding.where == "w.py:5"
    assert "nothing initializes the variables" in finding.message
    fixed = script.replace("sess.run(loss)", "sess.run(tf.global_variables_initializer())")
    assert cluster.session_mistakes(fixed, "w.py") == []


def test_the_lint_command_reports_cluster_mistakes(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent('''
        import graphlab as tf
        with tf.device("/job:worker/task:0"):
            w = tf.Variable(1.0, name="w")
        def later(server):
            return tf.train.MonitoredTrainingSession(master=server.target)
    '''))
    proc = subprocess.run([sys.executable, "-m", "graphlab.lint", str(script)], capture_output=True, text=True,
                          cwd=tfref.REPO, timeout=120)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("train.py:4 1 variable of this cluster graph not on a ps task, e.g. w on "
                               "/job:worker/task:0")
    assert lines[1].startswith("%s:6: MonitoredTrainingSession(master=...) without is_chief" % script)
