"""End to end: a real kernel (nbclient) runs notebooks built here; the reports appear as outputs of the cells
that earned them, and a clean notebook gets none."""
import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

import needs

NotebookClient = needs.module("nbclient", "it runs the notebooks").NotebookClient
needs.module("ipykernel", "the end-to-end test runs a real kernel")


def _execute(cells):
    nb = new_notebook(cells=[new_code_cell(c) for c in cells])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=True).execute()
    return nb


def _reports(cell):
    texts = []
    for out in cell.outputs:
        if out.output_type in ("display_data", "execute_result"):
            text = out.get("data", {}).get("text/plain", "")
            if text.startswith("graphlab:"):
                assert "graphlab-report" in out["data"]["text/html"]
                texts.append(text)
    return texts


def test_notebook_with_the_classic_mistakes():
    build = "w = tf.get_variable('w', shape=[3])\ny = tf.reduce_sum(w) if hasattr(tf, 'reduce_sum') else w"
    nb = _execute([
        "%load_ext graphlab\nimport graphlab as tf\nimport numpy as np",                      # 0
        "x = tf.constant([1.0, 2.0], name='x')\nz = x * 2.0",                                  # 1
        "x = tf.constant([1.0, 2.0], name='x')\nz = x * 2.0",                                  # 2 a copy
        "big = tf.constant(np.zeros(1000000, dtype=np.float32))",                             # 3
        "acc = tf.constant(0.0)\nfor i in range(100):\n    acc = acc + 1.0",                   # 4
        build,                                                                                  # 5
        build,                                                                                  # 6 reuse error
    ])
    cells = nb.cells
    assert _reports(cells[0]) == [] and _reports(cells[1]) == []
    [dup] = _reports(cells[2])
    # nbclient sends no cell ids: the extension cannot tell this copy from a re-run, and says so
    assert dup.startswith("graphlab: re-run or copied cell duplicated ops (first run In [2])\n")
    assert "The same code ran before (In [2]), in this cell or in a copy of it; this run (In [3])" in dup
    assert "x_1 duplicates x" in dup
    [large] = _reports(cells[3])
    assert "shape [1000000], float32, 3.8 MiB" in large
    [growth] = _reports(cells[4])
    assert "acc = acc + 1.0 ran about 100 times and created 200 ops" in growth
    assert _reports(cells[5]) == []
    assert any(o.output_type == "error" and o.ename == "ValueError" for o in cells[6].outputs)
    reports = _reports(cells[6])
    assert any("why: variable w already exists" in r and "In [6]" in r for r in reports), reports


def test_clean_notebook_gets_no_reports():
    nb = _execute([
        "%load_ext graphlab\nimport graphlab as tf",
        "tf.reset_default_graph()\na = tf.placeholder(tf.float32, name='a')\nb = a * 3.0",
        "with tf.Session() as sess:\n    print(sess.run(b, feed_dict={a: 2.0}))",
        "tf.reset_default_graph()\na = tf.placeholder(tf.float32, name='a')\nb = a * 3.0",
    ])
    for cell in nb.cells:
        assert _reports(cell) == []
        assert not any(o.output_type == "error" for o in cell.outputs)
        assert not any(o.output_type == "stream" and o.name == "stderr" for o in cell.outputs), cell.outputs
    assert nb.cells[2].outputs[0]["text"] == "6.0\n"
