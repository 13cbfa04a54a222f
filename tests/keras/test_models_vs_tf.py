"""Keras models built in graphlab against the same code in tf-keras: the ops and their inputs, variable
names, ``model.layers``/``weights``, ``summary()`` text, and the numbers the built graph computes."""
import pytest

from tests.keras import kerasref

MODELS = {
    "sequential_mlp": """
m = tf.keras.Sequential([L.Dense(4, activation='relu', input_shape=(3,)), L.Dropout(0.5),
                         L.Dense(2, activation='softmax')])
result = {"ops": ops(), "variables": [v.name for v in tf.global_variables()],
          "trainable": [v.name for v in tf.trainable_variables()], "summary": summary(m),
          "layers": [l.name for l in m.layers], "weights": [w.name for w in m.weights],
          "inputs": [t.name for t in m.inputs], "outputs": [t.name for t in m.outputs],
          "input_shape": list(m.input_shape), "output_shape": list(m.output_shape),
          "count": m.count_params()}
""",
    "cnn_with_batchnorm": """
a = tf.keras.Input(shape=(8, 8, 1))
x = L.Conv2D(2, 3, activation='relu', padding='same')(a)
x = L.MaxPooling2D()(x)
x = L.BatchNormalization()(x)
x = L.Flatten()(x)
y = L.Dense(3, kernel_regularizer=tf.keras.regularizers.l2(0.01))(x)
m = tf.keras.Model(a, y)
result = {"summary": summary(m), "updates": [u.name for u in m.updates], "losses": [t.name for t in m.losses],
          "ops": ops(), "variables": [v.name for v in tf.global_variables()],
          "trainable": [v.name for v in tf.trainable_variables()],
          "non_trainable": [w.name for w in m.non_trainable_weights]}
""",
    "batchnorm_on_features_and_embedding": """
i = tf.keras.Input((6,))
b = L.BatchNormalization(momentum=0.9, center=False)(i)
e = L.Embedding(10, 4)(tf.keras.Input((6,)))
e2 = L.Embedding(5, 2, input_length=3)(tf.keras.Input((3,), dtype='int64'))
result = {"ops": ops(), "b": b.name, "e": e.name, "e2": e2.name}
""",
    "cnn_without_batchnorm": """
a = tf.keras.Input(shape=(8, 8, 1))
x = L.Conv2D(2, 3, activation='relu', padding='same')(a)
x = L.MaxPooling2D()(x)
x = L.Conv2D(3, (2, 2), strides=2)(x)
x = L.AveragePooling2D(pool_size=1)(x)
x = L.Flatten()(x)
y = L.Dense(3, kernel_regularizer=tf.keras.regularizers.l2(0.01))(x)
m = tf.keras.Model(a, y)
losses = [t.name for t in m.losses]
result = {"ops": ops(), "summary": summary(m), "losses": losses, "weights": [w.name for w in m.weights]}
""",
    "functional_two_inputs_shared_layer": """
a = tf.keras.Input(shape=(3,), name='a'); b = tf.keras.layers.Input((5,))
c = L.concatenate([a, b]); d = L.Dense(2)
o1 = d(c); o2 = d(c)
m = tf.keras.Model([a, b], [o1, L.add([o1, o2])])
result = {"ops": ops(), "summary": summary(m), "layers": [l.name for l in m.layers],
          "input_names": m.input_names, "output_names": m.output_names,
          "output_shape": [list(s) for s in m.output_shape]}
""",
    "layer_on_plain_tensors_in_a_name_scope": """
with tf.name_scope("outer"):
    p = tf.placeholder(tf.float32, [None, 3])
    h = L.Dense(2)(p)
layer = L.Dense(1, use_bias=False, name="head")
out = layer(h)
again = layer(h)
result = {"ops": ops(), "h": h.name, "out": out.name, "again": again.name,
          "weights": [w.name for w in layer.weights], "phase": K.learning_phase().name}
""",
    "subclassed": """
class MyModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.d1 = L.Dense(3, activation='tanh')
        self.d2 = L.Dense(1)
    def call(self, x):
        return self.d2(self.d1(x))
m = MyModel()
x = tf.placeholder(tf.float32, [None, 4])
y = m(x)
result = {"ops": ops(), "y": y.name, "name": m.name, "weights": [w.name for w in m.weights],
          "layers": [l.name for l in m.layers], "summary": summary(m)}
""",
    "subclassed_inside_a_functional_model": """
class Block(tf.keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.inner = L.Dense(2, activation='relu')
        self.drop = L.Dropout(0.5)
    def call(self, x, training=None):
        return self.drop(self.inner(x), training=training)
i = tf.keras.Input((3,))
block = Block(name="block")
o = L.Dense(1)(block(i))
m = tf.keras.Model(i, o)
result = {"ops": ops(), "summary": summary(m), "block_summary": summary(block),
          "layers": [l.name for l in m.layers], "weights": [w.name for w in m.weights],
          "nodes": [len(l._inbound_nodes) for l in [block.inner, block.drop]]}
""",
    "deferred_sequential": """
s = tf.keras.Sequential([L.Dense(2), L.Dense(1)])
before = s.built
p = tf.placeholder(tf.float32, [None, 5])
out = s(p)
result = {"ops": ops(), "out": out.name, "weights": [w.name for w in s.weights], "built": [before, s.built],
          "summary": summary(s)}
""",
    "sequential_add_pop": """
s = tf.keras.Sequential(name="stack")
s.add(L.Dense(3, input_dim=2))
s.add(L.Dense(4))
s.add(L.Dense(5))
s.pop()
result = {"layers": [l.name for l in s.layers], "output": s.outputs[0].name, "summary": summary(s),
          "ops": ops()}
""",
    "many_layers_and_a_nested_model": """
inp = tf.keras.Input((6,))
h = L.Reshape((3, 2))(inp)
h = L.Permute((2, 1))(h)
h = L.Conv1D(2, 2, padding='causal')(h)
h = L.MaxPooling1D()(h)
h = L.LeakyReLU()(h)
h = L.ReLU(max_value=6.)(h)
h = L.GlobalAveragePooling1D()(h)
h = L.RepeatVector(3)(h)
h = L.Softmax()(h)
h = L.Activation('sigmoid')(h)
h = L.Lambda(lambda t: t * 2.0)(h)
h = L.Flatten()(h)
mm = tf.keras.Model(inp, [L.multiply([h, h]), L.subtract([h, h]), L.average([h, h]), L.maximum([h, h])])
inner = tf.keras.Model(inp, h)
z = tf.keras.Input((6,), name='z')
zz = inner(z)
result = {"ops": ops(), "summary": summary(mm), "zz": zz.name, "inner_output_shape": list(inner.output_shape),
          "config": L.Dense(3).get_config()}
""",
    "fixed_learning_phase_and_padding": """
i2 = tf.keras.Input((4, 4, 1))
c = L.ZeroPadding2D()(i2)
c = L.AveragePooling2D()(c)
c = L.GlobalMaxPooling2D()(c)
K.set_learning_phase(1)
d = L.Dropout(0.3)(c)
result = {"ops": ops(), "phase": K.learning_phase(), "d": d.name}
""",
    "tf_ops_between_layers": """
i = tf.keras.Input((4,))
scaled = i / 255.0
h = L.Dense(3)(tf.nn.relu(scaled))
out = -h
m = tf.keras.Model(i, out)
again = m(tf.keras.Input((4,), name="other"))
result = {"ops": ops(), "summary": summary(m), "layers": [l.name for l in m.layers], "again": again.name}
""",
    "configs_and_rebuilding_from_them": """
i = tf.keras.Input((4,), name="x")
h = L.Dense(3, activation="relu", kernel_regularizer="l2")(i)
h = L.Dropout(0.2)(h)
o = L.Dense(1)(h)
m = tf.keras.Model(i, o, name="net")
s = tf.keras.Sequential([L.Dense(2, input_shape=(3,)), L.BatchNormalization()])
configs = [m.get_config(), s.get_config()] + [l.get_config() for l in [
    L.Conv2D(2, 3), L.LSTM(2), L.GRU(3), L.SimpleRNN(1), L.Embedding(3, 2), L.Reshape((2, 2)), L.Flatten(),
    L.MaxPooling2D(), L.AveragePooling1D(), L.GlobalAveragePooling2D(), L.Concatenate(axis=1), L.Activation('tanh'),
    L.LeakyReLU(), L.Softmax(), L.Permute((2, 1)), L.RepeatVector(3), L.ZeroPadding2D(2),
    L.BatchNormalization(axis=1), L.Conv1D(4, 2, padding="causal"), L.Dense(2, kernel_constraint="max_norm")]]
m2 = tf.keras.Model.from_config(m.get_config())
s2 = tf.keras.Sequential.from_config(s.get_config())
d = tf.keras.layers.deserialize({"class_name": "Dense", "config": {"units": 3, "activation": "tanh"}})
configs = json.loads(json.dumps(configs))
result = {"configs": configs, "m2": [l.name for l in m2.layers], "s2": [l.name for l in s2.layers],
          "serialized": json.loads(json.dumps(tf.keras.layers.serialize(d))), "ops": ops(),
          "m2_summary": summary(m2)}
""",
    "custom_layer_with_its_own_weights": """
class Scale(L.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units
    def build(self, input_shape):
        self.w = self.add_weight("w", shape=(int(input_shape[-1]), self.units), initializer="ones")
        self.count = self.add_weight("count", shape=(), initializer="zeros", trainable=False, dtype="int32")
        super().build(input_shape)
    def call(self, x):
        self.add_loss(tf.reduce_sum(self.w) * 0.01)
        return tf.matmul(x, self.w)
i = tf.keras.Input((3,))
layer = Scale(2)
o = layer(i)
frozen = L.Dense(1, trainable=False)
m = tf.keras.Model(i, frozen(o))
result = {"ops": ops(), "summary": summary(m), "trainable": [w.name for w in m.trainable_weights],
          "non_trainable": [w.name for w in m.non_trainable_weights], "losses": [t.name for t in m.losses],
          "layer_trainable": [w.name for w in layer.trainable_weights], "collections": {
              k: [v.name for v in tf.get_collection(k)] for k in ("variables", "trainable_variables")}}
layer.trainable = False
result["after_freezing"] = [w.name for w in m.trainable_weights]
""",
    "tutorial_models": """
mnist = tf.keras.Sequential([L.Flatten(input_shape=(28, 28)), L.Dense(128, activation=tf.nn.relu),
                             L.Dense(10, activation=tf.nn.softmax)])
text = tf.keras.Sequential()
text.add(L.Embedding(100, 16))
text.add(L.GlobalAveragePooling1D())
text.add(L.Dense(16, activation=tf.nn.relu))
text.add(L.Dense(1, activation=tf.nn.sigmoid))
result = {"ops": ops(), "summaries": [summary(mnist), summary(text)],
          "inputs": [t.name for t in mnist.inputs + text.inputs], "dtypes": [t.dtype.name for t in text.inputs]}
""",
    "bidirectional": """
i = tf.keras.Input((5, 3))
h = L.Bidirectional(L.LSTM(2, return_sequences=True))(i)
o = L.Bidirectional(L.GRU(2), merge_mode="sum")(h)
m = tf.keras.Model(i, o)
result = {"ops": ops(), "summary": summary(m), "weights": [w.name for w in m.weights],
          "config": json.loads(json.dumps(m.layers[1].get_config()))}
""",
    "transposed_convolution_and_upsampling": """
i = tf.keras.Input((4, 4, 2))
h = L.Conv2DTranspose(3, 3, strides=2, padding='same', use_bias=False)(i)
u = L.UpSampling2D()(h)
v = L.Conv2DTranspose(2, (2, 3), activation='relu')(u)
w = L.UpSampling2D((1, 2), interpolation='bilinear')(v)
m = tf.keras.Model(i, w)
result = {"ops": ops(), "summary": summary(m), "shapes": [t.shape.as_list() for t in (h, u, v, w)]}
""",
    "time_distributed": """
i = tf.keras.Input((4, 3))
h = L.TimeDistributed(L.Dense(2, activation="relu"))(i)
j = tf.keras.Input((3, 5, 5, 1))
c = L.TimeDistributed(L.Conv2D(2, 3))(j)
k = tf.keras.Input((None, 2))
d = L.TimeDistributed(L.Dense(1))(k)
fixed = tf.keras.Input((3, 2), batch_size=4)
e = L.TimeDistributed(L.Dense(2))(fixed)
m = tf.keras.Model([i, j, k, fixed], [h, c, d, e])
result = {"ops": ops(), "summary": summary(m), "weights": [w.name for w in m.weights],
          "shapes": [t.shape.as_list() for t in (h, c, d, e)]}
""",
    "training_argument": """
i = tf.keras.Input((3,))
h = L.Dropout(0.5)(L.Dense(4)(i))
o = L.BatchNormalization()(h)
m = tf.keras.Model(i, o)
x = tf.placeholder(tf.float32, [None, 3])
train_out = m(x, training=True)
test_out = m(x, training=False)
direct = L.Dropout(0.2)(x, training=True)
flag = tf.placeholder(tf.bool, [])
chosen = L.Dropout(0.2)(x, training=flag)
result = {"ops": ops(), "names": [train_out.name, test_out.name, direct.name, chosen.name],
          "updates": [u.name for u in m.updates]}
""",
    "masks_from_embedding": """
i = tf.keras.Input((4,))
e = L.Embedding(5, 2, mask_zero=True)(i)
r = L.SimpleRNN(2)(e)
l = L.LSTM(2, return_sequences=True)(e)
g = L.GlobalAveragePooling1D()(L.Dense(3)(l))
b = L.Bidirectional(L.GRU(1, return_sequences=True))(e)
s = L.add([l, l])
m = tf.keras.Model(i, [r, g, b, s])
result = {"ops": ops(), "summary": summary(m)}
""",
    "recurrent_dropout": """
i = tf.keras.Input((4, 3))
a = L.SimpleRNN(2, dropout=0.5, recurrent_dropout=0.3, return_sequences=True)(i)
b = L.LSTM(2, dropout=0.2, recurrent_dropout=0.1, return_sequences=True)(a)
c = L.GRU(2, dropout=0.4, implementation=2)(b)
m = tf.keras.Model(i, c)
result = {"ops": ops(), "summary": summary(m)}
""",
    "noise_cropping_prelu": """
i = tf.keras.Input((6, 3))
a = L.SpatialDropout1D(0.3)(L.ZeroPadding1D((1, 2))(i))
b = L.GaussianNoise(0.1)(L.Cropping1D((1, 1))(a))
c = L.GaussianDropout(0.2)(L.PReLU(shared_axes=[1])(b))
d = L.ActivityRegularization(l1=0.01)(c)
d = L.UpSampling1D(3)(L.ThresholdedReLU(0.5)(L.Identity()(d)))
j = tf.keras.Input((5, 5, 2))
e = L.SpatialDropout2D(0.5)(L.Cropping2D(((1, 0), (1, 2)))(j))
f = L.PReLU()(e)
m = tf.keras.Model([i, j], [d, f])
result = {"ops": ops(), "summary": summary(m), "losses": [t.name for t in m.losses],
          "weights": [w.name for w in m.weights]}
""",
    "rnn_of_a_cell": """
i = tf.keras.Input((3, 2))
a = L.RNN(L.LSTMCell(3), return_sequences=True)(i)
b = L.RNN(L.GRUCell(2, recurrent_activation='sigmoid'), go_backwards=True)(a)
c = L.RNN([L.SimpleRNNCell(2), L.LSTMCell(3, dropout=0.1)], return_state=True)(i)
m = tf.keras.Model(i, [b] + tf.nest.flatten(c))
result = {"ops": ops(), "summary": summary(m), "weights": [w.name for w in m.weights],
          "config": json.loads(json.dumps(m.layers[1].get_config())), "c": [t.name for t in tf.nest.flatten(c)]}
""",
    "layer_normalization": """
i = tf.keras.Input((4, 3))
a = L.LayerNormalization()(i)
b = L.LayerNormalization(axis=[1, 2], center=False)(a)
c = L.LayerNormalization(axis=1, epsilon=1e-6)(b)
m = tf.keras.Model(i, c)
result = {"ops": ops(), "summary": summary(m), "weights": [w.name for w in m.weights]}
""",
    "simple_rnn": """
i = tf.keras.Input((5, 3))
h = L.SimpleRNN(4)(i)
m = tf.keras.Model(i, h)
result = {"ops": ops(), "summary": summary(m), "weights": [w.name for w in m.weights]}
""",
    "lstm_gru_stack": """
i = tf.keras.Input((5, 3))
h = L.LSTM(4, return_sequences=True)(i)
h2 = L.GRU(2, go_backwards=True)(h)
m = tf.keras.Model(i, h2)
result = {"ops": ops(), "summary": summary(m), "weights": [w.name for w in m.weights]}
""",
    "lstm_states": """
i = tf.keras.Input((None, 2))
out, h, c = L.LSTM(3, return_state=True, implementation=2, unit_forget_bias=False)(i)
g = L.GRU(2, implementation=2, use_bias=False)(i)
s = tf.keras.Sequential([L.SimpleRNN(2, return_sequences=True, input_shape=(4, 2)), L.Dense(1)])
result = {"ops": ops(), "names": [out.name, h.name, c.name, g.name], "summary": summary(s),
          "shapes": [t.shape.as_list() for t in (out, h, c, g)]}
""",
}


@pytest.fixture(scope="module")
def tf_models():
    return kerasref.reference(MODELS)


@pytest.mark.parametrize("key", sorted(MODELS))
def test_model_graph_as_tf_builds_it(key, tf_models):
    ours = kerasref.run_ours(MODELS[key])
    theirs = tf_models[key]
    assert kerasref.error(theirs) is None, theirs
    kerasref.assert_same(ours["result"], theirs["result"], rtol=2e-5)
