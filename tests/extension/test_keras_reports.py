"""A Keras model-building cell run again: the report says the model was built again under new layer names, that
the old one stays in the graph and Keras's session, and points to tf.keras.backend.clear_session(). The same
report with real tf-keras, whose names the renames must be."""
import json

import tfref

MODEL = ("model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation='relu', input_shape=(4,)),\n"
         "                             tf.keras.layers.Dense(3)])")


def test_a_rebuilt_keras_model_is_named_and_clear_session_offered(loaded):
    assert loaded.reports(MODEL) == []
    [text] = loaded.reports(MODEL)
    assert text.startswith("graphlab: re-run or copied cell duplicated ops: a Keras model (first run In [3])")
    assert "Keras named the new layers after the ones already in the graph (dense -> dense_2, dense_1 -> dense_3)" \
        in text
    assert "stay in the graph and in Keras's session (tf.keras.backend.get_session())" in text
    assert "Fix: call tf.keras.backend.clear_session() at the top of the cell" in text
    assert "tf.reset_default_graph()" not in text


def test_after_clear_session_the_model_is_built_afresh_without_a_report(loaded):
    loaded.run(MODEL)
    loaded.run(MODEL)
    assert loaded.reports("tf.keras.backend.clear_session()\n" + MODEL) == []
    cell = loaded.run("print([layer.name for layer in model.layers], len(tf.get_default_graph().get_operations()))")
    assert cell.stdout.split("]")[0] == "['dense', 'dense_1'"


def test_a_recompiled_model_is_not_called_a_new_model(loaded):
    """compile run again adds a second loss and metrics (loss_1, total_1) to the same model: the report says
    that, and does not offer clear_session at the top of this cell (the model would be left in the old graph)."""
    loaded.run(MODEL)
    compile_cell = "model.compile(optimizer='adam', loss='mse', metrics=['mae'])"
    assert loaded.reports(compile_cell) == []
    [text] = loaded.reports(compile_cell)
    assert text.startswith("graphlab: re-run or copied cell duplicated ops: a Keras compile")
    assert "This is a Keras model compiled again" in text and "loss -> loss_1" in text and "total -> total_1" in text
    assert "Fix: compile once, in the cell that builds the model" in text
    assert "new layers" not in text
    assert loaded.reports("model.fit(np.ones((8, 4)), np.ones((8, 3)), verbose=0)") == []


def test_tf1_layers_renamed_on_a_rerun_keep_the_tf1_advice(loaded):
    """tf.layers.dense also names the second layer dense_1, but its variables are reference variables: the
    report keeps the default-graph advice and says nothing of Keras."""
    cell = "w = tf.Variable(tf.ones([4, 3]))\ny = tf.layers.dense(tf.matmul(tf.ones([2, 4]), w), 2)"
    assert loaded.reports(cell) == []
    [text] = loaded.reports(cell)
    assert "Keras" not in text and "tf.reset_default_graph()" in text
    assert loaded.run("print(tf.get_default_graph().get_operation_by_name('dense_1/kernel').type)").stdout \
        == "VariableV2\n"


def test_the_report_on_real_tf_keras_quotes_its_names():
    """The extension on TensorFlow's own graph: tf-keras's names for the second model, and for a second compile,
    are the report's."""
    out = tfref.run_tf_with_graphlab('''
        import json
        from IPython.core.interactiveshell import InteractiveShell
        from IPython.utils.capture import capture_output
        ip = InteractiveShell.instance()
        texts = []
        COMPILE = "model.compile(optimizer='adam', loss='mse', metrics=['mae'])"
        for source in ["%%load_ext graphlab",
                       "import tensorflow.compat.v1 as tf\\ntf.disable_v2_behavior()",
                       %r, %r, "names = [l.name for l in model.layers]", COMPILE, COMPILE]:
            with capture_output() as cap:
                ip.run_cell(source, store_history=True)
            texts += [o.data["text/plain"] for o in cap.outputs
                      if str(o.data.get("text/plain", "")).startswith("graphlab:")]
        print(json.dumps({"reports": texts, "names": ip.user_ns["names"]}))
    ''' % (MODEL, MODEL))
    d = json.loads(out.strip().splitlines()[-1])
    assert d["names"] == ["dense_2", "dense_3"]
    rebuilt, recompiled = d["reports"]
    assert "(dense -> dense_2, dense_1 -> dense_3)" in rebuilt
    assert "tf.keras.backend.clear_session()" in rebuilt
    assert "This is a Keras model compiled again" in recompiled and "loss -> loss_1" in recompiled
