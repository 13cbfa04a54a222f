"""``tf.keras.backend`` in graphlab against tf-keras: the session Keras runs in (and the variables it
initializes), the learning phase, ``K.function``, variables, and the math helpers custom losses use."""
import pytest

from tests.keras import kerasref

SNIPPETS = {
    "session_initializes_keras_variables_only": """
d = L.Dense(2, kernel_initializer='ones')
y = d(tf.keras.Input((3,)))
plain = tf.Variable(5.0, name="plain")
sess = K.get_session()
from_keras = sess.run(d.kernel).tolist()
try:
    sess.run(plain)
    plain_state = "initialized"
except tf.errors.FailedPreconditionError as e:
    plain_state = type(e).__name__
again = K.get_session() is sess
result = {"kernel": from_keras, "plain": plain_state, "same_session": again,
          "ops_after": [o[0] for o in ops()][-6:]}
""",
    "default_session_wins": """
d = L.Dense(1, kernel_initializer='zeros', bias_initializer='ones')
y = d(tf.keras.Input((2,)))
with tf.Session() as s:
    used = K.get_session() is s
    value = s.run(y, {d.input: [[1.0, 2.0]]}).tolist()
result = {"used": used, "value": value}
""",
    "predict_with_set_weights": """
m = tf.keras.Sequential([L.Dense(3, activation='relu', input_shape=(4,)), L.Dense(2, activation='softmax')])
m.set_weights([np.arange(12, dtype=np.float32).reshape(4, 3) / 10 - 0.5, np.array([0.1, -0.2, 0.3], np.float32),
               np.arange(6, dtype=np.float32).reshape(3, 2) / 7 - 0.3, np.array([0.05, -0.05], np.float32)])
x = np.linspace(-1, 1, 8, dtype=np.float32).reshape(2, 4)
out = K.get_session().run(m.output, {m.input: x})
result = {"values": floats(out), "weights": floats(m.get_weights()[1]),
          "layer_weights": [w.shape for w in m.layers[0].get_weights()]}
result["layer_weights"] = [list(s) for s in result["layer_weights"]]
""",
    "function_with_learning_phase": """
tf.set_random_seed(3)
inp = tf.keras.Input((6,))
out = L.Dropout(0.5, seed=1)(inp)
f = K.function([inp, K.learning_phase()], [out])
x = np.ones((2, 6), np.float32)
test_out = f([x, False])[0]
train_out = f([x, True])[0]
result = {"values": [floats(test_out)], "train_values_in": sorted(set(np.round(train_out, 5).ravel().tolist())),
          "phase_name": K.learning_phase().name}
""",
    "function_runs_updates_after_outputs": """
v = K.variable(np.array([1.0, 2.0]), name="v")
x = K.placeholder(shape=(2,))
f = K.function([x], [v * x], updates=[(v, v + x)])
first = f([np.array([1.0, 1.0], np.float32)])[0]
second = f([np.array([1.0, 1.0], np.float32)])[0]
result = {"values": [floats(first), floats(second), floats(K.get_value(v))], "name": v.name,
          "ops": [o[:2] for o in ops()]}
""",
    "more_helpers": """
a = K.constant(np.arange(12, dtype=np.float32).reshape(2, 3, 2))
p = K.placeholder((None, 3, 2))
vals = [K.repeat_elements(a, 2, axis=1), K.temporal_padding(a, (1, 2)), K.cumsum(a, axis=1), K.cumprod(a + 1, 2),
        K.arange(5), K.arange(1, 7, 2, dtype='float32'), K.spatial_2d_padding(K.reshape(a, (1, 2, 3, 2))),
        K.in_top_k(K.constant([[0.1, 0.9], [0.8, 0.2]]), K.constant([1, 1], dtype='int32'), 1),
        K.gradients(K.sum(K.square(a)), [a])[0]]
graph_ops = [o[:2] for o in ops()]
unknown = K.repeat_elements(p, 3, axis=0)   # (TF makes its multiples twice from a float array: not compared)
result = {"values": [floats(v) for v in K.get_session().run(vals)], "ops": graph_ops,
          "unknown": unknown.shape.as_list()}
""",
    "variables_and_values": """
v = K.variable([[1, 2], [3, 4]], dtype='float64', name='w')
K.set_value(v, np.array([[5, 6], [7, 8]]))
K.batch_set_value([(v, np.eye(2))])
z = K.zeros((2, 3))
p = K.placeholder(ndim=3)
c = K.constant([1, 2], dtype='int32')
result = {"values": [floats(K.get_value(v)), floats(K.batch_get_value([z])[0]), floats(K.eval(c))],
          "shapes": [K.int_shape(v), K.int_shape(p), K.int_shape(c)], "dtypes": [K.dtype(v), K.dtype(p), K.dtype(c)],
          "config": [K.floatx(), K.epsilon(), K.image_data_format(), K.backend()],
          "names": [v.name, z.name, p.name, c.name]}
result["shapes"] = [list(s) for s in result["shapes"]]
""",
    "math_helpers": """
a = K.constant([[0.2, 0.7, 0.1], [0.3, 0.3, 0.4]])
t = K.constant([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])
vals = [K.sum(a, axis=1), K.mean(a), K.square(a), K.sqrt(a - 0.25), K.exp(a), K.log(a), K.abs(a - 0.5),
        K.clip(a, 0.25, 0.5), K.maximum(a, 0.3), K.minimum(a, 0.3), K.dot(a, K.transpose(t)),
        K.concatenate([a, t]), K.reshape(a, (3, 2)), K.cast(a > 0.25, 'float32'), K.ones_like(a), K.zeros_like(a),
        K.max(a, 1), K.min(a, 0), K.argmax(a), K.std(a), K.var(a, axis=0), K.softmax(a), K.relu(a - 0.3),
        K.binary_crossentropy(t, a), K.categorical_crossentropy(t, a),
        K.categorical_crossentropy(t, K.softmax(a)), K.sparse_categorical_crossentropy(K.constant([1, 0]), a),
        K.pow(a, 2), K.sigmoid(a), K.tanh(a), K.stack([a, t]), K.expand_dims(a, 0), K.repeat(a, 2),
        K.switch(K.constant(True), a, t), K.in_train_phase(a, t, training=0), K.l2_normalize(a, axis=1)]
result = {"values": [floats(v) for v in K.get_session().run(vals)], "ops": [o[:2] for o in ops()]}
""",
    "clear_session_resets_names": """
a = [L.Dense(1).name for _ in range(3)]
K.set_learning_phase(1)
K.clear_session()
b = L.Dense(1).name
result = {"names": a + [b], "phase": K.learning_phase().name, "ops": ops(), "input": tf.keras.Input((1,)).name}
""",
    "names_counted_with_tf_layers_and_cells": """
a = tf.layers.Dense(2)
a(tf.placeholder(tf.float32, [None, 3]))
names = [a.name, L.Dense(2).name, tf.nn.rnn_cell.BasicLSTMCell(3).name, L.Dense(2).name, tf.layers.Dense(2).name,
         L.LSTM(2).name, L.LSTM(2).cell.name, tf.keras.Input((1,)).name, tf.keras.Sequential().name]
K.clear_session()
names.append(tf.layers.Dense(2).name)
result = {"names": names}
""",
}

