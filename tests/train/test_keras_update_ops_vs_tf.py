"""The resource update ops of TF's Keras optimizers (ResourceApplyKerasMomentum, ResourceApplyAdagradV2,
ResourceApplyAdamWithAmsgrad and the sparse KerasMomentum/AdagradV2), applied three times to resource
variables with fixed gradients: the variables' and slots' values equal live TF's (tf.raw_ops there)."""
import json

import numpy as np
import pytest

import graphlab as tf
from graphlab.ops import resource_training_ops
import tfref

GRAD = [[0.5, -1.25, 2.0], [0.125, 0.75, -0.5]]
ROWS = [[0.5, -1.0, 0.25], [2.0, 0.5, -0.75]]
CASES = {
    # name: (op type, slot names, hyper-parameters before grad, hyper-parameters after grad, sparse, attrs)
    "keras_momentum": ("ResourceApplyKerasMomentum", ["accum"], [0.1], [0.9], False, {}),
    "keras_momentum_nesterov": ("ResourceApplyKerasMomentum", ["accum"], [0.1], [0.9], False,
                                {"use_nesterov": True}),
    "adagrad_v2": ("ResourceApplyAdagradV2", ["accum"], [0.1, 1e-7], [], False, {}),
    "amsgrad": ("ResourceApplyAdamWithAmsgrad", ["m", "v", "vhat"], [0.9, 0.999, 0.01, 0.9, 0.999, 1e-7], [],
                False, {}),
    "sparse_keras_momentum": ("ResourceSparseApplyKerasMomentum", ["accum"], [0.1], [0.9], True,
                              {"use_nesterov": True}),
    "sparse_adagrad_v2": ("ResourceSparseApplyAdagradV2", ["accum"], [0.1, 1e-7], [], True, {}),
}

TF_SCRIPT = r'''
cases = json.loads(sys.argv[1]); GRAD = json.loads(sys.argv[2]); ROWS = json.loads(sys.argv[3])
out = {}
for name, (op_type, slots, before, after, sparse, attrs) in cases.items():
    tf.reset_default_graph()
    var = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], use_resource=True, name="var")
    slot_vars = [tf.Variable(tf.fill([3, 3], 0.5), use_resource=True, name=s) for s in slots]
    op = getattr(tf.raw_ops, op_type)
    names = {"ResourceApplyKerasMomentum": ["lr", "grad", "momentum"],
             "ResourceSparseApplyKerasMomentum": ["lr", "grad", "indices", "momentum"],
             "ResourceApplyAdagradV2": ["lr", "epsilon", "grad"],
             "ResourceSparseApplyAdagradV2": ["lr", "epsilon", "grad", "indices"],
             "ResourceApplyAdamWithAmsgrad": ["beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon",
                                              "grad"]}[op_type]
    values = [tf.constant(x, tf.float32) for x in before] + [tf.constant(ROWS if sparse else GRAD + [GRAD[0]],
                                                                          tf.float32)]
    if sparse:
        values.append(tf.constant([2, 0]))
    values += [tf.constant(x, tf.float32) for x in after]
    kwargs = dict(zip(names, values))
    handles = {"var": var.handle}
    handles.update({s: v.handle for s, v in zip(slots, slot_vars)})
    step = op(**handles, **kwargs, **attrs)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run(step)
        out[name] = [sess.run(v).tolist() for v in [var] + slot_vars]
print(json.dumps(out))
'''


@pytest.fixture(scope="module")
def theirs():
    return json.loads(tfref.run_tf(TF_SCRIPT, json.dumps(CASES), json.dumps(GRAD), json.dumps(ROWS))
                      .strip().splitlines()[-1])


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_values_as_tf(theirs, name):
    op_type, slots, before, after, sparse, attrs = CASES[name]
    tf.reset_default_graph()
    var = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], use_resource=True, name="var")
    slot_vars = [tf.Variable(tf.fill([3, 3], 0.5), use_resource=True, name=s) for s in slots]
    values = [tf.constant(x, tf.float32) for x in before]
    values.append(tf.constant(ROWS if sparse else GRAD + [GRAD[0]], tf.float32))
    if sparse:
        values.append(tf.constant([2, 0]))
    values += [tf.constant(x, tf.float32) for x in after]
    attrs = dict(attrs, use_locking=False)
    step = resource_training_ops.resource_apply(op_type, [var.handle] + [v.handle for v in slot_vars] + values,
                                                **attrs)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run(step)
        ours = [sess.run(v) for v in [var] + slot_vars]
    for mine, tfs in zip(ours, theirs[name]):
        np.testing.assert_allclose(mine, np.array(tfs, np.float32), rtol=2e-6, atol=1e-7)
