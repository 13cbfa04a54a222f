"""Classic TF1 tutorial programs that once ran differently in graphlab than in TensorFlow, run whole on both
sides (one TF subprocess) on small synthetic data, shortened; each names its origin. They stay here so the
difference cannot come back.

* aymericdamien/TensorFlow-Examples, examples/2_BasicModels/word2vec.py: skip-gram batches from a corpus,
  nce_loss with its default log-uniform candidate sampler, a graph-level seed. The sampled negatives were
  numpy's, so the losses parted from TF's at the first step; they are now TF's Philox draws.
"""
import numpy as np

from tests.tfcompare import Cases, install_tests

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
""",
}

CASES = Cases(values=PROGRAMS, data={"CORPUS": CORPUS})
install_tests(globals(), CASES, rtol=2e-4, atol=2e-5)
