# %% setup
import numpy as np
import graphlab as tf

rng = np.random.RandomState(1)
birth_rate = rng.uniform(10, 50, 190).astype(np.float32)
life_exp = (80 - 0.4 * birth_rate + rng.randn(190)).astype(np.float32)
data = np.stack([birth_rate, life_exp], axis=1)
n_samples = len(data)

# %% constants and operations
tf.reset_default_graph()
a = tf.constant([2, 2], name="a")
b = tf.constant([[0, 1], [2, 3]], name="b")
x = tf.multiply(a, b, name="mul")
with tf.Session() as sess:
    print(sess.run(x))

# %% variables and assign
tf.reset_default_graph()
W = tf.Variable(10)
assign_op = W.assign(100)
with tf.Session() as sess:
    sess.run(W.initializer)
    sess.run(assign_op)
    print(W.eval())

# %% assign_add in a loop (the cs20si lecture's trap)
tf.reset_default_graph()
my_var = tf.Variable(2, name="my_var")
sess = tf.Session()
sess.run(my_var.initializer)
for _ in range(150):
    sess.run(my_var.assign_add(2))
print(sess.run(my_var))
sess.close()

# %% linear regression with placeholders and huber loss
tf.reset_default_graph()
X = tf.placeholder(tf.float32, name="X")
Y = tf.placeholder(tf.float32, name="Y")
w = tf.get_variable("weights", initializer=tf.constant(0.0))
b = tf.get_variable("bias", initializer=tf.constant(0.0))
Y_predicted = w * X + b

def huber_loss(labels, predictions, delta=14.0):
    residual = tf.abs(labels - predictions)
    def f1(): return 0.5 * tf.square(residual)
    def f2(): return delta * residual - 0.5 * tf.square(delta)
    return tf.cond(residual < delta, f1, f2)

loss = huber_loss(Y, Y_predicted)
optimizer = tf.train.GradientDescentOptimizer(learning_rate=0.0001).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        for x, y in data[:40]:
            sess.run(optimizer, feed_dict={X: x, Y: y})
    w_out, b_out = sess.run([w, b])

# %% tf.data, the right way
tf.reset_default_graph()
dataset = tf.data.Dataset.from_tensor_slices((data[:, 0], data[:, 1]))
iterator = tf.data.make_initializable_iterator(dataset)
X, Y = iterator.get_next()
w = tf.get_variable("weights", initializer=tf.constant(0.0))
b = tf.get_variable("bias", initializer=tf.constant(0.0))
Y_predicted = X * w + b
loss = tf.square(Y - Y_predicted, name="loss")
optimizer = tf.train.GradientDescentOptimizer(learning_rate=0.0001).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(2):
        sess.run(iterator.initializer)
        total_loss = 0
        try:
            while True:
                _, l = sess.run([optimizer, loss])
                total_loss += l
        except tf.errors.OutOfRangeError:
            pass

# %% tf.data, get_next inside the loop
tf.reset_default_graph()
dataset = tf.data.Dataset.from_tensor_slices(data).batch(1)
iterator = tf.data.make_one_shot_iterator(dataset)
with tf.Session() as sess:
    for step in range(180):
        batch = iterator.get_next()
        sess.run(batch)

# %% logistic regression on fake MNIST, Adam
tf.reset_default_graph()
images = rng.rand(256, 784).astype(np.float32)
labels = np.eye(10, dtype=np.float32)[rng.randint(0, 10, 256)]
train_data = tf.data.Dataset.from_tensor_slices((images, labels)).shuffle(256, seed=3).batch(32)
iterator = tf.data.Iterator.from_structure(tf.data.get_output_types(train_data),
                                           tf.data.get_output_shapes(train_data))
img, label = iterator.get_next()
train_init = iterator.make_initializer(train_data)
w = tf.get_variable(name="weights", shape=(784, 10), initializer=tf.random_normal_initializer(0, 0.01))
b = tf.get_variable(name="bias", shape=(1, 10), initializer=tf.zeros_initializer())
logits = tf.matmul(img, w) + b
entropy = tf.nn.softmax_cross_entropy_with_logits(labels=label, logits=logits, name="entropy")
loss = tf.reduce_mean(entropy, name="loss")
optimizer = tf.train.AdamOptimizer(0.01).minimize(loss)
preds = tf.nn.softmax(logits)
correct_preds = tf.equal(tf.argmax(preds, 1), tf.argmax(label, 1))
accuracy = tf.reduce_sum(tf.cast(correct_preds, tf.float32))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(2):
        sess.run(train_init)
        try:
            while True:
                _, l = sess.run([optimizer, loss])
        except tf.errors.OutOfRangeError:
            pass

# %% initializer built inside the training loop
tf.reset_default_graph()
v = tf.Variable(1.0, name="v")
step = tf.assign_add(v, 1.0)
sess = tf.Session()
for i in range(120):
    sess.run(tf.global_variables_initializer())
    sess.run(step)
sess.close()

# %% lazy loading, the cs20si way
tf.reset_default_graph()
x = tf.Variable(10, name="x")
y = tf.Variable(20, name="y")
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(120):
        sess.run(tf.add(x, y))

# %% a fresh graph for the model
tf.reset_default_graph()

# %% build a model in a cell
x_in = tf.placeholder(tf.float32, [None, 2], name="x_in")
w_out = tf.Variable(tf.zeros([2, 3]), name="w_out")
scores = tf.matmul(x_in, w_out, name="scores")

# %% copy: build a model in a cell
# %% rerun: build a model in a cell
