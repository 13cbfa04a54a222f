"""tf.nn.rnn_cell and tf.nn.static_rnn build TF 2.21's graphs (tf-keras' legacy cells): every op's name, type
and inputs in creation order, variable names, cell names and sizes, and TF's errors. Each snippet runs here
and in real TensorFlow (one subprocess for both RNN test modules: tests/ops/rnn_reference.py)."""
import pytest

import graphlab
from tests.ops import rnn_reference
from tests.programs.test_same_graph_as_tf import graphlab_ops

GRAPHS = {
    # the classic: unstack a [batch, time, depth] placeholder, BasicLSTMCell under static_rnn, gradients
    "basic_lstm": """
x = tf.placeholder(tf.float32, [None, 3, 4], name="x")
cell = tf.nn.rnn_cell.BasicLSTMCell(5)
outputs, state = tf.nn.static_rnn(cell, tf.unstack(x, 3, 1), dtype=tf.float32)
grads = tf.gradients(tf.reduce_sum(outputs[-1]) + tf.reduce_sum(state.c), tf.trainable_variables() + [x])
""",
    "gru_initial_state_and_scope": """
x = tf.placeholder(tf.float32, [4, 3, 2], name="x")
h0 = tf.placeholder(tf.float32, [4, 6], name="h0")
cell = tf.nn.rnn_cell.GRUCell(6)
outputs, state = tf.nn.static_rnn(cell, tf.unstack(x, axis=1), initial_state=h0, scope="encoder")
grads = tf.gradients(tf.reduce_sum(outputs[-1]) + tf.reduce_sum(state), tf.trainable_variables() + [x, h0])
""",
    # peepholes, clipping, projection, an initializer; flat (non-tuple) states
    "lstm_cell_options": """
x = tf.placeholder(tf.float32, [None, 2, 3], name="x")
cell = tf.nn.rnn_cell.LSTMCell(4, use_peepholes=True, cell_clip=2.0, num_proj=3, proj_clip=1.5,
                                initializer=tf.random_uniform_initializer(-0.1, 0.1), forget_bias=0.5)
outputs, state = tf.nn.static_rnn(cell, tf.unstack(x, axis=1), dtype=tf.float32)
cell2 = tf.nn.rnn_cell.LSTMCell(3, state_is_tuple=False, activation=tf.nn.relu, name="flat")
o2, s2 = tf.nn.static_rnn(cell2, tf.unstack(x, axis=1), dtype=tf.float32, scope="flat_rnn")
cell3 = tf.nn.rnn_cell.BasicLSTMCell(3, state_is_tuple=False, forget_bias=0.0)
o3, s3 = tf.nn.static_rnn(cell3, tf.unstack(x, axis=1), dtype=tf.float32, scope="basic_flat")
grads = tf.gradients(tf.reduce_sum(outputs[-1]) + tf.reduce_sum(s2) + tf.reduce_sum(s3), tf.trainable_variables())
""",
    # MultiRNNCell (rnn/rnn/multi_rnn_cell/cell_i/...) of wrapped cells: dropout on a fed keep_prob, a fixed
    # one with a seed, a residual; a flat-state stack
    "multi_rnn_cell_and_wrappers": """
x = tf.placeholder(tf.float32, [None, 3, 4], name="x")
keep = tf.placeholder(tf.float32, [], name="keep")
cells = [tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.BasicLSTMCell(4), output_keep_prob=keep),
         tf.nn.rnn_cell.ResidualWrapper(tf.nn.rnn_cell.BasicLSTMCell(4)),
         tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.GRUCell(5), input_keep_prob=0.8, state_keep_prob=1.0, seed=3)]
stack = tf.nn.rnn_cell.MultiRNNCell(cells)
outputs, state = tf.nn.static_rnn(stack, tf.unstack(x, axis=1), dtype=tf.float32)
grads = tf.gradients(tf.reduce_sum(outputs[-1]), tf.trainable_variables())
flat = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.BasicRNNCell(3), tf.nn.rnn_cell.GRUCell(2)], state_is_tuple=False)
o2, s2 = tf.nn.static_rnn(flat, tf.unstack(x, axis=1), dtype=tf.float32, scope="flat")
""",
    # one mask per sequence, drawn when the wrapper is made; an LSTM's c is not dropped
    "variational_dropout": """
x = tf.placeholder(tf.float32, [None, 2, 3], name="x")
cell = tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.BasicLSTMCell(4), input_keep_prob=0.9, output_keep_prob=0.7,
                                     state_keep_prob=0.5, variational_recurrent=True, input_size=3,
                                     dtype=tf.float32, seed=11)
outputs, state = tf.nn.static_rnn(cell, tf.unstack(x, axis=1), dtype=tf.float32)
""",
    # cells called by hand: the first call fixes the name scope, scope= places the variables, reuse
    "cells_called_directly": """
x = tf.placeholder(tf.float32, [2, 3], name="x")
cell = tf.nn.rnn_cell.BasicRNNCell(4)
s0 = cell.zero_state(2, tf.float32)
with tf.name_scope("outer"):
    y1, s1 = cell(x, s0)
with tf.variable_scope("other"):
    y2, s2 = cell(x, s1)
lstm = tf.nn.rnn_cell.BasicLSTMCell(2, name="my_lstm")
z = lstm.zero_state(tf.shape(x)[0], tf.float32)
with tf.variable_scope("dec"):
    o, st = lstm(x, z, scope="step")
    o2, st2 = lstm(x * 2.0, st)
multi = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.GRUCell(2), tf.nn.rnn_cell.GRUCell(2)])
mo, ms = multi(x, multi.zero_state(2, tf.float32))
mo2, ms2 = multi(x * 2.0, ms)
with tf.variable_scope("scoped"):
    c2 = tf.nn.rnn_cell.LSTMCell(3)
    a, b = c2(x, c2.get_initial_state(inputs=x))
""",
    # sequence_length: TF's conds per step (nothing past the longest, no copy before the shortest); their
    # gradients (cond_grad Merges, zeros for the branch not taken, the concat axis copied out of the branch)
    "basic_rnn_sequence_length": """
x = tf.placeholder(tf.float32, [None, 2, 4], name="x")
sl = tf.placeholder(tf.int32, [None], name="sl")
cell = tf.nn.rnn_cell.BasicRNNCell(5)
outputs, state = tf.nn.static_rnn(cell, tf.unstack(x, 2, 1), dtype=tf.float32, sequence_length=sl)
""",
    "lstm_sequence_length_list": """
x = tf.placeholder(tf.float32, [5, 3, 2], name="x")
cell = tf.nn.rnn_cell.BasicLSTMCell(3)
outputs, state = tf.nn.static_rnn(cell, tf.unstack(x, axis=1), dtype=tf.float32, sequence_length=[3, 1, 2, 0, 3])
grads = tf.gradients(tf.reduce_sum(outputs[1]) + tf.reduce_sum(state.h), tf.trainable_variables() + [x])
""",
    # fw/ and bw/ scopes, ReverseSequence with lengths (int64), plain reversal without
    "static_bidirectional_rnn": """
x = tf.placeholder(tf.float32, [None, 3, 2], name="x")
lengths = tf.placeholder(tf.int64, [None], name="lengths")
outputs, sf, sb = tf.nn.static_bidirectional_rnn(tf.nn.rnn_cell.BasicLSTMCell(3), tf.nn.rnn_cell.GRUCell(3),
                                                 tf.unstack(x, axis=1), dtype=tf.float32, sequence_length=lengths)
o2, _, _ = tf.nn.static_bidirectional_rnn(tf.nn.rnn_cell.BasicRNNCell(2), tf.nn.rnn_cell.BasicRNNCell(2),
                                          tf.unstack(x, axis=1), dtype=tf.float32, scope="plain")
g = tf.gradients(tf.reduce_sum(outputs[-1]) + tf.reduce_sum(o2[0]), tf.trainable_variables() + [x])
rs = tf.reverse_sequence(x, lengths, seq_axis=1, batch_axis=0)
g2 = tf.gradients(rs, x)
""",
    # the classic MNIST-rows LSTM tutorial as TF 1.x wrote it (tf.contrib.rnn in graphlab; TF 2.21 has no
    # contrib, so there the same names come from tf.nn), trained with gradient descent
    "recurrent_network_tutorial": """
rnn = tf.contrib.rnn if hasattr(tf, "contrib") else tf.nn.rnn_cell
static_rnn = tf.contrib.rnn.static_rnn if hasattr(tf, "contrib") else tf.nn.static_rnn
X = tf.placeholder("float", [None, 28, 28])
Y = tf.placeholder("float", [None, 10])
weights = {'out': tf.Variable(tf.random_normal([128, 10]))}
biases = {'out': tf.Variable(tf.random_normal([10]))}
x = tf.unstack(X, 28, 1)
outputs, states = static_rnn(rnn.BasicLSTMCell(128, forget_bias=1.0), x, dtype=tf.float32)
logits = tf.matmul(outputs[-1], weights['out']) + biases['out']
prediction = tf.nn.softmax(logits, name='prediction')
loss_op = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(logits=logits, labels=Y))
train_op = tf.train.GradientDescentOptimizer(learning_rate=0.001).minimize(loss_op)
accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(prediction, 1), tf.argmax(Y, 1)), tf.float32))
""",
    # sharing weights: a new cell in a reusing scope (reuse=True, AUTO_REUSE), a cell made with reuse=True
    "variable_reuse": """
x = tf.placeholder(tf.float32, [None, 3, 2], name="x")
with tf.variable_scope("model"):
    o1, s1 = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(3), x, dtype=tf.float32)
with tf.variable_scope("model", reuse=True):
    o2, s2 = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(3), x, dtype=tf.float32)
with tf.variable_scope("model2", reuse=tf.AUTO_REUSE):
    for _ in range(2):
        o3, s3 = tf.nn.static_rnn(tf.nn.rnn_cell.BasicLSTMCell(2), tf.unstack(x, axis=1), dtype=tf.float32)
with tf.variable_scope("model3"):
    o4, s4 = tf.nn.static_rnn(tf.nn.rnn_cell.BasicRNNCell(2), tf.unstack(x, axis=1), dtype=tf.float32)
    o5, s5 = tf.nn.static_rnn(tf.nn.rnn_cell.BasicRNNCell(2, reuse=True), tf.unstack(x, axis=1), dtype=tf.float32)
""",
    # dynamic_rnn: inputs transposed to time-major, TensorArrays in and out, the cell inside the while loop
    "dynamic_rnn_basic_lstm": """
x = tf.placeholder(tf.float32, [None, 3, 4], name="x")
outputs, state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicLSTMCell(5), x, dtype=tf.float32)
""",
    # sequence_length: TF's shape Assert (CheckSeqLen), copy-through without conds; the loop's gradient
    "dynamic_rnn_multi_sequence_length_gradients": """
x = tf.placeholder(tf.float32, [None, 3, 4], name="x")
sl = tf.placeholder(tf.int32, [None], name="sl")
cell = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.GRUCell(3), tf.nn.rnn_cell.BasicLSTMCell(2)])
outputs, state = tf.nn.dynamic_rnn(cell, x, sequence_length=sl, dtype=tf.float32)
grads = tf.gradients(tf.reduce_sum(outputs) + tf.reduce_sum(state[1].h), tf.trainable_variables() + [x])
""",
    "dynamic_rnn_time_major_and_bidirectional": """
x = tf.placeholder(tf.float32, [3, 2, 4], name="x")
h0 = tf.placeholder(tf.float32, [2, 3], name="h0")
outputs, state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicRNNCell(3), x, initial_state=h0, time_major=True,
                                   parallel_iterations=4, swap_memory=True, scope="enc")
(of, ob), (sf, sb) = tf.nn.bidirectional_dynamic_rnn(tf.nn.rnn_cell.GRUCell(2), tf.nn.rnn_cell.LSTMCell(2, num_proj=1),
                                                     x, sequence_length=[2, 1], dtype=tf.float32, time_major=True)
x2 = tf.placeholder(tf.float32, [None, None, 4], name="x2")
(of2, ob2), _ = tf.nn.bidirectional_dynamic_rnn(tf.nn.rnn_cell.BasicRNNCell(2), tf.nn.rnn_cell.BasicRNNCell(2), x2,
                                                dtype=tf.float32, scope="plain")
grads = tf.gradients(tf.reduce_sum(outputs) + tf.reduce_sum(of) + tf.reduce_sum(ob) + tf.reduce_sum(ob2),
                     tf.trainable_variables() + [x, h0])
""",
}

