"""Keras's progress bar in a Jupyter kernel: a live bar (each redraw starts with a carriage return, which the
notebook shows as one line updating in place; no backspaces, which it would print), and a stored output
that nbval accepts on a re-run, with the lessons' sanitizer (timings masked, each line's final state kept)."""
import os
import subprocess
import sys

import nbclient
import nbformat

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOURCE = """import numpy as np, graphlab as tf
np.random.seed(0); tf.set_random_seed(0)
x = np.random.RandomState(0).rand(200, 4).astype('float32'); y = x.sum(axis=1, keepdims=True)
m = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(4,))])
m.compile('sgd', 'mse')
h = m.fit(x, y, batch_size=2, epochs=2)"""


def test_live_bar_stored_and_rechecked_by_nbval(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(SOURCE)])
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    text = "".join(o.get("text", "") for o in nb.cells[0].outputs)
    assert "\b" not in text
    assert text.startswith("Train on 200 samples\nEpoch 1/2\n\r")
    assert "\r200/200 [==============================] - " in text
    path = tmp_path / "fit.ipynb"
    nbformat.write(nb, str(path))
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "--nbval", str(path), "--nbval-sanitize-with",
                           os.path.join(REPO, "notebooks", "nbval_sanitize.cfg"), "-p", "no:cacheprovider"],
                          capture_output=True, text=True, cwd=str(tmp_path), timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:]
