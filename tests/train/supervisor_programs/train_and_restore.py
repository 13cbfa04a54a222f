import os, tempfile, json
out = {}
d = tempfile.mkdtemp()
with tf.Graph().as_default():
    x = tf.Variable(1.0, name="x")
    gs = tf.train.get_or_create_global_step()
    loss = tf.square(x - 3.0)
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=gs)
    tf.summary.scalar("loss", loss)
    sv = tf.train.Supervisor(logdir=d, save_model_secs=0, save_summaries_secs=0)
    out["finalized"] = tf.get_default_graph().finalized
    out["has_ops"] = [o is not None for o in (sv.init_op, sv.ready_op, sv.summary_op, sv.global_step)]
    out["names"] = [o.name for o in (sv.init_op, sv.ready_op, sv.summary_op, sv.global_step)]
    out["rfl"] = sv.ready_for_local_init_op is None
    out["save_path"] = os.path.relpath(sv.save_path, d)
    with sv.managed_session() as sess:
        for i in range(4):
            if sv.should_stop():
                break
            _, l = sess.run([train, loss])
        sv.summary_computed(sess, sess.run(sv.summary_op))
        sv.saver.save(sess, os.path.join(d, "model.ckpt"), global_step=sv.global_step)
        out["x"] = float(sess.run(x))
    out["stopped"] = sv.should_stop()
    out["files"] = sorted(f for f in os.listdir(d) if not f.startswith("events"))
    out["events"] = len([f for f in os.listdir(d) if f.startswith("events")])
    evs = []
    for f in sorted(os.listdir(d)):
        if f.startswith("events"):
            for e in tf.train.summary_iterator(os.path.join(d, f)):
                what = e.WhichOneof("what")
                item = [what, e.step]
                if what == "summary":
                    item.append([(v.tag, round(v.simple_value, 5)) for v in e.summary.value])
                if what == "session_log":
                    item.append(int(e.session_log.status))
                if what == "meta_graph_def":
                    from_bytes = e.meta_graph_def
                    item.append(len(from_bytes) > 0)
                evs.append(item)
    out["evs"] = evs
    out["pbtxt_nodes"] = open(os.path.join(d, "graph.pbtxt")).read().count("node {")
with tf.Graph().as_default():
    x = tf.Variable(1.0, name="x")
    gs = tf.train.get_or_create_global_step()
    sv = tf.train.Supervisor(logdir=d, save_model_secs=0, save_summaries_secs=0)
    with sv.managed_session() as sess:
        out["restored"] = [float(v) for v in sess.run([x, gs])]
print(json.dumps(out))
