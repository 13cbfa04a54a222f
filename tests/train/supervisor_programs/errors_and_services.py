import os, tempfile, json, threading
out = {}
# OutOfRangeError ends the block quietly
with tf.Graph().as_default():
    q = tf.FIFOQueue(10, tf.int32)
    enq = q.enqueue_many([[1, 2, 3]])
    close, deq = q.close(), q.dequeue()
    sv = tf.train.Supervisor(logdir=None)
    got = []
    with sv.managed_session() as sess:
        sess.run(enq); sess.run(close)
        while not sv.should_stop():
            got.append(int(sess.run(deq)))
    out["got"] = got
    out["stopped"] = sv.should_stop()
    out["no_writer"] = sv.summary_writer is None and sv.save_path is None
# an error in the body is raised again after the loop thread stopped
with tf.Graph().as_default():
    v = tf.Variable(0, name="v")
    sv = tf.train.Supervisor(logdir=None, saver=None, summary_op=None)
    ticks = []
    try:
        with sv.managed_session() as sess:
            th = sv.loop(None, lambda: (ticks.append(1), sv.wait_for_stop()))
            raise ValueError("boom")
    except ValueError as e:
        out["reraised"] = str(e)
    out["loop_alive"] = th.is_alive()
    out["saver_none"] = sv.saver is None
# a thread's error reaches the with block's exit
with tf.Graph().as_default():
    v = tf.Variable(0, name="v")
    sv = tf.train.Supervisor(logdir=None)
    def bad():
        raise tf.errors.InvalidArgumentError(None, None, "from a thread")
    try:
        with sv.managed_session() as sess:
            sv.loop(None, bad)
            sv.wait_for_stop()
    except tf.errors.InvalidArgumentError as e:
        out["thread_error"] = e.message
# queue runners started by the supervisor; chief services run deterministically via start_standard_services
d = tempfile.mkdtemp()
with tf.Graph().as_default():
    gs = tf.train.get_or_create_global_step()
    inc = tf.assign_add(gs, 1)
    tf.summary.scalar("gs", tf.cast(gs, tf.float32))
    data = tf.train.range_input_producer(5, shuffle=False).dequeue()
    sv = tf.train.Supervisor(logdir=d, save_model_secs=3600, save_summaries_secs=3600, checkpoint_basename="m.ckpt")
    out["secs"] = [sv.save_model_secs, sv.save_summaries_secs]
    with sv.managed_session() as sess:
        out["data"] = [int(sess.run(data)) for _ in range(7)]
        while tf.train.latest_checkpoint(d) is None:   # the timer's first save comes at once, at step 0
            sv.coord.wait_for_stop(0.01)
        for _ in range(3):
            sess.run(inc)
    out["files"] = sorted(f for f in os.listdir(d) if not f.startswith("events"))
    out["ckpt"] = os.path.basename(tf.train.latest_checkpoint(d))
    out["finalized"] = tf.get_default_graph().finalized
    try:
        tf.constant(1)
    except RuntimeError as e:
        out["final_err"] = "finalized" in str(e)
# prepare_or_wait_for_session without services, summary_computed with an explicit step, CamelCase aliases
with tf.Graph().as_default():
    x = tf.Variable(2.0, name="x")
    s = tf.summary.scalar("x", x)
    sv = tf.train.Supervisor(logdir=d + "/b", save_model_secs=0, summary_op=None, global_step=None)
    sess = sv.prepare_or_wait_for_session(start_standard_services=False)
    sv.summary_computed(sess, sess.run(s), global_step=7)
    sv.RequestStop()
    out["should"] = sv.ShouldStop()
    sv.stop()
    sess.close()
    evs = []
    for f in sorted(os.listdir(d + "/b")):
        if f.startswith("events"):
            for e in tf.train.summary_iterator(os.path.join(d + "/b", f)):
                evs.append([e.WhichOneof("what"), e.step])
    out["evs_b"] = evs
    out["files_b"] = sorted(f for f in os.listdir(d + "/b") if not f.startswith("events"))
print(json.dumps(out))
