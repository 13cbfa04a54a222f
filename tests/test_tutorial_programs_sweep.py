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
"""
import numpy as np
import pytest

from tests import tfsnippets

R = np.random.RandomState(5)
CORPUS = np.minimum(R.zipf(1.3, 3000), 60).astype(np.int32)

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
}

RESULTS = {
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
}


@pytest.fixture(scope="module")
def tf_results():
    return tfsnippets.reference(values=PROGRAMS, results=RESULTS, data={"CORPUS": CORPUS})


@pytest.mark.parametrize("key", sorted(PROGRAMS))
def test_program_gives_tensorflows_numbers(key, tf_results):
    ours = tfsnippets.run_ours(PROGRAMS[key], CORPUS=CORPUS)
    tfsnippets.check_values(ours, tf_results["values"][key], rtol=2e-4, atol=2e-5, what=key)


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
