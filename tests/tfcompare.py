"""Side-by-side checks of op families against live TensorFlow: one TF subprocess per test module runs every
snippet of a ``Cases`` collection, and the same snippets run here under graphlab.

Snippets are TF1 source run with ``tf`` (and ``np`` plus the module's named arrays) in scope:

* ``graphs``: the graph they build must match op for op (name, type, inputs, control inputs);
* ``values``: they leave ``fetch`` (a list of tensors) and ``feed``; the results must match;
* ``build_errors``: they must raise the same exception type and message while building;
* ``run_errors``: they leave ``fetch`` and ``feed`` (and optionally ``init``, run first); running must raise
  the same OpError and message.

Usage in a test module (adds the module-scoped ``tf_results`` fixture and one parametrized test per kind)::

    CASES = Cases(graphs={...}, values={...}, data={"X": array})
    install_tests(globals(), CASES, rtol=1e-5)
"""
import json

import numpy as np
import pytest

import graphlab
from tests import tfref

# Shared by both sides: the TF subprocess gets this source, graphlab's side executes it with tf = graphlab.
_HELPERS = """
def _dump_graph():
    return [[op.name, op.type, [t.name for t in op.inputs], sorted(c.name for c in op.control_inputs)]
            for op in tf.get_default_graph().get_operations()]


def _encode(v):
    v = np.asarray(v)
    if v.dtype.kind == "O":
        flat = [e.decode("utf-8", "replace") if isinstance(e, bytes) else str(e) for e in v.reshape(-1)]
    elif v.dtype.kind in "fc":
        flat = [repr(float(e)) for e in v.astype(np.float64).reshape(-1)]
    else:
        flat = v.reshape(-1).tolist()
    return {"dtype": v.dtype.name, "shape": list(v.shape), "values": flat}


def _decode(entry):
    if entry["dtype"] == "object":
        return np.array([s.encode("utf-8") for s in entry["values"]], dtype=object).reshape(entry["shape"])
    dtype = np.dtype(entry["dtype"])
    flat = [float(e) for e in entry["values"]] if dtype.kind in "fc" else entry["values"]
    return np.array(flat, dtype=dtype).reshape(entry["shape"])
"""
_LOCAL = {"tf": graphlab, "np": np}
exec(_HELPERS, _LOCAL)

_TF_MAIN = """
job = json.loads(sys.argv[1])
data = {k: _decode(v) for k, v in job["data"].items()}
out = {"graphs": {}, "values": {}, "build_errors": {}, "run_errors": {}}


def _scope():
    tf.reset_default_graph()
    return dict(data, tf=tf, np=np)


for key, src in job["graphs"].items():
    try:
        exec(src, _scope())
        out["graphs"][key] = _dump_graph()
    except Exception as e:   # reported by the test of this snippet alone
        out["graphs"][key] = {"error": "%s: %s" % (type(e).__name__, e)}
for key, src in job["values"].items():
    scope = _scope()
    try:
        exec(src, scope)
        with tf.Session() as sess:
            out["values"][key] = [_encode(v) for v in sess.run(scope["fetch"], scope.get("feed"))]
    except Exception as e:
        out["values"][key] = {"error": "%s: %s" % (type(e).__name__, e)}
for key, src in job["build_errors"].items():
    try:
        exec(src, _scope())
        out["build_errors"][key] = None
    except Exception as e:
        out["build_errors"][key] = [type(e).__name__, str(e)]
for key, src in job["run_errors"].items():
    scope = _scope()
    exec(src, scope)
    with tf.Session() as sess:
        try:
            if scope.get("init") is not None:
                sess.run(scope["init"])
            sess.run(scope["fetch"], scope.get("feed"))
            out["run_errors"][key] = None
        except tf.errors.OpError as e:
            out["run_errors"][key] = [type(e).__name__, e.message]
print(json.dumps(out))
"""


