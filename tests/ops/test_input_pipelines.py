"""Input pipelines beside TensorFlow 2.21: the same graphs op for op (batching, producers, datasets), TFRecord
files both ways, Examples parsed alike, PNG pixels equal and JPEG within a decoder's rounding, a graphlab
GraphDef holding a tf.data pipeline (with its function library) running in TF, and the shrunk CIFAR-10
input pipeline giving the same batches. One TF subprocess for the module."""
import json
import os

import numpy as np
import pytest

import graphlab as tf
from tests import tfref

DUMP = """
def dump():
    return [[op.name, op.type, [t.name for t in op.inputs], sorted(c.name for c in op.control_inputs)]
            for op in tf.get_default_graph().get_operations()]
"""

GRAPHS = {
    "batching": """
x = tf.constant([1.0, 2.0])
y = tf.constant(3)
b = tf.train.batch([x, y], batch_size=4)
sb = tf.train.shuffle_batch([x, y], batch_size=4, capacity=20, min_after_dequeue=5, num_threads=2, seed=3)
bj = tf.train.batch_join([[x, y], [x, y]], batch_size=2, allow_smaller_final_batch=True)
dp = tf.train.batch([tf.range(y)], 2, dynamic_pad=True)
""",
    "producers": """
fq = tf.train.string_input_producer(["a", "b"], num_epochs=2, shuffle=False)
rp = tf.train.range_input_producer(10)
reader = tf.WholeFileReader()
key, value = reader.read(fq)
lines = tf.TextLineReader(skip_header_lines=1).read(fq)
""",
    "datasets": """
x = tf.constant([[1., 2.], [3., 4.], [5., 6.]])
ds = tf.data.Dataset.from_tensor_slices((x, tf.constant([1, 2, 3])))
ds = ds.map(lambda a, b: (a * 2.0, b + 1)).batch(2).repeat(2)
nx = tf.data.make_one_shot_iterator(ds).get_next()
r = tf.data.Dataset.range(10).shuffle(5, seed=3).map(lambda v: v * 2, num_parallel_calls=2)
r = r.filter(lambda v: v > 2).prefetch(1).take(3).skip(1)
n2 = tf.data.make_initializable_iterator(r).get_next()
""",
}

# the CIFAR-10 tutorial's input pipeline (cifar10_input.py), shrunk to 2 files of 6 records of 8x8 images
CIFAR = """
def read_cifar10(filename_queue):
    label_bytes, height, width, depth = 1, 8, 8, 3
    image_bytes = height * width * depth
    reader = tf.FixedLengthRecordReader(record_bytes=label_bytes + image_bytes)
    key, value = reader.read(filename_queue)
    record_bytes = tf.decode_raw(value, tf.uint8)
    label = tf.cast(tf.strided_slice(record_bytes, [0], [label_bytes]), tf.int32)
    depth_major = tf.reshape(tf.strided_slice(record_bytes, [label_bytes], [label_bytes + image_bytes]),
                             [depth, height, width])
    return key, label, tf.transpose(depth_major, [1, 2, 0])

filenames = [os.path.join(folder, "data_batch_%d.bin" % i) for i in (1, 2)]
queue = tf.train.string_input_producer(filenames, shuffle=False, num_epochs=1)
key, label, uint8image = read_cifar10(queue)
image = tf.cast(uint8image, tf.float32)
image = tf.image.per_image_standardization(image)
image.set_shape([8, 8, 3])
label.set_shape([1])
images, labels = tf.train.batch([image, label], batch_size=4, num_threads=1, capacity=20,
                                allow_smaller_final_batch=True)
sess = tf.Session()
sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
coord = tf.train.Coordinator()
threads = tf.train.start_queue_runners(sess=sess, coord=coord)
batches = []
try:
    while True:
        im, lb = sess.run([images, labels])
        batches.append([im.tolist(), lb.reshape(-1).tolist()])
except tf.errors.OutOfRangeError:
    pass
coord.request_stop()
coord.join(threads)
"""

