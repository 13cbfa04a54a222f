"""graphlab.lint: structural identity, duplicates, op growth, large constants, whole-graph lint and CLI."""
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import graphlab as tf
from graphlab import lint


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


def test_structural_hash_ignores_names_and_follows_inputs():
    h = lint.StructuralHasher()
    a = tf.constant(1.0, name="a")
    b = tf.constant(1.0, name="b")
    c = tf.constant(2.0, name="c")
    assert h(a.op) == h(b.op)
    assert h(a.op) != h(c.op)
    assert h((a + 1).op) == h((b + 1).op)
    assert h((a + 1).op) != h((c + 1).op)
    assert h((a * 1).op) != h((a + 1).op)


def test_structural_hash_sees_large_constant_values_and_dtypes():
    h = lint.StructuralHasher()
    big = np.arange(100000, dtype=np.float32)
    other = big.copy()
    other[-1] = -1
    assert h(tf.constant(big).op) == h(tf.constant(big.copy()).op)
    assert h(tf.constant(big).op) != h(tf.constant(other).op)
    assert h(tf.constant(1, dtype=tf.int32).op) != h(tf.constant(1, dtype=tf.int64).op)


def test_deep_chain_hashes_without_recursion():
    x = tf.constant(0.0)
    one = tf.constant(1.0)
    for _ in range(5000):
        x = tf.add(x, one)
    h = lint.StructuralHasher()
    assert isinstance(h(x.op), int)
    assert len(h) == 5002


def test_duplicates_match_each_earlier_op_once():
    first = [tf.constant(1.0).op, tf.constant(1.0).op]
    second = [tf.constant(1.0).op, tf.constant(1.0).op, tf.constant(1.0).op]
    dups = lint.duplicates(second, first)
    assert [(d.op.name, d.original.name) for d in dups] == [("Const_2", "Const"), ("Const_3", "Const_1")]


def test_op_growth_counts_ops_per_source_line():
    x = tf.constant(0.0)
    for _ in range(60):
        x = x + 1                      # two ops per iteration: the constant 1 and the add
    growth = lint.op_growth(tf.get_default_graph().get_operations(), threshold=100)
    assert len(growth) == 1
    assert growth[0].count == 120
    assert growth[0].types == {"Const": 60, "AddV2": 60}
    assert growth[0].source_line.text == "x = x + 1                      # two ops per iteration: the " \
                                         "constant 1 and the add"
    assert lint.op_growth(tf.get_default_graph().get_operations(), threshold=121) == []


def test_large_constants_threshold_one_mib():
    small = tf.constant(np.zeros(1000, np.float32))
    big = tf.constant(np.zeros(1 << 18, np.float32), name="big")      # exactly 1 MiB
    found = lint.large_constants(tf.get_default_graph().get_operations())
    assert [(c.op.name, c.shape, c.nbytes) for c in found] == [("big", (1 << 18,), 1 << 20)]
    assert found[0].dtype == tf.float32
    assert small.op not in [c.op for c in found]
    assert lint.human_bytes(4000000) == "3.8 MiB"


def test_lint_graph_reports_each_finding_once():
    tf.constant(np.zeros(300000, np.float32))
    assert len(lint.lint_graph(tf.get_default_graph())) == 1
    tf.reset_default_graph()
    a = tf.constant(3.0)
    assert lint.lint_graph(tf.get_default_graph()) == []
    tf.constant(3.0)
    findings = lint.lint_graph(tf.get_default_graph())
    assert findings == ["1 ops duplicate earlier ops structurally (1 Const), e.g. Const_1 duplicates Const"]
    del a


def test_lint_package_does_not_import_ipython():
    code = "import sys, graphlab, graphlab.lint; print('IPython' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_cli_lints_a_script(tmp_path):
    script = tmp_path / "model.py"
    script.write_text(textwrap.dedent("""
        import graphlab as tf
        x = tf.constant(0.0)
        for i in range(100):
            x = x + 1
    """))
    out = subprocess.run([sys.executable, "-m", "graphlab.lint", str(script)], capture_output=True, text=True)
    assert out.returncode == 1
    assert "model.py:5 created 200 ops (100 Const, 100 AddV2); the line ran about 100 times, each run on the " \
           "previous run's result: a loop unrolled into the graph (tf.while_loop builds its body once)" in out.stdout
    clean = tmp_path / "clean.py"
    clean.write_text("import graphlab as tf\nx = tf.constant(1.0) + 2.0\n")
    out = subprocess.run([sys.executable, "-m", "graphlab.lint", str(clean)], capture_output=True, text=True)
    assert (out.returncode, out.stdout) == (0, "")


def test_op_growth_ignores_one_call_that_builds_many_ops():
    """minimize() on an LSTM makes hundreds of ops in one call, each name once or a few times: not a loop."""
    seq = tf.placeholder(tf.float32, [None, 10, 1])
    _, state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicLSTMCell(8), seq, dtype=tf.float32)
    before = len(tf.get_default_graph().get_operations())
    tf.train.AdamOptimizer(0.05).minimize(tf.reduce_mean(state.h))
    made = tf.get_default_graph().get_operations()[before:]
    assert len(made) > 200
    assert lint.op_growth(made, threshold=100) == []
    for _ in range(5):
        tf.layers.dense(seq, 4)                       # five layers from one line: the same ops five times
    growth = lint.op_growth(tf.get_default_graph().get_operations(), threshold=20)
    assert [g.source_line.text for g in growth] == ["tf.layers.dense(seq, 4)                       # five "
                                                    "layers from one line: the same ops five times"]


def test_op_growth_tells_an_unrolled_loop_from_copies_and_from_loops_that_build_a_model():
    graph = tf.get_default_graph()
    mark = len(graph.get_operations())

    def made_since():
        nonlocal mark
        ops, mark = graph.get_operations()[mark:], len(graph.get_operations())
        return ops

    z = tf.constant(0.0)
    for i in range(60):
        z = z * 0.5 + 1.0                      # each run computes on the last: the graph holds the loop unrolled
    [unrolled] = lint.op_growth(made_since(), threshold=100)
    assert (unrolled.runs, unrolled.kind, unrolled.count) == (60, "unrolled", 240)

    v = tf.Variable(0.0, name="v")
    made_since()
    for i in range(60):
        tf.assign(v, float(i))                 # the same op on the same variable, a new constant each time
    [copies] = lint.op_growth(made_since(), threshold=100)
    assert (copies.runs, copies.kind) == (60, "copies")

    h = tf.placeholder(tf.float32, [None, 4])
    made_since()
    for i in range(20):
        h = tf.layers.dense(h, 4)              # a layer per run: new variables, a model built by a loop
    weights = [tf.Variable(tf.ones([3, 3])) for _ in range(20)]
    made_since()
    clipped = [tf.assign(w, tf.clip_by_norm(w, 1.0)) for w in weights]   # one op per weight
    assert len(clipped) == 20 and len(made_since()) > 100
    found = lint.op_growth(graph.get_operations(), threshold=100)
    assert sorted((g.source_line.lineno, g.kind) for g in found) == sorted(
        [(unrolled.source_line.lineno, "unrolled"), (copies.source_line.lineno, "copies")])