ERRORS = {
    "negative_units": "L.Dense(-1)",
    "count_params_unbuilt": "L.Dense(2).count_params()",
    "set_weights_count": "d = L.Dense(2); d(tf.keras.Input((3,))); d.set_weights([np.zeros((3, 2))])",
    "set_weights_shape": "d = L.Dense(2); d(tf.keras.Input((3,))); d.set_weights([np.zeros((2, 2)), np.zeros(2)])",
    "input_without_shape": "tf.keras.Input()",
    "dense_unknown_last_dim": "L.Dense(2)(tf.placeholder(tf.float32, [None, None]))",
    "wrong_ndim": "L.Conv2D(2, 3)(tf.keras.Input((4,)))",
    "dense_axis_mismatch": "d = L.Dense(2); d(tf.keras.Input((3,))); d(tf.keras.Input((4,)))",
    "unknown_keyword": "L.Dense(2, foo=1)",
    "unknown_activation": "L.Dense(2, activation='nope')",
    "dropout_rate": "L.Dropout(1.5)",
    "learning_phase_value": "K.set_learning_phase(2)",
    "graph_disconnected": "a = tf.keras.Input((2,)); b = tf.keras.Input((2,)); tf.keras.Model(a, L.add([a, b]))",
    "softmax_1d": "tf.keras.activations.softmax(tf.constant([1.0, 2.0]))",
    "summary_unbuilt": "tf.keras.Sequential([L.Dense(1)]).summary()",
    "dense_on_integers": "L.Dense(2)(tf.placeholder(tf.int32, [None, 3]))",
    "merge_of_one_tensor": "L.add(tf.keras.Input((2,)))",
    "subtract_three": "a = tf.keras.Input((2,)); L.subtract([a, a, a])",
    "sequential_duplicate_name": "tf.keras.Sequential([L.Dense(1, name='d', input_shape=(2,)), L.Dense(1, name='d')])",
    "sequential_not_a_layer": "tf.keras.Sequential(['dense'])",
    "get_layer_missing": "m = tf.keras.Sequential([L.Dense(1, input_shape=(2,))]); m.get_layer('nope')",

}


@pytest.fixture(scope="module")
def tf_results():
    return kerasref.reference(dict(SNIPPETS, **{"error_" + k: v for k, v in ERRORS.items()}))


@pytest.mark.parametrize("key", sorted(SNIPPETS))
def test_backend_as_tf(key, tf_results):
    ours = kerasref.run_ours(SNIPPETS[key])
    theirs = tf_results[key]
    assert kerasref.error(theirs) is None, theirs
    kerasref.assert_same(ours["result"], theirs["result"], rtol=2e-5)


@pytest.mark.parametrize("key", sorted(ERRORS))
def test_error_as_tf(key, tf_results):
    ours = kerasref.run_ours(ERRORS[key], raising=True)
    theirs = tf_results["error_" + key]
    assert kerasref.error(theirs), theirs
    assert kerasref.error(ours) == kerasref.error(theirs)
