"""TensorBoard itself reads graphlab's event files: the same program writes a graph, scalars, histograms,
images and run metadata with graphlab and with TF 2.21, and the real `tensorboard` package's
EventAccumulator (in the reference venv) reads both logdirs to the same tags, steps and values (images
compared pixel for pixel after decoding). Start TensorBoard on a graphlab logdir with
``tensorboard --logdir DIR`` (from any venv that has it)."""
import json

import numpy as np
import pytest

from tfref import run_tf_json

PROGRAM = r'''
def write_events(tf, logdir):
    rng = np.random.RandomState(0)
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None], name="x")
        img = tf.placeholder(tf.float32, [3, 4, 5, 3], name="img")
        u8 = tf.placeholder(tf.uint8, [1, 3, 2, 1], name="u8")
        w = tf.Variable(0.5, name="w")
        loss = tf.reduce_mean(tf.square(x * w), name="loss")
        tf.summary.scalar("loss", loss)
        with tf.name_scope("train"):
            tf.summary.histogram("x", x)
        tf.summary.image("pics", img, max_outputs=2)
        tf.summary.image("gray", u8, max_outputs=1)
        merged = tf.summary.merge_all()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            writer = tf.summary.FileWriter(logdir, sess.graph)
            for step in range(3):
                feed = {x: np.linspace(-1.0, 2.0, 7).astype(np.float32) * (step + 1),
                        img: (rng.rand(3, 4, 5, 3).astype(np.float32) - (0.5 if step == 1 else 0.0)),
                        u8: np.arange(6, dtype=np.uint8).reshape(1, 3, 2, 1) * 40}
                if step == 1:
                    md = tf.RunMetadata()
                    s = sess.run(merged, feed, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
                                 run_metadata=md)
                    writer.add_run_metadata(md, "traced_step", step)
                else:
                    s = sess.run(merged, feed)
                writer.add_summary(s, step)
            writer.close()
'''

READ = r'''
import io
from PIL import Image
from tensorboard.backend.event_processing import event_accumulator as ea

def read(logdir):
    acc = ea.EventAccumulator(logdir, size_guidance={ea.SCALARS: 0, ea.HISTOGRAMS: 0, ea.IMAGES: 0})
    acc.Reload()
    tags = acc.Tags()
    out = {"tags": {k: (sorted(v) if isinstance(v, list) else v) for k, v in tags.items()}}
    out["scalars"] = {t: [[e.step, e.value] for e in acc.Scalars(t)] for t in tags["scalars"]}
    out["histograms"] = {t: [[e.step, e.histogram_value.min, e.histogram_value.max, e.histogram_value.num,
                              e.histogram_value.sum, e.histogram_value.sum_squares,
                              list(e.histogram_value.bucket_limit), list(e.histogram_value.bucket)]
                             for e in acc.Histograms(t)] for t in tags["histograms"]}
    out["images"] = {t: [[e.step, e.width, e.height,
                          np.asarray(Image.open(io.BytesIO(e.encoded_image_string))).tolist()]
                         for e in acc.Images(t)] for t in tags["images"]}
    graph = acc.Graph()
    out["graph"] = sorted([n.name, n.op] for n in graph.node)
    out["run_metadata"] = {t: len(acc.RunMetadata(t).step_stats.dev_stats) for t in tags["run_metadata"]}
    return out

print(json.dumps({"tf": read(sys.argv[1]), "graphlab": read(sys.argv[2])}))
'''


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    d = tmp_path_factory.mktemp("tb")
    import graphlab
    scope = {"np": np}
    exec(PROGRAM, scope)
    scope["write_events"](graphlab, str(d / "graphlab"))
    out = run_tf_json(PROGRAM + "\nwrite_events(tf, sys.argv[1])\n" + READ, d / "tf", d / "graphlab")
    return out["tf"], out["graphlab"]


def test_same_tags(both):
    tf_out, ours = both
    assert ours["tags"] == tf_out["tags"]
    assert ours["tags"]["scalars"] == ["loss_1"] and ours["tags"]["histograms"] == ["train/x"]
    assert ours["tags"]["images"] == ["gray/image", "pics/image/0", "pics/image/1"]
    assert ours["tags"]["graph"] is True and ours["tags"]["run_metadata"] == ["traced_step"]


def test_same_scalars_and_histograms(both):
    tf_out, ours = both
    for tag, events in tf_out["scalars"].items():
        assert [e[0] for e in ours["scalars"][tag]] == [e[0] for e in events] == [0, 1, 2]
        np.testing.assert_allclose([e[1] for e in ours["scalars"][tag]], [e[1] for e in events], rtol=1e-6)
    for tag, events in tf_out["histograms"].items():
        mine = ours["histograms"][tag]
        assert [e[0] for e in mine] == [e[0] for e in events]
        for a, b in zip(mine, events):
            np.testing.assert_allclose(a[1:6], b[1:6], rtol=1e-6)
            assert a[6] == b[6] and a[7] == b[7]   # bucket limits and counts


def test_same_images(both):
    tf_out, ours = both
    for tag, events in tf_out["images"].items():
        mine = ours["images"][tag]
        assert [e[:3] for e in mine] == [e[:3] for e in events]
        for a, b in zip(mine, events):
            assert np.array_equal(np.array(a[3]), np.array(b[3])), tag


def test_same_graph_and_run_metadata(both):
    tf_out, ours = both
    assert ours["graph"] == tf_out["graph"]
    assert set(ours["run_metadata"]) == set(tf_out["run_metadata"])
    assert all(n >= 1 for n in ours["run_metadata"].values())
