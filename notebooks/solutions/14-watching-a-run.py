# Solutions to lesson 14's exercises, one section per exercise cell (see notebooks/README.md).

# %% ex-first-inf
found = squares.first_inf_or_nan()
first_inf_op = found.name
first_inf_iteration = found.iteration

# %% ex-first-inf wrong: names the loop's result, where the Inf surfaces, not where it was made
first_inf_op = "squaring/Exit_1"
first_inf_iteration = 5

# %% ex-first-inf wrong: counts the iterations from 1
first_inf_op = "squaring/mul"
first_inf_iteration = 6

# %% ex-stable-loss
def stable_loss(logits, labels):
    return tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits))

# %% ex-stable-loss wrong: an epsilon inside the log keeps it finite but caps a confident mistake's loss
def stable_loss(logits, labels):
    probs = tf.nn.softmax(logits)
    return tf.negative(tf.reduce_mean(tf.reduce_sum(labels * tf.log(probs + 1e-10), axis=1)))

# %% ex-stable-loss wrong: clips the probabilities, the same cap
def stable_loss(logits, labels):
    probs = tf.clip_by_value(tf.nn.softmax(logits), 1e-10, 1.0)
    return tf.negative(tf.reduce_mean(tf.reduce_sum(labels * tf.log(probs), axis=1)))

# %% ex-stable-loss wrong: forgets to average over the examples
def stable_loss(logits, labels):
    return tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
