"""What Keras graphs compute, in graphlab and in tf-keras: predictions with weights set from numpy (dense,
convolutional, recurrent), the learning phase switching dropout and batch normalization (whose moving
averages move only when training), Keras layers trained by a hand-written TF1 loss and optimizer, and
``tf.keras.regularizers.l2`` where tf_upgrade_v2 puts it."""
import pytest

from tests.keras import kerasref

SET_WEIGHTS = """
def fill(model):
    values = []
    for i, w in enumerate(model.weights):
        shape = w.shape.as_list()
        n = int(np.prod(shape))
        values.append((np.sin(np.arange(n) * 0.7 + i) * 0.5).astype(np.float32).reshape(shape))
    model.set_weights(values)
"""

SNIPPETS = {
    "cnn_predictions": SET_WEIGHTS + """
m = tf.keras.Sequential([L.Conv2D(3, 3, padding='same', activation='relu', input_shape=(6, 6, 2)),
                         L.MaxPooling2D(), L.Conv2D(2, 2, strides=2), L.GlobalAveragePooling2D(),
                         L.Dense(2, activation='softmax')])
fill(m)
x = np.cos(np.arange(2 * 6 * 6 * 2)).astype(np.float32).reshape(2, 6, 6, 2)
result = {"values": floats(K.get_session().run(m.output, {m.input: x}))}
""",
    "transposed_convolution_predictions": SET_WEIGHTS + """
i = tf.keras.Input((3, 3, 2))
h = L.Conv2DTranspose(2, 3, strides=2, padding='same')(i)
u = L.UpSampling2D(interpolation='bilinear')(L.UpSampling2D()(h))
v = L.Conv2DTranspose(1, 2, padding='valid', activation='tanh')(u)
m = tf.keras.Model(i, v)
fill(m)
x = np.cos(np.arange(18) * 0.4).astype(np.float32).reshape(1, 3, 3, 2)
result = {"values": floats(K.get_session().run(m.output, {m.input: x}))}
""",
    "time_distributed_predictions": SET_WEIGHTS + """
class Twice(L.Layer):
    def call(self, x):
        return x * 2.0 + 1.0
    def compute_output_shape(self, input_shape):
        return input_shape
i = tf.keras.Input((3, 2), batch_size=2)
a = L.TimeDistributed(Twice())(i)
b = L.TimeDistributed(L.Dense(3, activation='tanh'))(a)
m = tf.keras.Model(i, b)
fill(m)
x = np.sin(np.arange(12)).astype(np.float32).reshape(2, 3, 2)
result = {"values": floats(K.get_session().run([a, b], {i: x})), "ops": [o[1] for o in ops()]}
""",
    "masked_predictions": SET_WEIGHTS + """
i = tf.keras.Input((5,))
e = L.Embedding(4, 3, mask_zero=True)(i)
r = L.LSTM(2)(e)
b = L.Bidirectional(L.SimpleRNN(2, return_sequences=True))(e)
g = L.GlobalAveragePooling1D()(L.Dense(2)(e))
m = tf.keras.Model(i, [r, b, g])
fill(m)
x = np.array([[1, 2, 0, 0, 0], [3, 1, 2, 1, 0]], np.float32)
j = tf.keras.Input((3, 2))
masked = L.GRU(2)(L.Masking(mask_value=-1.0)(j))
fill(tf.keras.Model(j, masked))
y = np.array([[[1, 2], [-1, -1], [0.5, 0.1]], [[-1, -1], [-1, -1], [2, 1]]], np.float32)
result = {"values": floats(K.get_session().run(m.outputs + [masked], {i: x, j: y})),
          "ops": [o for o in ops() if "masking" in o[0] or o[0].startswith("gru/while/Select")]}
""",
    "recurrent_dropout_predictions": SET_WEIGHTS + """
tf.set_random_seed(3)
i = tf.keras.Input((4, 3))
a = L.LSTM(3, dropout=0.3, recurrent_dropout=0.2, return_sequences=True)(i)
b = L.GRU(2, dropout=0.4)(a)
m = tf.keras.Model(i, b)
fill(m)
x = np.cos(np.arange(24) * 0.5).astype(np.float32).reshape(2, 4, 3)
sess = K.get_session()
result = {"values": floats([sess.run(b, {i: x}), sess.run(b, {i: x, K.learning_phase(): True})])}
""",
    "layer_normalization_predictions": SET_WEIGHTS + """
i = tf.keras.Input((4, 3))
a = L.LayerNormalization()(i)
c = L.LayerNormalization(axis=1, epsilon=1e-6)(a)
m = tf.keras.Model(i, [a, c])
fill(m)
x = np.sin(np.arange(24) * 1.3).astype(np.float32).reshape(2, 4, 3)
result = {"values": floats(K.get_session().run(m.outputs, {i: x}))}
""",
    "rnn_predictions": SET_WEIGHTS + """
i = tf.keras.Input((4, 3))
a = L.SimpleRNN(3, return_sequences=True)(i)
b = L.LSTM(2, return_sequences=True)(a)
c = L.GRU(2)(b)
d = L.Conv1D(2, 2)(i)
e = L.GlobalMaxPooling1D()(L.AveragePooling1D()(d))
f = L.Bidirectional(L.SimpleRNN(2, return_sequences=True))(i)
m = tf.keras.Model(i, [c, e, f])
fill(m)
x = np.cos(np.arange(2 * 4 * 3) * 0.3).astype(np.float32).reshape(2, 4, 3)
result = {"values": floats(K.get_session().run(m.outputs, {m.input: x}))}
""",
    "embedding_and_merges": SET_WEIGHTS + """
ids = tf.keras.Input((3,), dtype='int32')
emb = L.Embedding(5, 2)(ids)
flat = L.Flatten()(emb)
m = tf.keras.Model(ids, [L.concatenate([flat, flat]), L.add([flat, flat]), L.multiply([flat, flat]),
                         L.average([flat, flat]), L.maximum([flat, -flat]), L.subtract([flat, -flat])])
fill(m)
result = {"values": floats(K.get_session().run(m.outputs, {m.inputs[0]: [[0, 4, 2], [1, 1, 3]]}))}
""",
    "batchnorm_learning_phase": SET_WEIGHTS + """
i = tf.keras.Input((3,))
bn = L.BatchNormalization(momentum=0.5)
o = bn(i)
m = tf.keras.Model(i, o)
fill(m)
x = np.array([[1, 2, 3], [3, 1, 0], [0, 0, 1]], np.float32)
f = K.function([i, K.learning_phase()], [o], updates=m.updates)
test = f([x, False])[0]
after_test = K.batch_get_value([bn.moving_mean, bn.moving_variance])
train = f([x, True])[0]
after_train = K.batch_get_value([bn.moving_mean, bn.moving_variance])
result = {"values": [floats(test), floats(after_test), floats(train), floats(after_train)],
          "updates": [u.name for u in m.updates]}
""",
    "fused_batchnorm_learning_phase": SET_WEIGHTS + """
i = tf.keras.Input((2, 2, 2))
bn = L.BatchNormalization()
o = bn(i)
m = tf.keras.Model(i, o)
fill(m)
x = np.sin(np.arange(16)).astype(np.float32).reshape(2, 2, 2, 2)
f = K.function([i, K.learning_phase()], [o], updates=m.updates)
test = f([x, 0])[0]
train = f([x, 1])[0]
result = {"values": [floats(test), floats(train), floats(K.get_value(bn.moving_mean)),
                     floats(K.get_value(bn.moving_variance))]}
""",
    "dropout_phases": """
tf.set_random_seed(7)
i = tf.keras.Input((8,))
o = L.Dropout(0.5)(i)
sess = K.get_session()
x = np.ones((2, 8), np.float32)
inference = sess.run(o, {i: x})
training = sess.run(o, {i: x, K.learning_phase(): True})
result = {"values": [floats(inference), floats(training)]}
""",
    "keras_layers_with_a_tf1_loss_and_optimizer": SET_WEIGHTS + """
x = tf.placeholder(tf.float32, [None, 3])
y = tf.placeholder(tf.float32, [None, 1])
h = L.Dense(4, activation='tanh')(x)
out = L.Dense(1)(h)
loss = tf.losses.mean_squared_error(y, out)
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
xs = np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3)
ys = np.array([[1], [0], [1], [0]], np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    weights = [v for v in tf.trainable_variables()]
    for v, w in zip(weights, [(np.sin(np.arange(int(np.prod(v.shape.as_list())))) * 0.5).astype(np.float32)
                              .reshape(v.shape.as_list()) for v in weights]):
        v.load(w, sess)
    losses = [sess.run([loss, train], {x: xs, y: ys})[0] for _ in range(5)]
    final = sess.run(weights)
result = {"values": [floats(losses), floats(final)], "trainable": [v.name for v in weights],
          "train_op": train.name}
""",
    "l2_regularizer_as_tf_upgrade_v2_writes_it": """
w = tf.get_variable("w", [3, 2], initializer=tf.constant_initializer(0.5),
                    regularizer=tf.keras.regularizers.l2(0.5 * (0.1)))
d = tf.layers.dense(tf.ones([1, 3]), 2, kernel_regularizer=tf.keras.regularizers.l2(0.5 * (0.01)),
                    kernel_initializer=tf.ones_initializer())
reg = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    values = sess.run(reg)
result = {"values": floats(values), "losses": [t.name for t in reg],
          "config": tf.keras.regularizers.l1_l2(0.1, 0.2).get_config()}
""",
    "constraints_and_initializers": """
w = K.constant(np.array([[3.0, -4.0], [4.0, 3.0]], np.float32))
vals = [tf.keras.constraints.max_norm(2)(w), tf.keras.constraints.non_neg()(w), tf.keras.constraints.unit_norm()(w),
        tf.keras.constraints.MinMaxNorm(1, 2, rate=0.5)(w)]
layer = L.Dense(3, kernel_initializer=tf.keras.initializers.Constant(0.3), bias_initializer='ones',
                kernel_constraint='max_norm')
layer(tf.keras.Input((2,)))
result = {"values": floats(K.get_session().run(vals) + layer.get_weights()), "ops": ops(),
          "constraint": type(layer.kernel.constraint).__name__}
""",
    "seeded_initial_weights": """
tf.set_random_seed(42)
i = tf.keras.Input((4,))
layers = [L.Dense(3), L.Dense(3, kernel_initializer='he_normal', bias_initializer='ones'),
          L.Dense(3, kernel_initializer=tf.keras.initializers.RandomNormal(stddev=0.1, seed=5)),
          L.Dense(3, kernel_initializer=tf.keras.initializers.TruncatedNormal(seed=2)),
          L.Dense(3, kernel_initializer='lecun_uniform'), L.Dense(3, kernel_initializer='orthogonal')]
outs = [l(i) for l in layers]
e = L.Embedding(6, 2)(tf.keras.Input((2,)))
lstm = L.LSTM(2)
lstm(tf.keras.Input((3, 2)))
c = L.Conv2D(2, 3)(tf.keras.Input((4, 4, 1)))
result = {"values": [floats(w) for w in K.batch_get_value(tf.global_variables())],
          "names": [v.name for v in tf.global_variables()]}
""",
    "input_from_an_existing_tensor": """
p = tf.placeholder(tf.float32, [None, 2], name="features")
i = tf.keras.Input(tensor=p)
m = tf.keras.Model(i, L.Dense(1, kernel_initializer='ones')(i))
inner = tf.keras.Sequential([L.Dense(2, input_shape=(3,), kernel_initializer='ones')])
outer = tf.keras.Sequential([inner, L.Dense(1, kernel_initializer='ones')])
out = K.get_session().run([m.output, outer.output], {p: [[1.0, 2.0]], outer.input: [[1.0, 1.0, 1.0]]})
# K.get_session() asks which of Keras's variables are initialized; TF keeps them in a set, so the order of
# its VarIsInitializedOp ops is not TF's to promise: their inputs are left out.
result = {"values": floats(out), "names": [i.name, m.input.name, outer.input.name, outer.output.name],
          "summary": summary(outer), "ops": [o if o[1] != "VarIsInitializedOp" else o[:2] for o in ops()]}
""",
    "to_categorical": """
result = {"values": floats([tf.keras.utils.to_categorical([0, 2, 1]), tf.keras.utils.to_categorical([[1], [3]], 5)]),
          "dtype": str(tf.keras.utils.to_categorical([1]).dtype)}
""",
}


@pytest.fixture(scope="module")
def tf_results():
    return kerasref.reference(SNIPPETS)


@pytest.mark.parametrize("key", sorted(SNIPPETS))
def test_values_as_tf(key, tf_results):
    ours = kerasref.run_ours(SNIPPETS[key])
    theirs = tf_results[key]
    assert kerasref.error(theirs) is None, theirs
    kerasref.assert_same(ours["result"], theirs["result"], rtol=2e-5)
