"""A notebook on real TensorFlow, run end to end by nbclient in the kernel "Python (TensorFlow)" (the
reference venv's Python, which scripts/setup.sh gives graphlab[jupyter] and that kernelspec): the reports
appear under the cells that earned them, and %graph / %subgraph display SVG."""
import json
import os

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

import needs
from tfref import REPO, require_tf, tf_env_with_graphlab

NotebookClient = needs.module("nbclient", "it runs the notebooks").NotebookClient

KERNEL = "python-tf"


@pytest.fixture(scope="module")
def tf_kernel(tmp_path_factory):
    """The "Python (TensorFlow)" kernelspec as setup.sh installs it, here with this tree on PYTHONPATH (so the
    test runs the code under test whichever tree the venv's editable install points at)."""
    exe = require_tf()
    probe = os.popen("%s -c 'import ipykernel' 2>&1" % exe).read()
    if probe.strip():
        needs.missing("ipykernel in the TensorFlow venv (scripts/setup.sh installs graphlab[jupyter] there)")
    root = tmp_path_factory.mktemp("jupyter")
    spec_dir = root / "kernels" / KERNEL
    spec_dir.mkdir(parents=True)
    env = tf_env_with_graphlab()
    spec = {"argv": [exe, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": "Python (TensorFlow)", "language": "python",
            "env": {"TF_USE_LEGACY_KERAS": "1", "TF_CPP_MIN_LOG_LEVEL": "2", "PYTHONPATH": env["PYTHONPATH"],
                    "CUDA_VISIBLE_DEVICES": ""}}
    (spec_dir / "kernel.json").write_text(json.dumps(spec))
    old = os.environ.get("JUPYTER_PATH")
    os.environ["JUPYTER_PATH"] = str(root)
    yield KERNEL
    if old is None:
        os.environ.pop("JUPYTER_PATH", None)
    else:
        os.environ["JUPYTER_PATH"] = old


CELLS = [
    "%load_ext graphlab",                                                                          # 0
    "import numpy as np\nimport tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()",            # 1
    "x = tf.placeholder(tf.float32, [None, 3], name='x')\nw = tf.Variable(tf.ones([3, 1]), name='w')\n"
    "y = tf.matmul(x, w, name='y')",                                                              # 2
    "x = tf.placeholder(tf.float32, [None, 3], name='x')\nw = tf.Variable(tf.ones([3, 1]), name='w')\n"
    "y = tf.matmul(x, w, name='y')",                                                              # 3 re-run
    "acc = tf.constant(0.0)\nfor i in range(100):\n    acc = acc + 1.0",                           # 4
    "big = tf.constant(np.zeros(1000000, dtype=np.float32))",                                     # 5
    "%graph",                                                                                      # 6
    "%subgraph y --feed x",                                                                        # 7
    "with tf.Session() as sess:\n    sess.run(w.initializer)\n    print(sess.run(y, {x: [[1, 2, 3]]}))",  # 8
]


def _reports(cell):
    return [o["data"]["text/plain"] for o in cell.outputs if o.output_type in ("display_data", "execute_result")
            and o.get("data", {}).get("text/plain", "").startswith("graphlab:")]


def test_tf_notebook_in_the_tensorflow_kernel(tf_kernel):
    nb = new_notebook(cells=[new_code_cell(c) for c in CELLS])
    nb.metadata["kernelspec"] = {"name": tf_kernel, "display_name": "Python (TensorFlow)", "language": "python"}
    NotebookClient(nb, timeout=300, kernel_name=tf_kernel, allow_errors=True,
                   resources={"metadata": {"path": REPO}}).execute()
    cells = nb.cells
    for i in (0, 1, 2, 8):
        assert _reports(cells[i]) == [], (i, cells[i].outputs)
        assert not any(o.output_type == "error" for o in cells[i].outputs), (i, cells[i].outputs)
    [dup] = _reports(cells[3])
    assert "re-run or copied cell duplicated ops" in dup and "x_1 duplicates x" in dup
    [growth] = _reports(cells[4])
    assert "acc = acc + 1.0 ran about 100 times and created 200 ops" in growth
    [large] = _reports(cells[5])
    assert "shape [1000000], float32, 3.8 MiB" in large
    for i in (6, 7):
        [shown] = [o for o in cells[i].outputs if o.output_type == "execute_result"]
        assert shown["data"]["image/svg+xml"].lstrip().startswith(("<?xml", "<svg")), i
    assert "pruned for the fetches: 3 of" in cells[7].outputs[0]["data"]["text/plain"]
    assert cells[8].outputs[0]["text"] == "[[6.]]\n"
