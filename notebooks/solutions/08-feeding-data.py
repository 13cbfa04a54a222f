# Solutions to lesson 08's exercises, one section per exercise cell (see notebooks/README.md).

# %% c06
def count_batches(dataset):
    next_batch = tf.data.make_one_shot_iterator(dataset).get_next()
    sess = tf.get_default_session()
    batches = elements = 0
    try:
        while True:
            elements += len(sess.run(next_batch))
            batches += 1
    except tf.errors.OutOfRangeError:
        pass
    return batches, elements

# %% c06 wrong: stops before the last, smaller batch
def count_batches(dataset):
    n = tf.data.make_one_shot_iterator(dataset).get_next()
    sess = tf.get_default_session()
    b = e = 0
    try:
        while True:
            v = sess.run(n)
            if len(v) < 3: break
            b += 1; e += len(v)
    except tf.errors.OutOfRangeError:
        pass
    return b, e

# %% c06 wrong: hard-codes the answer for one dataset
def count_batches(dataset):
    return 4, 10

# %% c08
def read_epoch(sess, batch):
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess, coord)
    labels = []
    try:
        while True:
            labels.extend(sess.run(batch).tolist())
    except tf.errors.OutOfRangeError:
        pass
    finally:
        coord.request_stop()
        coord.join(threads)
    return labels

# %% c08 wrong: starts the runners but lets OutOfRangeError escape
def read_epoch(sess, batch):
    tf.train.start_queue_runners(sess)
    labels = []
    while True:
        labels.extend(sess.run(batch).tolist())

# %% c08 wrong: reads one batch only
def read_epoch(sess, batch):
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess, coord)
    labels = sess.run(batch).tolist()
    coord.request_stop()
    coord.join(threads)
    return labels

# %% ex-one-get-next
def dataset_total(dataset):
    next_batch = tf.data.make_one_shot_iterator(dataset).get_next()
    sess = tf.get_default_session()
    total = 0
    try:
        while True:
            total += sess.run(next_batch).sum()
    except tf.errors.OutOfRangeError:
        pass
    return total

# %% ex-one-get-next wrong: one get_next, but a new reduce_sum op on every step
def dataset_total(dataset):
    next_batch = tf.data.make_one_shot_iterator(dataset).get_next()
    sess = tf.get_default_session()
    total = 0
    try:
        while True:
            total += sess.run(tf.reduce_sum(next_batch))
    except tf.errors.OutOfRangeError:
        pass
    return total

# %% ex-one-get-next wrong: counts the batches instead of adding the elements
def dataset_total(dataset):
    next_batch = tf.data.make_one_shot_iterator(dataset).get_next()
    sess = tf.get_default_session()
    total = 0
    try:
        while True:
            total += len(sess.run(next_batch))
    except tf.errors.OutOfRangeError:
        pass
    return total
