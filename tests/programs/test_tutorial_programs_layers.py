"""Classic TF1 tutorial programs built on tf.layers, run whole in graphlab and in TF side by side (one TF
subprocess), on small synthetic data in place of MNIST downloads: the same graph op for op, and the same
numbers through training.

* TensorFlow's own "A Guide to TF Layers: Building a Convolutional Neural Network" (cnn_mnist.py's
  ``cnn_model_fn``: conv2d/max_pooling2d twice, dense, dropout switched by the mode, logits, sparse softmax
  loss, GradientDescent), with 8x8 images and fewer filters; the mode is a bool placeholder so one graph
  trains and evaluates (dropout is fed off while values are compared: its random mask is not);
* the tf.layers.batch_normalization recipe from its documentation: the train op under
  ``tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS))``, a ``training`` placeholder, then
  inference with the moving averages;
* a convolutional autoencoder on tf.layers.conv2d / conv2d_transpose with Adam.

Variables are set to fixed values after initialization, so both sides start from the same point.
"""
import numpy as np

from tests.tfcompare import Cases, install_tests

R = np.random.RandomState(16)
IMAGES = R.uniform(0, 1, (16, 64)).astype(np.float32)
LABELS = R.randint(0, 10, 16).astype(np.int32)
FEATURES = R.normal(1, 2, (32, 6)).astype(np.float32)
TARGETS = (FEATURES @ R.normal(0, 1, (6, 1))).astype(np.float32)

FILL = """
def fill(sess):
    rng = np.random.RandomState(0)
    for v in tf.global_variables():
        if v.name.endswith(("moving_mean:0", "moving_variance:0")) or "/Adam" in v.name or "_power" in v.name:
            continue
        sess.run(v.assign(rng.normal(0, 0.2, v.shape.as_list()).astype(np.float32)))
"""

CNN_MNIST = FILL + """
def cnn_model_fn(features, labels, mode):
    input_layer = tf.reshape(features["x"], [-1, 8, 8, 1])
    conv1 = tf.layers.conv2d(inputs=input_layer, filters=4, kernel_size=[3, 3], padding="same",
                             activation=tf.nn.relu)
    pool1 = tf.layers.max_pooling2d(inputs=conv1, pool_size=[2, 2], strides=2)
    conv2 = tf.layers.conv2d(inputs=pool1, filters=8, kernel_size=[3, 3], padding="same", activation=tf.nn.relu)
    pool2 = tf.layers.max_pooling2d(inputs=conv2, pool_size=[2, 2], strides=2)
    pool2_flat = tf.reshape(pool2, [-1, 2 * 2 * 8])
    dense = tf.layers.dense(inputs=pool2_flat, units=32, activation=tf.nn.relu)
    dropout = tf.layers.dropout(inputs=dense, rate=0.4, training=mode)
    logits = tf.layers.dense(inputs=dropout, units=10)
    predictions = {"classes": tf.argmax(input=logits, axis=1),
                   "probabilities": tf.nn.softmax(logits, name="softmax_tensor")}
    loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    optimizer = tf.train.GradientDescentOptimizer(learning_rate=0.1)
    train_op = optimizer.minimize(loss=loss, global_step=tf.train.get_global_step())
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.cast(labels, tf.int64), predictions["classes"]), tf.float32))
    return loss, train_op, predictions, accuracy

x = tf.placeholder(tf.float32, [None, 64])
y = tf.placeholder(tf.int32, [None])
mode = tf.placeholder(tf.bool, [])
tf.train.create_global_step()
loss, train_op, predictions, accuracy = cnn_model_fn({"x": x}, y, mode)
log = []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    fill(sess)
    for step in range(20):
        _, l = sess.run([train_op, loss], {x: IMAGES, y: LABELS, mode: False})
        log.append(l)
    probs, acc = sess.run([predictions["probabilities"], accuracy], {x: IMAGES, y: LABELS, mode: False})
    sess.run(train_op, {x: IMAGES, y: LABELS, mode: True})   # a dropout step runs too
fetch = [tf.constant(np.array(log)), tf.constant(probs), tf.constant(acc)]
"""