# the attrs of the loop's and TensorArrays' ops (frames, constants, parallel iterations, array names and
# element shapes, swap_memory), for the dynamic_rnn snippets
FRAME_ATTRS = ("frame_name", "is_constant", "parallel_iterations", "tensor_array_name", "element_shape",
               "dynamic_size", "clear_after_read", "identical_element_shapes", "swap_memory", "elem_type",
               "stack_name")
ATTRS_DUMP = """
def frame_attrs():
    out = []
    for op in tf.get_default_graph().get_operations():
        for key in FRAME_ATTRS:
            try:
                value = op.get_attr(key)
            except (ValueError, KeyError):
                continue
            out.append([op.name, key, str(tf.TensorShape(value)) if key == "element_shape" else
                        value.decode() if isinstance(value, bytes) else value if isinstance(value, str)
                        else repr(value)])
    return out
"""

# what users read off cells and their variables
FACTS = """
facts = {}
def run(label, f):
    try:
        facts[label] = f()
    except Exception as e:
        facts[label] = "%s: %s" % (type(e).__name__, e)
def shapes(s):
    return [type(s).__name__, [shapes(t) for t in s]] if isinstance(s, tuple) else s.shape.as_list()
x = tf.placeholder(tf.float32, [None, 3])
cells = {"basic_rnn": tf.nn.rnn_cell.BasicRNNCell(4), "gru": tf.nn.rnn_cell.GRUCell(4),
         "basic_lstm": tf.nn.rnn_cell.BasicLSTMCell(4), "lstm_proj": tf.nn.rnn_cell.LSTMCell(4, num_proj=2),
         "lstm_flat": tf.nn.rnn_cell.LSTMCell(4, num_proj=2, state_is_tuple=False, use_peepholes=True)}
cells["multi"] = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.GRUCell(2), tf.nn.rnn_cell.BasicLSTMCell(3)])
cells["dropout"] = tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.BasicLSTMCell(2))
for key, cell in sorted(cells.items()):
    run(key + " sizes", lambda: [str(cell.state_size), str(cell.output_size), cell.name])
    with tf.variable_scope(key):
        out, state = tf.nn.static_rnn(cell, [x, x], dtype=tf.float32)
    run(key + " state", lambda: shapes(state))
    run(key + " weights", lambda: [v.name for v in cell.trainable_weights])
    run(key + " scope", lambda: cell.scope_name if hasattr(cell, "_scope") and cell._scope is not None else None)
run("variables", lambda: [[v.name, v.shape.as_list()] for v in tf.global_variables()])
run("trainable", lambda: [v.name for v in tf.trainable_variables()])
run("state tuple", lambda: str(tf.nn.rnn_cell.LSTMStateTuple(1, 2)))
run("unbuilt scope", lambda: tf.nn.rnn_cell.GRUCell(2).scope_name)
"""

