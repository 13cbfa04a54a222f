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
    ours = kerasref.in_graphlab({key: MODELS[key]})[key]
    theirs = tf_models[key]
    assert "error" not in theirs, theirs
    assert "error" not in ours, ours
    kerasref.assert_same(ours["result"], theirs["result"])
