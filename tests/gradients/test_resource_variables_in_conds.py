"""Gradients of resource variables read inside a cond, compared with TF 2.21.

Keras's BatchNormalization reads gamma and beta in both branches of its learning-phase cond, so the gradient
of each variable's handle leaves the cond through a Switch. The branch that got no gradient needs zeros: for a
handle TF makes them from the variable (VariableShape of the switched handle, in the variable's dtype), not
from the handle itself, whose dtype is ``resource``; and a handle read in one branch only still passes its
gradient on (``cond_resource_grad``). graphlab made int64 zeros there and could not build the gradient at all.
"""
import numpy as np
import pytest

from tests import tfsnippets

BATCH_NORM_4D = """
tf.set_random_seed(3)
x = tf.placeholder(tf.float32, (None, 2, 2, 1), name="x")
L = tf.keras.layers
y = L.Dense(1)(L.Flatten()(L.BatchNormalization()(x)))
loss = tf.reduce_mean(tf.square(y - 1.0))
grads = tf.gradients(loss, tf.trainable_variables())
"""
ONE_BRANCH = """
v = tf.Variable([1.0, 2.0], use_resource=True)
p = tf.placeholder(tf.bool, (), name="p")
out = tf.cond(p, lambda: v * 3.0, lambda: tf.constant([0.0, 0.0]))
grads = tf.gradients(tf.reduce_sum(out), [v])
"""
GRAPHS = {"batch_norm_4d": BATCH_NORM_4D, "one_branch": ONE_BRANCH}
FEED_X = np.arange(8, dtype=np.float32).reshape(2, 2, 2, 1)
VALUES = {
    "batch_norm_4d": BATCH_NORM_4D + """
init = tf.global_variables_initializer()
fetch = grads
feed = {x: X, tf.keras.backend.learning_phase(): True}
""",
    "one_branch_true": ONE_BRANCH + "init = tf.global_variables_initializer()\nfetch = grads\nfeed = {p: True}\n",
    "one_branch_false": ONE_BRANCH + "init = tf.global_variables_initializer()\nfetch = grads\nfeed = {p: False}\n",
}


@pytest.fixture(scope="module")
def theirs():
    return tfsnippets.reference(graphs=GRAPHS, values=VALUES, data={"X": FEED_X})


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_gradient_graph_as_tf(name, theirs):
    tfsnippets.check_graph(GRAPHS[name], theirs["graphs"][name])


@pytest.mark.parametrize("name", sorted(VALUES))
def test_gradient_values_as_tf(name, theirs):
    ours = tfsnippets.run_ours(VALUES[name], X=FEED_X)
    tfsnippets.check_values(ours, theirs["values"][name], rtol=1e-5, atol=1e-6, what=name)
