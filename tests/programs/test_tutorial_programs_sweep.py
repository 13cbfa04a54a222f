"""Classic TF1 tutorial programs that once ran differently in graphlab than in TensorFlow, run whole on both
sides (one TF subprocess) on small synthetic data, shortened; each names its origin. They stay here so the
difference cannot come back.

* aymericdamien/TensorFlow-Examples, examples/2_BasicModels/word2vec.py: skip-gram batches from a corpus,
  nce_loss with its default log-uniform candidate sampler, a graph-level seed. The sampled negatives were
  numpy's, so the losses parted from TF's at the first step; they are now TF's Philox draws.
* the same collection's examples/1_Introduction/basic_operations.py prints its int16 placeholders and the
  sum of two of them: graphlab wrote ``shape=<unknown>`` where TF leaves the shape out, and never the device
  (word2vec prints tensors made under ``tf.device('/cpu:0')``); feeding an int16 placeholder a value it cannot
  hold named the type ``<dtype: 'int16'>`` where TF names numpy's class.
* the same collection's dcgan.py, tensorflow_dataset_api.py and kmeans.py reach for tf.contrib.layers,
  tf.contrib.data and tf.contrib.factorization, which TF 2 removed (TF says only that compat.v1 has no
  attribute 'contrib'): graphlab said "module 'graphlab.contrib' has no attribute 'layers'"; now the
  UnimplementedError says why and what takes its place.
* the same collection's examples/5_DataManagement/build_an_image_dataset.py reads JPEG files into a CNN:
  graphlab decoded with Pillow's accurate IDCT, TF with libjpeg-turbo's fast one (its default), so the
  pixels differed by about one level and the losses from the first step. Decoding options are compared
  pixel for pixel (channels, fancy_upscaling, dct_method, ratio, decode_image to float and uint16, PNG too).
* the char-rnn model (sherjilozair/char-rnn-tensorflow, model.py and train.py/sample.py, without tf.contrib)
  feeds the LSTM state it fetched back in, keyed by the cell's tuple of LSTMStateTuples: graphlab refused the
  tuple key ("Can not convert a tuple into a Tensor"); TF flattens nested keys and values
  (nest.flatten_dict_items). A fetched tensor that was fed comes back as the fed array, as in TF.
* the CIFAR-10 tutorial's model (tensorflow/models tutorials/image/cifar10/cifar10.py) trained with
  ``print(train_op)``: TF prints the op's NodeDef (inputs, control inputs, device, attrs), graphlab printed
  only its name and type.
"""
import io

import numpy as np
import pytest
from PIL import Image

from tests import tfsnippets

R = np.random.RandomState(5)
CORPUS = np.minimum(R.zipf(1.3, 3000), 60).astype(np.int32)


def _encoded(array, fmt, **options):
    buffer = io.BytesIO()
    Image.fromarray(array).save(buffer, fmt, **options)
    return np.frombuffer(buffer.getvalue(), np.uint8)


def _picture(height, width, rng):
    return np.clip(rng.normal(128, 60, (height, width, 3)).cumsum(1) % 256, 0, 255).astype(np.uint8)


# JPEGs of every chroma subsampling, progressive, grey, odd sizes; PNGs of 8 and 16 bits (as uint8 arrays)
IMAGES = {"JPEG_444": _encoded(_picture(37, 53, R), "JPEG", quality=80, subsampling=0),
          "JPEG_422": _encoded(_picture(16, 16, R), "JPEG", quality=80, subsampling=1),
          "JPEG_420_PROGRESSIVE": _encoded(_picture(41, 9, R), "JPEG", quality=80, subsampling=2, progressive=True),
          "JPEG_GREY": _encoded(_picture(30, 31, R)[:, :, 0], "JPEG", quality=70),
          "PNG_RGB": _encoded(_picture(7, 5, R), "PNG"),
          "PNG_16": _encoded(R.randint(0, 65536, (7, 5)).astype(np.uint16), "PNG")}
# build_an_image_dataset's folders: two classes of small JPEGs of different sizes
CLASSES = {"CAT%d" % i: _encoded(_picture(20 + 3 * i, 24 + i, R), "JPEG", quality=90) for i in range(4)}
CLASSES.update({"DOG%d" % i: _encoded(255 - _picture(22 + i, 21 + 2 * i, R), "JPEG", quality=90) for i in range(4)})

