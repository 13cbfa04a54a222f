"""compile/fit/evaluate/predict as tf-keras runs them in graph mode, compared with live tf-keras: the ops
compile adds and those the first fit adds, weights and History after training from set initial weights,
what fit prints (verbose=2 lines, verbose=1 final bar lines; timings sanitized), evaluate/predict and the
*_on_batch results, datasets, several outputs, a tf.train optimizer, Keras layers inside a hand-written TF1
training loop, and the errors a learner meets first."""
import re

import pytest

from tests.keras import kerasref

MODEL = """
tf.set_random_seed(1)
np.random.seed(0)
x = np.random.RandomState(0).rand(10, 4).astype('float32')
y = np.random.RandomState(1).rand(10, 2).astype('float32')
def set_weights(m):
    m.set_weights([np.arange(np.prod(w.shape), dtype=np.float32).reshape(w.shape) / 10 - 0.5 + 0.01 * i
                   for i, w in enumerate(m.get_weights())])
m = keras.Sequential([keras.layers.Dense(3, input_shape=(4,), activation='relu'), keras.layers.Dense(2)])
set_weights(m)
"""

SNIPPETS = {}
SNIPPETS["adam mse acc verbose=2"] = MODEL + """
n0 = len(tf.get_default_graph().get_operations())
m.compile(optimizer='adam', loss='mse', metrics=['accuracy'])
compiled = ops(n0)
n1 = len(tf.get_default_graph().get_operations())
h = m.fit(x, y, batch_size=4, epochs=2, verbose=2, shuffle=False)
result = {"compiled": compiled, "fitted": ops(n1), "history": h.history, "epoch": h.epoch, "params": h.params,
          "weights": [floats(w) for w in m.get_weights()], "names": m.metrics_names,
          "metrics": [mm.name for mm in m.metrics]}
"""
SNIPPETS["verbose=1 validation_split shuffled, evaluate, predict, on_batch"] = MODEL + """
m.compile(optimizer=keras.optimizers.SGD(0.1, momentum=0.9), loss='mae', metrics=['mse', 'acc'])
h = m.fit(x, y, batch_size=3, epochs=3, validation_split=0.3)
n1 = len(tf.get_default_graph().get_operations())
ev = m.evaluate(x, y, batch_size=4, verbose=0)
pr = m.predict(x, batch_size=3)
tb = m.train_on_batch(x[:5], y[:5])
teb = m.test_on_batch(x[5:], y[5:])
pob = m.predict_on_batch(x[:2])
result = {"history": h.history, "params": h.params, "evaluate": floats(ev), "predict": floats(pr),
          "train_on_batch": floats(tb), "test_on_batch": floats(teb), "predict_on_batch": floats(pob),
          "after_fit_ops": ops(n1), "weights": [floats(w) for w in m.get_weights()]}
"""
SNIPPETS["sparse categorical, int labels, rmsprop"] = """
tf.set_random_seed(1)
x = np.random.RandomState(0).rand(12, 5).astype('float32')
labels = np.array([0, 1, 2, 1, 0, 2, 2, 1, 0, 0, 1, 2])
inp = keras.Input(shape=(5,), name='features')
hidden = keras.layers.Dense(4, activation='tanh', name='hidden')(inp)
out = keras.layers.Dense(3, activation='softmax', name='probs')(hidden)
m = keras.Model(inp, out)
m.set_weights([np.arange(np.prod(w.shape), dtype=np.float32).reshape(w.shape) / 20 - 0.3
               for w in m.get_weights()])
n0 = len(tf.get_default_graph().get_operations())
m.compile(optimizer=keras.optimizers.RMSprop(0.01), loss='sparse_categorical_crossentropy', metrics=['accuracy'])
compiled = ops(n0)
h = m.fit(x, labels, batch_size=5, epochs=3, verbose=0, shuffle=False)
result = {"compiled": compiled, "history": h.history, "weights": [floats(w) for w in m.get_weights()],
          "evaluate": floats(m.evaluate(x, labels, verbose=0))}
"""
SNIPPETS["binary crossentropy, categorical one-hot, adagrad"] = """
x = np.random.RandomState(2).rand(8, 3).astype('float32')
yb = (x.sum(axis=1, keepdims=True) > 1.5).astype('float32')
m = keras.Sequential([keras.layers.Dense(1, activation='sigmoid', input_shape=(3,))])
m.set_weights([np.array([[0.5], [-0.2], [0.1]], np.float32), np.array([0.05], np.float32)])
n0 = len(tf.get_default_graph().get_operations())
m.compile(optimizer='adagrad', loss='binary_crossentropy', metrics=['accuracy', 'binary_crossentropy'])
compiled = ops(n0)
h = m.fit(x, yb, batch_size=8, epochs=2, verbose=0)
result = {"compiled": compiled, "history": h.history, "weights": [floats(w) for w in m.get_weights()]}
"""
SNIPPETS["two outputs, loss dict, loss weights"] = """
x = np.random.RandomState(3).rand(6, 3).astype('float32')
ya = np.random.RandomState(4).rand(6, 2).astype('float32')
yb = np.random.RandomState(5).rand(6, 1).astype('float32')
inp = keras.Input(shape=(3,))
shared = keras.layers.Dense(4, activation='relu')(inp)
a = keras.layers.Dense(2, name='a')(shared)
b = keras.layers.Dense(1, name='b')(shared)
m = keras.Model(inp, [a, b])
m.set_weights([np.arange(np.prod(w.shape), dtype=np.float32).reshape(w.shape) / 10 - 0.4
               for w in m.get_weights()])
n0 = len(tf.get_default_graph().get_operations())
m.compile(optimizer='sgd', loss={'a': 'mse', 'b': 'mae'}, loss_weights={'a': 1.0, 'b': 0.5}, metrics=['mae'])
compiled = ops(n0)
h = m.fit(x, [ya, yb], batch_size=4, epochs=2, verbose=2, shuffle=False)
result = {"compiled": compiled, "history": h.history, "names": m.metrics_names,
          "weights": [floats(w) for w in m.get_weights()], "evaluate": floats(m.evaluate(x, [ya, yb], verbose=0))}
"""
SNIPPETS["tf.data dataset"] = MODEL + """
m.compile(optimizer='adam', loss='mse')
ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(4)
h = m.fit(ds, epochs=2, verbose=2)
result = {"history": h.history, "params": h.params, "weights": [floats(w) for w in m.get_weights()],
          "evaluate": floats(m.evaluate(ds, verbose=0)),
          "predict": floats(m.predict(tf.data.Dataset.from_tensor_slices(x).batch(3)))}
"""
SNIPPETS["validation_data, steps per epoch"] = MODEL + """
m.compile(optimizer='adam', loss='mse', metrics=['mae'])
h = m.fit(x[:6], y[:6], epochs=2, verbose=2, validation_data=(x[6:], y[6:]), shuffle=False, initial_epoch=0)
h2 = m.fit(x, y, epochs=4, verbose=2, initial_epoch=2, batch_size=5, shuffle=False)
result = {"history": h.history, "history2": h2.history, "epoch2": h2.epoch,
          "weights": [floats(w) for w in m.get_weights()]}
"""
SNIPPETS["tf.train optimizer in compile"] = MODEL + """
n0 = len(tf.get_default_graph().get_operations())
m.compile(optimizer=tf.train.GradientDescentOptimizer(0.1), loss='mse')
h = m.fit(x, y, batch_size=5, epochs=2, verbose=0, shuffle=False)
result = {"ops": ops(n0), "history": h.history, "weights": [floats(w) for w in m.get_weights()],
          "iterations": int(keras.backend.get_value(m.optimizer.iterations))}
"""
SNIPPETS["keras layers in a TF1 training loop"] = """
x = np.random.RandomState(0).rand(10, 4).astype('float32')
y = np.random.RandomState(1).rand(10, 1).astype('float32')
xs = tf.placeholder(tf.float32, [None, 4], name='xs')
ys = tf.placeholder(tf.float32, [None, 1], name='ys')
layer = keras.layers.Dense(1, name='lin')
pred = layer(xs)
loss = tf.losses.mean_squared_error(ys, pred)
train = tf.train.AdamOptimizer(0.1).minimize(loss)
sess = keras.backend.get_session()
sess.run(tf.global_variables_initializer())
layer.set_weights([np.array([[0.1], [0.2], [-0.3], [0.4]], np.float32), np.array([0.0], np.float32)])
losses = [float(sess.run([loss, train], {xs: x, ys: y})[0]) for _ in range(4)]
result = {"losses": losses, "weights": [floats(w) for w in layer.get_weights()], "ops": ops()}
"""
SNIPPETS["sample_weight, class_weight, weighted metrics"] = MODEL + """
n0 = len(tf.get_default_graph().get_operations())
m.compile(optimizer='sgd', loss='mse', metrics=['mae'], weighted_metrics=['mse'])
compiled = ops(n0)
w = np.array([1., 2., 0., 1., 0.5, 1., 1., 3., 1., 0.], np.float32)
n1 = len(tf.get_default_graph().get_operations())
h = m.fit(x, y, sample_weight=w, batch_size=4, epochs=2, verbose=0, shuffle=False)
weighted_fit = ops(n1)
ev = m.evaluate(x, y, sample_weight=w, verbose=0)
tb = m.train_on_batch(x[:4], y[:4], sample_weight=w[:4])
c = keras.Sequential([keras.layers.Dense(3, activation='softmax', input_shape=(4,))])
set_weights(c)
c.compile('adam', 'categorical_crossentropy', metrics=['acc'])
onehot = np.eye(3, dtype=np.float32)[[0, 1, 2, 1, 0, 2, 2, 1, 0, 0]]
hc = c.fit(x, onehot, class_weight={0: 1.0, 1: 2.0, 2: 0.5}, batch_size=5, epochs=2, verbose=0, shuffle=False)
result = {"compiled": compiled, "weighted_fit": weighted_fit, "history": h.history, "evaluate": floats(ev),
          "train_on_batch": floats(tb), "names": m.metrics_names, "class_history": hc.history,
          "weights": [floats(v) for v in m.get_weights() + c.get_weights()]}
"""
SNIPPETS["compile before the input shape is known"] = """
x = np.random.RandomState(0).rand(10, 4).astype('float32'); y = np.random.RandomState(1).rand(10, 1).astype('float32')
m = keras.Sequential([keras.layers.Dense(3, activation='relu'), keras.layers.Dense(1)])
m.compile('sgd', 'mse', metrics=['mae'])
built_before = m.built
n0 = len(tf.get_default_graph().get_operations())
h = m.fit(x, y, epochs=1, verbose=0, batch_size=5, shuffle=False)
result = {"built_before": built_before, "ops": ops(n0), "names": m.metrics_names,
          "variables": [v.name for v in m.weights]}
"""
SNIPPETS["LSTM and Dropout, rmsprop"] = """
tf.set_random_seed(0)
x = np.random.RandomState(0).rand(8, 5, 3).astype('float32'); y = np.random.RandomState(1).rand(8, 1).astype('float32')
m = keras.Sequential([keras.layers.LSTM(4, input_shape=(5, 3)), keras.layers.Dropout(0.3), keras.layers.Dense(1)])
m.set_weights([np.sin(np.arange(np.prod(w.shape), dtype=np.float32)).reshape(w.shape) * 0.3 for w in m.get_weights()])
m.compile('rmsprop', 'mse', metrics=['mae'])
h = m.fit(x, y, batch_size=4, epochs=2, verbose=2, shuffle=False)
result = {"history": h.history, "weights": [floats(w) for w in m.get_weights()], "pred": floats(m.predict(x))}
"""
SNIPPETS["errors"] = MODEL + """
result = []
def attempt(fn):
    try:
        fn()
        result.append(None)
    except Exception as e:
        result.append([type(e).__name__, str(e)])
attempt(lambda: m.fit(x, y, verbose=0))
m.compile('sgd', 'mse')
attempt(lambda: m.fit(x[:, :3], y, verbose=0))
attempt(lambda: m.fit(x, y[:, :1], verbose=0))
attempt(lambda: m.fit(x, y[:5], verbose=0))
attempt(lambda: m.fit(x, y, validation_split=0.01, verbose=0))
attempt(lambda: m.fit(x, y, foo=1))
attempt(lambda: m.compile('sgd', 'mse', foo=2))
attempt(lambda: m.fit(x, y, sample_weight=np.ones(3), verbose=0))
attempt(lambda: m.fit(x, np.eye(2)[[0, 1, 1, 0, 0, 1, 1, 0, 0, 1]], class_weight={0: 1.0}, verbose=0))
attempt(lambda: m.compile('sgd', 'nope'))
attempt(lambda: m.fit(x, y, verbose=0))
"""


