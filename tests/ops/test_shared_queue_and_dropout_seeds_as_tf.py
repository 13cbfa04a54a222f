"""Seeds as TF derives them, compared with TF 2.21 run live: a RandomShuffleQueue with a graph seed, no op
seed and a shared name takes its second seed from the graph seed and the shared name (an MD5 of both), so it
dequeues in TF's order whatever ops came before it; DropoutWrapper's masks inside dynamic_rnn get TF's op
seeds.

Not compared: the dropout masks' values inside dynamic_rnn. TF's executor runs the loop's iterations in
parallel, so which iteration's RandomUniform draws first depends on its thread pool: the same TF program
gives different masks from run to run (seen on TF 2.21); graphlab draws them in iteration order."""

import pytest

from tests import tfsnippets

PROGRAM = r'''
out = {}
tf.reset_default_graph()
tf.set_random_seed(42)
tf.constant(0)
tf.constant(1)                   # ops before the queue: they change an op-count seed, not the shared one
shared = tf.RandomShuffleQueue(20, 0, [tf.int32], shapes=[[]], shared_name="shared_q")
plain = tf.RandomShuffleQueue(20, 0, [tf.int32], shapes=[[]])
out["seeds"] = [[q.queue_ref.op.get_attr("seed"), q.queue_ref.op.get_attr("seed2")] for q in (shared, plain)]
sess = tf.Session()
sess.run([shared.enqueue_many([tf.range(20)]), plain.enqueue_many([tf.range(20)])])
out["orders"] = [sess.run(shared.dequeue_many(20)).tolist(), sess.run(plain.dequeue_many(20)).tolist()]

tf.reset_default_graph()
tf.set_random_seed(7)
x = tf.constant(np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 10)
with tf.variable_scope("m", initializer=tf.constant_initializer(0.1)):
    cell = tf.nn.rnn_cell.BasicRNNCell(5)
    cell = tf.nn.rnn_cell.DropoutWrapper(cell, input_keep_prob=0.7, output_keep_prob=0.5, state_keep_prob=0.8,
                                         seed=3)
    tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
out["dropout"] = [[op.name, op.get_attr("seed"), op.get_attr("seed2")]
                  for op in tf.get_default_graph().get_operations() if op.type == "RandomUniform"]
print(json.dumps(out))
'''


@pytest.fixture(scope="module")
def reference():
    return tfsnippets.last_json_in_tf(PROGRAM)


@pytest.fixture(scope="module")
def ours():
    return tfsnippets.last_json_in_graphlab(PROGRAM)


def test_shared_queue_seeds_and_order_as_tf(reference, ours):
    assert ours["seeds"] == reference["seeds"]
    assert ours["orders"] == reference["orders"]


def test_dropout_in_dynamic_rnn_has_tfs_op_seeds(reference, ours):
    assert len(reference["dropout"]) == 3
    assert ours["dropout"] == reference["dropout"]