PROGRAMS = {
    # aymericdamien/TensorFlow-Examples examples/2_BasicModels/word2vec.py (corpus of word ids, fewer steps)
    "word2vec_nce": """
import collections, random
random.seed(0)
tf.set_random_seed(14)
data = [int(w) for w in CORPUS]
vocabulary_size, embedding_size, batch_size, num_sampled = 61, 16, 32, 8
skip_window, num_skips = 3, 2
data_index = 0
def next_batch(batch_size, num_skips, skip_window):
    global data_index
    batch = np.ndarray(shape=(batch_size), dtype=np.int32)
    labels = np.ndarray(shape=(batch_size, 1), dtype=np.int32)
    span = 2 * skip_window + 1
    buffer = collections.deque(maxlen=span)
    if data_index + span > len(data):
        data_index = 0
    buffer.extend(data[data_index:data_index + span])
    data_index += span
    for i in range(batch_size // num_skips):
        context_words = [w for w in range(span) if w != skip_window]
        words_to_use = random.sample(context_words, num_skips)
        for j, context_word in enumerate(words_to_use):
            batch[i * num_skips + j] = buffer[skip_window]
            labels[i * num_skips + j, 0] = buffer[context_word]
        buffer.append(data[data_index])
        data_index += 1
    data_index = (data_index + len(data) - span) % len(data)
    return batch, labels

X = tf.placeholder(tf.int32, shape=[None])
Y = tf.placeholder(tf.int32, shape=[None, 1])
with tf.device('/cpu:0'):
    embedding = tf.Variable(tf.random_normal([vocabulary_size, embedding_size]))
    X_embed = tf.nn.embedding_lookup(embedding, X)
    nce_weights = tf.Variable(tf.random_normal([vocabulary_size, embedding_size]))
    nce_biases = tf.Variable(tf.zeros([vocabulary_size]))
loss_op = tf.reduce_mean(tf.nn.nce_loss(weights=nce_weights, biases=nce_biases, labels=Y, inputs=X_embed,
                                        num_sampled=num_sampled, num_classes=vocabulary_size))
train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss_op)
X_embed_norm = X_embed / tf.sqrt(tf.reduce_sum(tf.square(X_embed)))
embedding_norm = embedding / tf.sqrt(tf.reduce_sum(tf.square(embedding), 1, keepdims=True))
cosine_sim_op = tf.matmul(X_embed_norm, embedding_norm, transpose_b=True)
losses = []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(12):
        batch_x, batch_y = next_batch(batch_size, num_skips, skip_window)
        _, loss = sess.run([train_op, loss_op], feed_dict={X: batch_x, Y: batch_y})
        losses.append(loss)
    sim = sess.run(cosine_sim_op, feed_dict={X: np.array([1, 2, 3])})
fetch = [tf.constant(np.array(losses)), tf.constant(sim)]
feed = {}
""",
    # aymericdamien/TensorFlow-Examples examples/5_DataManagement/build_an_image_dataset.py, folder mode on
    # the JPEGs above; files in sorted order, one batching thread (shuffled draws differ by design), fewer
    # filters and steps; tf.contrib.layers.flatten as tf.layers.flatten
    "build_an_image_dataset": """
import os, tempfile
tf.set_random_seed(13)
DATASET_PATH = tempfile.mkdtemp()
for name, blob in sorted(globals().items()):
    if name[:3] in ("CAT", "DOG"):
        os.makedirs(os.path.join(DATASET_PATH, name[:3].lower()), exist_ok=True)
        open(os.path.join(DATASET_PATH, name[:3].lower(), name + ".jpg"), "wb").write(blob.tobytes())
N_CLASSES, IMG_HEIGHT, IMG_WIDTH, CHANNELS = 2, 16, 16, 3
def read_images(dataset_path, batch_size):
    imagepaths, labels = list(), list()
    label = 0
    classes = sorted(os.walk(dataset_path).__next__()[1])
    for c in classes:
        c_dir = os.path.join(dataset_path, c)
        walk = os.walk(c_dir).__next__()
        for sample in sorted(walk[2]):
            if sample.endswith('.jpg') or sample.endswith('.jpeg'):
                imagepaths.append(os.path.join(c_dir, sample))
                labels.append(label)
        label += 1
    imagepaths = tf.convert_to_tensor(imagepaths, dtype=tf.string)
    labels = tf.convert_to_tensor(labels, dtype=tf.int32)
    image, label = tf.train.slice_input_producer([imagepaths, labels], shuffle=False)
    image = tf.read_file(image)
    image = tf.image.decode_jpeg(image, channels=CHANNELS)
    image = tf.image.resize_images(image, [IMG_HEIGHT, IMG_WIDTH])
    image = image * 1.0/127.5 - 1.0
    X, Y = tf.train.batch([image, label], batch_size=batch_size, capacity=batch_size * 8, num_threads=1)
    return X, Y
X, Y = read_images(DATASET_PATH, 4)
def conv_net(x, n_classes, dropout, reuse, is_training):
    with tf.variable_scope('ConvNet', reuse=reuse):
        conv1 = tf.layers.conv2d(x, 4, 5, activation=tf.nn.relu)
        conv1 = tf.layers.max_pooling2d(conv1, 2, 2)
        fc1 = tf.layers.flatten(conv1)
        fc1 = tf.layers.dense(fc1, 16)
        fc1 = tf.layers.dropout(fc1, rate=dropout, training=is_training)
        out = tf.layers.dense(fc1, n_classes)
        out = tf.nn.softmax(out) if not is_training else out
    return out
logits_train = conv_net(X, N_CLASSES, 0.75, reuse=False, is_training=True)
logits_test = conv_net(X, N_CLASSES, 0.75, reuse=True, is_training=False)
loss_op = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(logits=logits_train, labels=Y))
train_op = tf.train.AdamOptimizer(learning_rate=0.001).minimize(loss_op)
accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits_test, 1), tf.cast(Y, tf.int64)), tf.float32))
log = []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(coord=coord)
    for step in range(6):
        _, loss, acc = sess.run([train_op, loss_op, accuracy])
        log.append([loss, acc])
    coord.request_stop()
    coord.join(threads)
fetch = [tf.constant(np.array(log))]
feed = {}
""",
    # sherjilozair/char-rnn-tensorflow model.py, trained as train.py does (the state fetched each batch fed
    # back through the LSTMStateTuples, the learning rate assigned per epoch, gradients clipped) and sampled
    # as sample.py does (state fed back keyed by the whole tuple); a small corpus, argmax sampling
    "char_rnn": """
tf.set_random_seed(51)
text = "the quick brown fox jumps over the lazy dog. " * 6
chars = sorted(set(text))
vocab = {c: i for i, c in enumerate(chars)}
data = np.array([vocab[c] for c in text], np.int32)
batch_size, seq_length, rnn_size, num_layers, grad_clip = 2, 8, 16, 2, 5.0
num_batches = len(data) // (batch_size * seq_length)
xdata = data[:num_batches * batch_size * seq_length]
ydata = np.copy(xdata); ydata[:-1] = xdata[1:]; ydata[-1] = xdata[0]
x_batches = np.split(xdata.reshape(batch_size, -1), num_batches, 1)
y_batches = np.split(ydata.reshape(batch_size, -1), num_batches, 1)
class Model():
    def __init__(self, training=True):
        bs, sl = (batch_size, seq_length) if training else (1, 1)
        cells = [tf.nn.rnn_cell.LSTMCell(rnn_size) for _ in range(num_layers)]
        self.cell = cell = tf.nn.rnn_cell.MultiRNNCell(cells, state_is_tuple=True)
        self.input_data = tf.placeholder(tf.int32, [bs, sl])
        self.targets = tf.placeholder(tf.int32, [bs, sl])
        self.initial_state = cell.zero_state(bs, tf.float32)
        with tf.variable_scope('rnnlm'):
            softmax_w = tf.get_variable("softmax_w", [rnn_size, len(chars)])
            softmax_b = tf.get_variable("softmax_b", [len(chars)])
        embedding = tf.get_variable("embedding", [len(chars), rnn_size])
        inputs = tf.nn.embedding_lookup(embedding, self.input_data)
        outputs, last_state = tf.nn.dynamic_rnn(cell, inputs, initial_state=self.initial_state, scope='rnnlm')
        output = tf.reshape(outputs, [-1, rnn_size])
        self.logits = tf.matmul(output, softmax_w) + softmax_b
        self.probs = tf.nn.softmax(self.logits)
        loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.reshape(self.targets, [-1]), logits=self.logits)
        self.cost = tf.reduce_sum(loss) / bs / sl
        self.final_state = last_state
        self.lr = tf.Variable(0.0, trainable=False)
        tvars = tf.trainable_variables()
        grads, _ = tf.clip_by_global_norm(tf.gradients(self.cost, tvars), grad_clip)
        self.train_op = tf.train.AdamOptimizer(self.lr).apply_gradients(zip(grads, tvars))
with tf.variable_scope("model", reuse=None):
    model = Model()
with tf.variable_scope("model", reuse=True):
    sampler = Model(training=False)
losses, sampled = [], []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for e in range(2):
        sess.run(tf.assign(model.lr, 0.02 * (0.97 ** e)))
        state = sess.run(model.initial_state)
        for b in range(num_batches):
            feed = {model.input_data: x_batches[b], model.targets: y_batches[b]}
            for i, (c, h) in enumerate(model.initial_state):
                feed[c] = state[i].c
                feed[h] = state[i].h
            train_loss, state, _ = sess.run([model.cost, model.final_state, model.train_op], feed)
            losses.append(train_loss)
    state = sess.run(sampler.cell.zero_state(1, tf.float32))
    char = "t"
    for n in range(12):
        probs, state = sess.run([sampler.probs, sampler.final_state],
                                {sampler.input_data: [[vocab[char]]], sampler.initial_state: state})
        char = chars[int(np.argmax(probs[0]))]
        sampled.append(vocab[char])
fetch = [tf.constant(np.array(losses)), tf.constant(np.array(sampled))]
feed = {}
""",
}

