"""TF1 tutorial programs from more public collections (hunkim/DeepLearningZeroToAll, chiphuyen's CS20
stanford-tensorflow-tutorials, ...) that ran differently in graphlab than in TensorFlow, trimmed to the part
that differed and run on both sides (one TF subprocess) on small synthetic data; each names its origin.

* cs20si examples/03_linreg_dataset.py prints its ``tf.data.Dataset``: TF shows the dataset's class and
  element_spec (``<_TensorSliceDataset element_spec=(TensorSpec(...), ...)>``), graphlab showed a Python
  object address. ``unbatch`` of scalar components raised nothing where TF refuses.
* cs20si examples/07_convnet_mnist.py reshapes with ``pool2.shape[1] * pool2.shape[2] * pool2.shape[3]`` (a
  ``Dimension``) inside a list: graphlab could not convert it, where TF accepts Dimensions wherever an
  integer tensor is made (and converts whole TensorShapes, as ``shape_as_tensor``). Its
  ``saver.save(sess, path, step)`` passes the step it fetched (a numpy int): graphlab tried to run it.
  A wrong element type is named as TF names it: the first element that does not fit, printed with str().
* cs20si examples/09_tfrecord_example.py prints what ``parse_single_example(..., name='features')`` gives:
  TF names the op by ``name`` (``features/features/features``), graphlab kept ``ParseExampleV2``; a
  SparseTensor printed its parts with repr() where TF uses str().
* nlintz/TensorFlow-Tutorials 10_save_restore_net.py calls ``softmax_cross_entropy_with_logits(py_x, Y)``
  positionally: TF 2's compat.v1 takes (labels, logits) in that order (TF 1's ``_sentinel`` is gone), so the
  call builds; graphlab raised TF 1's "Only call ... with named arguments" ValueError.
* tensorflow/models tutorials/rnn/ptb/ptb_word_lm.py exports its models' ops to collections (the learning
  rate Variable under "lr") and rebuilds them with export_meta_graph/import_meta_graph: TF stores a Variable
  of an unregistered collection by name and gives back its tensor; graphlab stored a VariableDef and gave
  back the raw bytes. (Its tf.train.Supervisor is compared with TF in tests/train/test_supervisor.py.)
"""
import numpy as np
import pytest

from tests import tfsnippets

