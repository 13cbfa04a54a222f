"""Quantized weights read back: tf.dequantize / tf.quantization.dequantize against TensorFlow 2.21 (graphs op for
op, floats bit for bit in all three modes, per-axis ranges, errors), quantized tensors in GraphDefs both ways,
and the graph `graphlab transform ... quantize_weights` writes loading in graphlab itself."""
import json

import numpy as np

import graphlab as tf
from graphlab.tools import graph_transforms
from tests import tfref
from tests.tfcompare import Cases, install_tests

_CODES = """
q8 = tf.constant(np.arange(256, dtype=np.uint8).reshape(16, 16), tf.quint8)
s8 = tf.constant(np.arange(-128, 128, dtype=np.int8), tf.qint8)
"""

CASES = Cases(graphs={
    "dequantize": _CODES + """
x = tf.placeholder(tf.quint8, [None, 4], name="x")
y = [tf.dequantize(x, 0.0, 6.0), tf.quantization.dequantize(x, -1.0, 1.0, mode="MIN_FIRST", name="first"),
     tf.quantization.dequantize(s8, -2.0, 2.0, mode="SCALED", narrow_range=True),
     tf.quantization.dequantize(q8, tf.zeros([16]), tf.ones([16]), axis=-1)]
""",
}, values={
    # every code of quint8 and qint8 under each mode, for ranges around, above and below zero and a flat one
    "all_modes": _CODES + """
fetch = []
for lo, hi in [(-1.0, 1.0), (-0.37, 5.123), (0.0, 6.0), (2.5, 2.5), (-3.3, -0.1)]:
    for mode in ("MIN_COMBINED", "MIN_FIRST", "SCALED"):
        fetch += [tf.dequantize(q8, lo, hi, mode=mode), tf.quantization.dequantize(s8, lo, hi, mode=mode)]
    fetch.append(tf.quantization.dequantize(s8, lo, hi, mode="SCALED", narrow_range=True))
""",
    "per_axis_and_wide_types": _CODES + """
fetch = [tf.quantization.dequantize(q8, [0.0] * 16, np.linspace(1, 16, 16, dtype=np.float32), axis=1),
         tf.quantization.dequantize(q8, [-1.0] * 16, [1.0] * 16, axis=0, mode="SCALED"),
         tf.dequantize(tf.constant(np.array([0, 1, 65535, 32768], np.uint16), tf.quint16), -2.0, 2.0, mode="MIN_FIRST"),
         tf.dequantize(tf.constant(np.array([-2**15, 0, 2**15 - 1], np.int16), tf.qint16), -2.0, 2.0),
         tf.dequantize(tf.constant(np.array([-2**31, 0, 2**31 - 1], np.int32), tf.qint32), -2.0, 2.0)]
""",
    "fed_codes": """
x = tf.placeholder(tf.quint8, [3])
fetch = [tf.dequantize(x, 0.0, 1.0)]
feed = {x: np.array([0, 128, 255], np.uint8)}
""",
}, build_errors={
    "float_input": "tf.dequantize(tf.zeros([3]), 0.0, 1.0)",
    "negative_axis_unknown_rank": "tf.quantization.dequantize(tf.placeholder(tf.quint8), 0.0, 1.0, axis=-1)",
    "ranges_per_axis": _CODES + "tf.quantization.dequantize(q8, tf.zeros([3]), tf.ones([3]), axis=1)",
    "scalar_ranges_with_axis": _CODES + "tf.quantization.dequantize(q8, 0.0, 1.0, axis=2)",
    "axis_beyond_rank": _CODES + "tf.quantization.dequantize(q8, tf.zeros([4]), tf.ones([4]), axis=2)",
    "vector_ranges_without_axis": _CODES + "tf.dequantize(q8, [0.0], [1.0])",
})
install_tests(globals(), CASES, rtol=0, atol=0)