DECODING = """
data = tf.placeholder(tf.string)
ops = []
for channels in (0, 1, 3):
    for fancy in (True, False):
        for dct in ("", "INTEGER_FAST", "INTEGER_ACCURATE"):
            ops.append(tf.image.decode_jpeg(data, channels=channels, fancy_upscaling=fancy, dct_method=dct))
    ops += [tf.image.decode_jpeg(data, channels=channels, ratio=ratio) for ratio in (2, 4, 8)]
    ops += [tf.image.decode_image(data, channels=channels), tf.image.decode_png(data, channels=channels)]
ops += [tf.image.decode_image(data, dtype=tf.float32), tf.image.decode_image(data, dtype=tf.uint16)]
fetch = ops
feed = {data: IMAGE.tobytes()}
"""
PNG_DECODING = """
data = tf.placeholder(tf.string)
fetch = [tf.image.decode_png(data), tf.image.decode_png(data, dtype=tf.uint16), tf.image.decode_image(data),
         tf.image.decode_image(data, dtype=tf.float32), tf.image.decode_image(data, dtype=tf.uint16)]
feed = {data: IMAGE.tobytes()}
"""
for _name, _blob in IMAGES.items():
    PROGRAMS["decode_" + _name.lower()] = (DECODING if _name.startswith("JPEG") else PNG_DECODING).replace(
        "IMAGE", _name)
