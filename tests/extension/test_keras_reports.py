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
    """The extension on TensorFlow's own graph: tf-keras's names for the second model are the report's."""
    out = tfref.run_tf_with_graphlab('''
        import json
        from IPython.core.interactiveshell import InteractiveShell
        from IPython.utils.capture import capture_output
        ip = InteractiveShell.instance()
        texts = []
        for source in ["%%load_ext graphlab",
                       "import tensorflow.compat.v1 as tf\\ntf.disable_v2_behavior()",
                       %r, %r, "names = [l.name for l in model.layers]"]:
            with capture_output() as cap:
                ip.run_cell(source, store_history=True)
            texts += [o.data["text/plain"] for o in cap.outputs
                      if str(o.data.get("text/plain", "")).startswith("graphlab:")]
        print(json.dumps({"reports": texts, "names": ip.user_ns["names"]}))
    ''' % (MODEL, MODEL))
    d = json.loads(out.strip().splitlines()[-1])
    assert d["names"] == ["dense_2", "dense_3"]
    [text] = d["reports"]
    assert "(dense -> dense_2, dense_1 -> dense_3)" in text
    assert "tf.keras.backend.clear_session()" in text
