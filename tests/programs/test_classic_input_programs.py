"""Two classic TF1 input pipelines from public tutorial collections, written again in our own words and run
by graphlab and by TensorFlow 2.21 side by side on small synthetic files:

* the CIFAR-10 tutorial's reader (tensorflow/models, tutorials/image/cifar10/cifar10_input.py): fixed-length
  records, decode_raw, the training distortions (random_crop, random flips, brightness, contrast,
  per_image_standardization) into shuffle_batch with several threads and an image summary, and the evaluation
  pipeline (resize_image_with_crop_or_pad, batch);
* the tf.data TFRecord reader of the "Importing data" guide and its many copies (e.g. wangruichens/examples,
  kaggle/avazu/dnn/reader_test.py): Examples written with TFRecordWriter, then TFRecordDataset ->
  map(parse_single_example) -> shuffle -> repeat -> batch -> one-shot iterator.

Whole graphs are compared op for op; values where the pipeline is deterministic (the evaluation pipeline
with one thread, the tf.data reader with a shuffle buffer of 1); shapes and per-image statistics where it
draws random numbers (graphlab's random streams are its own). One TF subprocess for the module."""
import json
import os

import numpy as np
import pytest

import graphlab as tf
from tests import tfref

SIZE, CROP, RECORDS = 8, 6, 5

CIFAR = """
def read_record(filename_queue):
    height, width, depth = SIZE, SIZE, 3
    image_bytes = height * width * depth
    reader = tf.FixedLengthRecordReader(record_bytes=1 + image_bytes)
    key, value = reader.read(filename_queue)
    raw = tf.decode_raw(value, tf.uint8)
    label = tf.cast(tf.strided_slice(raw, [0], [1]), tf.int32)
    planes = tf.reshape(tf.strided_slice(raw, [1], [1 + image_bytes]), [depth, height, width])
    return key, label, tf.transpose(planes, [1, 2, 0])

def image_and_label_batch(image, label, min_queue_examples, batch_size, shuffle, threads):
    if shuffle:
        images, labels = tf.train.shuffle_batch([image, label], batch_size=batch_size, num_threads=threads,
                                                capacity=min_queue_examples + 3 * batch_size,
                                                min_after_dequeue=min_queue_examples)
    else:
        images, labels = tf.train.batch([image, label], batch_size=batch_size, num_threads=threads,
                                        capacity=min_queue_examples + 3 * batch_size)
    tf.summary.image("images", images)
    return images, tf.reshape(labels, [batch_size])

def distorted_inputs(folder, batch_size, threads):
    names = [os.path.join(folder, "data_batch_%d.bin" % i) for i in (1, 2)]
    for n in names:
        if not tf.gfile.Exists(n):
            raise ValueError("missing " + n)
    queue = tf.train.string_input_producer(names)
    key, label, image = read_record(queue)
    image = tf.cast(image, tf.float32)
    image = tf.random_crop(image, [CROP, CROP, 3])
    image = tf.image.random_flip_left_right(image)
    image = tf.image.random_brightness(image, max_delta=63)
    image = tf.image.random_contrast(image, lower=0.2, upper=1.8)
    image = tf.image.per_image_standardization(image)
    image.set_shape([CROP, CROP, 3])
    label.set_shape([1])
    return image_and_label_batch(image, label, 4, batch_size, True, threads)

def inputs(folder, batch_size, threads):
    queue = tf.train.string_input_producer([os.path.join(folder, "test_batch.bin")])
    key, label, image = read_record(queue)
    image = tf.image.resize_image_with_crop_or_pad(tf.cast(image, tf.float32), CROP, CROP)
    image = tf.image.per_image_standardization(image)
    image.set_shape([CROP, CROP, 3])
    label.set_shape([1])
    return image_and_label_batch(image, label, 2, batch_size, False, threads)

def graph_of(build):
    tf.reset_default_graph()
    build()
    return [[op.name, op.type, [t.name for t in op.inputs], sorted(c.name for c in op.control_inputs)]
            for op in tf.get_default_graph().get_operations()]

def run_cifar(folder):
    out = {"train_graph": graph_of(lambda: distorted_inputs(folder, 3, 4)),
           "eval_graph": graph_of(lambda: inputs(folder, 2, 4))}
    for kind, build in (("train", lambda: distorted_inputs(folder, 3, 2)), ("eval", lambda: inputs(folder, 2, 1))):
        tf.reset_default_graph()
        images, labels = build()
        merged = tf.summary.merge_all()
        sess = tf.Session(config=tf.ConfigProto(operation_timeout_in_ms=30000))
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess=sess, coord=coord)
        got = []
        for _ in range(5):
            im, lb, summary = sess.run([images, labels, merged])
            parsed = tf.Summary()
            parsed.ParseFromString(summary)
            got.append([np.round(im, 4).tolist(), lb.tolist(), [v.tag for v in parsed.value]])
        coord.request_stop()
        coord.join(threads)
        sess.close()
        out[kind] = got
    return out
"""

