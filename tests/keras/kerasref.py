"""Run Keras snippets in live tf-keras (TF 2.21, TF_USE_LEGACY_KERAS=1, v1 graph mode; one subprocess for a
whole test module) and in graphlab, the same way on both sides, and compare what they leave.

Each snippet runs after ``keras.backend.clear_session()`` and sees ``tf`` (tensorflow.compat.v1 or graphlab),
``keras`` (``tf.keras``), ``K`` (its backend), ``L`` (its layers), ``np``, ``json`` and three helpers:
``ops(start=0)``, the default graph's ops from ``start`` as [name, type, inputs, control inputs];
``summary(model)``, the lines ``model.summary()`` prints; and ``floats(value)``, an array (or a list of
arrays of any shapes) as nested lists of floats. It leaves ``result`` (any JSON value); a snippet that
raises leaves ``{"error": [class, message]}`` instead. Its printing is captured beside the result, as
Keras's progress output is part of what a user sees.
"""
import difflib
import json

import numpy as np

from tests import tfref

HELPERS = """
import contextlib, io, json, sys, warnings
import numpy as np

def ops(start=0):
    return [[op.name, op.type, [t.name for t in op.inputs], sorted(c.name for c in op.control_inputs)]
            for op in tf.get_default_graph().get_operations()[start:]]

def summary(model, **kwargs):
    lines = []
    model.summary(print_fn=lambda line, *a, **k: lines.append(line), **kwargs)
    return lines

def floats(value):
    if isinstance(value, (list, tuple)):
        return [floats(v) for v in value]
    return np.asarray(value, dtype=np.float64).tolist()

def plain(value):
    return value.item() if hasattr(value, "item") else repr(value)

def run_snippet(src, catch=True):
    tf.keras.backend.clear_session()
    scope = {"tf": tf, "keras": tf.keras, "np": np, "json": json, "K": tf.keras.backend, "L": tf.keras.layers,
             "ops": ops, "summary": summary, "floats": floats}
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(compile(src, "<snippet>", "exec"), scope)
        except Exception as e:
            if not catch:
                raise
            scope["result"] = {"error": [type(e).__name__, str(e)]}
    return json.loads(json.dumps({"result": scope.get("result"), "stdout": buf.getvalue()}, default=plain))
"""

RUNNER = HELPERS + """
print(json.dumps({key: run_snippet(src) for key, src in json.loads(sys.argv[1]).items()}))
sys.stdout.flush()
os._exit(0)  # no TF teardown: the answer is out
"""


def reference(snippets):
    """Every snippet run in tf-keras: {key: {"result": ..., "stdout": ...}}."""
    return tfref.run_tf_json(RUNNER, json.dumps(dict(snippets)))


def run_ours(src, raising=False):
    """One snippet run in graphlab: {"result": ..., "stdout": ...}. With ``raising``, an exception becomes
    the result {"error": [class, message]} as on TF's side; without, it propagates (with its traceback)."""
    import graphlab
    import graphlab.keras  # (tf.keras in the snippet)
    scope = {"tf": graphlab}
    exec(HELPERS, scope)
    return scope["run_snippet"](src, catch=raising)


def error(entry):
    """The [class, message] a snippet raised, or None."""
    result = entry["result"]
    return result["error"] if isinstance(result, dict) and list(result) == ["error"] else None


def assert_same(ours, theirs, rtol=1e-5, atol=1e-6, path="result"):
    """Equal JSON structures; floats within tolerance, everything else exactly. A list that differs
    otherwise is shown as a diff against TF's."""
    if isinstance(theirs, float) or isinstance(ours, float):
        assert isinstance(ours, (int, float)) and isinstance(theirs, (int, float)), (path, ours, theirs)
        np.testing.assert_allclose(ours, theirs, rtol=rtol, atol=atol, err_msg=path)
    elif isinstance(theirs, dict):
        assert isinstance(ours, dict) and sorted(ours) == sorted(theirs), (path, sorted(ours), sorted(theirs))
        for key in theirs:
            assert_same(ours[key], theirs[key], rtol, atol, "%s[%r]" % (path, key))
    elif isinstance(theirs, list):
        assert isinstance(ours, list), (path, ours, theirs)
        if len(ours) == len(theirs):
            try:
                for i, (a, b) in enumerate(zip(ours, theirs)):
                    assert_same(a, b, rtol, atol, "%s[%d]" % (path, i))
                return
            except AssertionError:
                if json.dumps(ours).count('"') == 0:  # numbers only: the failing element says it best
                    raise
        diff = "\n".join(difflib.unified_diff([json.dumps(x) for x in theirs], [json.dumps(x) for x in ours],
                                              "tf", "graphlab", lineterm="", n=2))
        raise AssertionError("%s differs from TF:\n%s" % (path, diff))
    else:
        assert ours == theirs, (path, ours, theirs)