DATA = dict(IMAGES, CORPUS=CORPUS, **CLASSES)

RESULTS = {
    # what print(op) shows: cifar10.py's train op (a NoOp with control inputs, made under a device), a
    # placeholder, a variable, a constant, a reduction and the initializer
    "printed_ops": """
x = tf.placeholder(tf.float32, [None, 3], name="x")
with tf.device('/cpu:0'):
    w = tf.get_variable("w", [3, 2], initializer=tf.ones_initializer())
loss = tf.reduce_mean(tf.square(tf.matmul(x, w)), name="loss")
global_step = tf.train.get_or_create_global_step()
apply_gradient_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=global_step)
variable_averages = tf.train.ExponentialMovingAverage(0.9999, global_step)
with tf.control_dependencies([apply_gradient_op]):
    train_op = variable_averages.apply(tf.trainable_variables())
c = tf.constant([1.5, 2.0], name="c")
result = [str(op) for op in (train_op, apply_gradient_op, x.op, w.op, loss.op, c.op,
                             tf.global_variables_initializer())]
""",
    # basic_operations.py's placeholders and sums as print() shows them, with and without devices
    "printed_tensors": """
a = tf.placeholder(tf.int16)
b = tf.placeholder(tf.float32, [None, 3])
add = tf.add(a, a)
with tf.device('/cpu:0'):
    embedding = tf.Variable(tf.zeros([5, 2]))
    lookup = tf.nn.embedding_lookup(embedding, [1, 2])
with tf.device('/gpu:1'):
    doubled = b * 2
result = [str(t) for t in (a, b, add, lookup, doubled, embedding.value())] + [repr(a), repr(doubled)]
""",
    # a Python int fed to a placeholder whose type cannot hold it (TF's check: the int converted and back)
    "feed_type_errors": """
result = []
for dtype, value in [(tf.int16, 70000), (tf.int16, 32767), (tf.uint8, -1), (tf.int32, 2**31), (tf.bool, 2),
                     (tf.bool, 1), (tf.string, 5), (tf.float16, 70000), (tf.int32, True)]:
    tf.reset_default_graph()
    p = tf.placeholder(dtype, name="p")
    with tf.Session() as sess:
        try:
            result.append(repr(sess.run(tf.identity(p), {p: value})))
        except TypeError as e:
            result.append(str(e))
tf.reset_default_graph()
p = tf.placeholder(tf.float32, [2], name="p")
with tf.Session() as sess:
    for key in (p, "p:0"):
        try:
            sess.run(p, {key: tf.constant([1., 2.])})
        except TypeError as e:
            result.append(str(e))
""",
    # feed_dict keys that are structures (char-rnn's state tuples) and what a fetched fed tensor gives back
    "nested_feeds": """
a, b = tf.placeholder(tf.float32, [2], name="a"), tf.placeholder(tf.float32, [2], name="b")
c = tf.placeholder(tf.float32, [], name="c")
state = tf.nn.rnn_cell.LSTMStateTuple(a, b)
result = []
with tf.Session() as sess:
    for feed in [{(state, c): (tf.nn.rnn_cell.LSTMStateTuple(np.ones(2), np.zeros(2)), 3.0)},
                 {(a, (b, c)): [np.ones(2), (np.full(2, 2.0), 5.0)]},
                 {(a, b): np.ones((2, 2))},
                 {(a, b): (np.ones(2), np.ones(2)), a: np.zeros(2)}]:
        try:
            result.append([repr(v) for v in sess.run([a, b, c, a * 2], feed)])
        except ValueError as e:
            result.append(str(e))
    mine = np.ones(2, np.float32)
    result.append(str(state))
    result.append([sess.run(a, {a: mine}) is mine, repr(sess.run(c, {c: 2.5})), repr(sess.run(c * 1, {c: 2.5}))])
""",
}


