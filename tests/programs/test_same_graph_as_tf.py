"""The same TF1 code builds the same graph in graphlab as in real TensorFlow: every op's name, type and
inputs, in creation order. Each snippet runs here and, through tests/tfref.py, in TF's own Python."""
import json

import pytest

import graphlab
from tests import tfref

SNIPPETS = {
    # the classic loss: TF reshapes logits and labels to matrices around the op, and the loss back
    "softmax_xent_and_gradient": """
x = tf.placeholder(tf.float32, [None, 5], name="logits")
y = tf.placeholder(tf.float32, [None, 5], name="labels")
loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=x))
grads = tf.gradients(loss, [x])
v2 = tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=x)
""",
    "xent_on_3d_logits": """
x = tf.placeholder(tf.float32, [4, None, 3], name="logits")
y = tf.placeholder(tf.float32, [4, None, 3], name="labels")
loss = tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=x)
grads = tf.gradients(tf.reduce_sum(loss), [x, y])
""",
    # tf.shape / tf.size are constants when the static shape is fully known
    "shape_size_rank": """
p = tf.placeholder(tf.float32, [None, 5], name="p")
q = tf.placeholder(tf.float32, [3, 5], name="q")
z = tf.placeholder(tf.float32, [0, None], name="z")
outs = [tf.shape(p), tf.shape(q), tf.size(p), tf.size(q), tf.size(z), tf.rank(p)]
""",
    # list arguments: stack converts along axis 0 like a constant list; concat names entries values_i
    "list_arguments": """
b = tf.placeholder(tf.float32, [4], name="b")
x = tf.placeholder(tf.float32, [3, 4], name="x")
outs = [tf.stack([1.0, b[0]]), tf.stack([b, b], axis=1), tf.stack([[1.0, 2.0], [3.0, 4.0]]),
        tf.concat([x, [[1.0, 2.0, 3.0, 4.0]]], 0), tf.add_n([b, b]),
        tf.slice(x, [tf.rank(x) - 2, 0], [1, -1])]
""",
    # the classic MNIST softmax tutorial with Adam: big zeros are Fills, slots, update ops, everything
    "mnist_softmax_with_adam": """
x = tf.placeholder(tf.float32, [None, 784], name="x")
y_ = tf.placeholder(tf.float32, [None, 10], name="y_")
W = tf.Variable(tf.zeros([784, 10]))
b = tf.Variable(tf.zeros([10]))
y = tf.matmul(x, W) + b
cross_entropy = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y_, logits=y))
train_step = tf.train.AdamOptimizer(1e-3).minimize(cross_entropy)
correct = tf.equal(tf.argmax(y, 1), tf.argmax(y_, 1))
accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
init = tf.global_variables_initializer()
""",
    # gradient clipping between compute_gradients and apply_gradients, with an unconnected variable (None)
    "clip_by_global_norm_training": """
x = tf.placeholder(tf.float32, [None, 3], name="x")
w = tf.Variable(tf.ones([3, 2]), name="w")
b = tf.Variable(tf.zeros([2]), name="b")
unused = tf.Variable(1.0, name="unused")
loss = tf.reduce_sum(tf.square(tf.matmul(x, w) + b))
opt = tf.train.GradientDescentOptimizer(0.1)
grads, variables = zip(*opt.compute_gradients(loss, [w, b, unused]))
clipped, norm = tf.clip_by_global_norm(grads, 5.0)
train_op = opt.apply_gradients(zip(clipped, variables))
named, _ = tf.clip_by_global_norm([grads[0], grads[1]], tf.constant(2.0), name="clipper")
given, _ = tf.clip_by_global_norm([grads[0]], 1.0, use_norm=norm)
""",
    "clip_by_norm_and_friends": """
t = tf.placeholder(tf.float32, [4, 3], name="t")
c = tf.placeholder(tf.float32, [], name="c")
outs = [tf.clip_by_norm(t, 1.5), tf.clip_by_norm(t, c), tf.clip_by_norm(t, 2.0, axes=[1]),
        tf.clip_by_norm([[3.0, 4.0]], -1.0), tf.global_norm([t, None, t * 2], name="gn"),
        tf.clip_by_average_norm(t, 0.5)]
grads = tf.gradients(tf.reduce_sum(outs[0]) + outs[4], [t, c])
""",
    # the CIFAR-10 tutorial's model, loss and train() (shrunk): lrn, zero_fraction summaries, weight decay in
    # a 'losses' collection, gradients built under control_dependencies, two ExponentialMovingAverages
    "cifar10_tutorial": """
import re
def _activation_summary(x):
    tensor_name = re.sub('tower_[0-9]*/', '', x.op.name)
    tf.summary.histogram(tensor_name + '/activations', x)
    tf.summary.scalar(tensor_name + '/sparsity', tf.nn.zero_fraction(x))
def _variable_on_cpu(name, shape, initializer):
    with tf.device('/cpu:0'):
        return tf.get_variable(name, shape, initializer=initializer, dtype=tf.float32)
def _variable_with_weight_decay(name, shape, stddev, wd):
    var = _variable_on_cpu(name, shape, tf.truncated_normal_initializer(stddev=stddev, dtype=tf.float32))
    if wd is not None:
        weight_decay = tf.multiply(tf.nn.l2_loss(var), wd, name='weight_loss')
        tf.add_to_collection('losses', weight_decay)
    return var
images = tf.placeholder(tf.float32, [4, 8, 8, 3], name="images")
labels = tf.placeholder(tf.int32, [4], name="labels")
global_step = tf.train.get_or_create_global_step()
with tf.variable_scope('conv1') as scope:
    kernel = _variable_with_weight_decay('weights', shape=[5, 5, 3, 8], stddev=5e-2, wd=None)
    conv = tf.nn.conv2d(images, kernel, [1, 1, 1, 1], padding='SAME')
    biases = _variable_on_cpu('biases', [8], tf.constant_initializer(0.0))
    conv1 = tf.nn.relu(tf.nn.bias_add(conv, biases), name=scope.name)
    _activation_summary(conv1)
pool1 = tf.nn.max_pool(conv1, ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1], padding='SAME', name='pool1')
norm1 = tf.nn.lrn(pool1, 4, bias=1.0, alpha=0.001 / 9.0, beta=0.75, name='norm1')
with tf.variable_scope('local3') as scope:
    reshape = tf.reshape(norm1, [images.get_shape().as_list()[0], -1])
    dim = reshape.get_shape()[1].value
    weights = _variable_with_weight_decay('weights', shape=[dim, 16], stddev=0.04, wd=0.004)
    biases = _variable_on_cpu('biases', [16], tf.constant_initializer(0.1))
    local3 = tf.nn.relu(tf.matmul(reshape, weights) + biases, name=scope.name)
    _activation_summary(local3)
with tf.variable_scope('softmax_linear') as scope:
    weights = _variable_with_weight_decay('weights', [16, 10], stddev=1 / 16.0, wd=None)
    biases = _variable_on_cpu('biases', [10], tf.constant_initializer(0.0))
    logits = tf.add(tf.matmul(local3, weights), biases, name=scope.name)
cross_entropy = tf.nn.sparse_softmax_cross_entropy_with_logits(
    labels=tf.cast(labels, tf.int64), logits=logits, name='cross_entropy_per_example')
tf.add_to_collection('losses', tf.reduce_mean(cross_entropy, name='cross_entropy'))
total_loss = tf.add_n(tf.get_collection('losses'), name='total_loss')
lr = tf.train.exponential_decay(0.1, global_step, 350, 0.1, staircase=True)
tf.summary.scalar('learning_rate', lr)
loss_averages = tf.train.ExponentialMovingAverage(0.9, name='avg')
losses = tf.get_collection('losses')
loss_averages_op = loss_averages.apply(losses + [total_loss])
for l in losses + [total_loss]:
    tf.summary.scalar(l.op.name + ' (raw)', l)
    tf.summary.scalar(l.op.name, loss_averages.average(l))
with tf.control_dependencies([loss_averages_op]):
    opt = tf.train.GradientDescentOptimizer(lr)
    grads = opt.compute_gradients(total_loss)
apply_gradient_op = opt.apply_gradients(grads, global_step=global_step)
for var in tf.trainable_variables():
    tf.summary.histogram(var.op.name, var)
for grad, var in grads:
    if grad is not None:
        tf.summary.histogram(var.op.name + '/gradients', grad)
variable_averages = tf.train.ExponentialMovingAverage(0.9999, global_step)
with tf.control_dependencies([apply_gradient_op]):
    variables_averages_op = variable_averages.apply(tf.trainable_variables())
summary_op = tf.summary.merge_all()
""",
    # sparse labels: the Shape of the labels first, rank-3 logits reshaped around the op (with an assert
    # when the shapes are not static), the user's name on the op itself
    "sparse_softmax_xent_ranks": """
logits2 = tf.placeholder(tf.float32, [None, 5], name="logits2")
labels1 = tf.placeholder(tf.int32, [None], name="labels1")
logits3 = tf.placeholder(tf.float32, [2, None, 5], name="logits3")
labels2 = tf.placeholder(tf.int64, [2, None], name="labels2")
static3 = tf.placeholder(tf.float32, [2, 3, 5], name="static3")
outs = [tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels1, logits=logits2),
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels1, logits=logits2, name="per_example"),
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels2, logits=logits3),
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.zeros([2, 3], tf.int32), logits=static3)]
grads = tf.gradients([tf.reduce_sum(o) for o in outs], [logits2, logits3, static3])
""",
    # tf.assert_equal: its scope is opened twice (assert_equal_1/), Equal/All and the Assert always built
    "assert_equal": """
x = tf.placeholder(tf.float32, [None], name="x")
checks = [tf.assert_equal(tf.shape(x)[0], 2), tf.assert_equal(x, x), tf.assert_equal(x, 1.0, message="one"),
          tf.assert_equal(tf.constant(3), 3, name="known"), tf.assert_equal(x, tf.ones([2]), data=[x], summarize=5)]
""",
    # tf.case: nested conds in order; exclusive adds an Assert on the count of true predicates; without a
    # default the last pair becomes one, guarded by two Asserts; a dict is taken in predicate-name order
    "case_forms": """
x = tf.placeholder(tf.int32, [], name="x")
a = tf.case([(x < 0, lambda: tf.constant(-1)), (x < 10, lambda: tf.constant(1))], default=lambda: tf.constant(99))
b = tf.case([(x < 0, lambda: x - 1), (x > 5, lambda: x + 1)], default=lambda: x, exclusive=True, name="excl")
c = tf.case([(tf.equal(x, 1), lambda: tf.constant(10)), (tf.equal(x, 2), lambda: tf.constant(20))])
d = tf.case({tf.greater(x, 3, name="big"): lambda: x * 2, tf.less(x, -3, name="small"): lambda: x * 3},
            default=lambda: x, exclusive=True)
""",
    # the classic linear-regression tutorial: scalar placeholders of unknown shape, pow, truediv
    "linear_regression_tutorial": """
X = tf.placeholder(tf.float32, name="X")
Y = tf.placeholder(tf.float32, name="Y")
W = tf.Variable(0.5, name="weight")
b = tf.Variable(0.5, name="bias")
pred = tf.add(tf.multiply(X, W), b)
cost = tf.reduce_sum(tf.pow(pred - Y, 2)) / (2 * 17)
optimizer = tf.train.GradientDescentOptimizer(0.01).minimize(cost)
init = tf.global_variables_initializer()
""",
    # the Deep MNIST tutorial (shortened to one conv layer): conv, pool, dropout on keep_prob, Adam
    "deep_mnist_tutorial": """
def weight_variable(shape):
    return tf.Variable(tf.truncated_normal(shape, stddev=0.1))
def bias_variable(shape):
    return tf.Variable(tf.constant(0.1, shape=shape))
def conv2d(x, W):
    return tf.nn.conv2d(x, W, strides=[1, 1, 1, 1], padding='SAME')
def max_pool_2x2(x):
    return tf.nn.max_pool(x, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding='SAME')
x = tf.placeholder(tf.float32, shape=[None, 784])
y_ = tf.placeholder(tf.float32, shape=[None, 10])
x_image = tf.reshape(x, [-1, 28, 28, 1])
W_conv1 = weight_variable([5, 5, 1, 32]); b_conv1 = bias_variable([32])
h_conv1 = tf.nn.relu(conv2d(x_image, W_conv1) + b_conv1)
h_pool1 = max_pool_2x2(h_conv1)
W_fc1 = weight_variable([14 * 14 * 32, 64]); b_fc1 = bias_variable([64])
h_pool1_flat = tf.reshape(h_pool1, [-1, 14 * 14 * 32])
h_fc1 = tf.nn.relu(tf.matmul(h_pool1_flat, W_fc1) + b_fc1)
keep_prob = tf.placeholder(tf.float32)
h_fc1_drop = tf.nn.dropout(h_fc1, keep_prob)
W_fc2 = weight_variable([64, 10]); b_fc2 = bias_variable([10])
y_conv = tf.matmul(h_fc1_drop, W_fc2) + b_fc2
cross_entropy = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y_, logits=y_conv))
train_step = tf.train.AdamOptimizer(1e-4).minimize(cross_entropy)
correct_prediction = tf.equal(tf.argmax(y_conv, 1), tf.argmax(y_, 1))
accuracy = tf.reduce_mean(tf.cast(correct_prediction, tf.float32))
""",
    "zeros_like_and_ones_like": """
p = tf.placeholder(tf.float32, [None, 3], name="p")
q = tf.placeholder(tf.float32, [2, 3], name="q")
big = tf.placeholder(tf.float32, [40, 30], name="big")
outs = [tf.zeros_like(p), tf.zeros_like(q), tf.zeros_like(big), tf.ones_like(p), tf.ones_like(q), tf.ones_like(big),
        tf.zeros_like(q, dtype=tf.int32), tf.zeros_like(p, dtype=tf.int32), tf.ones_like(p, dtype=tf.int32), tf.zeros_like([1, 2])]
""",
    # variable scopes with reuse, tf.losses, l2 regularisation, decayed learning rate, Momentum,
    # summaries and a Saver: a typical TF1 training script's whole graph
    "scoped_model_with_losses_summaries_and_saver": """
def layer(x, n_in, n_out):
    w = tf.get_variable("weights", [n_in, n_out], initializer=tf.glorot_uniform_initializer())
    b = tf.get_variable("biases", [n_out], initializer=tf.zeros_initializer())
    return tf.nn.sigmoid(tf.nn.bias_add(tf.matmul(x, w), b))
x = tf.placeholder(tf.float32, [None, 4], name="x")
with tf.variable_scope("net"):
    with tf.variable_scope("h1"):
        h = layer(x, 4, 8)
    with tf.variable_scope("out"):
        out = layer(h, 8, 1)
with tf.variable_scope("net", reuse=True):
    with tf.variable_scope("h1"):
        h2 = layer(x, 4, 8)
loss = tf.losses.mean_squared_error(tf.ones_like(out), out) + 0.01 * tf.nn.l2_loss(tf.trainable_variables()[0])
gs = tf.train.get_or_create_global_step()
lr = tf.train.exponential_decay(0.1, gs, 100, 0.96, staircase=True)
train = tf.train.MomentumOptimizer(lr, 0.9).minimize(loss, global_step=gs)
tf.summary.scalar("loss", loss)
tf.summary.histogram("w", tf.trainable_variables()[2])
merged = tf.summary.merge_all()
saver = tf.train.Saver()
""",
    "savers_and_metrics": """
v = tf.Variable(tf.zeros([3]), name="v")
with tf.variable_scope("layer"):
    w = tf.get_variable("w", [2, 2])
gs = tf.train.get_or_create_global_step()
saver = tf.train.Saver(max_to_keep=3)
s2 = tf.train.Saver({"renamed": v})
acc, acc_op = tf.metrics.accuracy(tf.constant([1, 2]), tf.constant([1, 3]))
m, m_op = tf.metrics.mean(tf.constant([1.0, 2.0]))
""",
    # centered RMSProp: slots rms, mg, momentum (w/RMSProp, w/RMSProp_1, w/RMSProp_2), ApplyCenteredRMSProp
    "centered_rmsprop": """
x = tf.placeholder(tf.float32, [None, 3], name="x")
w = tf.Variable(tf.ones([3, 2]), name="w")
loss = tf.reduce_sum(tf.square(tf.matmul(x, w)))
train = tf.train.RMSPropOptimizer(0.01, momentum=0.9, centered=True).minimize(loss)
init = tf.global_variables_initializer()
""",
    # sharded=True: the shard's _temp file name, SaveV2, MergeV2Checkpoints, restore_shard
    "sharded_saver": """
v = tf.Variable(tf.zeros([3]), name="v")
w = tf.Variable([1, 2], name="w")
saver = tf.train.Saver(sharded=True)
s2 = tf.train.Saver({"renamed": v}, sharded=True, name="other")
""",
    "maximum_minimum_clip_gradients": """
x = tf.placeholder(tf.float32, [None, 3], name="x")
y = tf.placeholder(tf.float32, [3], name="y")
outs = [tf.clip_by_value(x, -1.0, 1.0), tf.maximum(x, y), tf.minimum(x, 0.5), tf.maximum(y, y * 2.0)]
grads = tf.gradients(tf.add_n([tf.reduce_sum(o) for o in outs]), [x, y])
""",
    "zeros_and_ones": """
outs = [tf.ones([600, 600]), tf.zeros([10, 10]), tf.zeros([10, 100]), tf.ones([999]), tf.ones([1000], tf.int32),
        tf.zeros([2, 3], tf.bool)]
""",
    "square_and_reshape_gradients": """
x = tf.placeholder(tf.float32, [3, 4], name="x")
p = tf.placeholder(tf.float32, [None, 4], name="p")
loss = tf.reduce_sum(tf.square(x)) + tf.reduce_sum(tf.reshape(p, [-1])) + tf.reduce_sum(tf.reshape(x, [12]))
grads = tf.gradients(loss, [x, p])
""",
    # TF's exact Prod gradient: exclusive cumprods over the reduced axes moved to the front (ListDiff, Transpose)
    "reduce_prod_gradients": """
x = tf.placeholder(tf.float32, [3, 4], name="x")
p = tf.placeholder(tf.float32, [None, 4, 2], name="p")
u = tf.placeholder(tf.float32, None, name="u")
loss = (tf.reduce_prod(x, 1) + tf.reduce_sum(tf.reduce_prod(p, [0, -1], keepdims=True))
        + tf.reduce_prod(x) + tf.reduce_prod(u, 0)
        + tf.reduce_sum(tf.reduce_prod(p, tf.constant([1], tf.int64), keepdims=True)))
grads = tf.gradients(loss, [x, p, u])
""",
    "cumsum_cumprod_and_gradients": """
x = tf.placeholder(tf.float32, [3, 4], name="x")
outs = [tf.cumsum(x), tf.cumsum(x, 1, exclusive=True, reverse=True), tf.math.cumprod(x, -1, name="cp"),
        tf.cumprod([1.0, 2.0], exclusive=True), tf.setdiff1d([1, 2, 3], [2]).idx]
grads = tf.gradients(tf.reduce_sum(outs[1]) + tf.reduce_sum(outs[2]), [x])
""",
    # unary math and activations with TF's gradient rules: *Grad ops (SigmoidGrad ...), control dependencies
    # on the incoming gradient, swish's custom gradient (IdentityN); crelu's forward ops (its ConcatV2
    # gradient is in concat_gradients)
    "unary_math_and_gradients": """
x = tf.placeholder(tf.float32, [None, 3], name="x")
fns = [tf.sigmoid, tf.tanh, tf.sqrt, tf.rsqrt, tf.reciprocal, tf.exp, tf.log, tf.square, tf.abs, tf.negative,
       tf.sin, tf.cos, tf.nn.relu, tf.nn.relu6, tf.nn.elu, tf.nn.softplus, tf.log1p, tf.sign, tf.floor,
       tf.nn.softmax, tf.nn.log_softmax, tf.nn.leaky_relu, tf.nn.selu, tf.nn.softsign, tf.expm1, tf.atan,
       tf.asin, tf.acos, tf.sinh, tf.cosh, tf.tan, tf.erf, tf.lgamma, tf.digamma, tf.ceil, tf.round,
       tf.nn.swish, tf.math.softplus, tf.math.softsign, tf.nn.silu]
ys = [f(x) for f in fns]
crelu = tf.nn.crelu(x)
grads = tf.gradients(tf.add_n([tf.reduce_sum(y) for y in ys]), x)
p = tf.placeholder(tf.float32, [2], name="p")
second = tf.gradients(tf.gradients(tf.reduce_sum(tf.sigmoid(p) + tf.tanh(p) + tf.sqrt(p) + tf.rsqrt(p)
                                                 + tf.reciprocal(p) + tf.nn.softplus(p)), p)[0], p)
poly = tf.gradients(tf.reduce_sum(tf.polygamma(tf.constant(2.0), p)), p)
""",
    "l2loss_divnonan_squared_difference_mul_gradients": """
x = tf.placeholder(tf.float32, [3, 4], name="x")
y = tf.placeholder(tf.float32, [3, 4], name="y")
p = tf.placeholder(tf.float32, [None, 4], name="p")
b = tf.placeholder(tf.float32, [4], name="b")
loss = (tf.nn.l2_loss(x) + tf.reduce_sum(tf.div_no_nan(x, y)) + tf.reduce_sum(tf.squared_difference(x, y))
        + tf.reduce_sum(tf.squared_difference(p, b)) + tf.reduce_sum(x * y) + tf.reduce_sum(p * b)
        + tf.reduce_sum(tf.div_no_nan(p, b)))
grads = tf.gradients(loss, [x, y, p, b])
""",
    # array ops and their gradients, on placeholders with an unknown batch dimension and fully known ones.
    # ConcatV2's gradient: Rank/FloorMod, Shape Consts or one ShapeN, ConcatOffset + Slice (more than 16
    # inputs: one SplitV); Slice's paddings as [rank, 1] columns; StridedSliceGrad's known args as Consts
    "concat_gradients": """
x = tf.placeholder(tf.float32, [None, 3], name="x")
y = tf.placeholder(tf.float32, [None, 2], name="y")
a = tf.placeholder(tf.float32, [2, 3], name="a")
i = tf.placeholder(tf.int32, [], name="i")
outs = [tf.concat([x, y, x], -1), tf.concat([a, a], 0), tf.concat([x] * 17, 1), tf.concat([a] * 17, 0),
        tf.nn.crelu(x), tf.concat([a, a], i), tf.concat([x, x], axis=tf.constant(0))]
grads = tf.gradients(tf.add_n([tf.reduce_sum(o) for o in outs]), [x, y, a])
""",
    "stack_unstack_split_gradients": """
x = tf.placeholder(tf.float32, [None, 6], name="x")
u = tf.placeholder(tf.float32, [4, None], name="u")
a = tf.placeholder(tf.float32, [4, 6], name="a")
p, q = tf.split(x, [2, -1], axis=1)
r, s = tf.split(u, 2, axis=0, name="halves")
e, f, g = tf.split(a, [1, 2, 3], axis=1)
v, w = tf.unstack(tf.reshape(x, [-1, 2, 3]), axis=1)
cols = tf.unstack(a, axis=1)
st = tf.stack([u, u, u], axis=-1)
grads = tf.gradients(tf.reduce_sum(p) + tf.reduce_sum(q * 2.0) + tf.reduce_sum(s) + tf.reduce_sum(e)
                     + tf.reduce_sum(g) + tf.reduce_sum(v) + tf.add_n([tf.reduce_sum(c) for c in cols])
                     + tf.reduce_sum(st) + tf.reduce_sum(tf.stack([x, x], axis=1)), [x, u, a])
""",
    "slice_and_strided_slice_gradients": """
x = tf.placeholder(tf.float32, [None, 6], name="x")
a = tf.placeholder(tf.float32, [4, 6], name="a")
k = tf.constant(1)
outs = [tf.slice(x, [0, 1], [-1, 2]), tf.slice(a, [1, 1], [2, 3]), x[1:, ::2], x[:, 0], x[..., None],
        a[1:, ::2], a[:, 0], a[..., None], x[k:, :k], a[k], tf.shape(x)[k:][1:]]
grads = tf.gradients(tf.add_n([tf.reduce_sum(o) for o in outs[:-1]]), [x, a])
""",
    # axis 0 is left out: TF hands IndexedSlices on and densifies them where they are summed
    "gather_on_other_axes_gradients": """
x = tf.placeholder(tf.float32, [None, 6], name="x")
a = tf.placeholder(tf.float32, [4, 6, 2], name="a")
i = tf.placeholder(tf.int32, [None], name="i")
outs = [tf.gather(x, i, axis=1), tf.gather(a, [0, 3], axis=1), tf.gather(a, [[1, 0]], axis=-1)]
grads = tf.gradients(tf.add_n([tf.reduce_sum(o) for o in outs]), [x, a])
""",
    "tile_pad_transpose_reverse_gradients": """
x = tf.placeholder(tf.float32, [None, 3, 2], name="x")
u = tf.placeholder(tf.float32, None, name="u")
a = tf.placeholder(tf.float32, [4, 3], name="a")
n = tf.placeholder(tf.int32, [2], name="n")
pp = tf.placeholder(tf.int32, [3, 2], name="pp")
outs = [tf.tile(a, [1, 3]), tf.tile(a, n), tf.tile(x, [1, 2, tf.shape(x)[0]]), tf.pad(x, pp),
        tf.pad(x, [[0, 0], [1, 1], [2, 0]], mode="REFLECT", name="refl"), tf.pad(u, [[1, 1]]),
        tf.pad(x, [[0, 0], [1, 2], [1, 0]], "SYMMETRIC"), tf.pad(a, [[0, 1], [1, 0]], constant_values=2.0),
        tf.transpose(x, [2, 0, 1]), tf.transpose(a), tf.transpose(u), tf.reverse(a, [1]), tf.reverse(x, [0, -1])]
grads = tf.gradients(tf.add_n([tf.reduce_sum(o) for o in outs]), [x, u, a])
""",
    "expand_squeeze_reshape_gradients": """
x = tf.placeholder(tf.float32, [None, 1, 3], name="x")
u = tf.placeholder(tf.float32, None, name="u")
a = tf.placeholder(tf.float32, [4, 1], name="a")
outs = [tf.expand_dims(x, 1), tf.expand_dims(a, -1), tf.squeeze(x, [1]), tf.squeeze(a), tf.squeeze(x),
        tf.reshape(x, [-1, 3]), tf.reshape(a, [2, 2]), tf.reshape(x, tf.stack([tf.shape(x)[0], 3])),
        tf.reshape(u, [-1])]
grads = tf.gradients(tf.add_n([tf.reduce_sum(o) for o in outs]), [x, u, a])
""",
    # one_hot's given on/off values are unnamed Consts; boolean_mask's forward ops (its GatherV2 gradient
    # is on axis 0, see above)
    "one_hot_where_select_boolean_mask": """
i = tf.placeholder(tf.int32, [None], name="i")
c = tf.placeholder(tf.bool, [None, 3], name="c")
b = tf.placeholder(tf.bool, [None], name="b")
x = tf.placeholder(tf.float32, [None, 3], name="x")
y = tf.placeholder(tf.float32, [3], name="y")
a = tf.placeholder(tf.float32, [4, 3], name="a")
hot = [tf.one_hot(i, 3), tf.one_hot([1, 0], 3, axis=0), tf.one_hot(i, 4, 1.0, 0.0), tf.one_hot(i, 2, 1, 0),
       tf.one_hot(i, 2, off_value=-1, dtype=tf.int64)]
outs = [tf.where(c, x, x * 2.0), tf.where(b, x, -x), tf.where_v2(c, x, y), tf.where_v2(c, x, 0.0)]
grads = tf.gradients(tf.add_n([tf.reduce_sum(o) for o in outs]), [x, y])
idx = tf.where(c)
masked = [tf.boolean_mask(x, c), tf.boolean_mask(a, [True, False, True, True])]
""",
    "conv_and_pool_gradients": """
x = tf.placeholder(tf.float32, [None, 8, 8, 2], name="x")
f = tf.placeholder(tf.float32, [3, 3, 2, 4], name="f")
a = tf.placeholder(tf.float32, [2, 8, 8, 2], name="a")
z = tf.placeholder(tf.float32, [None, None, None, 2], name="z")
c1 = tf.nn.conv2d(x, f, [1, 1, 1, 1], "SAME")
c2 = tf.nn.conv2d(a, f, [1, 2, 2, 1], "VALID")
c3 = tf.nn.conv2d(z, f, strides=[1, 2, 2, 1], padding="SAME", dilations=[1, 1, 1, 1], name="conv")
c4 = tf.nn.conv2d(z, f, [1, 1, 1, 1], "VALID", dilations=[1, 2, 2, 1])
pools = [tf.nn.max_pool(c1, [1, 2, 2, 1], [1, 2, 2, 1], "SAME"), tf.nn.avg_pool(c2, [1, 2, 2, 1], [1, 1, 1, 1], "VALID"),
         tf.nn.max_pool(a, [1, 2, 2, 1], [1, 2, 2, 1], "VALID"), tf.nn.avg_pool(x, [1, 3, 3, 1], [1, 2, 2, 1], "SAME"),
         tf.nn.max_pool(c3, [1, 3, 3, 1], [1, 1, 1, 1], "SAME", name="pool"),
         tf.nn.avg_pool(c4, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME")]
g1 = tf.gradients(tf.add_n([tf.reduce_sum(p) for p in pools]), [x, f, a, z])
g2 = tf.gradients(tf.reduce_sum(g1[3]), [z, f])
""",
    # second order through MaxPoolGrad/AvgPoolGrad/Conv2DBackprop* (AvgPoolGrad's shape input gets a
    # StopGradient), the public backprop functions, max_pool2d's own default name
    "pool_and_conv_second_order": """
x = tf.placeholder(tf.float32, [2, 6, 6, 2], name="x")
f = tf.placeholder(tf.float32, [3, 3, 2, 2], name="f")
m = tf.nn.max_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
v = tf.nn.avg_pool(x, [1, 2, 2, 1], [1, 1, 1, 1], "SAME")
c = tf.nn.conv2d(x, f, [1, 1, 1, 1], "SAME")
g = tf.gradients(tf.reduce_sum(m * m) + tf.reduce_sum(v * v) + tf.reduce_sum(c * c), [x, f])
gg = tf.gradients(tf.reduce_sum(g[0] * g[0]) + tf.reduce_sum(g[1]), [x, f])
b = tf.nn.conv2d_backprop_input([2, 6, 6, 2], f, c, [1, 1, 1, 1], "SAME")
bf = tf.nn.conv2d_backprop_filter(x, [3, 3, 2, 2], c, [1, 1, 1, 1], "SAME")
pools = [tf.nn.max_pool2d(x, 2, 2, "VALID"), tf.nn.avg_pool2d(x, 2, 2, "VALID"), tf.nn.max_pool2d(x, [3, 3], [1, 2], "SAME"),
         tf.nn.max_pool(x, 2, 2, "VALID"), tf.nn.avg_pool(x, [2, 2], 2, "VALID")]
""",
    # batch_dims: TF's _BatchGatherGrad (batch offsets added to the indices) and a known transposed shape
    "gather_batch_dims_gradients": """
p = tf.placeholder(tf.float32, [2, 3, 4], name="p")
q = tf.placeholder(tf.float32, [None, 3, 4], name="q")
i = tf.placeholder(tf.int32, [2, 2], name="i")
j = tf.placeholder(tf.int32, [None, 5], name="j")
outs = [tf.gather(p, i, batch_dims=1), tf.gather(p, i, axis=2, batch_dims=1), tf.gather(q, j, axis=1, batch_dims=-1),
        tf.gather(p, tf.constant([[[0, 1]], [[2, 2]]]), axis=2, batch_dims=1)]
grads = tf.gradients(tf.add_n([tf.reduce_sum(o * o) for o in outs]), [p, q])
""",
    # tf.nn.moments: mean/variance with keepdims=True, StopGradient(mean), Squeeze unless keep_dims; float16
    "nn_moments_and_gradients": """
x = tf.placeholder(tf.float32, [None, 4], name="x")
z = tf.placeholder(tf.float32, [2, 3, 4], name="z")
m, v = tf.nn.moments(x, [0])
mk, vk = tf.nn.moments(z, [0, 1], keep_dims=True, name="bn_stats")
m2, v2 = tf.nn.moments(z, axes=[0, 2], keepdims=False)
g = tf.gradients(m + v, [x])
g2 = tf.gradients([mk, vk, m2, v2], [z])
h = tf.placeholder(tf.float16, [3, 4], name="h")
hm, hv = tf.nn.moments(h, [1])
""",
    "nn_weighted_moments_and_gradients": """
x = tf.placeholder(tf.float32, [None, 4], name="x")
w = tf.placeholder(tf.float32, [None, 1], name="w")
m, v = tf.nn.weighted_moments(x, [0], w)
mk, vk = tf.nn.weighted_moments(x, [0, 1], w, keep_dims=True, name="wm")
g = tf.gradients(m + v, [x, w])
""",
    # batch_normalization folds to x * inv + (offset - mean * inv); offset/scale None; conv-style stats
    "nn_batch_normalization_and_gradients": """
x = tf.placeholder(tf.float32, [None, 3], name="x")
mean, var = tf.nn.moments(x, [0])
beta = tf.Variable(tf.zeros([3]), name="beta")
gamma = tf.Variable(tf.ones([3]), name="gamma")
y = tf.nn.batch_normalization(x, mean, var, beta, gamma, 1e-3)
y2 = tf.nn.batch_normalization(x, mean, var, None, None, 0.001, name="plain")
c = tf.placeholder(tf.float32, [2, 4, 4, 3], name="c")
cm, cv = tf.nn.moments(c, [0, 1, 2], keep_dims=True)
y3 = tf.nn.batch_normalization(c, cm, cv, beta, None, 1e-5)
g = tf.gradients(tf.reduce_sum(y) + tf.reduce_sum(y2) + tf.reduce_sum(y3), [x, beta, gamma, c])
""",
    "nn_l2_normalize_and_gradients": """
x = tf.placeholder(tf.float32, [None, 3], name="x")
a = tf.nn.l2_normalize(x, axis=1)
b = tf.nn.l2_normalize(x, 0, epsilon=1e-6, name="cols")
c = tf.nn.l2_normalize(x, dim=[0, 1])
d = tf.nn.l2_normalize(tf.constant([3.0, 4.0]))
u = tf.placeholder(tf.float32, name="u")
e = tf.nn.l2_normalize(u)
g = tf.gradients([a, b, c], [x])
""",
    # forward only: TF's gradient of a gather on axis 0 is IndexedSlices (values in tests/ops/test_nn_impl.py)
    "nn_embedding_lookup_forward": """
params = tf.Variable(tf.ones([5, 3]), name="emb")
ids = tf.placeholder(tf.int32, [None, 2], name="ids")
e = tf.nn.embedding_lookup(params, ids)
e2 = tf.nn.embedding_lookup([params], ids, name="lookup")
t = tf.placeholder(tf.float32, [None, 3], name="t")
e3 = tf.nn.embedding_lookup(t, [0, 2])
e4 = tf.nn.embedding_lookup(params, ids, max_norm=1.0)
e5 = tf.nn.embedding_lookup(((0.0, 1.0), (2.0, 3.0), (4.0, 5.0)), tf.constant([1]))
u = tf.placeholder(tf.int32, name="u")
e = tf.nn.embedding_lookup(params, u, max_norm=2.0)
p = tf.placeholder(tf.float32, [None, 3], name="p")
e2 = tf.nn.embedding_lookup(p, tf.constant([[0, 1]]), max_norm=tf.constant(2.0))
""",
}

DUMP = """
def dump():
    return [[op.name, op.type, [t.name for t in op.inputs], sorted(c.name for c in op.control_inputs)]
            for op in tf.get_default_graph().get_operations()]
"""


def graphlab_ops(source):
    graphlab.reset_default_graph()
    scope = {"tf": graphlab}
    exec(DUMP + source, scope)
    return scope["dump"]()


@pytest.fixture(scope="module")
def tf_graphs():
    script = DUMP + "\nresults = {}\nsnippets = json.loads(sys.argv[1])\n" + \
        "for key, src in snippets.items():\n" + \
        "    tf.reset_default_graph()\n" + \
        "    exec(src)\n" + \
        "    results[key] = dump()\n" + \
        "print(json.dumps(results))\n"
    return tfref.run_tf_json(script, json.dumps(SNIPPETS))


@pytest.mark.parametrize("key", sorted(SNIPPETS))
def test_graph_matches_tensorflow_op_for_op(key, tf_graphs):
    ours = graphlab_ops(SNIPPETS[key])
    theirs = tf_graphs[key]
    for mine, tfs in zip(ours, theirs):
        assert mine == tfs
    assert len(ours) == len(theirs)