TF_SCRIPT = """
folder = sys.argv[1]
out = {"graphs": {}}
snippets = json.loads(sys.argv[2])
for snippet_name, src in snippets.items():
    tf.reset_default_graph()
    space = {"tf": tf, "np": np}
    exec(src, space)
    out["graphs"][snippet_name] = space["RESULT"]
# TFRecords and Examples written by TF
with tf.python_io.TFRecordWriter(os.path.join(folder, "tf.tfrecord")) as w:
    for i in range(3):
        ex = tf.train.Example(features=tf.train.Features(feature={
            "n": tf.train.Feature(int64_list=tf.train.Int64List(value=[i, i * 10])),
            "s": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"rec%d" % i]))}))
        w.write(ex.SerializeToString())
out["read_ours"] = [r.hex() for r in tf.python_io.tf_record_iterator(os.path.join(folder, "ours.tfrecord"))]
tf.reset_default_graph()
# images encoded by TF
rng = np.random.default_rng(0)
pixels = rng.integers(0, 256, (5, 7, 3)).astype(np.uint8)
with tf.Session() as s:
    open(os.path.join(folder, "tf.png"), "wb").write(s.run(tf.image.encode_png(pixels)))
    smooth = (np.add.outer(np.arange(16) * 9, np.arange(16) * 7)[:, :, None] + [0, 40, 80]).astype(np.uint8)
    open(os.path.join(folder, "tf.jpg"), "wb").write(s.run(tf.image.encode_jpeg(smooth, quality=90)))
    out["png"] = s.run(tf.image.decode_png(open(os.path.join(folder, "ours.png"), "rb").read(),
                                           dtype=tf.uint16)).tolist()
    jpeg = open(os.path.join(folder, "tf.jpg"), "rb").read()
    out["jpg"] = s.run(tf.image.decode_jpeg(jpeg)).tolist()
    out["jpg_accurate"] = s.run(tf.image.decode_jpeg(jpeg, dct_method="INTEGER_ACCURATE")).tolist()
# a GraphDef written by graphlab, with a tf.data pipeline and its function library
tf.reset_default_graph()
gd = tf.GraphDef()
gd.ParseFromString(open(os.path.join(folder, "ours.pb"), "rb").read())
tf.import_graph_def(gd, name="")
with tf.Session() as s:
    out["pipeline"] = [[v.tolist() for v in s.run(["IteratorGetNext:0", "IteratorGetNext:1"])] for _ in range(4)]
tf.reset_default_graph()
exec(CIFAR)
out["cifar"] = batches
print(json.dumps(out))
"""


def _write_cifar_files(folder):
    rng = np.random.default_rng(1)
    for i in (1, 2):
        records = [np.concatenate([[k % 10], rng.integers(0, 256, 8 * 8 * 3)]).astype(np.uint8) for k in range(6)]
        np.concatenate(records).tofile(os.path.join(folder, "data_batch_%d.bin" % i))


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    folder = str(tmp_path_factory.mktemp("pipelines"))
    _write_cifar_files(folder)
    with tf.python_io.TFRecordWriter(os.path.join(folder, "ours.tfrecord")) as w:
        for data in (b"first", b"", b"\x00\xff" * 100):
            w.write(data)
    with tf.Session() as s:
        pixels = np.random.default_rng(2).integers(0, 65536, (4, 6, 3)).astype(np.uint16)
        open(os.path.join(folder, "ours.png"), "wb").write(s.run(tf.image.encode_png(pixels)))
    tf.reset_default_graph()
    x = tf.constant([[1., 2.], [3., 4.], [5., 6.]])
    ds = tf.data.Dataset.from_tensor_slices((x, tf.constant([1, 2, 3])))
    ds = ds.map(lambda a, b: (a * 2.0, b + 1)).batch(2).repeat(2)
    tf.data.make_one_shot_iterator(ds).get_next()
    open(os.path.join(folder, "ours.pb"), "wb").write(tf.get_default_graph().as_graph_def().SerializeToString())
    tf.reset_default_graph()
    return folder


@pytest.fixture(scope="module")
def theirs(folder):
    graphs = {k: DUMP + v + "\nRESULT = dump()\n" for k, v in GRAPHS.items()}
    return tfref.run_tf_json("CIFAR = %r\n" % CIFAR + TF_SCRIPT, folder, json.dumps(graphs))


def _ours(src, scope=None):
    tf.reset_default_graph()
    scope = dict(scope or {}, tf=tf, np=np, os=os)
    exec(DUMP + src, scope)
    return scope


