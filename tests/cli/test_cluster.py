"""The hand-off to a real TensorFlow cluster: graphlab exports a model and its checkpoint, `graphlab cluster`
starts TensorFlow's ps and worker tasks on loopback and runs the example between-graph worker on them, and the
chief's checkpoint restores in graphlab. Synchronous replicas (every worker on the same batch) give exactly the
single-process numbers, whether TF's workers wrap their optimizer in SyncReplicasOptimizer themselves or import
the whole training graph graphlab built for each of them (SyncReplicasOptimizer's ops and devices as TF's);
asynchronous workers update as they like. Every task is stopped and every port freed."""
import os
import subprocess
import sys

import numpy as np
import pytest

from graphlab.cli import cluster
from tests import tfref

STEPS, LR = 12, 0.1


def _model(tf):
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    y = tf.placeholder(tf.float32, [None, 1], name="y")
    w = tf.Variable(tf.random_normal([3, 1], seed=1), name="w")
    b = tf.Variable(0.0, name="b")
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y), name="loss")
    return x, y, w, b, loss


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """graphlab's side of the hand-off: data, meta graph, starting checkpoint, and the single-process run."""
    import graphlab as tf
    d = tmp_path_factory.mktemp("handoff")
    rng = np.random.RandomState(0)
    X = rng.randn(32, 3).astype(np.float32)
    Y = (X @ np.array([[1.0], [-2.0], [0.5]]) + 0.3).astype(np.float32)
    np.savez(d / "data.npz", x=X, y=Y)
    with tf.Graph().as_default():
        x, y, w, b, loss = _model(tf)
        saver = tf.train.Saver()
        tf.train.export_meta_graph(str(d / "model.meta"))
        train = tf.train.GradientDescentOptimizer(LR).minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            start = saver.save(sess, str(d / "start" / "model.ckpt"))
            first_loss = sess.run(loss, {x: X, y: Y})
            for _ in range(STEPS):
                sess.run(train, {x: X, y: Y})
            final = sess.run([w, b])
    return {"dir": d, "X": X, "Y": Y, "start": start, "final": final, "first_loss": first_loss}


def _run(exported, name, *extra, workers=2):
    d = exported["dir"]
    meta = str(d / ("sync-worker-{index}.meta" if "--built-sync" in extra else "model.meta"))
    args = ["--meta", meta, "--checkpoint", exported["start"], "--data", str(d / "data.npz"),
            "--steps", str(STEPS), "--learning-rate", str(LR), "--logdir", str(d / name)] + list(extra)
    out = open(d / (name + ".out"), "w+")
    result = cluster.run_cluster(cluster.EXAMPLE_WORKER, args, ps=1, workers=workers,
                                 tf_python=tfref.require_tf(), timeout=240, logdir=str(d / (name + "-logs")), out=out)
    out.seek(0)
    result["printed"] = out.read()
    return result


def _restore(exported, name):
    """The chief's latest checkpoint, restored into graphlab's own copy of the model."""
    import graphlab as tf
    with tf.Graph().as_default():
        x, y, w, b, loss = _model(tf)
        gs = tf.train.get_or_create_global_step()
        with tf.Session() as sess:
            tf.train.Saver().restore(sess, tf.train.latest_checkpoint(str(exported["dir"] / name)))
            return sess.run([w, b, gs, loss], {x: exported["X"], y: exported["Y"]})


