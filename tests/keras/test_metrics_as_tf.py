"""tf.keras.metrics as tf-keras runs them in graph mode: values of the stateful metrics over several
updates (with and without sample weights), reset, the metric functions, and the ops a metric builds."""
import pytest

from tests.keras import kerasref

DATA = """
y_true = np.array([[0., 1., 0.], [1., 0., 0.], [0., 0., 1.], [0., 1., 0.]], np.float32)
y_pred = np.array([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2], [0.2, 0.2, 0.6], [0.6, 0.3, 0.1]], np.float32)
labels = np.array([[1], [0], [2], [2]], np.int64)
bin_true = np.array([[1.], [0.], [1.], [0.]], np.float32)
bin_pred = np.array([[0.8], [0.6], [0.3], [0.1]], np.float32)
w = np.array([1., 0.5, 0., 2.], np.float32)
def init_run(fetches):
    sess = keras.backend.get_session()
    return sess.run(fetches)
"""

VALUES = {
    "mean": "m = keras.metrics.Mean()\nu1 = m.update_state([1., 2., 3.])\nu2 = m.update_state([[4.], [5.]], sample_weight=[[1.], [3.]])\n",
    "sum": "m = keras.metrics.Sum()\nu1 = m.update_state([1., 2., 3.])\nu2 = m.update_state([4., 5.], sample_weight=[2., 0.5])\n",
    "acc": "m = keras.metrics.Accuracy()\nu1 = m.update_state([1, 2, 3], [1, 2, 4])\nu2 = m.update_state([1, 1], [1, 0], sample_weight=[0.5, 2.])\n",
    "binacc": "m = keras.metrics.BinaryAccuracy()\nu1 = m.update_state(bin_true, bin_pred)\nu2 = m.update_state(bin_true, bin_pred, sample_weight=w)\n",
    "catacc": "m = keras.metrics.CategoricalAccuracy()\nu1 = m.update_state(y_true, y_pred)\nu2 = m.update_state(y_true, y_pred, sample_weight=w)\n",
    "sparseacc": "m = keras.metrics.SparseCategoricalAccuracy()\nu1 = m.update_state(labels, y_pred)\nu2 = m.update_state(labels, y_pred, sample_weight=w)\n",
    "topk": "m = keras.metrics.TopKCategoricalAccuracy(k=2)\nu1 = m.update_state(y_true, y_pred)\nu2 = m.update_state(y_true, y_pred, sample_weight=w)\n",
    "mse": "m = keras.metrics.MeanSquaredError()\nu1 = m.update_state(y_true, y_pred)\nu2 = m.update_state(y_true, y_pred, sample_weight=w)\n",
    "rmse": "m = keras.metrics.RootMeanSquaredError()\nu1 = m.update_state(y_true, y_pred)\nu2 = m.update_state(y_true, 2 * y_pred, sample_weight=w)\n",
    "cce": "m = keras.metrics.CategoricalCrossentropy()\nu1 = m.update_state(y_true, y_pred)\nu2 = m.update_state(y_true, y_pred, sample_weight=w)\n",
    "bce": "m = keras.metrics.BinaryCrossentropy()\nu1 = m.update_state(bin_true, bin_pred)\nu2 = m.update_state(bin_true, bin_pred, sample_weight=w)\n",
    "precision": "m = keras.metrics.Precision()\nu1 = m.update_state(bin_true, bin_pred)\nu2 = m.update_state(bin_true, bin_pred, sample_weight=w)\n",
    "recall": "m = keras.metrics.Recall(thresholds=[0.2, 0.5])\nu1 = m.update_state(bin_true, bin_pred)\nu2 = m.update_state(bin_true, bin_pred, sample_weight=w)\n",
}
SNIPPETS = {}
for key, body in VALUES.items():
    SNIPPETS["values_" + key] = DATA + body + """
r = m.result()
sess = keras.backend.get_session()
first = floats(sess.run(r))
sess.run(u1)
after1 = floats(sess.run(r))
sess.run(u2)
after2 = floats(sess.run(r))
m.reset_state()
result = {"name": m.name, "variables": [v.name for v in m.variables], "values": [first, after1, after2,
          floats(sess.run(r))], "trainable": [v.name for v in tf.trainable_variables()],
          "global": [v.name for v in tf.global_variables()]}
"""
SNIPPETS["ops_mean"] = DATA + """
m = keras.metrics.Mean()
u = m.update_state([1., 2., 3.])
r = m.result()
c = m([4., 5.])
result = {"ops": ops(), "update": u.name, "result": r.name, "call": c.name}
"""
SNIPPETS["ops_sparse_acc"] = DATA + """
m = keras.metrics.SparseCategoricalAccuracy()
c = m(labels, y_pred)
result = {"ops": ops(), "call": c.name}
"""
SNIPPETS["functions"] = DATA + """
fns = [keras.metrics.categorical_accuracy(y_true, y_pred), keras.metrics.sparse_categorical_accuracy(labels, y_pred),
       keras.metrics.binary_accuracy(bin_true, bin_pred), keras.metrics.top_k_categorical_accuracy(y_true, y_pred, k=1),
       keras.metrics.mse(y_true, y_pred), keras.metrics.sparse_top_k_categorical_accuracy(labels, y_pred, k=2)]
with tf.Session() as s:
    result = {"values": [floats(v) for v in s.run(fns)], "ops": ops()}
"""
SNIPPETS["get"] = """
result = [keras.metrics.get(n).__name__ for n in ["mse", "categorical_accuracy", "binary_accuracy", "mae",
          "sparse_categorical_accuracy", "top_k_categorical_accuracy"]]
result.append(type(keras.metrics.get({"class_name": "Mean", "config": {"name": "m"}})).__name__)
try:
    keras.metrics.get("nope")
except ValueError as e:
    result.append(str(e))
"""


@pytest.fixture(scope="module")
def theirs():
    return kerasref.reference(SNIPPETS)


@pytest.mark.parametrize("key", sorted(SNIPPETS))
def test_metrics_as_tf(key, theirs):
    ours = kerasref.run_ours(SNIPPETS[key])
    kerasref.assert_same(ours["result"], theirs[key]["result"])