def sanitize(stdout):
    """What a terminal finally shows (each line after its last carriage return, backspaces dropped), with
    timings replaced: they differ from run to run."""
    lines = []
    for line in stdout.replace("\b", "").split("\n"):
        lines.append(line.split("\r")[-1].rstrip())
    text = "\n".join(lines)
    text = re.sub(r"\b\d+(\.\d+)?(s|ms|us)(/(epoch|sample|step))?\b", "<t>", text)
    return re.sub(r"ETA: [\d:]+s?", "ETA: <t>", text)


def without_assert_broadcastable(result):
    """graphlab's weights_broadcast_ops checks a sample weight's shape with a plain LogicalOr where TF builds
    a cond with DenseToDenseSetOperation (a known divergence of the engine, not of Keras): those ops under
    .../broadcast_weights/assert_broadcastable/ are left out of the comparison."""
    if isinstance(result, dict):
        return {k: without_assert_broadcastable(v) for k, v in result.items()}
    if isinstance(result, list) and result and isinstance(result[0], list) and len(result[0]) == 4 and \
            isinstance(result[0][0], str):
        return [o for o in result if "/assert_broadcastable/" not in o[0]]
    return result


def normalize(result):
    """Keras's session checks initialization of a set of variables: the order of its VarIsInitializedOp ops
    is the set's, which changes from process to process. Compare those inputs as a sorted list."""
    if isinstance(result, dict):
        return {k: normalize(v) for k, v in result.items()}
    if isinstance(result, list) and result and all(isinstance(o, list) and len(o) == 4 and isinstance(o[0], str)
                                                   for o in result):
        checks = sorted(o[2][0] for o in result if o[1] == "VarIsInitializedOp" and not o[0].endswith(
            "/IsInitialized/VarIsInitializedOp"))
        kept = [o for o in result if not (o[1] == "VarIsInitializedOp" and not o[0].endswith(
            "/IsInitialized/VarIsInitializedOp"))]
        return kept + [["VarIsInitializedOp*", "VarIsInitializedOp", checks, []]] if checks else kept
    if isinstance(result, list):
        return [normalize(v) for v in result]
    return result


@pytest.fixture(scope="module")
def theirs():
    return kerasref.reference(SNIPPETS)


@pytest.mark.parametrize("key", sorted(SNIPPETS))
def test_fit_as_tf(key, theirs):
    ours = kerasref.run_ours(SNIPPETS[key], raising="errors" in key)
    if "sample_weight" in key:
        ours["result"], theirs[key]["result"] = (without_assert_broadcastable(ours["result"]),
                                                 without_assert_broadcastable(theirs[key]["result"]))
    kerasref.assert_same(normalize(ours["result"]), normalize(theirs[key]["result"]), rtol=2e-5, atol=1e-6)
    assert sanitize(ours["stdout"]) == sanitize(theirs[key]["stdout"])
