"""A tf.data function computes nan and inf as quietly as Session.run does (TF's kernels never warn): the map
run on a pool of threads (num_parallel_calls) and the iterator advanced on a helper thread (in a notebook)
give TF's values and no numpy RuntimeWarning. Compared with TF 2.21 run beside us."""
import pytest

from graphlab.data import dataset_ops
from tests import tfsnippets

PROGRAM = """
import numpy as np
f = lambda x: 1.0 / x + tf.log(x) + tf.sqrt(x)
data = [1.0, 0.0, -1.0]
result = []
for ds in [tf.data.Dataset.from_tensor_slices(data).map(f, num_parallel_calls=2),
           tf.data.Dataset.from_tensor_slices(data).map(f).batch(2),
           tf.data.Dataset.from_tensor_slices(data).filter(lambda x: f(x) > 0),
           tf.data.Dataset.from_tensor_slices(data).flat_map(lambda x: tf.data.Dataset.from_tensors(f(x)))]:
    it = ds.make_initializable_iterator()
    nxt = it.get_next()
    with tf.Session() as s:
        s.run(it.initializer)
        try:
            while True:
                result.append(np.asarray(s.run(nxt)).tolist())
        except tf.errors.OutOfRangeError:
            pass
result = [str(r) for r in result]
"""


@pytest.fixture(scope="module")
def tf_result():
    return tfsnippets.reference(results={"program": PROGRAM})["results"]["program"]


@pytest.mark.parametrize("helper_thread", [False, True])
def test_dataset_functions_are_as_quiet_as_tf(tf_result, helper_thread, monkeypatch):
    monkeypatch.setattr(dataset_ops, "INTERRUPT_SAFE_GET_NEXT", helper_thread)
    ours = tfsnippets.run_result(PROGRAM)
    assert ours["result"] == tf_result["result"]
    assert [w for w in ours["warnings"] if "encountered" in w] == \
        [w for w in tf_result["warnings"] if "encountered" in w] == []