TFDATA = """
def write_examples(path):
    with tf.python_io.TFRecordWriter(path) as writer:
        for i in range(7):
            example = tf.train.Example(features=tf.train.Features(feature={
                "feature": tf.train.Feature(int64_list=tf.train.Int64List(value=[i * 10 + j for j in range(4)])),
                "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[i % 2])),
                "name": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"row%d" % i]))}))
            writer.write(example.SerializeToString())

def parse(example_proto):
    keys_to_features = {"feature": tf.FixedLenFeature((4), tf.int64),
                        "label": tf.FixedLenFeature((1), tf.int64),
                        "name": tf.FixedLenFeature([], tf.string, default_value="")}
    parsed = tf.parse_single_example(example_proto, keys_to_features)
    return parsed["feature"], parsed["label"], parsed["name"]

def run_tfdata(folder):
    tf.reset_default_graph()
    path = os.path.join(folder, "examples.tfrecord")
    write_examples(path)
    dataset = tf.data.TFRecordDataset(path)
    dataset = dataset.map(parse)
    dataset = dataset.shuffle(buffer_size=1)
    dataset = dataset.repeat(2)
    dataset = dataset.batch(3)
    iterator = dataset.make_one_shot_iterator()
    f, l, n = iterator.get_next()
    graph = [[op.name, op.type, [t.name for t in op.inputs]] for op in tf.get_default_graph().get_operations()]
    batches = []
    with tf.Session() as sess:
        while True:
            try:
                a, b, c = sess.run([f, l, n])
            except tf.errors.OutOfRangeError:
                break
            batches.append([a.tolist(), b.tolist(), [x.decode() for x in c]])
    return {"graph": graph, "batches": batches}
"""

PREAMBLE = "SIZE, CROP, RECORDS = %d, %d, %d\n" % (SIZE, CROP, RECORDS)

TF_SCRIPT = """
folder = sys.argv[1]
""" + PREAMBLE + CIFAR + TFDATA + """
print(json.dumps({"cifar": run_cifar(folder), "tfdata": run_tfdata(folder)}))
"""


def _write_cifar(folder):
    rng = np.random.default_rng(7)
    for name in ("data_batch_1.bin", "data_batch_2.bin", "test_batch.bin"):
        rows = [np.concatenate([[k % 10], rng.integers(0, 256, SIZE * SIZE * 3)]).astype(np.uint8)
                for k in range(RECORDS)]
        np.concatenate(rows).tofile(os.path.join(folder, name))


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    folder = str(tmp_path_factory.mktemp("classic"))
    _write_cifar(folder)
    return folder


@pytest.fixture(scope="module")
def theirs(folder):
    return tfref.run_tf_json(TF_SCRIPT, folder)


@pytest.fixture(scope="module")
def ours(folder):
    space = {"tf": tf, "np": np, "os": os}
    exec(PREAMBLE + CIFAR + TFDATA, space)
    return {"cifar": json.loads(json.dumps(space["run_cifar"](folder))),
            "tfdata": json.loads(json.dumps(space["run_tfdata"](folder)))}


@pytest.mark.parametrize("key", ["train_graph", "eval_graph"])
def test_cifar10_pipelines_build_tfs_graphs(key, ours, theirs):
    assert ours["cifar"][key] == theirs["cifar"][key]


def test_cifar10_eval_pipeline_gives_tfs_batches(ours, theirs):
    for (im, lb, tags), (tim, tlb, ttags) in zip(ours["cifar"]["eval"], theirs["cifar"]["eval"]):
        assert lb == tlb and tags == ttags
        assert tags[-2:] == ["images/image/0", "images/image/1"]       # after the queues' fill fractions
        np.testing.assert_allclose(im, tim, atol=1e-3)


def test_cifar10_training_pipeline_gives_standardized_distorted_batches(ours, theirs):
    for side in (ours, theirs):
        for im, lb, tags in side["cifar"]["train"]:
            im = np.array(im)
            assert im.shape == (3, CROP, CROP, 3) and len(lb) == 3
            assert set(lb) <= set(range(RECORDS))
            np.testing.assert_allclose(im.mean(axis=(1, 2, 3)), 0, atol=1e-3)
            assert np.all(im.std(axis=(1, 2, 3)) <= 1.0 + 1e-3)
            assert tags[-3:] == ["images/image/0", "images/image/1", "images/image/2"]
    assert [t for _, _, t in ours["cifar"]["train"]] == [t for _, _, t in theirs["cifar"]["train"]]


def test_tf_data_tfrecord_reader_as_tf(ours, theirs):
    assert ours["tfdata"]["graph"] == theirs["tfdata"]["graph"]
    assert ours["tfdata"]["batches"] == theirs["tfdata"]["batches"]
    assert len(ours["tfdata"]["batches"]) == 5          # 14 examples in batches of 3
