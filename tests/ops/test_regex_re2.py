"""StaticRegexFullMatch (in sharded Savers' and SavedModels' graphs) matches with RE2, as TF: linear time
whatever pattern a loaded graph holds, and RE2's syntax (TF's error for what RE2 refuses, observed with
TF 2.21: ``Invalid pattern: (a)\\1, error: invalid escape sequence: \\1``)."""
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import graphlab as tf
from graphlab.ops import io_ops


def test_matches_as_tf():
    x = tf.constant(["aaa", "s3://b"])
    with tf.Session() as sess:
        got = sess.run([io_ops.static_regex_full_match(x, p) for p in ["(a+)+b", "^s3://.*", "a{2,}"]])
    np.testing.assert_array_equal(got, [[False, False], [False, True], [True, False]])


def test_a_pattern_re2_refuses_is_tf_invalid_argument_naming_it():
    m = io_ops.static_regex_full_match(tf.constant(["aa"]), r"(a)\1", name="match")
    with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError) as err:
        sess.run(m)
    assert "\nNode: 'match'\n" + r"Invalid pattern: (a)\1, error: invalid escape sequence: \1" in err.value.message
    assert err.value.op.name == "match"


def test_a_graph_holding_a_catastrophic_pattern_loads_and_runs_in_linear_time(tmp_path):
    """``(a+)+b`` on 60 a's: a backtracking matcher needs about 2**60 steps. The run happens in a child
    process with a generous time limit, so a regression fails instead of hanging the suite."""
    graph = tf.Graph()
    with graph.as_default():
        io_ops.static_regex_full_match(tf.constant(["a" * 60 + "c", "a" * 60 + "b"]), "(a+)+b", name="evil")
    path = tmp_path / "evil.pb"
    path.write_bytes(graph.as_graph_def().SerializeToString())
    code = textwrap.dedent("""
        import sys, graphlab as tf
        gd = tf.GraphDef()
        gd.ParseFromString(open(sys.argv[1], "rb").read())
        tf.import_graph_def(gd, name="")
        with tf.Session() as sess:
            print(sess.run("evil:0").tolist())
    """)
    proc = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[False, True]"
