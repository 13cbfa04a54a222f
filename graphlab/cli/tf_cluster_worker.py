"""A TensorFlow-1 worker of between-graph replication that trains a model exported from graphlab.

Run by ``graphlab cluster`` on every worker task, with TensorFlow's Python (graphlab never imports this file; it
imports TensorFlow). TF_CONFIG says where the cluster is and which task this is. The worker

1. starts its task's ``tf.distribute.Server``;
2. imports graphlab's meta graph (the model and its loss) under ``tf.train.replica_device_setter``, so the
   variables go to the ps tasks and the rest to this worker; devices recorded in the file are cleared first,
   because each worker places its own copy of the graph on its own task;
3. adds gradient descent: plain (asynchronous: each worker updates the shared variables when it likes) or,
   with ``--sync``, wrapped in ``tf.train.SyncReplicasOptimizer`` (each step averages one fresh gradient per
   worker, then updates once);
4. trains in ``tf.train.MonitoredTrainingSession(master=server.target, is_chief=...)``: the chief (worker 0)
   initializes the variables from graphlab's checkpoint (``tf.train.init_from_checkpoint``) and writes
   checkpoints to --logdir; the other workers wait until the chief has done so.

    graphlab cluster --workers 2 tf_cluster_worker.py -- --meta model.meta --checkpoint model.ckpt \\
        --data data.npz --steps 20 --learning-rate 0.1 --sync --logdir chief

With ``--built-sync`` the whole training graph comes from graphlab instead: graphlab built, for each worker
task, the model placed by ``replica_device_setter`` and trained by ``SyncReplicasOptimizer`` (ops, names and
devices as TensorFlow builds them) and exported one meta graph per worker (``--meta 'worker-{index}.meta'``),
its sync ops marked by ``graphlab.cli.cluster.mark_sync_replicas``. The worker imports its own file keeping
the devices, and runs what TF's ``make_session_run_hook`` would run: the local init (the chief's on the
chief), the initial tokens, and on the chief the queue runner that applies each averaged update.

The data file holds one array per placeholder, named as the placeholders (``x`` for ``x:0``).
"""
import argparse
import json
import os
import time

import numpy as np
import tensorflow.compat.v1 as tf
from tensorflow.core.protobuf.queue_runner_pb2 import QueueRunnerDef


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--meta", required=True, help="graphlab's exported meta graph (the model and its loss)")
    p.add_argument("--checkpoint", required=True, help="graphlab's checkpoint prefix: the starting weights")
    p.add_argument("--data", required=True, help=".npz with one array per placeholder name")
    p.add_argument("--loss", default="loss:0", help="the loss tensor's name (loss:0)")
    p.add_argument("--steps", type=int, default=10, help="training steps (sync: updates; async: per worker)")
    p.add_argument("--learning-rate", type=float, default=0.1)
    p.add_argument("--sync", action="store_true", help="SyncReplicasOptimizer over all workers")
    p.add_argument("--shard", action="store_true", help="each worker trains on its own slice of the data")
    p.add_argument("--built-sync", action="store_true",
                   help="the meta graph ('{index}' in --meta: one per worker) already holds graphlab's "
                        "SyncReplicasOptimizer graph for this task, devices included")
    p.add_argument("--logdir", required=True, help="where the chief writes its checkpoints")
    args = p.parse_args()

    tf.disable_v2_behavior()
    config = json.loads(os.environ["TF_CONFIG"])
    cluster = tf.train.ClusterSpec(config["cluster"])
    index = config["task"]["index"]
    workers = cluster.num_tasks("worker")
    is_chief = index == 0
    server = tf.distribute.Server(cluster, job_name="worker", task_index=index)

    setter = tf.train.replica_device_setter(cluster=cluster, worker_device="/job:worker/task:%d" % index)
    if args.built_sync:
        # graphlab placed this worker's graph already: import it as it is, devices and all
        tf.train.import_meta_graph(args.meta.format(index=index))
    with tf.device(setter):
        if not args.built_sync:
            tf.train.import_meta_graph(args.meta, clear_devices=True)
        graph = tf.get_default_graph()
        # graphlab's weights become the variables' initial values, so "initialized" means "holds graphlab's
        # weights" for every worker that waits for the chief (an init_fn would run after that moment)
        tf.train.init_from_checkpoint(args.checkpoint, {"/": "/"})
        if args.built_sync:
            train, sync_hook = _built_sync_replicas(graph, is_chief)
        else:
            loss = graph.get_tensor_by_name(args.loss)
            global_step = tf.train.get_or_create_global_step()
            opt = tf.train.GradientDescentOptimizer(args.learning_rate)
            if args.sync:
                opt = tf.train.SyncReplicasOptimizer(opt, replicas_to_aggregate=workers,
                                                     total_num_replicas=workers)
            train = opt.minimize(loss, global_step=global_step)
        saver = tf.train.Saver()   # the chief's checkpoints: the model and the global step
        # how many workers have finished (on the ps, made after the Saver so checkpoints leave it out): each
        # worker keeps its server up until all have, since a worker's session reaches every task of the
        # cluster and one that exits early resets the others' connections
        finished = tf.get_variable("workers_finished", [], tf.int32, initializer=tf.zeros_initializer(),
                                   trainable=False)
        finish = finished.assign_add(1)

    data = np.load(args.data)
    feed = {graph.get_tensor_by_name(name + ":0"): data[name] for name in data.files}
    if args.shard:
        feed = {t: v[index::workers] for t, v in feed.items()}
    hooks = []
    if args.built_sync:
        hooks += [sync_hook, tf.train.StopAtStepHook(last_step=args.steps)]
    elif args.sync:
        # no initial tokens: every worker waits for the first update, so no step mixes old and new weights
        hooks.append(opt.make_session_run_hook(is_chief, num_tokens=0))
        hooks.append(tf.train.StopAtStepHook(last_step=args.steps))

    scaffold = tf.train.Scaffold(saver=saver)
    if not is_chief:
        # MonitoredTrainingSession's own wait for the chief polls every 30 seconds; poll more often first
        not_ready = tf.report_uninitialized_variables(tf.global_variables())
        with tf.Session(server.target) as probe:
            while len(probe.run(not_ready)):
                time.sleep(0.2)
    own_steps = 0
    with tf.train.MonitoredTrainingSession(master=server.target, is_chief=is_chief, checkpoint_dir=args.logdir,
                                           scaffold=scaffold, hooks=hooks, save_checkpoint_secs=None,
                                           # a checkpoint when the session starts and when it ends
                                           save_checkpoint_steps=10 ** 9, save_summaries_steps=None,
                                           save_summaries_secs=None, log_step_count_steps=None,
                                           stop_grace_period_secs=5) as sess:
        while not sess.should_stop() and (args.sync or args.built_sync or own_steps < args.steps):
            sess.run(train, feed)
            own_steps += 1
    with tf.Session(server.target) as barrier:
        barrier.run(finish)
        deadline = time.time() + 120
        while barrier.run(finished) < workers and time.time() < deadline:
            time.sleep(0.2)
    print(json.dumps({"worker": index, "chief": is_chief, "own_steps": own_steps}), flush=True)


