# Solutions to lesson 13's exercises, one section per exercise cell (see notebooks/README.md).

# %% ex-mae-gradient
def mae_gradient(X, error):
    return 1.0 / m * tf.matmul(tf.transpose(X), tf.sign(error))

# %% ex-mae-gradient wrong: the squared error's gradient, not the absolute error's
def mae_gradient(X, error):
    return 2.0 / m * tf.matmul(tf.transpose(X), error)

# %% ex-mae-gradient wrong: forgets to average over the m examples
def mae_gradient(X, error):
    return tf.matmul(tf.transpose(X), tf.sign(error))

# %% ex-mae-gradient wrong: multiplies by X instead of its transpose (shapes do not fit)
def mae_gradient(X, error):
    return 1.0 / m * tf.matmul(X, tf.sign(error))

# %% ex-resume
def resume(sess, saver, directory):
    saver.restore(sess, tf.train.latest_checkpoint(directory))
    return int(sess.run(tf.train.get_global_step()))

# %% ex-resume wrong: initializes instead of restoring
def resume(sess, saver, directory):
    sess.run(tf.global_variables_initializer())
    return int(sess.run(tf.train.get_global_step()))

# %% ex-resume wrong: returns the step tensor, not its value
def resume(sess, saver, directory):
    saver.restore(sess, tf.train.latest_checkpoint(directory))
    return tf.train.get_global_step()

# %% ex-resume wrong: restores, then runs the initializer over the restored values
def resume(sess, saver, directory):
    saver.restore(sess, tf.train.latest_checkpoint(directory))
    sess.run(tf.global_variables_initializer())
    return 3

# %% ex-batch-size
def row_means(x):
    batch = tf.cast(tf.shape(x)[0], tf.float32)
    return tf.reduce_sum(x, axis=1) / batch

# %% ex-batch-size wrong: divides by the number of columns, known statically
def row_means(x):
    return tf.reduce_sum(x, axis=1) / float(x.shape[1])

# %% ex-batch-size wrong: the mean of each row, not the sum over the batch size
def row_means(x):
    return tf.reduce_mean(x, axis=1)