# each raises in both; the message must be TF's
ERRORS = {
    "rank3_input": "c = tf.nn.rnn_cell.BasicLSTMCell(5); c(tf.placeholder(tf.float32, [None, 3, 4]), c.zero_state(2, tf.float32))",
    "int_inputs": "tf.nn.rnn_cell.BasicRNNCell(5)(tf.placeholder(tf.int32, [None, 4]), tf.zeros([2, 5], tf.int32))",
    "not_a_list": "tf.nn.static_rnn(tf.nn.rnn_cell.GRUCell(2), tf.placeholder(tf.float32, [None, 3, 4], name='x'), dtype=tf.float32)",
    "empty": "tf.nn.static_rnn(tf.nn.rnn_cell.GRUCell(2), [], dtype=tf.float32)",
    "no_dtype": "tf.nn.static_rnn(tf.nn.rnn_cell.GRUCell(2), [tf.placeholder(tf.float32, [None, 4])])",
    "unknown_depth": "tf.nn.static_rnn(tf.nn.rnn_cell.GRUCell(2), [tf.placeholder(tf.float32, [None, None], name='p')], dtype=tf.float32)",
    "rank1_input": "tf.nn.static_rnn(tf.nn.rnn_cell.GRUCell(2), [tf.placeholder(tf.float32, [None])], dtype=tf.float32)",
    "not_a_cell": "tf.nn.static_rnn('cell', [tf.placeholder(tf.float32, [None, 4])], dtype=tf.float32)",
    "bidi_not_a_cell": "tf.nn.static_bidirectional_rnn(tf.nn.rnn_cell.GRUCell(2), 3, [tf.placeholder(tf.float32, [None, 4])], dtype=tf.float32)",
    "multi_empty": "tf.nn.rnn_cell.MultiRNNCell([])",
    "multi_flat_of_tuples": "tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.BasicLSTMCell(5)], state_is_tuple=False)",
    "keep_prob_range": "tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.GRUCell(2), input_keep_prob=1.5)",
    "variational_needs_dtype": "tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.GRUCell(2), variational_recurrent=True)",
    "variational_needs_input_size": "tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.GRUCell(2), input_keep_prob=0.5, variational_recurrent=True, dtype=tf.float32)",
    "filter_not_callable": "tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.GRUCell(2), dropout_state_filter_visitor=3)",
    "sequence_length_rank": "tf.nn.static_rnn(tf.nn.rnn_cell.GRUCell(2), [tf.placeholder(tf.float32, [None, 4])], dtype=tf.float32, sequence_length=[[1]])",
    "lstm_unknown_depth": "tf.nn.rnn_cell.LSTMCell(4)(tf.placeholder(tf.float32, [2, None]), (tf.zeros([2, 4]), tf.zeros([2, 4])))",
    "multi_needs_tuple_state": "m = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.GRUCell(2)]); m(tf.placeholder(tf.float32, [2, 3]), tf.zeros([2, 2]))",
    "dynamic_no_dtype": "tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(2), tf.placeholder(tf.float32, [None, 3, 4]))",
    "dynamic_unknown_depth": "tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(2), tf.placeholder(tf.float32, [None, 3, None], name='p'), dtype=tf.float32)",
    "dynamic_rank2_input": "tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(2), tf.placeholder(tf.float32, [None, 4]), dtype=tf.float32)",
    "dynamic_sequence_length_rank": "tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(2), tf.placeholder(tf.float32, [None, 3, 4]), sequence_length=[[1]], dtype=tf.float32)",
    "dynamic_batch_mismatch": "tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(2), (tf.placeholder(tf.float32, [2, 3, 4], name='a'), tf.placeholder(tf.float32, [5, 3, 4], name='b')), dtype=tf.float32)",
    "dynamic_not_a_cell": "tf.nn.dynamic_rnn(None, tf.placeholder(tf.float32, [None, 3, 4]), dtype=tf.float32)",
    "bidirectional_dynamic_not_a_cell": "tf.nn.bidirectional_dynamic_rnn(tf.nn.rnn_cell.GRUCell(2), 'bw', tf.placeholder(tf.float32, [None, 3, 4]), dtype=tf.float32)",
    "reverse_sequence_lengths": "tf.reverse_sequence(tf.placeholder(tf.float32, [4, 3, 2]), [1, 2, 3], 1, 0)",
    "reverse_sequence_rank": "tf.reverse_sequence(tf.placeholder(tf.float32, [4, 3, 2]), [[1, 2, 3, 1]], 1, 0)",
    "reverse_sequence_seq_dim": "tf.reverse_sequence(tf.placeholder(tf.float32, [4, 3, 2]), [1, 2, 3, 1], 3, 0)",
}

