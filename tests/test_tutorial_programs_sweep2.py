"""TF1 tutorial programs from more public collections (hunkim/DeepLearningZeroToAll, chiphuyen's CS20
stanford-tensorflow-tutorials, ...) that ran differently in graphlab than in TensorFlow, trimmed to the part
that differed and run on both sides (one TF subprocess) on small synthetic data; each names its origin.

* cs20si examples/03_linreg_dataset.py prints its ``tf.data.Dataset``: TF shows the dataset's class and
  element_spec (``<_TensorSliceDataset element_spec=(TensorSpec(...), ...)>``), graphlab showed a Python
  object address. ``unbatch`` of scalar components raised nothing where TF refuses.
"""
import numpy as np
import pytest

from tests import tfsnippets

RESULTS = {
    # cs20si examples/03_linreg_dataset.py: print(dataset), and what every other Dataset method gives
    "dataset_reprs": """
import os, tempfile
folder = tempfile.mkdtemp()
path = os.path.join(folder, "a.txt")
with open(path, "w") as f:
    f.write("x\\ny\\n")
x = np.arange(6, dtype=np.float32).reshape(3, 2)
ds = tf.data.Dataset.from_tensor_slices((x, np.arange(3)))
named = tf.data.Dataset.from_tensor_slices({"k": x, "s": ["a", "b", "c"]})
shown = [ds, named, ds.batch(2), ds.shuffle(3), ds.repeat(), ds.map(lambda a, b: a),
         ds.map(lambda a, b: {"a": a}, num_parallel_calls=2), ds.prefetch(1), tf.data.Dataset.range(3),
         tf.data.Dataset.from_tensors(x), ds.take(1), ds.skip(1), ds.filter(lambda a, b: b > 0), ds.cache(),
         tf.data.Dataset.zip((ds, ds)), ds.padded_batch(2, ([2], [])), ds.shard(2, 0),
         ds.flat_map(lambda a, b: tf.data.Dataset.from_tensors(a)),
         ds.interleave(lambda a, b: tf.data.Dataset.from_tensors(a)), ds.concatenate(ds),
         tf.data.Dataset.from_generator(lambda: iter([1]), tf.int32, tf.TensorShape([])),
         tf.data.Dataset.from_tensor_slices(x).batch(2).unbatch(), tf.data.TextLineDataset(path),
         tf.data.TFRecordDataset(path), tf.data.FixedLengthRecordDataset(path, 1),
         tf.data.Dataset.from_tensor_slices(x).batch(2, drop_remainder=True).apply(lambda d: d),
         tf.data.Dataset.range(5).map(lambda i: (i, tf.zeros([i, 3])))]
result = [repr(d) for d in shown]
try:
    ds.unbatch()
except ValueError as e:
    result.append(str(e))
""",
}


@pytest.fixture(scope="module")
def tf_results():
    return tfsnippets.reference(results=RESULTS)


@pytest.mark.parametrize("key", sorted(RESULTS))
def test_what_the_program_prints_is_tensorflows(key, tf_results):
    assert tfsnippets.run_result(RESULTS[key])["result"] == tf_results["results"][key]["result"]
