"""Graph.as_graph_def and tf.import_graph_def: TF's op types and attr encodings (compared with the GraphDef
TF 2.21 compat.v1 prints for the same graph), round trips, input_map, return_elements, clear errors."""
import numpy as np
import pytest

import graphlab as tf
from graphlab.framework import graph_io
from graphlab.formats.protos import graph_def_pb2, types_pb2


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield


def _nodes(gd):
    return {n.name: n for n in gd.node}


def test_attrs_encoded_as_tf_does():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    tf.placeholder(tf.int32, name="unknown")
    v = tf.Variable(np.ones([3, 2], np.float32), name="v")
    y = tf.matmul(x, v)
    with tf.control_dependencies([v.initializer]):
        tf.identity(y, name="out")
    tf.constant(["a", "b"], name="s")
    tf.cast(x, tf.int32, name="c")
    n = _nodes(tf.get_default_graph().as_graph_def())
    assert n["x"].op == "Placeholder" and set(n["x"].attr) == {"dtype", "shape"}
    assert n["x"].attr["dtype"].type == types_pb2.DT_FLOAT
    assert [d.size for d in n["x"].attr["shape"].shape.dim] == [-1, 3]
    assert n["unknown"].attr["shape"].shape.unknown_rank
    assert n["v"].op == "VariableV2" and set(n["v"].attr) == {"shape", "dtype", "container", "shared_name"}
    # TF colocates it, and marks it as a manual control dependency (out waits for it)
    assert set(n["v/Assign"].attr) == {"T", "validate_shape", "use_locking", "_class",
                                       "_has_manual_control_dependencies"}
    assert list(n["v/Assign"].attr["_class"].list.s) == [b"loc:@v"]
    assert list(n["v/Assign"].input) == ["v", "v/initial_value"]
    assert set(n["MatMul"].attr) == {"T", "transpose_a", "transpose_b", "grad_a", "grad_b"}
    assert list(n["out"].input) == ["MatMul", "^v/Assign"]
    assert list(n["s"].attr["value"].tensor.string_val) == [b"a", b"b"]
    t = n["v/initial_value"].attr["value"].tensor
    assert np.frombuffer(t.tensor_content, "<f4").tolist() == [1.0] * 6
    assert set(n["c"].attr) == {"SrcT", "DstT", "Truncate"}
    gd = tf.get_default_graph().as_graph_def()
    assert gd.versions.producer >= 22


def test_save_v2_exports_dtypes_not_python_attrs():
    tf.get_variable("a", [2], initializer=tf.zeros_initializer())
    tf.train.Saver()
    n = _nodes(tf.get_default_graph().as_graph_def())
    assert set(n["save/SaveV2"].attr) == {"dtypes", "_has_manual_control_dependencies"}   # as TF 2.21 writes it
    assert list(n["save/SaveV2"].attr["dtypes"].list.type) == [types_pb2.DT_FLOAT]
    assert list(n["save/Assign"].attr["_class"].list.s) == [b"loc:@a"]


def test_round_trip_runs_the_same():
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    w = tf.constant([[1.0, 2.0], [3.0, 4.0]], name="w")
    y = tf.nn.relu(tf.matmul(x, w) - 5.0, name="y")
    gd = tf.get_default_graph().as_graph_def()
    feed = [[1.0, 1.0], [2.0, -1.0]]
    want = tf.Session().run(y, {x: feed})
    with tf.Graph().as_default():
        x2, y2 = tf.import_graph_def(gd, return_elements=["x:0", "y:0"])
        assert x2.name == "import/x:0" and y2.name == "import/y:0"
        np.testing.assert_array_equal(tf.Session().run(y2, {x2: feed}), want)
        assert tf.get_default_graph().as_graph_def().node[0].name == "import/x"


def test_input_map_replaces_an_input():
    x = tf.placeholder(tf.float32, [], name="x")
    tf.multiply(x, 3.0, name="y")
    gd = tf.get_default_graph().as_graph_def()
    with tf.Graph().as_default():
        c = tf.constant(2.0)
        (y,) = tf.import_graph_def(gd, input_map={"x:0": c}, return_elements=["y:0"], name="m")
        assert tf.Session().run(y) == 6.0
        with pytest.raises(ValueError, match="not found in graph_def"):
            tf.import_graph_def(gd, input_map={"nope:0": c})


