"""Values of the unary math ops and activations, compared with numbers TensorFlow 2.21 (compat.v1, CPU)
printed for the same inputs: ordinary points, the domain edges (log of 0, sqrt of a negative, the poles of
lgamma and digamma, +-inf, nan), polygamma, the sum of every gradient, and TF's dtype errors."""
import math

import numpy as np
import pytest

import graphlab as tf

INF, NAN = math.inf, math.nan
X = [-2.5, -0.7, -0.1, 0.0, 0.3, 0.9, 1.7, 4.0]
UNIT = [-0.9, -0.5, 0.0, 0.2, 0.99]                                   # inputs of asin, acos
GAMMA = [-7.5, -2.5, -0.5, 1e-8, 0.1, 0.5, 1.0, 2.5, 10.0, 100.0, 1e5]  # inputs of lgamma, digamma
POLY_N = [1, 2, 3, 1, 4, 0, 1]
POLY_X = [0.5, 2.0, 0.3, -1.5, 7.0, 2.0, 1e4]
EDGE = [0.0, -1.0, INF, -INF, NAN]

FNS = {"expm1": tf.expm1, "atan": tf.atan, "sinh": tf.sinh, "cosh": tf.cosh, "tan": tf.tan, "erf": tf.erf,
       "softplus": tf.nn.softplus, "selu": tf.nn.selu, "softsign": tf.nn.softsign, "swish": tf.nn.swish,
       "sigmoid": tf.sigmoid, "tanh": tf.tanh}