# The collections graphlab.cli.cluster.mark_sync_replicas fills (the names of SyncReplicasOptimizer's parts)
SYNC_COLLECTIONS = ("sync_replicas_train_op", "sync_replicas_chief_init_op", "sync_replicas_local_step_init_op",
                    "sync_replicas_ready_for_local_init_op", "sync_replicas_init_tokens_op",
                    "sync_replicas_chief_queue_runner")


def _built_sync_replicas(graph, is_chief):
    """The train op and a hook doing what SyncReplicasOptimizer.make_session_run_hook does, for a graph
    SyncReplicasOptimizer built elsewhere (in graphlab) and marked in collections."""
    parts = {key: graph.get_collection(key) for key in SYNC_COLLECTIONS}
    missing = [key for key, items in parts.items() if not items]
    if missing:
        raise SystemExit("--built-sync: the meta graph has no %s collection (mark the sync optimizer with "
                         "graphlab.cli.cluster.mark_sync_replicas before exporting)" % ", ".join(missing))
    queue, enqueue, close, cancel = parts["sync_replicas_chief_queue_runner"]
    runner = tf.train.QueueRunner(queue_runner_def=QueueRunnerDef(
        queue_name=queue.name, enqueue_op_name=[enqueue.name], close_op_name=close.name,
        cancel_op_name=cancel.name))
    hook = _SyncReplicasHook(
        local_init=parts["sync_replicas_chief_init_op" if is_chief else "sync_replicas_local_step_init_op"][0],
        ready=parts["sync_replicas_ready_for_local_init_op"][0],
        init_tokens=parts["sync_replicas_init_tokens_op"][0] if is_chief else None,
        runner=runner if is_chief else None)
    return parts["sync_replicas_train_op"][0], hook


class _SyncReplicasHook(tf.train.SessionRunHook):
    """After the session starts: check the model is initialized, run the local init, and on the chief put in
    the initial tokens and start the queue runner that applies each update (TF's own hook's steps)."""

    def __init__(self, local_init, ready, init_tokens, runner):
        self._local_init, self._ready, self._init_tokens, self._runner = local_init, ready, init_tokens, runner

    def after_create_session(self, session, coord):
        not_ready = session.run(self._ready)
        if len(not_ready):
            raise RuntimeError("Init operations did not make model ready for SyncReplicasOptimizer local_init: "
                               "%s" % not_ready)
        session.run(self._local_init)
        if self._init_tokens is not None:
            session.run(self._init_tokens)
        if self._runner is not None:
            self._runner.create_threads(session, coord=coord, daemon=True, start=True)


if __name__ == "__main__":
    main()
