"""``Session.partial_run_setup`` / ``partial_run`` compared with TF 2.21 run live: the same program in both
engines prints the same values and errors. It checks TF's dataflow rules (ops needing no feed run at setup,
a feed unblocks every op it reaches, fetched or not, each op runs once per partial run, later steps read
what earlier ones computed) and its errors (feeds and fetches named at setup, used once, computable from
what was fed; a kernel's error or the last fetch ends the partial run)."""
import json

import pytest

import graphlab as tf
from tests.tfref import run_tf

PROGRAM = r'''
import re
out = {}
def show(label, fn):
    try:
        r = fn()
        out[label] = ["ok", repr(r) if not isinstance(r, str) else "<handle>"]
    except Exception as e:
        # the "defined at" frame lines are each engine's own (TF's count its prelude's lines)
        out[label] = [type(e).__name__, re.sub(r'    File ".*\n', "", getattr(e, "message", str(e)))]

def model():
    tf.reset_default_graph()
    a = tf.placeholder(tf.float32, shape=[], name="a")
    b = tf.placeholder(tf.float32, shape=[], name="b")
    c = tf.placeholder(tf.float32, shape=[], name="c")
    r1 = tf.add(a, b, name="r1")
    r2 = tf.multiply(r1, c, name="r2")
    v = tf.Variable(0.0, name="v")
    w = tf.Variable(0.0, name="w")
    inc = tf.assign_add(v, 1.0, name="inc")
    train = tf.assign_add(w, a, name="train").op
    with tf.control_dependencies([inc]):
        after = tf.identity(r1, name="after")
    x = tf.random_uniform([], seed=1, name="x")
    f1 = tf.add(x, a, name="f1")
    f2 = tf.add(x, c, name="f2")
    sess = tf.Session()
    sess.run([v.initializer, w.initializer])
    return sess, a, b, c, r1, r2, v, w, inc, train, after, f1, f2

sess, a, b, c, r1, r2, v, w, inc, train, after, f1, f2 = model()
h = sess.partial_run_setup([r1, r2, inc, train], [a, b, c])
show("v_after_setup", lambda: sess.run(v))
show("step1", lambda: sess.partial_run(h, r1, feed_dict={a: 1, b: 2}))
show("w_after_feeding_a", lambda: sess.run(w))
show("refeed", lambda: sess.partial_run(h, r2, feed_dict={a: 5}))
show("refetch", lambda: sess.partial_run(h, r1, feed_dict={c: 5}))
show("step2", lambda: sess.partial_run(h, [r2, inc], feed_dict={c: 3}))
show("finished", lambda: sess.partial_run(h, inc))
show("v_once", lambda: sess.run(v))

h = sess.partial_run_setup([r1, r2], [a, b, c])
show("not_in_fetches", lambda: sess.partial_run(h, after, feed_dict={a: 1, b: 2}))
show("not_in_feeds", lambda: sess.partial_run(h, r1, feed_dict={v: 1.0}))
show("missing_feed", lambda: sess.partial_run(h, r2, feed_dict={a: 1, b: 2}))
show("missing_upstream_feed", lambda: sess.partial_run(h, r2, feed_dict={c: 2}))
show("after_checks", lambda: sess.partial_run(h, [r1, r2], feed_dict={a: 1, b: 2, c: 2}))

h = sess.partial_run_setup([r1, r2, after, inc], [a, b, c])
show("control_dependency", lambda: sess.partial_run(h, [r1, after], feed_dict={a: 1, b: 2}))
show("dict_fetch", lambda: sess.partial_run(h, {"x": r2}, feed_dict={c: 2}))
show("update_ran_once", lambda: sess.partial_run(h, inc))
show("v_twice", lambda: sess.run(v))

h = sess.partial_run_setup([f1, f2], [a, c])
s1 = sess.partial_run(h, f1, feed_dict={a: 0})
s2 = sess.partial_run(h, f2, feed_dict={c: 0})
out["one_random_draw"] = ["ok", repr(bool(s1 == s2))]

show("bad_handle", lambda: sess.partial_run("nope", r1, feed_dict={a: 1, b: 2}))
show("setup_without_feeds", lambda: sess.partial_run_setup([r1]))
show("fed_and_fetched", lambda: sess.partial_run_setup([r1], [r1]))
show("setup_bad_fetch", lambda: sess.partial_run_setup([5], [a]))
h = sess.partial_run_setup([r1], [a, b])
show("feed_shape", lambda: sess.partial_run(h, r1, feed_dict={a: [1, 2], b: 4}))
show("feed_tensor", lambda: sess.partial_run(h, r1, feed_dict={a: r2, b: 4}))

sess, a, b, c, r1, r2, v, w, inc, train, after, f1, f2 = model()
h = sess.partial_run_setup([r1, r2], [a, b, c])
show("all_fetched_feeds_left", lambda: sess.partial_run(h, [r1, r2], feed_dict={a: 1, b: 2, c: 1}))
h = sess.partial_run_setup([r1], [a, b, c])
show("fetched_before_all_fed", lambda: sess.partial_run(h, [r1], feed_dict={a: 1, b: 2}))
show("last_feed", lambda: sess.partial_run(h, [], feed_dict={c: 1}))
show("after_last_feed", lambda: sess.partial_run(h, [], feed_dict={c: 1}))

sess, a, b, c, r1, r2, v, w, inc, train, after, f1, f2 = model()
bad = tf.reshape(tf.placeholder_with_default(r1, None), [2], name="bad")
h = sess.partial_run_setup([bad, r2], [a, b, c])
show("kernel_error", lambda: sess.partial_run(h, bad, feed_dict={a: 1, b: 2}))
show("after_kernel_error", lambda: sess.partial_run(h, r2, feed_dict={c: 2}))
sess.close()
show("closed", lambda: sess.partial_run(h, r1, feed_dict={a: 1, b: 4}))
show("closed_setup", lambda: sess.partial_run_setup([r1], [a, b]))
print(json.dumps(out))
'''


@pytest.fixture(scope="module")
def reference():
    return json.loads(run_tf(PROGRAM).strip().splitlines()[-1])


def test_partial_run_as_tf(reference):
    import numpy as np
    printed = []
    scope = {"tf": tf, "np": np, "json": json, "print": printed.append}
    exec(compile(PROGRAM, "<string>", "exec"), scope)
    ours = json.loads(printed[-1])
    assert ours.keys() == reference.keys()
    diffs = {k: (ours[k], reference[k]) for k in reference if ours[k] != reference[k]}
    assert not diffs