def _our_error(src):
    graphlab.reset_default_graph()
    try:
        exec(src, {"tf": graphlab})
    except Exception as e:
        return [type(e).__name__, str(e)]
    return None


@pytest.fixture(scope="module")
def tf_results():
    return rnn_reference.tf_results()


@pytest.mark.parametrize("key", sorted(GRAPHS))
def test_rnn_graph_matches_tensorflow_op_for_op(key, tf_results):
    ours = graphlab_ops(GRAPHS[key])
    theirs = tf_results["graphs"][key]
    for mine, tfs in zip(ours, theirs):
        assert mine == tfs
    assert len(ours) == len(theirs)


def test_cells_report_what_tensorflow_reports(tf_results):
    graphlab.reset_default_graph()
    scope = {"tf": graphlab}
    exec(FACTS, scope)
    theirs = tf_results["facts"]
    for key in sorted(theirs):
        assert scope["facts"][key] == theirs[key], key


@pytest.mark.parametrize("key", sorted(k for k in GRAPHS if k.startswith("dynamic_rnn")))
def test_dynamic_rnn_loop_attrs_are_tensorflows(key, tf_results):
    graphlab.reset_default_graph()
    scope = {"tf": graphlab, "FRAME_ATTRS": FRAME_ATTRS}
    exec(ATTRS_DUMP + GRAPHS[key], scope)
    ours = scope["frame_attrs"]()
    assert any(a[1] == "frame_name" for a in ours) and any(a[1] == "tensor_array_name" for a in ours)
    assert ours == tf_results["frame_attrs"][key]


@pytest.mark.parametrize("key", sorted(ERRORS))
def test_rnn_errors_are_tensorflows(key, tf_results):
    theirs = tf_results["errors"][key]
    ours = _our_error(ERRORS[key])
    assert theirs is not None and ours is not None
    assert ours[0] == theirs[0]
    if key.startswith("reverse_sequence"):     # graphlab names the op its own way (TF1's older format)
        assert ours[1].split(" for ")[0] == theirs[1].split(" for ")[0]
    else:
        assert ours[1] == theirs[1]


def test_multi_rnn_cell_rejects_a_single_cell():
    with pytest.raises(TypeError, match="cells must be a list or tuple, but received: <graphlab"):
        graphlab.nn.rnn_cell.MultiRNNCell(graphlab.nn.rnn_cell.GRUCell(2))
