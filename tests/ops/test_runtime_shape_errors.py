"""Shapes only known when run: kernels fail with TF's InvalidArgumentError texts (TF 2.21, compat.v1)."""
import numpy as np
import pytest

import graphlab as tf


@pytest.fixture
def x():
    return tf.placeholder(tf.float32, [None, None], name="x")


def _fails(fetch, feed, message, op_name):
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.Session().run(fetch, feed)
    assert e.value.op.name == op_name
    # TF 2.21's form: where the node was defined, its name, the kernel's words, the [[{{node}}]] tag
    assert e.value.message.startswith("Graph execution error:\n\nDetected at node %r defined at" % op_name)
    assert e.value.message.endswith("\nNode: %r\n%s\n\t [[{{node %s}}]]" % (op_name, message, op_name))


def test_matmul(x):
    _fails(tf.matmul(x, tf.ones([3, 2])), {x: np.ones((2, 4))},
           "Matrix size-incompatible: In[0]: [2,4], In[1]: [3,2]", "MatMul")
    _fails(tf.matmul(x, tf.ones([2, 3]), transpose_b=True), {x: np.ones((2, 4))},
           "Matrix size-incompatible: In[0]: [2,4], In[1]: [2,3]", "MatMul_1")


@pytest.mark.parametrize("build, message", [
    (lambda x: x + tf.ones([3]), "Incompatible shapes: [2,4] vs. [3]"),
    (lambda x: tf.ones([3]) - x, "Incompatible shapes: [3] vs. [2,4]"),
    (lambda x: x / tf.ones([3]), "Incompatible shapes: [2,4] vs. [3]"),
    (lambda x: tf.maximum(x, tf.ones([3])), "Incompatible shapes: [2,4] vs. [3]"),
    (lambda x: tf.less(x, tf.ones([3])), "Incompatible shapes: [2,4] vs. [3]"),
    (lambda x: tf.pow(x, tf.ones([3])), "Incompatible shapes: [2,4] vs. [3]"),
    (lambda x: tf.ones([3, 1, 5]) * x, "Incompatible shapes: [3,1,5] vs. [2,4]"),
])
def test_broadcasting_binary_ops(x, build, message):
    y = build(x)
    _fails(y, {x: np.ones((2, 4))}, message, y.op.name)


def test_reshape(x):
    _fails(tf.reshape(x, [3, -1]), {x: np.ones((2, 5))},
           "Input to reshape is a tensor with 10 values, but the requested shape requires a multiple of 3", "Reshape")
    _fails(tf.reshape(x, [3, 3]), {x: np.ones((2, 4))},
           "Input to reshape is a tensor with 8 values, but the requested shape has 9", "Reshape_1")


def test_gather_out_of_range():
    _fails(tf.gather(tf.constant([1, 2, 3]), [1, 5]), None, "indices[1] = 5 is not in [0, 3)", "GatherV2")
    _fails(tf.gather(tf.constant([1, 2, 3]), [[0, 1], [2, -1]]), None, "indices[1,1] = -1 is not in [0, 3)",
           "GatherV2_1")
    _fails(tf.gather(tf.ones([3, 2]), [0, 3], axis=1), None, "indices[1] = 3 is not in [0, 2)", "GatherV2_2")
    _fails(tf.gather(tf.constant([1, 2, 3]), 7), None, "indices = 7 is not in [0, 3)", "GatherV2_3")


def test_concat(x):
    _fails(tf.concat([x, tf.ones([3, 4])], 0), {x: np.ones((2, 3))},
           "ConcatOp : Dimension 1 in both shapes must be equal: shape[0] = [2,3] vs. shape[1] = [3,4]", "concat")
    _fails(tf.concat([x, tf.ones([3, 4])], 1), {x: np.ones((2, 3))},
           "ConcatOp : Dimension 0 in both shapes must be equal: shape[0] = [2,3] vs. shape[1] = [3,4]", "concat_1")