# Printed by TensorFlow 2.21 (tensorflow-cpu, compat.v1 graph mode) for the inputs above; "gradsum" is
# tf.gradients(reduce_sum(sum of every FNS entry applied to X)) at X.
TF_VALUES = {
    "float32": {
        "expm1": [-0.917914987, -0.50341469, -0.0951625928, 0, 0.349858791, 1.45960307, 4.47394753, 53.5981483],
        "atan": [-1.19028997, -0.610725939, -0.0996686593, 0, 0.291456789, 0.732815027, 1.03907228, 1.3258177],
        "sinh": [-6.05020475, -0.758583665, -0.100166753, 0, 0.304520309, 1.02651668, 2.64563203, 27.2899189],
        "cosh": [6.13228941, 1.25516903, 1.00500417, 1, 1.04533851, 1.4330864, 2.8283155, 27.3082314],
        "tan": [0.747022331, -0.842288375, -0.100334674, 0, 0.309336275, 1.26015818, -7.69659948, 1.1578213],
        "erf": [-0.99959296, -0.677801192, -0.112462915, 0, 0.328626782, 0.7969082, 0.983790398, 1],
        "softplus": [0.0788897425, 0.403186023, 0.644396663, 0.693147182, 0.854355216, 1.24115384, 1.86778605, 4.01814985],
        "selu": [-1.61378574, -0.885053039, -0.16730535, 0, 0.315210313, 0.945630908, 1.78619182, 4.20280409],
        "softsign": [-0.714285731, -0.411764681, -0.0909090936, 0, 0.230769247, 0.473684192, 0.629629612, 0.800000012],
        "swish": [-0.189645424, -0.232268542, -0.0475020818, 0, 0.172332734, 0.639854491, 1.43740904, 3.92805505],
        "sigmoid": [0.0758581683, 0.331812203, 0.475020796, 0.5, 0.574442446, 0.710949481, 0.845534742, 0.982013762],
        "tanh": [-0.986614347, -0.604367733, -0.0996680036, 0, 0.291312635, 0.716297865, 0.935409069, 0.999329269],
        "asin": [-1.11976945, -0.52359879, 0, 0.201357931, 1.42925692],
        "acos": [2.69056582, 2.09439516, 1.57079637, 1.36943841, 0.14153941],
        "lgamma": [-8.4045372, -0.0562437139, 1.26551211, 18.420681, 2.25271273, 0.572364926, 0, 0.28468287, 12.8018274, 359.134216, 1051287.62],
        "digamma": [2.080091, 1.10315681, 0.0364899635, -100000000, -10.4237547, -1.96351075, -0.57721591, 0.703156829, 2.25175261, 4.60016203, 11.5129204],
        "polygamma": [4.93480206, -0.404113829, 743.141663, 9.37924671, -0.00329677202, 0.422784209, 0.000100005003],
        "gradsum": [2.16141987, 6.64898014, 9.50877953, 9.42908001, 9.76833344, 12.1886368, 74.8619003, 114.740059],
    },
    "float64": {
        "expm1": [-0.9179150013761012, -0.5034146962085905, -0.09516258196404043, 0.0, 0.34985880757600313, 1.4596031111569499, 4.4739473917272, 53.59815003314425],
        "atan": [-1.1902899496825317, -0.6107259643892086, -0.09966865249116202, 0.0, 0.2914567944778671, 0.7328151017865067, 1.0390722595360908, 1.3258176636680323],
        "sinh": [-6.0502044810397875, -0.7585837018395334, -0.10016675001984403, 0.0, 0.3045202934471426, 1.0265167257081753, 2.6456319338372323, 27.28991719712775],
        "cosh": [6.132289479663686, 1.255169005630943, 1.0050041680558035, 1.0, 1.0453385141288605, 1.4330863854487745, 2.828315457889967, 27.308232836016487],
        "tan": [0.7470222972386603, -0.8422883804630794, -0.10033467208545055, 0.0, 0.30933624960962325, 1.2601582175503392, -7.696602139459161, 1.1578212823495775],
        "erf": [-0.999593047982555, -0.6778011938374185, -0.1124629160182849, 0.0, 0.3286267594591274, 0.7969082124228323, 0.9837904585907745, 0.9999999845827421],
        "softplus": [0.07888973429254963, 0.40318604888545784, 0.6443966600735709, 0.6931471805599453, 0.8543552444685272, 1.2411538747320878, 1.8677860293862658, 4.0181499279178094],
        "selu": [-1.6137857588732425, -0.8850530455772053, -0.16730527262431405, 0.0, 0.31521029620664415, 0.9456308886199324, 1.7861916785043168, 4.202803949421922],
        "softsign": [-0.7142857142857143, -0.4117647058823529, -0.09090909090909091, 0.0, 0.23076923076923075, 0.4736842105263158, 0.6296296296296295, 0.8],
        "swish": [-0.1896454500531089, -0.23226855948228375, -0.047502081252106004, 0.0, 0.1723327550434977, 0.6398545523625037, 1.437409049357991, 3.928055160151634],
        "sigmoid": [0.07585818002124356, 0.33181222783183395, 0.47502081252106, 0.5, 0.574442516811659, 0.710949502625004, 0.8455347349164652, 0.9820137900379085],
        "tanh": [-0.9866142981514302, -0.6043677771171635, -0.09966799462495583, 0.0, 0.29131261245159085, 0.7162978701990244, 0.935409070603099, 0.9993292997390671],
        "asin": [-1.1197695149986342, -0.5235987755982989, 0.0, 0.2013579207903308, 1.4292568534704693],
        "acos": [2.6905658417935308, 2.0943951023931957, 1.5707963267948966, 1.369438406004566, 0.1415394733244273],
        "lgamma": [-8.404537371451598, -0.05624371649767407, 1.2655121234846454, 18.42068073818021, 2.2527126517342055, 0.5723649429247001, 0.0, 0.2846828704729192, 12.80182748008147, 359.13420536957545, 1051287.7089736569],
        "digamma": [2.0800908175794204, 1.1031566406452433, 0.03648997397857645, -100000000.57721566, -10.423754940411076, -1.9635100260214227, -0.5772156649015323, 0.7031566406452434, 2.2517525890667214, 4.600161852738088, 11.512920464961896],
        "polygamma": [4.93480220054468, -0.4041138063191886, 743.1417646550497, 9.379246644989124, -0.003296771589026381, 0.42278433509846747, 0.00010000500016666666],
        "gradsum": [2.1614208754759794, 6.648981087603696, 9.508779200462302, 9.429080154450993, 9.768333397088826, 12.188635965612654, 74.86194978169786, 114.74005689372498],
    },
}

