"""``python -m graphlab.lint script.py`` on a script that imports real TensorFlow, run with TF's Python."""
import subprocess

from tfref import require_tf, tf_env_with_graphlab

SCRIPT = """\
import numpy as np
import tensorflow.compat.v1 as tf
tf.disable_v2_behavior()

x = tf.placeholder(tf.float32, [None, 3], name="x")
table = tf.constant(np.ones((800, 800), np.float32), name="table")
total = tf.constant(0.0)
for step in range(200):
    total = total + 1.0
"""


def test_lint_cli_on_a_tensorflow_script(tmp_path):
    exe = require_tf()
    script = tmp_path / "train_tf.py"
    script.write_text(SCRIPT)
    proc = subprocess.run([exe, "-m", "graphlab.lint", str(script)], capture_output=True, text=True,
                          env=tf_env_with_graphlab(), timeout=600)
    assert proc.returncode == 1, proc.stderr[-2000:]
    lines = proc.stdout.splitlines()
    assert ("train_tf.py:9 created 400 ops (200 Const, 200 AddV2); the line ran about 200 times, each run on the "
            "previous run's result: a loop unrolled into the graph (tf.while_loop builds its body once)") in lines, lines
    assert "train_tf.py:6 embeds constant table: shape [800, 800], float32, 2.4 MiB" in lines, lines
    # each `+ 1.0` makes a Const 1.0: the first is new (total starts at 0.0), the other 199 repeat it
    assert lines[0] == "199 ops duplicate earlier ops structurally (199 Const), e.g. add_1/y duplicates add/y"


def test_lint_cli_on_a_clean_tensorflow_script(tmp_path):
    exe = require_tf()
    script = tmp_path / "clean_tf.py"
    script.write_text(SCRIPT.split("table")[0])
    proc = subprocess.run([exe, "-m", "graphlab.lint", str(script)], capture_output=True, text=True,
                          env=tf_env_with_graphlab(), timeout=600)
    assert proc.returncode == 0 and proc.stdout == "", proc.stdout + proc.stderr[-2000:]