def _all_stopped_and_free(result):
    assert result["stopped"] and result["ports_free"], result
    assert len(result["ports"]) == 3
    for port in result["ports"]:
        assert cluster.port_is_free(port), port
    for pid in result["pids"]:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_sync_replicas_on_a_loopback_cluster_equal_the_single_process_run(exported):
    result = _run(exported, "sync", "--sync")
    assert result["ok"], result["printed"]
    assert result["printed"].splitlines() == [
        "cluster: 1 ps and 2 worker task(s) of TensorFlow on 127.0.0.1%s"
        % (" (own network namespace: loopback only)" if result["isolated"] else ""),
        "worker 0 (chief): exit 0", "worker 1: exit 0", "stopped: every task; every port is free again"]
    _all_stopped_and_free(result)
    w, b, step, _ = _restore(exported, "sync")
    assert step == STEPS    # one update per step, each the mean of one gradient per worker
    np.testing.assert_allclose(w, exported["final"][0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(b, exported["final"][1], rtol=1e-5, atol=1e-6)


@pytest.fixture(scope="module")
def built_sync(exported):
    """graphlab builds each worker's whole training graph: the model placed by replica_device_setter for that
    task and SyncReplicasOptimizer over both workers, exported one meta graph per worker."""
    import graphlab as tf
    d = exported["dir"]
    for index in range(2):
        with tf.Graph().as_default():
            with tf.device(tf.train.replica_device_setter(ps_tasks=1, worker_device="/job:worker/task:%d" % index)):
                x, y, w, b, loss = _model(tf)
                gs = tf.train.get_or_create_global_step()
                opt = tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(LR), replicas_to_aggregate=2,
                                                     total_num_replicas=2)
                train = opt.minimize(loss, global_step=gs)
                cluster.mark_sync_replicas(opt, train)
            tf.train.export_meta_graph(str(d / ("sync-worker-%d.meta" % index)))
            devices = {op.name: op.device for op in tf.get_default_graph().get_operations()}
    return {"meta": str(d / "sync-worker-{index}.meta"), "devices": devices}


def test_sync_replicas_graph_built_in_graphlab_trains_on_the_cluster(exported, built_sync):
    # the accumulators live with the variables on the ps, the token queue with the global step
    devices = built_sync["devices"]
    assert devices["sync_replicas/conditional_accumulator"] == devices["w"] == "/job:ps/task:0"
    assert devices["sync_token_q"] == "/job:ps/task:0/device:CPU:*"
    assert devices["sync_rep_local_step"] == devices["MatMul"] == "/job:worker/task:1"
    result = _run(exported, "built-sync", "--built-sync")
    assert result["ok"], result["printed"]
    _all_stopped_and_free(result)
    w, b, step, _ = _restore(exported, "built-sync")
    assert step == STEPS
    np.testing.assert_allclose(w, exported["final"][0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(b, exported["final"][1], rtol=1e-5, atol=1e-6)


def test_async_workers_update_as_they_come(exported):
    result = _run(exported, "async", "--shard")
    assert result["ok"], result["printed"]
    _all_stopped_and_free(result)
    w, b, step, loss = _restore(exported, "async")
    # each worker applies its own STEPS updates without waiting (the global step's AssignAdd takes no lock,
    # as TF's optimizers build it): the chief saved after its own last one, when the other worker had applied
    # none, some or all of its own
    assert STEPS // 2 < step <= 2 * STEPS
    assert loss < exported["first_loss"]
    assert not np.allclose(w, exported["final"][0], rtol=1e-5, atol=1e-6)


def test_a_failing_worker_stops_the_cluster_and_frees_its_ports(tmp_path):
    script = tmp_path / "broken.py"
    script.write_text("import sys\nprint('cannot start: no data', flush=True)\nsys.exit(3)\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([tfref.REPO, os.path.join(tfref.REPO, "extension")]))
    proc = subprocess.run([sys.executable, "-m", "graphlab.cli", "cluster", "--workers", "1", "--timeout", "120",
                           "--tf-python", tfref.require_tf(), "--logdir", str(tmp_path / "logs"), str(script)],
                          capture_output=True, text=True, env=env, cwd=str(tmp_path), timeout=300)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[1:] == ["worker 0 (chief): exit 3", "cannot start: no data",
                         "stopped: every task; every port is free again"]
    assert (tmp_path / "logs" / "ps-0.log").exists()


def test_cluster_command_explains_what_it_needs(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([tfref.REPO, os.path.join(tfref.REPO, "extension")]))
    proc = subprocess.run([sys.executable, "-m", "graphlab.cli", "cluster", str(tmp_path / "nope.py")],
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "graphlab cluster: error: %s: no such worker program" % (tmp_path / "nope.py")
    proc = subprocess.run([sys.executable, "-m", "graphlab.cli", "cluster", "--example-worker"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.stdout.strip() == cluster.EXAMPLE_WORKER and os.path.exists(cluster.EXAMPLE_WORKER)