# TF 2.21's values of each op at EDGE = [0, -1, inf, -inf, nan]. Note erf(+-inf) is nan in float64 (TF's
# float64 kernel), +-1 in float32.
TF_EDGES = [
    ("log", "float32", [-INF, NAN, INF, NAN, NAN]),
    ("log", "float64", [-INF, NAN, INF, NAN, NAN]),
    ("sqrt", "float32", [0.0, NAN, INF, NAN, NAN]),
    ("sqrt", "float64", [0.0, NAN, INF, NAN, NAN]),
    ("rsqrt", "float32", [INF, NAN, 0.0, NAN, NAN]),
    ("rsqrt", "float64", [INF, NAN, 0.0, NAN, NAN]),
    ("reciprocal", "float32", [INF, -1.0, 0.0, -0.0, NAN]),
    ("reciprocal", "float64", [INF, -1.0, 0.0, -0.0, NAN]),
    ("lgamma", "float32", [INF, INF, INF, INF, NAN]),
    ("lgamma", "float64", [INF, INF, INF, INF, NAN]),
    ("digamma", "float32", [NAN, NAN, INF, NAN, NAN]),
    ("digamma", "float64", [NAN, NAN, INF, NAN, NAN]),
    ("erf", "float32", [0.0, -0.8427008390426636, 1.0, -1.0, NAN]),
    ("erf", "float64", [0.0, -0.8427007929497148, NAN, NAN, NAN]),
    ("expm1", "float32", [0.0, -0.6321205496788025, INF, -1.0, NAN]),
    ("expm1", "float64", [0.0, -0.6321205588285577, INF, -1.0, NAN]),
    ("asin", "float32", [0.0, -1.5707963705062866, NAN, NAN, NAN]),
    ("asin", "float64", [0.0, -1.5707963267948966, NAN, NAN, NAN]),
    ("acos", "float32", [1.5707963705062866, 3.1415927410125732, NAN, NAN, NAN]),
    ("acos", "float64", [1.5707963267948966, 3.141592653589793, NAN, NAN, NAN]),
    ("log1p", "float32", [0.0, -INF, INF, NAN, NAN]),
    ("log1p", "float64", [0.0, -INF, INF, NAN, NAN]),
    ("atan", "float32", [0.0, -0.7853981852531433, 1.5707963705062866, -1.5707963705062866, NAN]),
    ("atan", "float64", [0.0, -0.7853981633974484, 1.5707963267948966, -1.5707963267948966, NAN]),
    ("softplus", "float32", [0.6931471824645996, 0.3132616877555847, INF, 0.0, NAN]),
    ("softplus", "float64", [0.6931471805599453, 0.3132616875182228, INF, 0.0, NAN]),
    ("selu", "float32", [0.0, -1.1113307476043701, INF, -1.7580993175506592, NAN]),
    ("selu", "float64", [0.0, -1.1113307378125628, INF, -1.7580993408473768, NAN]),
    ("softsign", "float32", [0.0, -0.5, NAN, NAN, NAN]),
    ("softsign", "float64", [0.0, -0.5, NAN, NAN, NAN]),
]

RTOL = {"float32": 2e-6, "float64": 1e-12}


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield


def _run(t):
    with tf.Session() as sess:
        return sess.run(t)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_values_match_tensorflow(dtype):
    x = tf.constant(np.array(X, dtype))
    want = TF_VALUES[dtype]
    got = {name: fn(x) for name, fn in FNS.items()}
    got["asin"] = tf.asin(tf.constant(np.array(UNIT, dtype)))
    got["acos"] = tf.acos(tf.constant(np.array(UNIT, dtype)))
    g = tf.constant(np.array(GAMMA, dtype))
    got["lgamma"], got["digamma"] = tf.lgamma(g), tf.digamma(g)
    got["polygamma"] = tf.polygamma(tf.constant(np.array(POLY_N, dtype)), tf.constant(np.array(POLY_X, dtype)))
    got["gradsum"] = tf.gradients(tf.reduce_sum(tf.add_n([fn(x) for fn in FNS.values()])), x)[0]
    values = _run(got)
    for name, value in values.items():
        assert value.dtype == np.dtype(dtype), name
        np.testing.assert_allclose(value, want[name], rtol=RTOL[dtype], atol=0, err_msg=name)


@pytest.mark.parametrize("name,dtype,want", TF_EDGES, ids=["%s-%s" % (n, d) for n, d, _ in TF_EDGES])
def test_domain_edges_match_tensorflow(name, dtype, want):
    fn = getattr(tf.nn, name, None) if name in ("softplus", "selu", "softsign") else getattr(tf, name)
    with np.errstate(all="ignore"):
        value = _run(fn(tf.constant(np.array(EDGE, dtype))))
    np.testing.assert_allclose(value, want, rtol=RTOL[dtype], atol=0, equal_nan=True)


