"""The cross entropies take labels of another dtype as TF does, compared with TF 2.21 run live: the softmax
ones (v1 and v2) cast float64 or integer labels to the logits' dtype (and compute float16 logits in
float32), building the same ops; the sigmoid one does not cast, and fails in its Mul as TF's."""
import json

import numpy as np
import pytest

import graphlab as tf
from tests.tfref import run_tf

CASES = {
    "v1_float64_labels": "tf.nn.softmax_cross_entropy_with_logits(labels=tf.constant([[0.0, 1.0], [0.3, 0.7]], "
                         "tf.float64), logits=tf.constant([[1.0, 2.0], [0.5, -1.0]]))",
    "v2_float64_labels": "tf.nn.softmax_cross_entropy_with_logits_v2(labels=tf.constant([[0.0, 1.0]], tf.float64), "
                         "logits=tf.constant([[1.0, 2.0]]))",
    "v2_integer_labels": "tf.nn.softmax_cross_entropy_with_logits_v2(labels=[[0, 1]], logits=[[1.0, 2.0]])",
    "v2_half_logits": "tf.nn.softmax_cross_entropy_with_logits_v2(labels=[[0.0, 1.0]], "
                      "logits=tf.constant([[1.0, 2.0]], tf.float16))",
    "v1_named": "tf.nn.softmax_cross_entropy_with_logits(labels=[[0.0, 1.0]], logits=[[1.0, 2.0]], name='xe')",
    "losses_float64_labels": "tf.losses.softmax_cross_entropy(tf.constant([[0.0, 1.0]], tf.float64), "
                             "tf.constant([[1.0, 2.0]]))",
    "sigmoid_float64_labels": "tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.constant([[0.0, 1.0]], "
                              "tf.float64), logits=tf.constant([[1.0, 2.0]]))",
    "sigmoid_shapes": "tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.constant([[0.0, 1.0, 1.0]]), "
                      "logits=tf.constant([[1.0, 2.0]]))",
}

PROGRAM = r'''
cases = json.loads(sys.argv[1])
out = {}
for key, src in cases.items():
    tf.reset_default_graph()
    try:
        r = eval(src)
        ops = [[o.name, o.type] for o in tf.get_default_graph().get_operations()]
        out[key] = ["ok", r.name, r.dtype.name, ops, np.asarray(tf.Session().run(r), np.float64).tolist()]
    except Exception as e:
        out[key] = [type(e).__name__, str(e)]
print(json.dumps(out))
'''


@pytest.fixture(scope="module")
def reference():
    return json.loads(run_tf(PROGRAM, json.dumps(CASES)).strip().splitlines()[-1])


@pytest.mark.parametrize("key", sorted(CASES))
def test_cross_entropy_labels_as_tf(reference, key):
    import sys
    printed = []
    saved = sys.argv
    sys.argv = ["program", json.dumps({key: CASES[key]})]
    try:
        exec(compile(PROGRAM, "<program>", "exec"), {"tf": tf, "np": np, "json": json, "sys": sys,
                                                      "print": printed.append})
    finally:
        sys.argv = saved
    ours, theirs = json.loads(printed[-1])[key], reference[key]
    if theirs[0] != "ok":
        assert ours == theirs
        return
    assert ours[:4] == theirs[:4]
    np.testing.assert_allclose(ours[4], theirs[4], rtol=1e-3 if "half" in key else 1e-6)