def test_min_first_has_no_per_axis_form():
    """TF's kernel refuses MIN_FIRST with an axis (and TF 2.21 sometimes crashes on it instead, so there is
    nothing to run it against): graphlab says what TF's kernel says."""
    with tf.Graph().as_default(), tf.Session() as sess:
        q = tf.constant(np.zeros([4, 2], np.uint8), tf.quint8)
        y = tf.quantization.dequantize(q, tf.zeros([4]), tf.ones([4]), axis=0, mode="MIN_FIRST")
        try:
            sess.run(y)
        except tf.errors.UnimplementedError as e:
            assert "MIN_FIRST mode is not implemented for Dequantize with axis != -1." in e.message
            assert e.op is y.op
        else:
            raise AssertionError("MIN_FIRST with an axis ran")


def _quantized_graph():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 64], name="x")
        w = tf.constant(np.random.RandomState(0).randn(64, 32).astype(np.float32), name="w")
        tf.identity(tf.matmul(x, w), name="y")
    return graph_transforms.transform_graph(g.as_graph_def(), ["x"], ["y"], "quantize_weights(minimum_size=100)")


def test_quantize_weights_output_loads_in_graphlab_and_tf_alike(tmp_path):
    """graphlab transform's 8-bit graph (a quint8 Const and a Dequantize under the weight's name) runs in
    graphlab with exactly the outputs TF computes from the same file."""
    gd = _quantized_graph()
    assert [n.op for n in gd.node].count("Dequantize") == 1
    path = tmp_path / "quantized.pb"
    path.write_bytes(gd.SerializeToString())
    feed = np.linspace(-1, 1, 128, dtype=np.float32).reshape(2, 64)
    with tf.Graph().as_default():
        tf.import_graph_def(gd, name="")
        with tf.Session() as sess:
            ours = sess.run("y:0", {"x:0": feed})
    theirs = tfref.run_tf_json("""
gd = tf.GraphDef()
gd.ParseFromString(open(sys.argv[1], "rb").read())
tf.import_graph_def(gd, name="")
with tf.Session() as sess:
    print(json.dumps(sess.run("y:0", {"x:0": np.array(json.loads(sys.argv[2]), np.float32)}).tolist()))
""", str(path), json.dumps(feed.tolist()))
    np.testing.assert_allclose(ours, np.array(theirs, np.float32), rtol=1e-6, atol=1e-6)


def test_quantized_constants_written_by_tf_read_in_graphlab(tmp_path):
    """TF's TensorProtos of each quantized type (its tensor_content bytes) import as the same codes."""
    path = tmp_path / "tf_quantized.pb"
    tfref.run_tf("""
tf.constant(np.array([0, 7, 255], np.uint8), tf.quint8, name="q8")
tf.constant(np.array([-128, 3, 127], np.int8), tf.qint8, name="s8")
tf.constant(np.array([0, 65535], np.uint16), tf.quint16, name="q16")
tf.constant(np.array([-5, 5], np.int16), tf.qint16, name="s16")
tf.constant(np.array([-2**31, 2**31 - 1], np.int32), tf.qint32, name="s32")
tf.constant(np.full([2, 2], 9, np.uint8), tf.quint8, name="filled")
open(sys.argv[1], "wb").write(tf.get_default_graph().as_graph_def().SerializeToString())
""", str(path))
    gd = tf.GraphDef()
    gd.ParseFromString(path.read_bytes())
    with tf.Graph().as_default() as g:
        tf.import_graph_def(gd, name="")
        names = ["q8", "s8", "q16", "s16", "s32", "filled"]
        assert [g.get_tensor_by_name(n + ":0").dtype.name for n in names] == \
            ["quint8", "qint8", "quint16", "qint16", "qint32", "quint8"]
        with tf.Session() as sess:
            values = sess.run([n + ":0" for n in names])
    codes = [v.view(v.dtype.fields[v.dtype.names[0]][0]).tolist() for v in values]
    assert codes == [[0, 7, 255], [-128, 3, 127], [0, 65535], [-5, 5], [-2**31, 2**31 - 1], [[9, 9], [9, 9]]]
