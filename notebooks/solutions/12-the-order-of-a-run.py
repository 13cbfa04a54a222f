# Solutions to lesson 12's exercises, one section per exercise cell (see notebooks/README.md).

# %% ex-report
total_sum = tf.Variable(0, name="total_sum")
step_count = tf.Variable(0, name="step_count")
value = tf.placeholder(tf.int32, [], name="value")
add_value = tf.assign_add(total_sum, value)
count_step = tf.assign_add(step_count, 1)
with tf.control_dependencies([add_value, count_step]):
    report = {"total": tf.identity(total_sum), "steps": tf.identity(step_count)}

# %% ex-report wrong: identities built after the block, so they carry no control dependency
total_sum = tf.Variable(0, name="total_sum")
step_count = tf.Variable(0, name="step_count")
value = tf.placeholder(tf.int32, [], name="value")
add_value = tf.assign_add(total_sum, value)
count_step = tf.assign_add(step_count, 1)
with tf.control_dependencies([add_value, count_step]):
    pass
report = {"total": tf.identity(total_sum), "steps": tf.identity(step_count)}

# %% ex-report wrong: value() returns the read op built with the variable, outside the block
total_sum = tf.Variable(0, name="total_sum")
step_count = tf.Variable(0, name="step_count")
value = tf.placeholder(tf.int32, [], name="value")
add_value = tf.assign_add(total_sum, value)
count_step = tf.assign_add(step_count, 1)
with tf.control_dependencies([add_value, count_step]):
    report = {"total": total_sum.value(), "steps": step_count.value()}

# %% ex-report wrong: only the total waits; the count is never updated
total_sum = tf.Variable(0, name="total_sum")
step_count = tf.Variable(0, name="step_count")
value = tf.placeholder(tf.int32, [], name="value")
add_value = tf.assign_add(total_sum, value)
count_step = tf.assign_add(step_count, 1)
with tf.control_dependencies([add_value]):
    report = {"total": tf.identity(total_sum), "steps": tf.identity(step_count)}

# %% ex-predict-runs
predicted = [30.0, 15.0, 15.0, 40.0]

# %% ex-predict-runs wrong: reads taken before the update, as if the variable were read when it runs
predicted = [20.0, 10.0, 10.0, 20.0]

# %% ex-predict-runs wrong: add5 runs once per fetch that needs it
predicted = [30.0, 20.0, 20.0, 50.0]

# %% ex-predict-runs wrong: fetching w runs add5 too
predicted = [30.0, 15.0, 20.0, 50.0]

# %% ex-bn
ex3_graph = tf.Graph()
with ex3_graph.as_default():
    features = tf.placeholder(tf.float32, [None, 2], name="features")
    targets = tf.placeholder(tf.float32, [None, 1], name="targets")
    normed = tf.layers.batch_normalization(features, training=True)
    prediction = tf.layers.dense(normed, 1, kernel_initializer=tf.ones_initializer())
    loss = tf.reduce_mean(tf.square(prediction - targets))
    update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    with tf.control_dependencies(update_ops):
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)

# %% ex-bn wrong: the collection is read after the layer, but minimize is built outside the block
ex3_graph = tf.Graph()
with ex3_graph.as_default():
    features = tf.placeholder(tf.float32, [None, 2], name="features")
    targets = tf.placeholder(tf.float32, [None, 1], name="targets")
    normed = tf.layers.batch_normalization(features, training=True)
    prediction = tf.layers.dense(normed, 1, kernel_initializer=tf.ones_initializer())
    loss = tf.reduce_mean(tf.square(prediction - targets))
    step = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    with tf.control_dependencies(update_ops):
        train_op = step

# %% ex-bn wrong: training=False builds no updates at all
ex3_graph = tf.Graph()
with ex3_graph.as_default():
    features = tf.placeholder(tf.float32, [None, 2], name="features")
    targets = tf.placeholder(tf.float32, [None, 1], name="targets")
    normed = tf.layers.batch_normalization(features, training=False)
    prediction = tf.layers.dense(normed, 1, kernel_initializer=tf.ones_initializer())
    loss = tf.reduce_mean(tf.square(prediction - targets))
    update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    with tf.control_dependencies(update_ops):
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
