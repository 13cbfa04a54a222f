"""Error messages a learner reads, compared with TF 2.21 (tf.compat.v1) run live in a subprocess: run-time
errors in TF's "Graph execution error" form naming the node, build-time shape errors naming the node as
TF's NodeDef summary, dtype checks worded as TF's op-def check, and which dtypes each division/modulo op
takes. The "defined at" frames are each engine's own (TF lists its whole stack, graphlab the user's line),
so run-time messages are compared from "Node: 'name'" on and the frame line is checked separately."""
import json

import pytest

import graphlab as tf
from tests.tfref import run_tf

# Each snippet builds into `fetch` (and maybe `feed`, `init`); `build` snippets raise while building.
RUN_CASES = {
    "matmul": "a = tf.placeholder(tf.float32, [None, 3])\nb = tf.placeholder(tf.float32)\n"
              "fetch = tf.matmul(a, b)\nfeed = {a: np.ones((2, 3)), b: np.ones((4, 2))}",
    "batch_matmul_batches": "a = tf.placeholder(tf.float32)\nb = tf.placeholder(tf.float32)\n"
                            "fetch = tf.matmul(a, b, adjoint_a=True)\n"
                            "feed = {a: np.ones((2, 2, 3)), b: np.ones((3, 3, 2))}",
    "batch_matmul_rank": "a = tf.placeholder(tf.float32)\nfetch = tf.matmul(a, a)\nfeed = {a: np.ones(3)}",
    "add": "a = tf.placeholder(tf.float32, [None, 3])\nb = tf.placeholder(tf.float32)\n"
           "fetch = a + b\nfeed = {a: np.ones((2, 3)), b: np.ones((2, 4))}",
    "missing_feed": "a = tf.placeholder(tf.float32, [None, 3], name='images')\nfetch = a * 2\nfeed = {}",
    "uninitialized": "v = tf.Variable(1.0, name='v')\nfetch = v * 2\nfeed = {}",
    "uninitialized_fetched_as_ref": "v = tf.Variable(1.0, name='bias')\nfetch = [tf.constant(1), v]\nfeed = {}",
    "uninitialized_assign_add": "v = tf.Variable(1.0, name='w')\nfetch = tf.assign_add(v, 1.0)\nfeed = {}",
    "floordiv_by_zero": "fetch = tf.floordiv(tf.constant([1, 0]), tf.placeholder(tf.int32))\n"
                        "feed = {fetch.op.inputs[1]: [0, 0]}",
    "reshape": "a = tf.placeholder(tf.float32)\nfetch = tf.reshape(a, [5], name='flat')\n"
               "feed = {a: np.ones((2, 3))}",
}

BUILD_CASES = {
    "matmul": "tf.matmul(tf.ones([2, 3]), tf.ones([4, 2]))",
    "add": "tf.ones([2, 3]) + tf.ones([4, 2])",
    "conv2d": "tf.nn.conv2d(tf.ones([1, 5, 5, 3]), tf.ones([3, 3, 4, 2]), strides=[1, 1, 1, 1], padding='SAME')",
    "reshape_in_scope": "c = tf.no_op(name='c')\nwith tf.device('/cpu:0'), tf.control_dependencies([c]):\n"
                        "    tf.reshape(tf.ones([2, 3]), [4], name='r')",
    "concat": "tf.concat([tf.ones([2, 3]), tf.ones([2, 3, 1])], 0)",
    "reduce_sum_axis": "tf.reduce_sum(tf.ones([2, 3]), 5)",
    "split": "tf.split(tf.ones([2, 3]), 2, axis=1)",
    "fill": "tf.fill([2, 3], tf.ones([2]))",
    "too_many_indices": "tf.constant([1, 2, 3])[1, 2]",
    "too_many_indices_ellipsis": "tf.constant([1, 2, 3])[1, ..., 2, 3]",
    "too_many_indices_newaxis": "tf.ones([2, 3])[:, tf.newaxis, 0, 1]",
    "add_dtypes": "tf.constant([1, 2]) + tf.constant([1.0])",
    "conversion_dtype": "tf.convert_to_tensor(tf.constant(1), dtype=tf.float32)",
    "truediv_dtypes": "tf.constant([1], tf.int32) / tf.constant([1.0])",
    "truediv_bool": "tf.constant([True]) / tf.constant([True])",
    "div_no_nan_bool": "tf.div_no_nan(tf.constant([True]), tf.constant([True]))",
}