def test_polygamma_outside_its_domain_and_at_its_poles():
    # TF 2.21: nan unless n is a whole number >= 0; at x = 0, -1, -2 ... inf for odd n and nan for even n;
    # 0 at +inf, nan at -inf
    n = tf.constant([1.5, -1.0, 1.0, 1.0, 3.0, 2.0, 4.0, 2.0, 1.0, 2.0])
    x = tf.constant([1.0, 1.0, 0.0, -2.0, -1.0, 0.0, -1.0, -0.5, INF, -INF])
    np.testing.assert_allclose(_run(tf.polygamma(n, x)), [NAN, NAN, INF, INF, INF, NAN, NAN, -0.82879674, 0.0, NAN],
                               rtol=1e-6, equal_nan=True)


@pytest.mark.parametrize("fn,allowed", [
    (tf.erf, "bfloat16, float16, float32, float64"), (tf.lgamma, "bfloat16, float16, float32, float64"),
    (tf.digamma, "bfloat16, float16, float32, float64"),
    (tf.expm1, "bfloat16, float16, float32, float64, complex64, complex128"),
    (tf.tan, "bfloat16, float16, float32, float64, complex64, complex128")])
def test_integer_inputs_raise_tensorflows_type_error(fn, allowed):
    with pytest.raises(TypeError, match=r"^Value passed to parameter 'x' has DataType int32 not in list of "
                                        r"allowed values: %s$" % allowed):
        fn(tf.constant([1, 2]))


def test_public_names_as_in_tensorflow_1():
    for name in ["expm1", "atan", "asin", "acos", "sinh", "cosh", "tan", "erf", "lgamma", "digamma", "polygamma"]:
        assert getattr(tf, name) is getattr(tf.math, name)
    assert tf.math.softplus is tf.nn.softplus and tf.math.softsign is tf.nn.softsign
    assert tf.nn.silu is tf.nn.swish
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    assert [tf.nn.selu(x).op.type, tf.nn.softsign(x).op.type, tf.nn.swish(x).op.type, tf.nn.crelu(x).op.type] \
        == ["Selu", "Softsign", "IdentityN", "Relu"]
    assert tf.nn.crelu(x).shape.as_list() == [2, 6]


def test_exported_graph_runs_in_tensorflow_with_the_same_values(tmp_path):
    """Interop: the GraphDef of the new ops and their first- and second-order gradients (the *Grad ops,
    swish's IdentityN, Polygamma) imports into real TensorFlow and computes the same numbers."""
    from tests import tfref
    x = tf.placeholder(tf.float32, [1, 3], name="x")
    p = tf.placeholder(tf.float32, [2], name="p")
    ys = [fn(x) for fn in list(FNS.values()) + [tf.asin, tf.acos, tf.lgamma, tf.digamma, tf.sqrt, tf.rsqrt,
                                                 tf.reciprocal]]
    first = tf.gradients(tf.add_n([tf.reduce_sum(y) for y in ys]), x)[0]
    inner = tf.gradients(tf.reduce_sum(tf.sigmoid(p) + tf.tanh(p) + tf.sqrt(p) + tf.rsqrt(p) + tf.reciprocal(p)
                                       + tf.nn.softplus(p) + tf.nn.selu(p) + tf.polygamma(tf.constant(1.0), p)),
                         p)[0]
    second = tf.gradients(inner, p)[0]
    feed = {x: np.array([[0.3, 0.6, 0.9]], np.float32), p: np.array([0.4, 1.3], np.float32)}
    with tf.Session() as sess:
        ours = sess.run([first, second], feed)
    path = tmp_path / "graph.pb"
    path.write_bytes(tf.get_default_graph().as_graph_def().SerializeToString())
    theirs = tfref.run_tf_json("""
gd = tf.GraphDef()
gd.ParseFromString(open(sys.argv[1], "rb").read())
tf.import_graph_def(gd, name="")
with tf.Session() as sess:
    out = sess.run(sys.argv[2:], {"x:0": [[0.3, 0.6, 0.9]], "p:0": [0.4, 1.3]})
print(json.dumps([v.tolist() for v in out]))
""", str(path), first.name, second.name)
    for mine, tfs in zip(ours, theirs):
        np.testing.assert_allclose(mine, tfs, rtol=2e-5)
