"""Recording a run (graphlab.debug.record, issue 26): what it costs per op, and that a run without recording
costs what it did. Figures are ratios within this run (no absolute goals):

* a plain run against the same run with ``options=tf.RunOptions()`` (no watches: the recorder is looked for
  once per run, never per op), for a training step (straight-line plan) and a while loop (compiled loop);
* a recorded run against the plain one, and its cost per recorded op, with small tensors (kept whole) and
  with large ones (summarized: min/max/mean, NaN/Inf counts, histogram);
* TensorFlow's own recording (tfdbg's file dumps, watch_graph) against TF's plain run, in TF's Python, when it
  is installed: the same kind of ratio on the reference.
"""
import gc
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _common  # noqa: E402


def build(tf, width):
    """A 2-layer classifier's training step and a 50-iteration while loop."""
    rng = np.random.RandomState(0)
    x = tf.placeholder(tf.float32, [None, width], name="x")
    y = tf.placeholder(tf.float32, [None, 10], name="y")
    w1 = tf.Variable(rng.normal(size=(width, width)).astype(np.float32) * 0.01, name="w1")
    w2 = tf.Variable(rng.normal(size=(width, 10)).astype(np.float32) * 0.01, name="w2")
    logits = tf.matmul(tf.nn.relu(tf.matmul(x, w1)), w2)
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=logits))
    train = tf.train.GradientDescentOptimizer(0.0).minimize(loss)   # weights stay put: same work each step
    _, looped = tf.while_loop(lambda i, v: i < 50, lambda i, v: (i + 1, v * 0.99 + 1.0),
                              [0, tf.constant(np.ones(width, np.float32))])
    feed = {x: rng.normal(size=(32, width)).astype(np.float32),
            y: np.eye(10, dtype=np.float32)[rng.randint(0, 10, 32)]}
    return train, loss, looped, feed


def interleaved(workloads, rounds, number):
    """Best seconds per call of each workload, the workloads taking turns round by round: load from other
    users of a shared machine comes and goes, and taking turns lets every workload meet the quiet moments."""
    best = {name: float("inf") for name in workloads}
    for _ in range(rounds):
        for name, fn in workloads.items():
            gc.collect()        # a recording's garbage is collected here, not inside the next workload
            best[name] = min(best[name], _common.best_of(fn, 1, number))
    return best


def graphlab_figures():
    import graphlab as tf
    import graphlab.debug as tf_debug
    out = {}
    for width, label in ((16, "small tensors"), (512, "large tensors")):
        with tf.Graph().as_default():
            train, loss, looped, feed = build(tf, width)
            sess = tf.Session()
            sess.run(tf.global_variables_initializer())
            sess.run([train, loss], feed)
            sess.run(looped)
            empty = tf.RunOptions()
            record = tf_debug.record(sess, [train, loss], feed)
            ops = len(record.ops)
            loop_ops = len(tf_debug.record(sess, looped).ops)
            number = 20 if width == 16 else 3
            f = interleaved({
                "step": lambda: sess.run([train, loss], feed),
                "step_opts": lambda: sess.run([train, loss], feed, options=empty),
                "step_rec": lambda: tf_debug.record(sess, [train, loss], feed),
                "loop": lambda: sess.run(looped),
                "loop_opts": lambda: sess.run(looped, options=empty),
                "loop_rec": lambda: tf_debug.record(sess, looped)}, 7, number)
            step, step_opts, step_rec = f["step"], f["step_opts"], f["step_rec"]
            loop, loop_opts, loop_rec = f["loop"], f["loop_opts"], f["loop_rec"]
            out[label] = {"ops": ops, "loop_ops": loop_ops, "step": step, "step_opts": step_opts,
                          "step_rec": step_rec, "loop": loop, "loop_opts": loop_opts, "loop_rec": loop_rec,
                          "kept_kib": record.kept_bytes / 1024}
    return out


def tf_figures():
    tf = _common.import_tf_v1()
    import shutil
    import tempfile
    from tensorflow.python.debug.lib import debug_utils
    out = {}
    for width, label in ((16, "small tensors"), (512, "large tensors")):
        with tf.Graph().as_default():
            train, loss, looped, feed = build(tf, width)
            sess = tf.Session()
            sess.run(tf.global_variables_initializer())
            root = tempfile.mkdtemp()

            def dumped():
                options = tf.RunOptions()
                debug_utils.watch_graph(options, sess.graph, debug_urls=["file://" + root])
                sess.run([train, loss], feed, options=options)
                shutil.rmtree(root, ignore_errors=True)
            sess.run([train, loss], feed)
            dumped()
            number = 20 if width == 16 else 3
            out[label] = {"step": _common.best_of(lambda: sess.run([train, loss], feed), 5, number),
                          "step_rec": _common.best_of(dumped, 3, max(1, number // 4))}
    return out


def main():
    if "--tf" in sys.argv:
        print(json.dumps(tf_figures()))
        return
    ours = graphlab_figures()
    theirs = _common.run_tf_half(os.path.abspath(__file__)) or {}
    print("Recording a run (graphlab.debug.record); ratios are within this run")
    for label, f in ours.items():
        print("\n%s: training step of %d ops, while loop run of %d op executions; %.0f KiB of values kept"
              % (label, f["ops"], f["loop_ops"], f["kept_kib"]))
        print("  %-52s %10s" % ("", "ratio"))
        print("  %-52s %10.2f" % ("step with RunOptions() (no watches) / plain step", f["step_opts"] / f["step"]))
        print("  %-52s %10.2f" % ("loop with RunOptions() (no watches) / plain loop", f["loop_opts"] / f["loop"]))
        print("  %-52s %10.2f" % ("recorded step / plain step", f["step_rec"] / f["step"]))
        print("  %-52s %10.2f" % ("recorded loop / plain (compiled) loop", f["loop_rec"] / f["loop"]))
        print("  %-52s %10.1f" % ("recording cost per op, in plain per-op costs",
                                  (f["step_rec"] - f["step"]) / f["ops"] / (f["step"] / f["ops"])))
        print("  %-52s %10.1f" % ("recording cost per op, in us", (f["step_rec"] - f["step"]) / f["ops"] * 1e6))
        t = theirs.get(label)
        if t:
            print("  %-52s %10.2f" % ("TF: tfdbg file dumps step / plain TF step", t["step_rec"] / t["step"]))


if __name__ == "__main__":
    main()