class Cases:
    """The snippets of one test module, by kind; ``data`` names arrays the snippets may use."""

    KINDS = ("graphs", "values", "build_errors", "run_errors")

    def __init__(self, graphs=None, values=None, build_errors=None, run_errors=None, data=None, graphlab_names=None):
        self.snippets = {"graphs": graphs or {}, "values": values or {}, "build_errors": build_errors or {},
                         "run_errors": run_errors or {}}
        self.data = data or {}
        self.graphlab_names = graphlab_names or {}   # stand-ins for TF names graphlab lacks (e.g. a raw op)

    def keys(self, kind):
        return sorted(self.snippets[kind])

    def run_in_tf(self):
        """Everything TF gives for every snippet, from one subprocess."""
        job = dict(self.snippets, data={k: _LOCAL["_encode"](v) for k, v in self.data.items()})
        return tfref.run_tf_json(_HELPERS + _TF_MAIN, json.dumps(job))

    # ---------------------------------------------------------------------------------- graphlab side
    def _scope(self):
        graphlab.reset_default_graph()
        return dict(self.data, tf=graphlab, np=np, **self.graphlab_names)

    def graph(self, key):
        scope = self._scope()
        exec(self.snippets["graphs"][key], scope)
        return _LOCAL["_dump_graph"]()

    def run(self, key, kind="values"):
        scope = self._scope()
        exec(self.snippets[kind][key], scope)
        with graphlab.Session() as sess:
            if scope.get("init") is not None:
                sess.run(scope["init"])
            return sess.run(scope["fetch"], scope.get("feed"))

    # -------------------------------------------------------------------------------------- checks
    @staticmethod
    def _theirs(tf_results, kind, key):
        entry = tf_results[kind][key]
        assert not isinstance(entry, dict), "TF failed on snippet %s: %s" % (key, entry["error"])
        return entry

    def check_graph(self, key, tf_results):
        ours, theirs = self.graph(key), self._theirs(tf_results, "graphs", key)
        for mine, tfs in zip(ours, theirs):
            assert mine == tfs
        assert len(ours) == len(theirs)

    def check_values(self, key, tf_results, rtol=1e-5, atol=1e-6):
        ours = self.run(key)
        theirs = [_LOCAL["_decode"](e) for e in self._theirs(tf_results, "values", key)]
        assert len(ours) == len(theirs)
        for i, (mine, tfs) in enumerate(zip(ours, theirs)):
            mine = np.asarray(mine)
            what = "%s output %d" % (key, i)
            assert (mine.dtype, mine.shape) == (tfs.dtype, tfs.shape), what
            if mine.dtype.kind in "fc":
                np.testing.assert_allclose(mine, tfs, rtol=rtol, atol=atol, err_msg=what)
            else:
                np.testing.assert_array_equal(mine, tfs, err_msg=what)

    def check_build_error(self, key, tf_results):
        expected = tf_results["build_errors"][key]
        assert expected is not None, "TF builds %s without an error" % key
        kind, text = expected
        try:
            exec(self.snippets["build_errors"][key], self._scope())
        except Exception as e:   # noqa: BLE001  (compared with TF's exception below)
            ours = str(e)
            assert type(e).__name__ == kind, (key, ours)
        else:
            raise AssertionError("graphlab builds %s without an error; TF raises %s: %s" % (key, kind, text))
        assert ours == text, (ours, text)

    def check_run_error(self, key, tf_results):
        expected = tf_results["run_errors"][key]
        assert expected is not None, "TF runs %s without an error" % key
        kind, text = expected
        try:
            self.run(key, "run_errors")
        except graphlab.errors.OpError as e:
            assert type(e).__name__ == kind, (key, e.message)
            # both say "Graph execution error: Detected at node ... defined at" with each engine's own frames;
            # from "Node: 'name'" on (the node, the kernel's words, the [[{{node ...}}]] tag) they are TF's
            ours = e.message
            assert ours.startswith("Graph execution error:\n\nDetected at node "), ours
            assert ours[ours.index("\nNode: "):] + "\n" in text + "\n", (ours, text)
        else:
            raise AssertionError("graphlab runs %s without an error; TF raises %s" % (key, kind))



def install_tests(namespace, cases, rtol=1e-5, atol=1e-6):
    """Define, in a test module's ``namespace``, the ``tf_results`` fixture (one TF subprocess for the module)
    and a test for each kind of snippet it has: graphs op for op, values within (rtol, atol), build errors
    and run errors."""
    @pytest.fixture(scope="module")
    def tf_results():
        return cases.run_in_tf()

    def test_graph_matches_tensorflow_op_for_op(key, tf_results):
        cases.check_graph(key, tf_results)

    def test_values_match_tensorflow(key, tf_results):
        cases.check_values(key, tf_results, rtol=rtol, atol=atol)

    def test_build_errors_match_tensorflow(key, tf_results):
        cases.check_build_error(key, tf_results)

    def test_run_errors_match_tensorflow(key, tf_results):
        cases.check_run_error(key, tf_results)

    namespace["tf_results"] = tf_results
    for kind, test in zip(Cases.KINDS, (test_graph_matches_tensorflow_op_for_op, test_values_match_tensorflow,
                                        test_build_errors_match_tensorflow, test_run_errors_match_tensorflow)):
        if cases.keys(kind):
            namespace[test.__name__] = pytest.mark.parametrize("key", cases.keys(kind))(test)
