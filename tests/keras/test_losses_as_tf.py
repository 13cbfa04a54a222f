"""tf.keras.losses as tf-keras builds and computes them in graph mode: the functions' per-sample values and
ops, the Loss objects' name scopes, weighting and reductions, and the names compile accepts."""
import pytest

from tests.keras import kerasref

DATA = """
y_true = np.array([[0., 1., 0.], [1., 0., 0.], [0., 0., 1.], [0., 1., 0.]], np.float32)
y_pred = np.array([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2], [0.2, 0.2, 0.6], [0.6, 0.3, 0.1]], np.float32)
logits = np.array([[1., 2., -1.], [0.5, -0.3, 0.2], [-1., 0.2, 3.], [2., 0.1, -1.]], np.float32)
labels = np.array([1, 0, 2, 1], np.int32)
w = np.array([1., 0.5, 0., 2.], np.float32)
"""

FUNCTIONS = ["mean_squared_error", "mean_absolute_error", "mean_absolute_percentage_error",
             "mean_squared_logarithmic_error", "squared_hinge", "hinge", "categorical_hinge", "log_cosh",
             "categorical_crossentropy", "binary_crossentropy", "kl_divergence", "poisson",
             "cosine_similarity", "mse", "mae", "kld"]

SNIPPETS = {}
for fn in FUNCTIONS:
    SNIPPETS["fn_" + fn] = DATA + """
yt = tf.placeholder(tf.float32, [None, 3], name="yt")
yp = tf.placeholder(tf.float32, [None, 3], name="yp")
out = keras.losses.%s(yt, yp)
with tf.Session() as s:
    result = {"ops": ops(), "value": floats(s.run(out, {yt: y_true, yp: y_pred}))}
""" % fn

SNIPPETS["fn_huber"] = DATA + """
out = keras.losses.Huber(delta=0.5)(y_true, 3 * y_pred)
with tf.Session() as s:
    result = {"ops": ops(), "value": floats(s.run(out))}
"""
SNIPPETS["fn_from_logits"] = DATA + """
a = keras.losses.categorical_crossentropy(y_true, logits, from_logits=True)
b = keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True)
c = keras.losses.binary_crossentropy(y_true, logits, from_logits=True)
d = keras.losses.categorical_crossentropy(y_true, tf.nn.softmax(logits))
e = keras.losses.sparse_categorical_crossentropy(labels, y_pred)
f = keras.losses.categorical_crossentropy(y_true, y_pred, label_smoothing=0.1)
with tf.Session() as s:
    result = {"ops": ops(), "value": [floats(v) for v in s.run([a, b, c, d, e, f])]}
"""
for cls, args in [("MeanSquaredError", ""), ("MeanAbsoluteError", ""), ("CategoricalCrossentropy", ""),
                  ("CategoricalCrossentropy", "from_logits=True"), ("BinaryCrossentropy", "from_logits=True"),
                  ("Hinge", ""), ("KLDivergence", ""), ("CosineSimilarity", "axis=1"), ("Poisson", ""),
                  ("LogCosh", ""), ("CategoricalHinge", "")]:
    SNIPPETS["cls_%s_%s" % (cls, args)] = DATA + """
loss = keras.losses.%s(%s)
a = loss(y_true, logits)
b = loss(y_true, logits, sample_weight=w)
c = keras.losses.%s(%s%sreduction="sum")(y_true, logits, sample_weight=w)
d = keras.losses.%s(%s%sreduction="none")(y_true, logits)
with tf.Session() as s:
    result = {"ops": ops(), "value": [floats(v) for v in s.run([a, b, c, d])], "name": loss.name}
""" % (cls, args, cls, args, ", " if args else "", cls, args, ", " if args else "")
SNIPPETS["cls_sparse"] = DATA + """
loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
a = loss(labels, logits, sample_weight=w)
b = keras.losses.SparseCategoricalCrossentropy(name="my_loss")(labels[:, None], y_pred)
with tf.Session() as s:
    result = {"ops": ops(), "value": [floats(v) for v in s.run([a, b])]}
"""
SNIPPETS["get"] = """
result = [keras.losses.get(n).__name__ for n in ["mse", "mae", "mape", "msle", "kld", "categorical_crossentropy",
          "binary_crossentropy", "sparse_categorical_crossentropy", "hinge", "logcosh", "cosine_similarity"]]
result.append(type(keras.losses.get({"class_name": "Huber", "config": {"delta": 2.0}})).__name__)
try:
    keras.losses.get("nope")
except ValueError as e:
    result.append(str(e))
"""


@pytest.fixture(scope="module")
def theirs():
    return kerasref.reference(SNIPPETS)


@pytest.mark.parametrize("key", sorted(SNIPPETS))
def test_losses_as_tf(key, theirs):
    ours = kerasref.run_ours(SNIPPETS[key])
    kerasref.assert_same(ours["result"], theirs[key]["result"])
