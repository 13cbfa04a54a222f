"""graph_util on GraphDef protos: extract_sub_graph, freezing with convert_variables_to_constants,
remove_training_nodes; a frozen graph runs without any checkpoint."""
import numpy as np
import pytest

import graphlab as tf


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield


def _model():
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]], name="w")
    y = tf.identity(tf.matmul(x, w), name="y")
    tf.constant(5.0, name="unused")
    return x, w, y


def test_extract_sub_graph_keeps_order_and_needed_nodes():
    _model()
    gd = tf.get_default_graph().as_graph_def()
    sub = tf.graph_util.extract_sub_graph(gd, ["y"])
    assert [n.name for n in sub.node] == ["x", "w", "w/read", "MatMul", "y"]
    with pytest.raises(AssertionError, match="nope is not in graph"):
        tf.graph_util.extract_sub_graph(gd, ["nope"])
    with pytest.raises(TypeError):
        tf.graph_util.extract_sub_graph(gd, "y")


def test_freeze_replaces_variables_with_their_values(capsys):
    x, w, y = _model()
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    sess.run(tf.assign(w, [[0.0, 1.0], [1.0, 0.0]]))
    import logging
    records = []
    listener = logging.Handler()
    listener.emit = records.append
    logger = logging.getLogger("tensorflow")
    level = logger.level
    logger.addHandler(listener)
    logger.setLevel(logging.INFO)
    try:
        frozen = tf.graph_util.convert_variables_to_constants(sess, sess.graph.as_graph_def(), ["y"])
    finally:
        logger.removeHandler(listener)
        logger.setLevel(level)
    # as TF: logged at INFO on the "tensorflow" logger (not shown by default), not printed
    assert capsys.readouterr().out == ""
    assert [(r.name, r.levelname, r.getMessage()) for r in records] == [
        ("tensorflow", "INFO", "Converted 1 variables to const ops.")]
    ops = {n.name: n.op for n in frozen.node}
    assert ops == {"x": "Placeholder", "w": "Const", "w/read": "Identity", "MatMul": "MatMul", "y": "Identity"}
    with tf.Graph().as_default():
        xi, yi = tf.import_graph_def(frozen, return_elements=["x:0", "y:0"], name="")
        np.testing.assert_array_equal(tf.Session().run(yi, {xi: [[1.0, 2.0]]}), [[2.0, 1.0]])


def test_remove_training_nodes_drops_identities():
    _model()
    gd = tf.graph_util.extract_sub_graph(tf.get_default_graph().as_graph_def(), ["y"])
    out = tf.graph_util.remove_training_nodes(gd, protected_nodes=["y"])
    names = [n.name for n in out.node]
    assert "w/read" not in names and "y" in names
    matmul = [n for n in out.node if n.name == "MatMul"][0]
    assert list(matmul.input) == ["x", "w"]
