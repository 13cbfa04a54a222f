"""tf.summary.image / text / tensor_summary / audio (and family tags), tf.audio.encode_wav / decode_wav, against
TensorFlow running the same program: op names, tags, value kinds, tensor metadata, the decoded pixels of
every image (TF and graphlab encode PNG with different libraries, so the bytes differ but the pixels must
not) and the WAV bytes themselves."""
import contextlib
import io
import json

import graphlab
from tests import tfref

PROGRAM = '''
import json
import numpy as np
out = {}
rng = np.random.RandomState(0)
imgs = rng.uniform(-2, 3, (2, 3, 4, 3)).astype(np.float32)
imgs[0, 1, 2, 0] = np.nan
pos = np.abs(imgs[:, :, :, :1])
pos[1, 0, 0, 0] = np.inf
s1 = tf.summary.image("pics", tf.constant(imgs))
s2 = tf.summary.image("gray", tf.constant(np.nan_to_num(pos, posinf=7.0)), max_outputs=1, family="fam")
s3 = tf.summary.image("u8", tf.constant((np.abs(np.nan_to_num(imgs)) * 40).astype(np.uint8)), max_outputs=5)
s4 = tf.summary.text("note", tf.constant(["hello", "world"]))
s5 = tf.summary.tensor_summary("t", tf.constant([[1.5, 2.0]]), summary_description="desc")
s6 = tf.summary.image("posinf", tf.constant(pos), max_outputs=2)
s7 = tf.summary.scalar("loss", tf.constant(1.0), family="train")
s8 = tf.summary.histogram("h", tf.constant([1.0, 2.0]), family="train")
m = tf.summary.merge_all()
out["names"] = [t.op.name for t in (s1, s2, s3, s4, s5, s6, m)]
with tf.Session() as sess:
    blobs = sess.run([s1, s2, s3, s4, s5, s6, s7, s8])
pngs = []
for blob in blobs:
    summ = tf.Summary.FromString(blob)
    for v in summ.value:
        entry = {"tag": v.tag, "kind": v.WhichOneof("value")}
        if entry["kind"] == "image":
            entry.update(h=v.image.height, w=v.image.width, c=v.image.colorspace)
            pngs.append(v.image.encoded_image_string)
        if entry["kind"] == "tensor":
            entry.update(dtype=v.tensor.dtype, dims=[d.size for d in v.tensor.tensor_shape.dim],
                         plugin=v.metadata.plugin_data.plugin_name, desc=v.metadata.summary_description)
        out.setdefault("values", []).append(entry)
with tf.Session() as sess:
    p = tf.placeholder(tf.string, [])
    dec = tf.image.decode_png(p)
    out["pixels"] = [sess.run(dec, {p: b}).tolist() for b in pngs]
print(json.dumps(out))
tf.reset_default_graph()
clip = np.stack([np.sin(np.arange(50) / 3.0), np.linspace(-1.2, 1.2, 50)], 1).astype(np.float32)
a1 = tf.summary.audio("sound", tf.constant(np.stack([clip, clip * 0.5])), 8000, max_outputs=1)
a2 = tf.summary.audio("mono", tf.constant(clip.T), 16000.0)
wav = tf.audio.encode_wav(tf.constant(clip), 8000)
dec = tf.audio.decode_wav(wav)
dec3 = tf.audio.decode_wav(wav, desired_channels=3, desired_samples=60)
dec1 = tf.audio.decode_wav(wav, desired_channels=1, desired_samples=20)
with tf.Session() as sess:
    b1, b2, w, d, d3, d1 = sess.run([a1, a2, wav, dec, dec3, dec1])
aud = []
for blob in (b1, b2):
    for v in tf.Summary.FromString(blob).value:
        aud.append([v.tag, v.audio.sample_rate, v.audio.num_channels, v.audio.length_frames, v.audio.content_type,
                    list(v.audio.encoded_audio_string)])
out2 = {"audio": aud, "wav": list(w), "dec": [d.audio.tolist(), int(d.sample_rate)], "dec3": d3.audio.tolist(),
        "dec1": d1.audio.tolist(), "shapes": [dec3.audio.shape.as_list(), dec.audio.shape.as_list()]}
print(json.dumps(out2))
'''


def _results(stdout):
    return [json.loads(line) for line in stdout.strip().splitlines() if line.startswith("{")]


def test_media_summaries_and_wav_match_tensorflow():
    theirs = _results(tfref.run_tf(PROGRAM))
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(PROGRAM, {"tf": graphlab})
    ours = _results(buf.getvalue())
    assert len(ours) == len(theirs) == 2
    for mine, tfs in zip(ours, theirs):
        for key in tfs:
            assert mine[key] == tfs[key], key