DIVISION_OPS = ["truncatemod", "floormod", "truncatediv", "floordiv", "realdiv", "div_no_nan"]
DIVISION_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
                   "bfloat16", "float32", "float64", "complex64"]

_TF_SCRIPT = """
cases = json.loads(sys.argv[1])
out = {"run": {}, "build": {}, "division": {}}
for key, src in cases["run"].items():
    tf.reset_default_graph()
    scope = {"tf": tf, "np": np}
    exec(src, scope)
    try:
        tf.Session().run(scope["fetch"], scope["feed"])
        out["run"][key] = None
    except tf.errors.OpError as e:
        out["run"][key] = [type(e).__name__, e.message, e.op.name if e.op is not None else None]
for key, src in cases["build"].items():
    tf.reset_default_graph()
    try:
        exec(src, {"tf": tf, "np": np})
        out["build"][key] = None
    except Exception as e:
        out["build"][key] = [type(e).__name__, str(e)]
for op in cases["division_ops"]:
    for dt in cases["division_dtypes"]:
        tf.reset_default_graph()
        try:
            r = getattr(tf, op)(tf.constant([1], dt), tf.constant([1], dt))
            out["division"][op + "/" + dt] = ["OK", r.dtype.name, [i.op.type for i in r.op.inputs]]
        except Exception as e:
            out["division"][op + "/" + dt] = [type(e).__name__, str(e)]
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def reference():
    cases = {"run": RUN_CASES, "build": BUILD_CASES, "division_ops": DIVISION_OPS,
             "division_dtypes": DIVISION_DTYPES}
    return json.loads(run_tf(_TF_SCRIPT, json.dumps(cases)).strip().splitlines()[-1])


@pytest.mark.parametrize("key", sorted(RUN_CASES))
def test_run_time_error_as_tf(reference, key):
    kind, text, node = reference["run"][key]
    tf.reset_default_graph()
    scope = {"tf": tf, "np": __import__("numpy")}
    exec(compile(RUN_CASES[key], "<snippet>", "exec"), scope)
    with pytest.raises(tf.errors.OpError) as info:
        tf.Session().run(scope["fetch"], scope["feed"])
    err = info.value
    if node is None:        # found when the fetch is handed back: no node of the graph, the whole text is TF's
        assert (type(err).__name__, err.op, err.message, str(err)) == (kind, None, text, text)
        return
    assert (type(err).__name__, err.op.name) == (kind, node)
    head = "Graph execution error:\n\nDetected at node %r defined at (most recent call last):\n" % node
    assert text.startswith(head) and err.message.startswith(head), err.message
    # our frame: the snippet's line that built the node
    assert err.message[len(head):].startswith('    File "<snippet>", line ')
    # from "Node: 'name'" on: the node, the kernel's words and the [[{{node name}}]] tag, exactly as TF
    assert err.message[err.message.index("\nNode: "):] == text[text.index("\nNode: "):]
    # str() adds where the node was defined, as TF's OpError.__str__
    assert str(err).startswith(err.message + "\n\nOriginal stack trace for %r:\n  File \"<snippet>\"" % node)


@pytest.mark.parametrize("key", sorted(BUILD_CASES))
def test_build_time_error_as_tf(reference, key):
    kind, text = reference["build"][key]
    tf.reset_default_graph()
    with pytest.raises(Exception) as info:
        exec(BUILD_CASES[key], {"tf": tf})
    assert (type(info.value).__name__, str(info.value)) == (kind, text)


def test_division_and_modulo_take_the_dtypes_tf_registers(reference):
    """truncatemod refuses int8 (TF registers it for int32, int64 and floats only), floormod refuses complex,
    div_no_nan casts integers to a float type as true division does: the result or error of each op on
    each dtype, as TF's."""
    ours = {}
    for op in DIVISION_OPS:
        for dt in DIVISION_DTYPES:
            tf.reset_default_graph()
            try:
                r = getattr(tf, op)(tf.constant([1], dt), tf.constant([1], dt))
                ours[op + "/" + dt] = ["OK", r.dtype.name, [i.op.type for i in r.op.inputs]]
            except Exception as e:
                ours[op + "/" + dt] = [type(e).__name__, str(e)]
    diffs = {k: (ours[k], v) for k, v in reference["division"].items() if ours[k] != v}
    assert not diffs
