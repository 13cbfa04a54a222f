# Solutions to lesson 15's exercises, one section per exercise cell (see notebooks/README.md).

# %% ex-adam-variables
adam_variables = 17

# %% ex-adam-variables wrong: the slots only (two per weight), without the hyper-parameters
adam_variables = 12

# %% ex-adam-variables wrong: one slot per layer instead of two per weight
adam_variables = 11

# %% ex-adam-variables wrong: counts the model's own weights too
adam_variables = 23

# %% ex-build-twice
def build_model():
    tf.keras.backend.clear_session()
    return tf.keras.Sequential([
        tf.keras.layers.Dense(16, activation="relu", input_shape=(4,)),
        tf.keras.layers.Dense(3, activation="softmax"),
    ])

# %% ex-build-twice wrong: clears the session after building, so the model is left in the old graph
def build_model():
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(16, activation="relu", input_shape=(4,)),
        tf.keras.layers.Dense(3, activation="softmax"),
    ])
    tf.keras.backend.clear_session()
    return model

# %% ex-build-twice wrong: builds in a graph of its own that is never the default graph afterwards
def build_model():
    with tf.Graph().as_default():
        return tf.keras.Sequential([
            tf.keras.layers.Dense(16, activation="relu", input_shape=(4,)),
            tf.keras.layers.Dense(3, activation="softmax"),
        ])

# %% ex-build-twice wrong: names the layers by hand, which Keras refuses to repeat in one model but not in one graph
def build_model():
    return tf.keras.Sequential([
        tf.keras.layers.Dense(16, activation="relu", input_shape=(4,), name="dense"),
        tf.keras.layers.Dense(3, activation="softmax", name="dense_1"),
    ])

# %% ex-own-loss
def make_training(prediction, y):
    loss = tf.reduce_mean(tf.square(prediction - y))
    train = tf.train.AdamOptimizer(0.1).minimize(loss)
    return loss, train

# %% ex-own-loss wrong: the mean error, not the mean squared error (it only pushes the predictions down)
def make_training(prediction, y):
    loss = tf.reduce_mean(prediction - y)
    train = tf.train.AdamOptimizer(0.1).minimize(loss)
    return loss, train

# %% ex-own-loss wrong: minimizes the prediction instead of the loss
def make_training(prediction, y):
    loss = tf.reduce_mean(tf.square(prediction - y))
    train = tf.train.AdamOptimizer(0.1).minimize(prediction)
    return loss, train

# %% ex-checkpoint-key
def last_bias(prefix):
    return tf.train.load_variable(prefix, "layer_with_weights-1/bias/.ATTRIBUTES/VARIABLE_VALUE")

# %% ex-checkpoint-key wrong: the variable's graph name, which is not a key of a Keras checkpoint
def last_bias(prefix):
    return tf.train.load_variable(prefix, "dense_1/bias")

# %% ex-checkpoint-key wrong: Adam's slot m of that bias, not the bias itself
def last_bias(prefix):
    return tf.train.load_variable(prefix, "layer_with_weights-1/bias/.OPTIMIZER_SLOT/optimizer/m/.ATTRIBUTES/VARIABLE_VALUE")

# %% ex-checkpoint-key wrong: the first layer's bias
def last_bias(prefix):
    return tf.train.load_variable(prefix, "layer_with_weights-0/bias/.ATTRIBUTES/VARIABLE_VALUE")
