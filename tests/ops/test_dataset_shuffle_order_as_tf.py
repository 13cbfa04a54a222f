"""``tf.data.Dataset.shuffle`` gives TF's order, pick for pick: with an op seed, a graph seed or both, a buffer
smaller or larger than the data, repeats (each epoch reshuffled, or the same with
``reshuffle_each_iteration=False``), batches, and an initializable iterator run again (a fresh dataset draws
its first order again). Compared with TF 2.21 run beside us."""
import pytest

from tests import tfsnippets

CAPTURE = """
printed = []
def print(*args):
    printed.append(" ".join(str(a) for a in args))
"""

PROGRAMS = {
    "seeds_and_buffers": """
for gseed, seed, buf, n, rep in [(None, 5, 100, 10, 1), (None, 5, 3, 10, 1), (1, None, 100, 10, 1),
                                 (1, 7, 4, 12, 1), (None, 5, 100, 6, 2), (3, 2, 1000, 20, 1)]:
    tf.reset_default_graph()
    if gseed is not None:
        tf.set_random_seed(gseed)
    ds = tf.data.Dataset.range(n).shuffle(buf, seed=seed)
    if rep > 1:
        ds = ds.repeat(rep)
    it = ds.make_one_shot_iterator().get_next()
    with tf.Session() as s:
        out = []
        try:
            while True: out.append(int(s.run(it)))
        except tf.errors.OutOfRangeError:
            pass
    print(gseed, seed, buf, n, out)
""",
    "repeat_batch_and_reinitialise": """def drain(s, it):
    out = []
    try:
        while True: out.append(s.run(it).tolist())
    except tf.errors.OutOfRangeError:
        return out
tf.reset_default_graph()
ds = tf.data.Dataset.range(7).shuffle(5, seed=11, reshuffle_each_iteration=False).repeat(2).batch(3)
it = ds.make_one_shot_iterator().get_next()
with tf.Session() as s: print(drain(s, it))
tf.reset_default_graph()
tf.set_random_seed(42)
ds = tf.data.Dataset.range(6).shuffle(10).repeat(2)
ds2 = tf.data.Dataset.range(6).shuffle(10)
it = ds.make_one_shot_iterator().get_next(); it2 = ds2.make_one_shot_iterator().get_next()
with tf.Session() as s: print(drain(s, it), drain(s, it2))
tf.reset_default_graph()
ds = tf.data.Dataset.range(8).shuffle(4, seed=3)
iterator = ds.make_initializable_iterator(); nxt = iterator.get_next()
with tf.Session() as s:
    for _ in range(3):
        s.run(iterator.initializer); print(drain(s, nxt))
with tf.Session() as s:
    s.run(iterator.initializer); print(drain(s, nxt))
tf.reset_default_graph()
ds = tf.data.Dataset.from_tensor_slices(([1., 2., 3., 4., 5.], [0, 1, 0, 1, 0])).shuffle(100, seed=1).batch(2)
it = ds.make_one_shot_iterator().get_next()
with tf.Session() as s:
    print(s.run(it)[0].tolist(), s.run(it)[1].tolist())
""",
}


@pytest.fixture(scope="module")
def tf_printed():
    snippets = {k: CAPTURE + v + "\nresult = printed\n" for k, v in PROGRAMS.items()}
    return tfsnippets.reference(results=snippets)["results"]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_shuffle_order_as_tf(name, tf_printed):
    ours = tfsnippets.run_result(CAPTURE + PROGRAMS[name] + "\nresult = printed\n")["result"]
    assert ours and ours == tf_printed[name]["result"]
