"""A Keras model's graph drawn like any other: one cluster per layer, each resource variable one cylinder
(its VarHandleOp, initializer and every ReadVariableOp of it inside), Keras's session checks and its unused
learning-phase placeholder out of the way. Drawn from live tf-keras graphs too: the same boxes."""
import json
import re

import numpy as np

import graphlab as tf
import tfref
from graphlab import viz

from .conftest import clusters, edges, needs_dot, node_ids, node_line

TF_MODEL = """
    import json
    import numpy as np
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    from graphlab import viz
    tf.set_random_seed(0)
    m = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu", input_shape=(4,)),
                             tf.keras.layers.Dense(3, activation="softmax")])
    built = viz.render(tf.get_default_graph(), width=None)
    m.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    x = np.random.RandomState(0).randn(16, 4).astype("float32")
    y = np.random.RandomState(1).randint(0, 3, 16)
    m.fit(x, y, epochs=1, batch_size=8, verbose=0)
    fitted = viz.render(tf.get_default_graph())
    print(json.dumps({"built": built.dot, "fitted": fitted.dot, "summary": fitted.summary,
                      "fit": fitted.info["fit"]}))
"""

_TF = {}


def tf_drawings():
    if not _TF:
        out = tfref.run_tf_with_graphlab(TF_MODEL)
        _TF.update(json.loads(out.strip().splitlines()[-1]))
    return _TF


def _model():
    return tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu", input_shape=(4,)),
                                tf.keras.layers.Dense(3, activation="softmax")])


def _boxes(dot):
    """node id -> label of every box."""
    return dict(re.findall(r'^\s*"((?:[^"\\]|\\.)*)" \[.*?label="((?:[^"\\]|\\.)*)"', dot, re.M))


def _top_level(dot):
    """Ids of the boxes outside every cluster."""
    depth, top = 0, []
    for line in dot.splitlines()[1:]:
        s = line.strip()
        if s.startswith("subgraph"):
            depth += 1
        elif s == "}":
            depth -= 1
        elif depth == 0:
            m = re.match(r'"((?:[^"\\]|\\.)*)" \[', s)
            if m:
                top.append(m.group(1))
    return top


@needs_dot
def test_each_variable_is_one_cylinder_in_its_layer():
    with tf.Graph().as_default():
        _model()
        dot = viz.render(width=None).dot
    boxes = _boxes(dot)
    assert set(clusters(dot)) == {"dense", "dense_1"}           # no MatMul/BiasAdd clusters around reads
    assert boxes["scope:dense/kernel"] == "kernel\\nvariable [4,8]"
    assert boxes["scope:dense_1/bias"] == "bias\\nvariable [3]"
    assert 'shape="cylinder"' in node_line(dot, "scope:dense/kernel")
    assert not [i for i in node_ids(dot) if "ReadVariableOp" in i or "VarHandleOp" in i]
    e = {(s, d): a for s, d, a in edges(dot)}
    assert 'label="[4,8]"' in e[("scope:dense/kernel", "op:dense/MatMul")]


@needs_dot
def test_a_built_model_is_drawn_as_tf_keras_builds_it():
    """tf-keras's own graph, drawn by graphlab.viz, has the same boxes, labels and edges as graphlab's."""
    theirs = tf_drawings()["built"]
    with tf.Graph().as_default():
        _model()
        mine = viz.render(width=None).dot
    assert _boxes(mine) == _boxes(theirs)
    assert sorted(edges(mine)) == sorted(edges(theirs))
    assert clusters(mine) == clusters(theirs)


@needs_dot
def test_a_fitted_model_shows_its_layers_loss_metrics_and_training():
    """After compile and fit (tf-keras's graph): a box per layer and per bookkeeping scope Keras made, the
    metric variables as cylinders, and none of the 19 VarIsInitializedOp, K.set_value's Placeholder /
    AssignVariableOp pairs or the unread learning phase at the top level."""
    d = tf_drawings()
    dot = d["fitted"]
    top = _top_level(dot)
    for scope in ("dense", "dense_1", "loss", "metrics", "training"):
        assert "scope:" + scope in top or scope in clusters(dot), top
    assert {"scope:total", "scope:count"} <= set(top)
    assert 'shape="cylinder"' in node_line(dot, "scope:total")
    assert not [i for i in node_ids(dot) if re.search(r"VarIsInitializedOp|ReadVariableOp|AssignVariableOp|"
                                                        r"keras_learning_phase|op:Placeholder", i)]
    assert "Keras's learning-phase placeholder left out: nothing in the graph reads it" in d["summary"]
    assert not [line for line in d["summary"] if line.startswith("hidden:")]      # not counted twice
    assert d["fit"]["fits"] and d["fit"]["readable"]
    assert len(top) <= 12