BATCH_NORM = FILL + """
x = tf.placeholder(tf.float32, [None, 6])
y = tf.placeholder(tf.float32, [None, 1])
training = tf.placeholder_with_default(False, [], name="training")
h = tf.layers.dense(x, 8, use_bias=False)
h = tf.layers.batch_normalization(h, training=training, momentum=0.9)
h = tf.nn.relu(h)
pred = tf.layers.dense(h, 1)
loss = tf.losses.mean_squared_error(y, pred)
update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
with tf.control_dependencies(update_ops):
    train_op = tf.train.MomentumOptimizer(0.05, 0.9).minimize(loss)
log = []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    fill(sess)
    for step in range(15):
        batch = slice(8 * (step % 4), 8 * (step % 4) + 8)
        log.append(sess.run([train_op, loss], {x: FEATURES[batch], y: TARGETS[batch], training: True})[1])
    eval_loss = sess.run(loss, {x: FEATURES, y: TARGETS})
    stats = sess.run([v for v in tf.global_variables() if "moving" in v.name])
fetch = [tf.constant(np.array(log)), tf.constant(eval_loss)] + [tf.constant(s) for s in stats]
"""

AUTOENCODER = FILL + """
x = tf.placeholder(tf.float32, [None, 8, 8, 1])
h = tf.layers.conv2d(x, 4, 3, strides=2, padding="same", activation=tf.nn.relu)
h = tf.layers.conv2d(h, 8, 3, strides=2, padding="same", activation=tf.nn.relu)
h = tf.layers.conv2d_transpose(h, 4, 3, strides=2, padding="same", activation=tf.nn.relu)
out = tf.layers.conv2d_transpose(h, 1, 3, strides=2, padding="same", activation=tf.nn.sigmoid)
loss = tf.reduce_mean(tf.square(out - x))
train_op = tf.train.AdamOptimizer(0.01).minimize(loss)
log = []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    fill(sess)
    for step in range(15):
        log.append(sess.run([train_op, loss], {x: IMAGES.reshape(-1, 8, 8, 1)})[1])
    recon = sess.run(out, {x: IMAGES[:2].reshape(-1, 8, 8, 1)})
fetch = [tf.constant(np.array(log)), tf.constant(recon)]
"""

GRAPH_ONLY = {
    "cnn_mnist": CNN_MNIST.split("log = []")[0],
    "batch_norm": BATCH_NORM.split("log = []")[0],
    "autoencoder": AUTOENCODER.split("log = []")[0],
    # the tutorial's loss with TF's other label and weight shapes (_remove_squeezable_dimensions)
    "sparse_loss_column_labels_and_weights": "labels = tf.placeholder(tf.int32, [4, 1]); "
        "logits = tf.placeholder(tf.float32, [4, 10]); loss = tf.losses.sparse_softmax_cross_entropy("
        "labels=labels, logits=logits, weights=tf.placeholder(tf.float32, [4, 1]))",
    "sparse_loss_scalar_weight_mean": "labels = tf.placeholder(tf.int32, [None]); "
        "logits = tf.placeholder(tf.float32, [None, 10]); loss = tf.losses.sparse_softmax_cross_entropy("
        "labels, logits, weights=2.0, reduction=tf.losses.Reduction.MEAN)",
}
CASES = Cases(graphs=GRAPH_ONLY, values={"cnn_mnist": CNN_MNIST, "batch_norm": BATCH_NORM, "autoencoder": AUTOENCODER},
              data={"IMAGES": IMAGES, "LABELS": LABELS, "FEATURES": FEATURES, "TARGETS": TARGETS})
install_tests(globals(), CASES, rtol=1e-4, atol=1e-5)
