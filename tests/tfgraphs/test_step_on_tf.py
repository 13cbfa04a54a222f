"""%step in a shell whose code uses real TensorFlow: the run is recorded through TF's own debugger dumps and
listed (and stepped) as graphlab's runs are; --until nan stops where TF's has_inf_or_nan filter points."""
import json

from tfref import run_tf_with_graphlab

SCRIPT = r'''
import json, shutil, tempfile
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

ip = InteractiveShell.instance()
out = {}


def run(source):
    with capture_output() as cap:
        result = ip.run_cell(source, store_history=True)
    return {"ok": result.success, "stdout": cap.stdout, "stderr": cap.stderr,
            "error": repr(result.error_in_exec) if result.error_in_exec else None}


run("%load_ext graphlab")
run("""
import tensorflow.compat.v1 as tf
tf.disable_v2_behavior()
from tensorflow.core.protobuf import rewriter_config_pb2
logits = tf.placeholder(tf.float32, [None, 2], name="logits")
labels = tf.constant([[0.0, 1.0]], name="labels")
probs = tf.nn.softmax(logits, name="probs")
logp = tf.log(probs, name="logp")
loss = tf.negative(tf.reduce_sum(labels * logp), name="loss")
# TF's graph optimizer off: it would rewrite log(softmax) into a LogSoftmax that does not underflow
sess = tf.Session(config=tf.ConfigProto(graph_options=tf.GraphOptions(
    rewrite_options=rewriter_config_pb2.RewriterConfig(disable_meta_optimizer=True))))
""")
out["step"] = run("%step loss --feed logits=[[0.0,1000.0]] --until nan")
out["help"] = run("%step --help")

# TF's own answer: its dump of the same run, searched with has_inf_or_nan
import tensorflow.compat.v1 as tf
from tensorflow.python.debug.lib import debug_data, debug_utils
ns = ip.user_ns
root = tempfile.mkdtemp()
options = tf.RunOptions()
debug_utils.watch_graph(options, ns["sess"].graph, debug_urls=["file://" + root])
ns["sess"].run(ns["loss"], {ns["logits"]: [[0.0, 1000.0]]}, options=options)
dump = debug_data.DebugDumpDir(root)
out["tf_first"] = dump.find(debug_data.has_inf_or_nan, first_n=1)[0].node_name
shutil.rmtree(root)

# the widget's view of the TF record: the panel of the stop op
import graphlab.debug
from graphlab_ipython import stepping
record = graphlab.debug.record(ns["sess"], ns["loss"], {ns["logits"]: [[0.0, 1000.0]]})
view = stepping.StepView(record, None, stepping.stop_index(record, "nan"))
out["caption"] = view.caption()
out["panel"] = view.panel()
print(json.dumps(out))
'''


def test_step_on_a_tensorflow_session():
    out = json.loads(run_tf_with_graphlab(SCRIPT).strip().splitlines()[-1])
    step = out["step"]
    assert step["ok"], step
    lines = step["stdout"].splitlines()
    assert lines[0] == "%d ops recorded (tensorflow run of loss:0)" % (len(lines) - 2)
    marked = [line for line in lines if line.startswith("==>")]
    assert len(marked) == 1 and marked[0].split()[1:3] == [out["tf_first"], "Log"], marked
    assert out["tf_first"] == "logp"
    assert "(1 nan)" in next(line for line in lines if line.split()[1:2] == ["mul"])
    assert lines[-1] == "stopped at the first NaN/Inf"
    assert "--until <nan|inf|OP>" in out["help"]["stdout"]
    assert out["caption"].endswith(": logp (Log)")
    assert "probs:0" in out["panel"] and "1 Inf" in out["panel"]
