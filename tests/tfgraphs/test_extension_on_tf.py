"""``%load_ext graphlab`` in a shell whose code uses real TensorFlow (tf.compat.v1 graph mode): the same
after-cell reports and magics as on graphlab's graphs, on TF's default graph. One real InteractiveShell under
TF's Python (tests/tfref.py) runs a notebook's worth of cells and reports what the user saw."""
import json

import pytest

from tfref import run_tf_with_graphlab

SCRIPT = r'''
import json, sys
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

ip = InteractiveShell.instance()
out = {}


def run(source):
    with capture_output() as cap:
        result = ip.run_cell(source, store_history=True)
    reports = [o.data["text/plain"] for o in cap.outputs
               if str(o.data.get("text/plain", "")).startswith("graphlab:")]
    value = result.result
    svg = value.svg() if hasattr(value, "svg") else None
    return {"ok": result.success, "stdout": cap.stdout, "stderr": cap.stderr, "reports": reports,
            "svg": bool(svg and "<svg" in svg), "summary": getattr(value, "summary", None),
            "error": repr(result.error_in_exec) if result.error_in_exec else None}


out["load"] = run("%load_ext graphlab")
out["tf_before_import"] = "tensorflow" in sys.modules
out["import"] = run("import numpy as np\nimport tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()")
CELL = "x = tf.placeholder(tf.float32, [None, 3], name='x')\nw = tf.Variable(tf.ones([3, 1]), name='w')\ny = tf.matmul(x, w, name='y')"
out["first"] = run(CELL)
out["rerun"] = run(CELL)
out["growth"] = run("z = tf.constant(0.0)\nfor i in range(150):\n    z = z + 1.0")
out["large"] = run("table = tf.constant(np.zeros((1000, 1000), np.float32), name='table')")
out["exists"] = run("v = tf.get_variable('v', [2])\nv = tf.get_variable('v', [2])")
out["feed"] = run("sess = tf.Session()\nsess.run(w.initializer)\nsess.run(y)")
out["graph"] = run("%graph")
out["subgraph"] = run("%subgraph y --feed x")
out["traced"] = run("sess.run(w.initializer)\nmd = tf.RunMetadata()\n"
                    "_ = sess.run(y, {x: [[1, 2, 3]]}, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE), "
                    "run_metadata=md)")
out["graph_ran"] = run("%graph --run-metadata md")
out["graph_ran_bad"] = run("%graph --run-metadata nothing")
out["subgraph_bad"] = run("%subgraph nothing_here")
out["diff"] = run("%graph_diff")
out["lint"] = run("%graph_lint --disable op_growth")
out["lint_growth"] = run("q = tf.constant(0.0)\nfor i in range(150):\n    q = q + 1.0")
out["cell"] = run("%%graph_cell small\na = tf.constant(1.0, name='a')\nb = a * 2")
out["cell_again"] = run("%%graph_cell small\na = tf.constant(1.0, name='a')\nb = a * 2")
out["graph_small"] = run("%graph small")
out["live"] = run("%graph --live")
out["reset"] = run("%graph_reset")
out["after_reset"] = run("n = len(tf.get_default_graph().get_operations())\nprint(n)")
out["rebuild"] = run(CELL)
from graphlab_ipython import watcher_of
out["engine"] = watcher_of(ip).engine
out["unload"] = run("%unload_ext graphlab")
print(json.dumps(out))
'''


@pytest.fixture(scope="module")
def seen():
    return json.loads(run_tf_with_graphlab(SCRIPT).strip().splitlines()[-1])


def test_loading_does_not_import_tensorflow(seen):
    assert seen["load"]["ok"] and seen["tf_before_import"] is False
    assert seen["import"]["ok"] and seen["import"]["reports"] == []


def test_clean_cell_says_nothing_and_rerun_reports_duplicates(seen):
    assert seen["first"]["reports"] == []
    [text] = seen["rerun"]["reports"]
    assert text.startswith("graphlab: re-run or copied cell duplicated ops (first run In [3])")
    assert "x_1 duplicates x" in text and "tf.reset_default_graph()" in text


def test_op_growth_names_the_creating_line_from_tfs_traceback(seen):
    [text] = seen["growth"]["reports"]
    assert "In [5], line 3: z = z + 1.0 ran about 150 times and created 300 ops in this run (150 Const, " \
           "150 AddV2" in text, text


def test_large_constant(seen):
    [text] = seen["large"]["reports"]
    assert "embeds table: shape [1000, 1000], float32, 3.8 MiB" in text, text


def test_tf_errors_are_explained(seen):
    assert not seen["exists"]["ok"]
    assert any("why: variable v already exists" in r for r in seen["exists"]["reports"]), seen["exists"]
    assert not seen["feed"]["ok"]
    [text] = seen["feed"]["reports"]        # the re-run made x_1, and y was built from it
    assert text.startswith("graphlab: why: placeholder x_1 needs a feed")
    assert "created by In [4]" in text and "x (In [3])" in text


def test_magics_draw_tfs_graph(seen):
    assert seen["graph"]["svg"], seen["graph"]
    assert seen["subgraph"]["svg"]
    assert "pruned for the fetches: 3 of" in seen["subgraph"]["summary"][-1]
    assert "fed (cut): x:0" in seen["subgraph"]["summary"][-1]
    assert "No tensor or op named 'nothing_here'" in seen["subgraph_bad"]["stderr"] + seen["subgraph_bad"]["stdout"]


def test_graph_shows_what_a_traced_tf_run_executed(seen):
    assert seen["traced"]["ok"], seen["traced"]
    assert seen["graph_ran"]["svg"]
    assert seen["graph_ran"]["summary"][-1].startswith("last run: 3 of "), seen["graph_ran"]["summary"]
    assert "--run-metadata nothing: give a variable holding a RunMetadata" in seen["graph_ran_bad"]["stderr"]


def test_graph_diff_and_lint_settings(seen):
    assert seen["diff"]["stdout"].startswith("In [7] added 10 ops (315..324 of its graph):")
    assert "v/Initializer/random_uniform/RandomUniform  RandomUniform(v/Initializer/random_uniform/shape:0)" \
        in seen["diff"]["stdout"]
    assert "op_growth off" in seen["lint"]["stdout"]
    assert seen["lint_growth"]["reports"] == []


def test_graph_cell_keeps_a_tf_graph(seen):
    assert seen["cell"]["stdout"] == "graph_cell: 3 ops in graph 'small'\n"
    assert seen["cell_again"]["reports"] == []
    assert seen["graph_small"]["svg"] and seen["graph_small"]["summary"][0].startswith("3 ops")


def test_reset_empties_tfs_default_graph(seen):
    assert "default graph is empty again" in seen["reset"]["stdout"]
    assert seen["after_reset"]["stdout"].strip() == "0"
    assert seen["rebuild"]["reports"] == []
    assert seen["engine"] == "tensorflow"
    assert seen["unload"]["ok"]
