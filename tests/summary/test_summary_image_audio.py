"""tf.summary.image and tf.summary.audio beside TensorFlow 2.21: the same ops, tags (families, name scopes,
max_outputs), image pixels (uint8 as given; floats scaled per image as TF scales them, non-finite pixels in
bad_color) and WAV bytes, byte for byte. PNG bytes themselves differ by encoder, so images are compared
decoded."""
import json

import numpy as np

import graphlab as tf
from tests import tfref

PROGRAM = 'img = tf.constant(np.linspace(-1, 2, 2*3*4*3).reshape(2, 3, 4, 3).astype(np.float32))\npos = np.linspace(0, 3, 3*4*5*1).reshape(3, 4, 5, 1).astype(np.float32); pos[0, 1, 1, 0] = np.nan; pos[1, 2, 2, 0] = np.inf\ns1 = tf.summary.image("pics", img, max_outputs=2)\ns2 = tf.summary.image("one", tf.cast(img[:1] * 50 + 60, tf.uint8), max_outputs=1)\ns3 = tf.summary.audio("snd", tf.constant((np.sin(np.arange(2*10).reshape(2, 10)) * 1.2).astype(np.float32)), 8000, max_outputs=3)\ns5 = tf.summary.audio("st", tf.constant(np.cos(np.arange(12).reshape(1, 6, 2)).astype(np.float32) * 0.5), 16000.0, max_outputs=1)\nwith tf.name_scope("sc"):\n    s4 = tf.summary.image("pics", tf.constant(pos), max_outputs=5, collections=["x"])\ns6 = tf.summary.image("rgba", tf.constant(np.random.RandomState(1).rand(1, 2, 3, 4).astype(np.float32) * 0.01), family="fam")\nsc = tf.summary.scalar("loss", tf.constant(1.5), family="train")\nh = tf.summary.histogram("w", tf.constant([1.0, 2.0]), family="train")\nm = tf.summary.merge_all()\nout = {"graph": [[op.name, op.type, [t.name for t in op.inputs]] for op in tf.get_default_graph().get_operations()],\n       "summaries": [t.name for t in tf.get_collection(tf.GraphKeys.SUMMARIES)], "values": []}\nwith tf.Session() as s:\n    for t in (s1, s2, s3, s4, s5, s6, sc, m):\n        summ = tf.Summary(); summ.ParseFromString(s.run(t))\n        for v in summ.value:\n            kind = v.WhichOneof("value")\n            if kind == "image":\n                px = np.asarray(Image.open(io.BytesIO(v.image.encoded_image_string))).tolist()\n                out["values"].append([v.tag, v.image.height, v.image.width, v.image.colorspace, px])\n            elif kind == "audio":\n                out["values"].append([v.tag, v.audio.sample_rate, v.audio.num_channels, v.audio.length_frames, v.audio.content_type, v.audio.encoded_audio_string.hex()])\n            else:\n                out["values"].append([v.tag, kind])\n'

TF_SCRIPT = """
import io
from PIL import Image
""" + PROGRAM + """
print(json.dumps(out))
"""


def _ours():
    import io
    from PIL import Image
    tf.reset_default_graph()
    space = {"tf": tf, "np": np, "io": io, "Image": Image, "json": json}
    exec(PROGRAM, space)
    return json.loads(json.dumps(space["out"]))


def test_image_and_audio_summaries_as_tf():
    theirs = tfref.run_tf_json(TF_SCRIPT)
    ours = _ours()
    assert ours["graph"] == theirs["graph"]
    assert ours["summaries"] == theirs["summaries"]
    assert [v[0] for v in ours["values"]] == [v[0] for v in theirs["values"]]
    for a, b in zip(ours["values"], theirs["values"]):
        assert a == b, a[0]


def test_image_summary_events_written_and_read_back(tmp_path):
    tf.reset_default_graph()
    summary = tf.summary.image("digits", tf.zeros([2, 5, 4, 1], tf.uint8), max_outputs=1)
    writer = tf.summary.FileWriter(str(tmp_path))
    with tf.Session() as sess:
        writer.add_summary(sess.run(summary), global_step=3)
    writer.close()
    events = [e for f in tmp_path.iterdir() for e in tf.train.summary_iterator(str(f)) if e.HasField("summary")]
    assert [(e.step, v.tag, v.image.height, v.image.width, v.image.colorspace)
            for e in events for v in e.summary.value] == [(3, "digits/image", 5, 4, 1)]