@pytest.fixture(scope="module")
def tf_results():
    return tfsnippets.reference(values=PROGRAMS, results=RESULTS, data=DATA)


@pytest.mark.parametrize("key", sorted(PROGRAMS))
def test_program_gives_tensorflows_numbers(key, tf_results):
    ours = tfsnippets.run_ours(PROGRAMS[key], **DATA)
    exact = key.startswith("decode_")       # pixels, and pixels scaled to floats, bit for bit
    tfsnippets.check_values(ours, tf_results["values"][key], rtol=0 if exact else 2e-4, atol=0 if exact else 2e-5,
                            what=key)


@pytest.mark.parametrize("key", sorted(RESULTS))
def test_what_the_program_prints_is_tensorflows(key, tf_results):
    assert tfsnippets.run_result(RESULTS[key])["result"] == tf_results["results"][key]["result"]


@pytest.mark.parametrize("use, instead", [
    ("tf.contrib.layers.flatten(x)", "tf.layers (flatten, dense, conv2d"),
    ("tf.contrib.layers.xavier_initializer()", "xavier_initializer() is tf.glorot_uniform_initializer()"),
    ("tf.contrib.data.Dataset.from_tensor_slices(x)", "tf.contrib.data became tf.data"),
    ("tf.contrib.factorization.KMeans(inputs=x, num_clusters=3)", "tf.contrib.framework's checkpoint readers"),
])
def test_removed_contrib_modules_say_why_and_what_replaces_them(use, instead):
    import graphlab as tf
    module = use.split(".")[2]
    with pytest.raises(tf.errors.UnimplementedError) as e:
        eval(use, {"tf": tf, "x": tf.zeros([2, 3])})
    assert e.value.message.startswith("tf.contrib.%s is not available in graphlab: tf.contrib was removed in "
                                      "TensorFlow 2" % module)
    assert instead in e.value.message
    assert tf.contrib.rnn.BasicLSTMCell is tf.nn.rnn_cell.BasicLSTMCell      # what graphlab keeps still works
