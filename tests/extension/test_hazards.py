"""Reports on mistakes that raise no error (an op built inside sess.run, a stateful op outside the tf.cond
that reads it, a py_func in an exported graph), the optimizer-slot explanation of a failed restore, and
tracebacks with graphlab's frames folded; all in a real InteractiveShell."""
import os
import tempfile

INIT_LOOP = """v = tf.Variable(1.0, name='v')
sess = tf.Session()
for step in range(3):
    sess.run(tf.global_variables_initializer())
"""


def test_op_built_inside_run_call_in_a_loop_is_reported(loaded):
    [text] = loaded.reports(INIT_LOOP)
    assert text.startswith("graphlab: op built inside sess.run(...)")
    assert "In [3], line 4: sess.run(tf.global_variables_initializer()) built a new NoOp op" in text
    assert "each of its 3 runs (init, init_1, init_2)" in text
    assert "Fix: build the op once, before the loop" in text and "sess.run(init)" in text


def test_apis_that_build_and_run_their_own_ops_are_not_reported(loaded):
    loaded.ip.user_ns["workdir"] = tempfile.mkdtemp()
    loaded.ip.user_ns["os"] = os
    assert loaded.reports("w = tf.Variable(1.0, name='w')\nsess = tf.Session()\nsess.run(w.initializer)\n"
                          "for version in (1, 2):\n"
                          "    tf.saved_model.simple_save(sess, os.path.join(workdir, str(version)), "
                          "inputs={}, outputs={'w': w.value()})", ) == []


def test_op_built_once_per_cell_or_before_the_loop_is_not_reported(loaded):
    assert loaded.reports("v = tf.Variable(1.0, name='v')\nsess = tf.Session()\n"
                          "sess.run(tf.global_variables_initializer())") == []
    assert loaded.reports("init = tf.global_variables_initializer()\n"
                          "for step in range(3):\n    sess.run(init)") == []
    [text] = loaded.reports("for step in range(3):\n    sess.run(v + 1)")     # any op, not only initializers
    assert "line 2: sess.run(v + 1) built a new AddV2 op inside sess.run(...) in each of its 3 runs" in text
    assert "Fix: build the op once, before the loop (e.g. step = tf.assign_add(v, 1)), and run that" in text


def test_two_ops_built_by_one_run_call_are_not_a_loop(loaded):
    """Two initializers built inside one sess.run(...) (both named init): one call of the line, no report."""
    assert loaded.reports("v = tf.Variable(1.0, name='v')\nsess = tf.Session()\n"
                          "sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])") == []


def test_a_fresh_graph_per_call_is_not_a_loop(loaded):
    """fit() builds its model in a new graph each time and runs the initializer it builds there: no graph grows."""
    assert loaded.reports("def fit():\n    with tf.Graph().as_default():\n        v = tf.Variable(1.0)\n"
                          "        with tf.Session() as sess:\n"
                          "            sess.run(tf.global_variables_initializer())\n"
                          "for attempt in range(3):\n    fit()") == []


def test_get_next_inside_sess_run_gets_its_own_advice(loaded):
    [text] = loaded.reports("it = tf.data.make_one_shot_iterator(tf.data.Dataset.range(5))\n"
                            "with tf.Session() as sess:\n    for i in range(3):\n"
                            "        sess.run(it.get_next())")
    assert "built a new IteratorGetNext op inside sess.run(...) in each of its 3 runs" in text
    assert "(e.g. next_batch = iterator.get_next()), and run that in the loop: sess.run(next_batch)" in text


COND_LEAK = """counter = tf.Variable(0, name='counter')
flag = tf.placeholder(tf.bool, [], name='flag')
bump = tf.assign_add(counter, 1, name='bump')
out = tf.cond(flag, lambda: tf.cast(bump, tf.float32), lambda: tf.constant(0.0))
"""


def test_stateful_op_read_only_inside_a_cond_branch_is_reported(loaded):
    [text] = loaded.reports(COND_LEAK)
    assert text.startswith("graphlab: stateful op outside tf.cond")
    assert "In [3], line 3: bump = tf.assign_add(counter, 1, name='bump') creates bump (AssignAdd) before the " \
           "tf.cond that reads it (cond)" in text
    assert "whichever branch is taken" in text


def test_stateful_op_inside_the_branch_or_read_outside_too_is_not_reported(loaded):
    assert loaded.reports("""counter = tf.Variable(0, name='counter')
flag = tf.placeholder(tf.bool, [], name='flag')
out = tf.cond(flag, lambda: tf.cast(tf.assign_add(counter, 1), tf.float32), lambda: tf.constant(0.0))
""") == []
    assert loaded.reports("""bump = tf.assign_add(counter, 1)
both = tf.cond(flag, lambda: tf.cast(bump, tf.float32), lambda: tf.constant(0.0)) + tf.cast(bump, tf.float32)
""") == []