@needs_dot
def test_a_fitted_model_is_drawn_as_tf_keras_fits_it():
    """graphlab's compile and fit build tf-keras's graph, so the drawing is tf-keras's, box for box."""
    theirs = tf_drawings()
    with tf.Graph().as_default():
        tf.set_random_seed(0)
        m = _model()
        m.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
        x = np.random.RandomState(0).randn(16, 4).astype("float32")
        y = np.random.RandomState(1).randint(0, 3, 16)
        m.fit(x, y, epochs=1, batch_size=8, verbose=0)
        r = viz.render()
    assert _boxes(r.dot) == _boxes(theirs["fitted"])
    assert sorted(edges(r.dot)) == sorted(edges(theirs["fitted"]))
    assert r.summary == theirs["summary"]


@needs_dot
def test_the_learning_phase_is_drawn_when_a_layer_reads_it():
    with tf.Graph().as_default():
        tf.keras.Sequential([tf.keras.layers.Dense(4, input_shape=(3,)), tf.keras.layers.Dropout(0.5)])
        r = viz.render(width=None)
    assert "op:keras_learning_phase" in node_ids(r.dot) or "scope:keras_learning_phase" in node_ids(r.dot)
    assert not [line for line in r.summary if "learning-phase" in line]


@needs_dot
def test_reads_of_a_resource_variable_in_tf1_code_join_the_variable():
    """Plain TF1 code with use_resource=True: each use's ReadVariableOp is drawn inside the variable's scope,
    whatever its name (``y/ReadVariableOp``); by default ``w`` is closed, one cylinder feeding both uses."""
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 2], name="x")
        w = tf.get_variable("w", [2, 2], use_resource=True)
        y = tf.matmul(x, w, name="y")
        tf.add(y, w, name="z")
        reads = [op.name for op in tf.get_default_graph().get_operations() if op.type == "ReadVariableOp"]
        opened = viz.render(width=None, collapse=None).dot
        closed = viz.render(width=None).dot
    assert [r for r in reads if not r.startswith("w/")]            # TF names some reads after their reader
    assert clusters(opened)[0] == "w" and all(c.startswith("w/") for c in clusters(opened)[1:])
    inside = opened[opened.index('subgraph "cluster_w"'):]
    inside = inside[:inside.index("\n  }")]
    for r in reads:
        assert '"op:%s"' % r in inside
    assert _boxes(closed)["scope:w"] == "w\\nvariable [2,2]"
    targets = {d for s, d, _ in edges(closed) if s == "scope:w"}
    assert {"op:y", "op:z"} <= targets


def test_reference_variables_keep_their_drawing():
    """VariableV2's scope (`w`, `w/read`, `w/Assign`) is unchanged: open by default, a cluster holding them;
    closed on request, a folder box with its op count (the lessons' stored drawings show them so)."""
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 2], name="x")
        w = tf.Variable(np.ones((2, 2), np.float32), name="w")
        tf.matmul(x, w, name="y")
        opened = viz.render(width=None).dot
        closed = viz.render(width=None, collapse=["bookkeeping", "w"]).dot
    assert "w" in clusters(opened) and "op:w/read" in node_ids(opened)
    assert 'shape="folder"' in node_line(closed, "scope:w") and _boxes(closed)["scope:w"].startswith("w\\n")


@needs_dot
def test_an_update_takes_the_variables_handle_and_the_edge_says_so():
    """ResourceApplyGradientDescent takes the variable's handle, a scalar resource: the edge reads "handle",
    not "scalar" (which would read as the variable's shape)."""
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 1], name="x")
        line = tf.keras.layers.Dense(1, name="line")
        loss = tf.reduce_mean(tf.square(line(x) - 1.0))
        tf.train.GradientDescentOptimizer(0.5).minimize(loss)
        dot = viz.render(width=None).dot
    e = {(s, d): a for s, d, a in edges(dot)}
    assert 'label="handle"' in e[("scope:line/kernel", "scope:GradientDescent")]
    assert 'label="[1,1]"' in e[("scope:line/kernel", "op:line/MatMul")]
