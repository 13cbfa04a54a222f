"""Keras snippets run in live tf-keras (one subprocess per test module) and in graphlab, side by side.

A snippet sees ``tf`` (tensorflow.compat.v1 or graphlab), ``keras`` (``tf.keras`` or ``graphlab.keras``) and
``np``; it leaves ``result`` (any JSON value). ``ops()`` in a snippet lists the default graph's ops as
[name, type, input names], so a result can hold the graph it built. Printing is captured: a snippet's
stdout is returned beside its result (Keras's progress output is part of what a user sees).
"""
import contextlib
import io
import json
import sys

import numpy as np

import graphlab
from tests import tfref

HELPERS = """
def ops(start=0):
    return [[op.name, op.type, [t.name for t in op.inputs]]
            for op in tf.get_default_graph().get_operations()[start:]]
def floats(values):
    return np.asarray(values, dtype=np.float64).tolist()
"""

RUNNER = """
import contextlib, io, warnings
keras = tf.keras
""" + HELPERS + """
out = {}
for key, src in json.loads(sys.argv[1]).items():
    tf.reset_default_graph()
    scope = dict(tf=tf, keras=keras, np=np, ops=ops, floats=floats)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(src, scope)
        except Exception as e:
            scope["result"] = {"error": [type(e).__name__, str(e)]}
    out[key] = {"result": scope.get("result"), "stdout": buf.getvalue()}
print(json.dumps(out, default=lambda o: o.item() if hasattr(o, "item") else repr(o)))
sys.stdout.flush()
os._exit(0)
"""


def reference(snippets):
    """Run every snippet in tf-keras; {key: {"result": ..., "stdout": ...}}."""
    return tfref.run_tf_json(RUNNER, json.dumps(dict(snippets)))


def _plain(value):
    """numpy scalars as Python numbers in results (TF's side converts them the same way)."""
    return value.item() if hasattr(value, "item") else repr(value)


def run_ours(src, raising=False):
    """The same snippet in graphlab: {"result": ..., "stdout": ...} (result through JSON, as TF's). With
    ``raising``, an exception becomes {"error": [class, message]} as on TF's side; else it propagates."""
    import graphlab.keras as keras
    graphlab.reset_default_graph()
    scope = {"tf": graphlab, "keras": keras, "np": np}
    exec(HELPERS, scope)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        try:
            exec(compile(src, "<snippet>", "exec"), scope)
        except Exception as e:
            if not raising:
                raise
            scope["result"] = {"error": [type(e).__name__, str(e)]}
    return {"result": json.loads(json.dumps(scope.get("result"), default=_plain)), "stdout": buf.getvalue()}


def assert_close(ours, theirs, rtol=1e-5, atol=1e-6, path="result"):
    """Equal JSON structures, floats within tolerance (strings and ints exactly)."""
    if isinstance(theirs, float) or isinstance(ours, float):
        assert isinstance(ours, (int, float)) and isinstance(theirs, (int, float)), (path, ours, theirs)
        np.testing.assert_allclose(ours, theirs, rtol=rtol, atol=atol, err_msg=path)
    elif isinstance(theirs, list):
        assert isinstance(ours, list) and len(ours) == len(theirs), (path, ours, theirs)
        for i, (a, b) in enumerate(zip(ours, theirs)):
            assert_close(a, b, rtol, atol, "%s[%d]" % (path, i))
    elif isinstance(theirs, dict):
        assert isinstance(ours, dict) and sorted(ours) == sorted(theirs), (path, sorted(ours), sorted(theirs))
        for k in theirs:
            assert_close(ours[k], theirs[k], rtol, atol, "%s[%r]" % (path, k))
    else:
        assert ours == theirs, (path, ours, theirs)