RESULTS = {
    # ptb_word_lm.py's export_ops/import_ops: Variables, tensors and ops in collections of its own naming
    "ptb_collections_through_meta_graph": """
with tf.Graph().as_default():
    with tf.name_scope("Train"):
        with tf.variable_scope("Model"):
            lr = tf.Variable(0.0, trainable=False)
            new_lr = tf.placeholder(tf.float32, shape=[], name="new_learning_rate")
            lr_update = tf.assign(lr, new_lr)
            step = tf.train.get_or_create_global_step()
    for name, op in dict(lr=lr, new_lr=new_lr, lr_update=lr_update).items():
        tf.add_to_collection(name, op)
    tf.add_to_collection("Train/mixed", lr)
    tf.add_to_collection("Train/mixed", new_lr)
    metagraph = tf.train.export_meta_graph()
result = [[k, metagraph.collection_def[k].WhichOneof("kind")] for k in sorted(metagraph.collection_def)]
with tf.Graph().as_default():
    tf.train.import_meta_graph(metagraph)
    result.append([str(tf.get_collection_ref(k)) for k in ("lr", "new_lr", "Train/mixed")])
    result.append([v.name for v in tf.global_variables()] + [tf.train.get_global_step().name])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(tf.get_collection_ref("lr_update")[0], {tf.get_collection_ref("new_lr")[0]: 0.5})
        result.append(float(sess.run(tf.get_collection_ref("lr")[0])))
""",
    # nlintz/TensorFlow-Tutorials 10_save_restore_net.py: the cross-entropies called with positional arguments
    "xent_positional": """
logits = tf.constant([[1., 2., 0.5], [0.1, 0.2, 3.]])
y = tf.constant([[0., 1., 0.], [0., 0., 1.]])
idx = tf.constant([1, 2])
makers = [lambda: tf.nn.softmax_cross_entropy_with_logits(logits, y),
          lambda: tf.nn.softmax_cross_entropy_with_logits_v2(y, logits),
          lambda: tf.nn.softmax_cross_entropy_with_logits_v2(y, logits, 1, "n"),
          lambda: tf.nn.softmax_cross_entropy_with_logits(y, logits, 1, "m"),
          lambda: tf.nn.sigmoid_cross_entropy_with_logits(y, logits),
          lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(idx, logits),
          lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(logits, idx),
          lambda: tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=logits, dim=1)]
result = []
with tf.Session() as sess:
    for make in makers:
        try:
            t = make()
            result.append([str(t), np.round(sess.run(t), 4).tolist()])
        except (TypeError, ValueError) as e:
            result.append([type(e).__name__, str(e)])
""",
    # cs20si examples/09_tfrecord_example.py: an image written to a TFRecord, read back through a queue
    "tfrecord_example": """
import os, tempfile
path = os.path.join(tempfile.mkdtemp(), 'friday.tfrecord')
image = np.arange(6 * 8 * 3, dtype=np.uint8).reshape(6, 8, 3)
writer = tf.python_io.TFRecordWriter(path)
example = tf.train.Example(features=tf.train.Features(feature={
    'label': tf.train.Feature(bytes_list=tf.train.BytesList(value=[b'friday'])),
    'shape': tf.train.Feature(bytes_list=tf.train.BytesList(value=[np.array(image.shape, np.int32).tobytes()])),
    'image': tf.train.Feature(bytes_list=tf.train.BytesList(value=[image.tobytes()]))}))
writer.write(example.SerializeToString())
writer.close()
tfrecord_file_queue = tf.train.string_input_producer([path], name='queue')
reader = tf.TFRecordReader()
_, tfrecord_serialized = reader.read(tfrecord_file_queue)
tfrecord_features = tf.parse_single_example(tfrecord_serialized, features={
    'label': tf.FixedLenFeature([], tf.string), 'shape': tf.FixedLenFeature([], tf.string),
    'image': tf.FixedLenFeature([], tf.string)}, name='features')
image = tf.reshape(tf.decode_raw(tfrecord_features['image'], tf.uint8),
                   tf.decode_raw(tfrecord_features['shape'], tf.int32))
label = tf.cast(tfrecord_features['label'], tf.string)
result = [str(tfrecord_features), str(image), str(label)]
with tf.Session() as sess:
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(coord=coord)
    label, image = sess.run([label, image])
    coord.request_stop()
    coord.join(threads)
result += [label.decode(), image.tolist()]
# the op names of parse_example / parse_single_example with and without a name, and a sparse feature
s = tf.placeholder(tf.string, [], name="s")
b = tf.placeholder(tf.string, [None], name="b")
f = {'label': tf.FixedLenFeature([], tf.string), 'v': tf.VarLenFeature(tf.int64),
     'x': tf.FixedLenFeature([2], tf.float32, default_value=[1., 2.])}
for make in [lambda: tf.parse_single_example(s, f), lambda: tf.parse_single_example(s, f, name="features"),
             lambda: tf.parse_example(b, f), lambda: tf.parse_example(b, f, name="pe")]:
    n = len(tf.get_default_graph().get_operations())
    out = make()
    result.append(sorted((k, str(v)) for k, v in out.items()))
    result.append([op.name for op in tf.get_default_graph().get_operations()[n:]])
result.append(repr([tf.SparseTensor([[0, 1]], [2.0], [2, 2])]))
""",
    # cs20si examples/07_convnet_mnist.py: the model on a Dataset of MNIST-shaped rows, trained an epoch,
    # checkpointed with the step it fetched, restored into a new graph and trained on
    "convnet_mnist": """
import os, tempfile
folder = os.path.join(tempfile.mkdtemp(), 'checkpoints', 'convnet_mnist')
os.makedirs(folder)
rng = np.random.RandomState(0)
images = rng.rand(24, 784).astype(np.float32)
labels = np.eye(10, dtype=np.float32)[rng.randint(0, 10, 24)]
result = []

def conv_relu(inputs, filters, k_size, stride, padding, scope_name):
    with tf.variable_scope(scope_name, reuse=tf.AUTO_REUSE) as scope:
        in_channels = inputs.shape[-1]
        kernel = tf.get_variable('kernel', [k_size, k_size, in_channels, filters],
                                 initializer=tf.truncated_normal_initializer())
        biases = tf.get_variable('biases', [filters], initializer=tf.random_normal_initializer())
        conv = tf.nn.conv2d(inputs, kernel, strides=[1, stride, stride, 1], padding=padding)
    return tf.nn.relu(conv + biases, name=scope.name)

def fully_connected(inputs, out_dim, scope_name='fc'):
    with tf.variable_scope(scope_name, reuse=tf.AUTO_REUSE):
        in_dim = inputs.shape[-1]
        w = tf.get_variable('weights', [in_dim, out_dim], initializer=tf.truncated_normal_initializer())
        b = tf.get_variable('biases', [out_dim], initializer=tf.constant_initializer(0.0))
        return tf.matmul(inputs, w) + b

def build():
    tf.set_random_seed(3)
    gstep = tf.Variable(0, dtype=tf.int32, trainable=False, name='global_step')
    data = tf.data.Dataset.from_tensor_slices((images, labels)).batch(8)
    with tf.name_scope('data'):
        iterator = tf.data.Iterator.from_structure(data.output_types, data.output_shapes)
        img, label = iterator.get_next()
        init = iterator.make_initializer(data)
    conv1 = conv_relu(tf.reshape(img, shape=[-1, 28, 28, 1]), 4, 5, 1, 'SAME', 'conv1')
    pool1 = tf.nn.max_pool(conv1, ksize=[1, 4, 4, 1], strides=[1, 4, 4, 1], padding='VALID')
    feature_dim = pool1.shape[1] * pool1.shape[2] * pool1.shape[3]
    flat = tf.reshape(pool1, [-1, feature_dim])
    dropout = tf.nn.dropout(tf.nn.relu(fully_connected(flat, 16, 'fc')), tf.constant(0.75), name='relu_dropout')
    logits = fully_connected(dropout, 10, 'logits')
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=label, logits=logits), name='loss')
    opt = tf.train.AdamOptimizer(0.001).minimize(loss, global_step=gstep)
    result.append([str(conv1), str(flat), str(feature_dim), init.name])
    return gstep, init, loss, opt

for run in range(2):
    tf.reset_default_graph()
    gstep, init, loss, opt = build()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        saver = tf.train.Saver()
        ckpt = tf.train.get_checkpoint_state(os.path.dirname(folder + '/checkpoint'))
        if ckpt and ckpt.model_checkpoint_path:
            saver.restore(sess, ckpt.model_checkpoint_path)
        step = gstep.eval()
        sess.run(init)
        try:
            while True:
                _, l = sess.run([opt, loss])
                result.append(float('%.4g' % l))
                step += 1
        except tf.errors.OutOfRangeError:
            pass
        path = saver.save(sess, folder + '/mnist-convnet', step)
        result.append([str(type(step)), path.replace(folder, '<folder>')])
result.append(str(tf.train.get_checkpoint_state(folder)).replace(folder, '<folder>'))
""",
    # what becomes a constant where an integer tensor is wanted: Dimensions, TensorShapes; the type errors
    "shapes_and_dimensions_as_tensors": """
d = tf.Dimension(784)
x = tf.zeros([2, 784], name="x")
makers = [lambda: tf.reshape(x, [-1, d]), lambda: tf.reshape(x, [-1, tf.Dimension(None)]),
          lambda: tf.tile(x, [1, tf.Dimension(1)]), lambda: tf.slice(x, [0, 0], [1, d]),
          lambda: tf.reshape(x, tf.TensorShape([2, 784])), lambda: tf.reshape(x, (2, d)),
          lambda: tf.constant([d, 2], dtype=tf.int64), lambda: tf.constant([d], dtype=tf.float32),
          lambda: tf.constant([[d]], dtype=tf.int32), lambda: tf.constant(d, dtype=tf.int32),
          lambda: tf.constant([tf.Dimension(None)], dtype=tf.int32), lambda: tf.constant([d, 2.5], dtype=tf.int32),
          lambda: tf.constant([d, True], dtype=tf.int32), lambda: tf.constant([-1, d]),
          lambda: tf.convert_to_tensor(tf.TensorShape([2, 784])),
          lambda: tf.convert_to_tensor(tf.TensorShape([2, 784]), dtype=tf.int64),
          lambda: tf.convert_to_tensor(tf.TensorShape([2, None])), lambda: tf.convert_to_tensor(d),
          lambda: tf.convert_to_tensor(tf.Dimension(None)), lambda: tf.convert_to_tensor(d, dtype=tf.float32),
          lambda: tf.convert_to_tensor(tf.TensorShape([2]), dtype=tf.float32)]
for value, dtype in [("a", tf.int32), (["a"], tf.int32), ([1, "a"], tf.float32), (2.5, tf.int32),
                     ([1.0, 2.5], tf.int32), ([[1], [2.5]], tf.int64), ([1, 2j], tf.float32), (True, tf.int32),
                     ([True, 2], tf.float32), (1, tf.bool), ([True, 1], tf.bool), (np.float64(2.5), tf.int32),
                     ([np.float32(1.5)], tf.int32), ([np.int64(3), 2.5], tf.int32), (b"x", tf.float32),
                     ([None, 1], tf.int32)]:
    makers.append(lambda value=value, dtype=dtype: tf.constant(value, dtype=dtype))
result = []
with tf.Session() as sess:
    for make in makers:
        try:
            t = make()
            result.append([str(t), repr(sess.run(t).tolist())])
        except (TypeError, ValueError) as e:
            result.append([type(e).__name__, str(e)])
""",
    # cs20si examples/03_linreg_dataset.py: print(dataset), and what every other Dataset method gives
    "dataset_reprs": """
import os, tempfile
folder = tempfile.mkdtemp()
path = os.path.join(folder, "a.txt")
with open(path, "w") as f:
    f.write("x\\ny\\n")
x = np.arange(6, dtype=np.float32).reshape(3, 2)
ds = tf.data.Dataset.from_tensor_slices((x, np.arange(3)))
named = tf.data.Dataset.from_tensor_slices({"k": x, "s": ["a", "b", "c"]})
shown = [ds, named, ds.batch(2), ds.shuffle(3), ds.repeat(), ds.map(lambda a, b: a),
         ds.map(lambda a, b: {"a": a}, num_parallel_calls=2), ds.prefetch(1), tf.data.Dataset.range(3),
         tf.data.Dataset.from_tensors(x), ds.take(1), ds.skip(1), ds.filter(lambda a, b: b > 0), ds.cache(),
         tf.data.Dataset.zip((ds, ds)), ds.padded_batch(2, ([2], [])), ds.shard(2, 0),
         ds.flat_map(lambda a, b: tf.data.Dataset.from_tensors(a)),
         ds.interleave(lambda a, b: tf.data.Dataset.from_tensors(a)), ds.concatenate(ds),
         tf.data.Dataset.from_generator(lambda: iter([1]), tf.int32, tf.TensorShape([])),
         tf.data.Dataset.from_tensor_slices(x).batch(2).unbatch(), tf.data.TextLineDataset(path),
         tf.data.TFRecordDataset(path), tf.data.FixedLengthRecordDataset(path, 1),
         tf.data.Dataset.from_tensor_slices(x).batch(2, drop_remainder=True).apply(lambda d: d),
         tf.data.Dataset.range(5).map(lambda i: (i, tf.zeros([i, 3])))]
result = [repr(d) for d in shown]
try:
    ds.unbatch()
except ValueError as e:
    result.append(str(e))
""",
}


@pytest.fixture(scope="module")
def tf_results():
    return tfsnippets.reference(results=RESULTS)


@pytest.mark.parametrize("key", sorted(RESULTS))
def test_what_the_program_prints_is_tensorflows(key, tf_results):
    assert tfsnippets.run_result(RESULTS[key])["result"] == tf_results["results"][key]["result"]
