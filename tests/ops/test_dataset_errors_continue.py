"""tf.data goes on after an element's error as TF does: the error is raised for that element's get_next and
the next call yields the elements after it (map, parallel map, prefetch, filter, interleave, flat_map, batch,
take, skip, repeat, shuffle, zip, cache, unbatch). Each pipeline's sequence of values and error classes is
compared with TF's on the same program."""
import json

import graphlab as tf
from tfref import run_tf_json

PIPELINES = r'''
import json
def bad(x):
    return tf.debugging.check_numerics(10.0 / tf.cast(x - 3, tf.float32), "boom") * tf.cast(x - 3, tf.float32)
def pipes():
    r = tf.data.Dataset.range(7)
    return {
        "map": r.map(bad),
        "map_parallel": r.map(bad, num_parallel_calls=2),
        "map_prefetch": r.map(bad).prefetch(2),
        "map_batch": r.map(bad).batch(2),
        "filter": r.filter(lambda x: tf.debugging.check_numerics(10.0 / tf.cast(x - 3, tf.float32), "f") > 0),
        "interleave": tf.data.Dataset.range(3).interleave(lambda i: tf.data.Dataset.range(4).map(lambda x: bad(x + i)), cycle_length=2),
        "flat_map": tf.data.Dataset.range(2).flat_map(lambda i: tf.data.Dataset.range(5).map(lambda x: bad(x + i))),
        "map_repeat": r.take(5).map(bad).repeat(2),
        "map_shuffle": r.map(bad).shuffle(1),
        "map_take": r.map(bad).take(5),
        "map_skip": r.map(bad).skip(2),
        "map_zip": tf.data.Dataset.zip((r.map(bad), r)),
        "map_cache": r.map(bad).cache(),
        "map_unbatch": r.batch(2).map(lambda b: tf.map_fn(bad, b, dtype=tf.float32)).unbatch(),
    }
out = {}
for name in sorted(pipes()):
    g = tf.Graph()
    with g.as_default():
        ds = pipes()[name]
        nxt = tf.data.make_one_shot_iterator(ds).get_next()
        seq = []
        with tf.Session() as s:
            for _ in range(20):
                try:
                    v = s.run(nxt)
                    seq.append(json.loads(json.dumps(v.tolist() if hasattr(v, "tolist") else [x.tolist() for x in v])))
                except tf.errors.OutOfRangeError:
                    seq.append("END"); break
                except tf.errors.OpError as e:
                    seq.append(type(e).__name__)
    out[name] = seq
print(json.dumps(out))
'''


def test_pipelines_go_on_after_an_elements_error_as_tf():
    namespace = {"tf": tf}
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(PIPELINES, namespace)
    ours = json.loads(out.getvalue().strip().splitlines()[-1])
    theirs = run_tf_json(PIPELINES)
    assert sorted(ours) == sorted(theirs)
    wrong = {k: (ours[k], theirs[k]) for k in theirs if ours[k] != theirs[k]}
    assert not wrong, "\n".join("%s\n  ours %s\n  TF   %s" % (k, o, t) for k, (o, t) in wrong.items())
    assert theirs["map"] == [10.0, 10.0, 10.0, "InvalidArgumentError", 10.0, 10.0, 10.0, "END"]