@pytest.mark.parametrize("key", sorted(GRAPHS))
def test_same_graph_as_tf(key, theirs):
    ours = _ours(GRAPHS[key])["dump"]()
    assert ours == theirs["graphs"][key]


def test_tfrecords_both_ways_and_examples_parsed(folder, theirs):
    assert theirs["read_ours"] == [b"first".hex(), b"".hex(), (b"\x00\xff" * 100).hex()]
    records = list(tf.python_io.tf_record_iterator(os.path.join(folder, "tf.tfrecord")))
    assert len(records) == 3
    serialized = tf.placeholder(tf.string, [None])
    parsed = tf.parse_example(serialized, {"n": tf.FixedLenFeature([2], tf.int64), "s": tf.VarLenFeature(tf.string)})
    queue = tf.train.string_input_producer([os.path.join(folder, "tf.tfrecord")], num_epochs=1, shuffle=False)
    key, value = tf.TFRecordReader().read(queue)
    one = tf.parse_single_example(value, {"n": tf.FixedLenFeature([2], tf.int64)})
    with tf.Session() as sess:
        got = sess.run(parsed, {serialized: records})
        np.testing.assert_array_equal(got["n"], [[0, 0], [1, 10], [2, 20]])
        assert list(got["s"].values) == [b"rec0", b"rec1", b"rec2"]
        sess.run(tf.local_variables_initializer())
        tf.train.start_queue_runners(sess)
        k, n = sess.run([key, one["n"]])
        assert k == (os.path.join(folder, "tf.tfrecord") + ":0").encode()
        np.testing.assert_array_equal(n, [0, 0])


def test_png_and_jpeg_pixels_equal_tf(folder, theirs):
    with tf.Session() as sess:
        png = sess.run(tf.image.decode_png(open(os.path.join(folder, "tf.png"), "rb").read()))
        jpg = sess.run(tf.image.decode_jpeg(open(os.path.join(folder, "tf.jpg"), "rb").read()))
        accurate = sess.run(tf.image.decode_jpeg(open(os.path.join(folder, "tf.jpg"), "rb").read(),
                                                 dct_method="INTEGER_ACCURATE"))
        ours16 = sess.run(tf.image.decode_png(open(os.path.join(folder, "ours.png"), "rb").read(), dtype=tf.uint16))
    np.testing.assert_array_equal(png, np.random.default_rng(0).integers(0, 256, (5, 7, 3)).astype(np.uint8))
    np.testing.assert_array_equal(ours16, theirs["png"])                # TF reads our 16-bit PNG exactly
    # TF's default is libjpeg-turbo's fast integer DCT, INTEGER_ACCURATE its accurate one: both exactly
    np.testing.assert_array_equal(jpg, theirs["jpg"])
    np.testing.assert_array_equal(accurate, theirs["jpg_accurate"])


def test_a_graphlab_pipeline_graph_runs_in_tf(theirs):
    assert theirs["pipeline"] == [[[[2., 4.], [6., 8.]], [2, 3]], [[[10., 12.]], [4]]] * 2


def test_cifar10_input_pipeline_gives_tfs_batches(folder, theirs):
    scope = _ours(CIFAR, {"folder": folder})
    assert len(scope["batches"]) == len(theirs["cifar"]) == 3          # 12 records, batches of 4, then the end
    for (images, labels), (tf_images, tf_labels) in zip(scope["batches"], theirs["cifar"]):
        assert labels == tf_labels
        np.testing.assert_allclose(images, tf_images, rtol=1e-5, atol=1e-5)


def test_bad_input_errors(tmp_path):
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"not an image at all")
    decoded = tf.image.decode_png(tf.read_file(str(bad)))
    truncated = tmp_path / "cut.tfrecord"
    with tf.python_io.TFRecordWriter(str(truncated)) as w:
        w.write(b"x" * 50)
    truncated.write_bytes(truncated.read_bytes()[:-10])
    nxt = tf.data.make_one_shot_iterator(tf.data.TFRecordDataset([str(truncated)])).get_next()
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="bad.png") as e:
            sess.run(decoded)
        assert "DecodePng" in str(e.value)
        with pytest.raises(tf.errors.DataLossError, match="truncated record at 0"):
            sess.run(nxt)
    with pytest.raises(tf.errors.DataLossError, match="truncated"):
        list(tf.python_io.tf_record_iterator(str(truncated)))
