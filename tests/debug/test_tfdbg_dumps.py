"""A watched run with a ``file://`` debug URL writes tfdbg's dump directory: TensorFlow's own reader
(DebugDumpDir, run in TF's process) loads it, validates it against the graph, and finds in it the values the
run made, in order, and the first NaN/Inf where graphlab's record has it."""
import json

import numpy as np

import graphlab as tf
import graphlab.debug as tf_debug
import tfref

READER = '''
import json, sys
import numpy as np
from tensorflow.python.debug.lib import debug_data
dump = debug_data.DebugDumpDir(sys.argv[1])             # validates the dumps against the graph in the directory
found = dump.find(debug_data.has_inf_or_nan, first_n=1)
meta = dump.core_metadata
print(json.dumps({
    "dumps": [[d.node_name, d.output_slot, np.asarray(d.get_tensor(), dtype=np.float64).tolist()]
              for d in dump.dumped_tensor_data],
    "first": found[0].node_name if found else None,
    "mul": [float(d.get_tensor()) for d in dump.watch_key_to_data("loop/mul:0:DebugIdentity")],
    "inputs": list(meta.input_names), "outputs": list(meta.output_names), "step": meta.global_step}))
'''


def test_tensorflow_reads_the_dump_directory(tmp_path):
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    w = tf.Variable([[1.0], [2.0]], name="w")
    y = tf.cond(tf.reduce_sum(x) > 0, lambda: tf.matmul(x, w), lambda: -tf.matmul(x, w), name="c")
    _, z = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * 2.0), [0, tf.reduce_sum(y)], name="loop")
    bad = tf.log(tf.subtract(z, 40.0), name="bad")           # log(0): -inf
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    options = tf.RunOptions()
    tf_debug.watch_graph(options, sess.graph, debug_urls=["file://%s" % tmp_path], global_step=7)
    result = sess.run(bad, {x: [[1, 2]]}, options=options)
    assert result == -np.inf
    record = sess.last_run.record
    theirs = json.loads(tfref.run_tf(READER, str(tmp_path)).strip().splitlines()[-1])
    ours = [[r.name, int(v.name.rpartition(":")[2]), np.asarray(v.value, dtype=np.float64).tolist()]
            for r in record.ops for v in r.outputs if v.value is not None]
    assert theirs["dumps"] == ours               # every live value, in the order the run made them
    assert theirs["mul"] == [10.0, 20.0, 40.0]
    assert theirs["first"] == record.first_inf_or_nan().name == "bad"
    assert (theirs["inputs"], theirs["outputs"], theirs["step"]) == (["x:0"], ["bad:0"], 7)