def test_unknown_op_type_is_a_clear_error_naming_the_node():
    gd = graph_def_pb2.GraphDef()
    gd.node.add(name="evil", op="EvilCustomOp")
    with pytest.raises(ValueError, match="Node 'evil' uses op type 'EvilCustomOp', which graphlab does not implement"):
        tf.import_graph_def(gd)
    assert tf.get_default_graph().get_operations() == []


def test_missing_input_and_return_element_errors():
    gd = graph_def_pb2.GraphDef()
    gd.node.add(name="i", op="Identity", input=["ghost"]).attr["T"].type = types_pb2.DT_FLOAT
    with pytest.raises(ValueError, match="Node 'i': Unknown input node 'ghost'"):
        tf.import_graph_def(gd)
    tf.reset_default_graph()
    tf.constant(1.0, name="c")
    gd = tf.get_default_graph().as_graph_def()
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Requested return_element 'zz:0' not found"):
            tf.import_graph_def(gd, return_elements=["zz:0"])


def test_tf_style_short_value_lists_are_expanded():
    from google.protobuf import text_format
    gd = text_format.Parse('''
      node { name: "ones" op: "Const"
             attr { key: "dtype" value { type: DT_FLOAT } }
             attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 } dim { size: 3 } }
                                                  float_val: 1 } } } }
      versions { producer: 2474 }''', graph_def_pb2.GraphDef())
    (t,) = tf.import_graph_def(gd, return_elements=["ones:0"], name="")
    np.testing.assert_array_equal(tf.Session().run(t), np.ones((2, 3), np.float32))


def test_write_graph_text_and_binary(tmp_path):
    tf.constant(1.0, name="c")
    p = tf.train.write_graph(tf.get_default_graph(), str(tmp_path), "g.pbtxt")
    assert 'name: "c"' in open(p).read()
    p2 = tf.train.write_graph(tf.get_default_graph().as_graph_def(), str(tmp_path), "g.pb", as_text=False)
    assert graph_io.load_graph_def(p2) == graph_io.load_graph_def(p)


def test_node_def_of_an_op():
    c = tf.constant(1.0, name="c")
    assert c.op.node_def.name == "c" and c.op.node_def.op == "Const"


def test_control_inputs_keep_their_order_on_the_op_and_are_sorted_in_the_graph_def():
    """print(op) / op.node_def list control inputs as they were added; as_graph_def sorts them by name.
    Both as TF 2.21 (compared live)."""
    program = """
b = tf.no_op(name="b")
a = tf.no_op(name="a")
with tf.control_dependencies([b, a]):
    c = tf.no_op(name="c")
seen = [list(c.node_def.input), [list(n.input) for n in tf.get_default_graph().as_graph_def().node
                                 if n.name == "c"][0]]
"""
    from tests import tfref
    theirs = tfref.run_tf_json(program + "print(json.dumps(seen))")
    import graphlab
    graphlab.reset_default_graph()
    scope = {"tf": graphlab}
    exec(program, scope)
    assert scope["seen"] == theirs


def test_constants_are_encoded_as_tensorflow_encodes_them():
    """One value in its typed field (float_val: 1, bool_val, half_val as bits), one value broadcast to a shape
    as that value and the shape (tf.zeros([2, 2]), tf.constant(0.0, shape=[3])), several values in
    tensor_content: a GraphDef's text reads as TF's does (compared live)."""
    program = """
tf.constant(1.0, name="a"); tf.constant([1.0], name="b"); tf.constant(0.0, shape=[3], name="c")
tf.constant([1, 2], name="d"); tf.constant(7, tf.int64, name="e"); tf.constant("hi", name="f")
tf.constant(True, name="g"); tf.constant(1.5, tf.float64, name="h"); tf.zeros([2, 2], name="i")
tf.constant(2.0, tf.float16, name="j"); tf.constant(3, tf.uint8, name="k"); tf.ones([3], tf.int32, name="l")
tf.constant([[1.0, 2.0]], name="m")
seen = {n.name: str(n.attr["value"].tensor) for n in tf.get_default_graph().as_graph_def().node}
"""
    from tests import tfref
    theirs = tfref.run_tf_json(program + "print(json.dumps(seen))")
    import graphlab
    graphlab.reset_default_graph()
    scope = {"tf": graphlab}
    exec(program, scope)
    assert scope["seen"] == theirs
    # and each reads back as the value it was made from
    for node in graphlab.get_default_graph().as_graph_def().node:
        op = graphlab.get_default_graph().get_operation_by_name(node.name)
        np.testing.assert_array_equal(graph_io.tensor_proto_to_numpy(node.attr["value"].tensor), op.get_attr("value"))