def test_py_func_in_an_exported_graph_is_reported(loaded):
    export_dir = os.path.join(tempfile.mkdtemp(), "served")
    loaded.ip.user_ns["export_dir"] = export_dir
    [text] = loaded.reports("""x = tf.placeholder(tf.float32, [None], name='x')
y = tf.py_func(lambda v: v * 2, [x], tf.float32, name='double')
sess = tf.Session()
tf.saved_model.simple_save(sess, export_dir, inputs={'x': x}, outputs={'y': y})
""")
    assert text.startswith("graphlab: py_func in an exported graph")
    assert "The SavedModel written to served holds PyFunc op double (token pyfunc_" in text
    assert "ValueError: Could not find callback with key=pyfunc_" in text
    assert "no kernel for PyFunc at all" in text
    # a graph without py_func exports quietly
    loaded.ip.user_ns["plain_dir"] = os.path.join(tempfile.mkdtemp(), "plain")
    assert loaded.reports("with tf.Graph().as_default():\n    p = tf.placeholder(tf.float32, name='p')\n"
                          "    tf.train.write_graph(tf.get_default_graph(), plain_dir, 'g.pb')") == []


def test_missing_optimizer_slot_is_explained(loaded):
    loaded.ip.user_ns["prefix"] = os.path.join(tempfile.mkdtemp(), "model")
    loaded.run("with tf.variable_scope('weight_def'):\n    w = tf.get_variable('weights', [2])\n"
               "s = tf.Session()\ns.run(tf.global_variables_initializer())\nsaved = tf.train.Saver().save(s, prefix)")
    cell = loaded.run("tf.reset_default_graph()\nwith tf.variable_scope('weight_def'):\n"
                      "    w = tf.get_variable('weights', [2])\n"
                      "train = tf.train.AdamOptimizer(0.1).minimize(tf.reduce_sum(w * w))\n"
                      "tf.train.Saver().restore(tf.Session(), saved)")
    [text] = cell.reports
    assert text.startswith("graphlab: why: beta1_power is not in the checkpoint")
    assert "beta1_power is Adam's own step counter: this graph builds an optimizer" in text
    assert "tf.train.Saver(var_list=tf.trainable_variables())" in text


def test_tracebacks_fold_graphlab_frames(loaded):
    loaded.run("%colors nocolor")
    cell = loaded.run("a = tf.placeholder(tf.float32, [None], name='a')\nsess = tf.Session()\n"
                      "sess.run(a * 2)")
    assert not cell.result.success
    shown = cell.stdout + cell.stderr
    assert "sess.run(a * 2)" in shown
    assert "graphlab/runtime" not in shown and "graphlab/framework" not in shown
    assert "inside graphlab folded away; the last frame above is your line" in shown
    loaded.run("%graph_lint --disable tracebacks")
    cell = loaded.run("sess.run(a * 2)")
    shown = cell.stdout + cell.stderr
    assert "graphlab/runtime" in shown and "folded away" not in shown


def test_tracebacks_of_plain_python_errors_are_untouched(loaded):
    cell = loaded.run("def f():\n    return 1 / 0\nf()")
    shown = cell.stdout + cell.stderr
    assert "ZeroDivisionError" in shown and "folded" not in shown


def test_unloading_removes_the_traceback_handler_and_export_listener(loaded):
    from graphlab.framework import graph_io
    import graphlab_ipython
    graphlab_ipython.unload_ipython_extension(loaded.ip)
    assert loaded.ip.custom_exceptions == ()
    assert not any(getattr(f, "__self__", None) is not None and type(f.__self__).__name__ == "GraphWatcher"
                   for f in graph_io.export_listeners)


def test_runs_started_by_a_cell_are_named_after_its_prompt(loaded):
    """A lesson re-runs a cell with get_ipython().run_cell: the notebook shows only the outer prompt."""
    loaded.run("def run_as_cell(source):\n    get_ipython().run_cell(source, store_history=True)")
    cell = loaded.run("for attempt in range(2):\n    run_as_cell(\"a = tf.Variable(0.0, name='a')\")")
    [text] = cell.reports
    assert text.startswith("graphlab: re-run duplicated ops (first run In [4] (inner run 1))")
    assert "This cell ran before (In [4] (inner run 1)); this run (In [4] (inner run 2)) created 4 ops" in text
    # the next cell is numbered as the notebook numbers it, and reports nothing about the inner runs
    assert loaded.reports("b = tf.constant(1.0)") == []


def test_reports_quote_the_statement_without_its_comment(loaded):
    [text] = loaded.reports(COND_LEAK.replace("name='bump')", "name='bump')   # before the cond"))
    assert "line 3: bump = tf.assign_add(counter, 1, name='bump') creates bump (AssignAdd)" in text
