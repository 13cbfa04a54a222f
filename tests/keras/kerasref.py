"""Run Keras snippets in graphlab and in the reference tf-keras (TF 2.21, TF_USE_LEGACY_KERAS=1, v1 graph
mode), each after ``tf.keras.backend.clear_session()``, and compare what they leave in ``result``.

A snippet sees ``tf``, ``np``, ``K`` (tf.keras.backend), ``L`` (tf.keras.layers) and two helpers:
``ops()``, the default graph's ops as [name, type, inputs, control inputs], and ``summary(model)``, the
lines ``model.summary()`` prints. ``result`` may be any JSON value; a dict key ``"values"`` holds numbers
compared with a tolerance, everything else must be equal. A snippet that raises leaves the exception's class
and message instead.
"""
import json

import numpy as np

from tests import tfref

HELPERS = """
import json, sys, warnings
import numpy as np

def ops():
    return [[op.name, op.type, [t.name for t in op.inputs], sorted(c.name for c in op.control_inputs)]
            for op in tf.get_default_graph().get_operations()]

def summary(model, **kwargs):
    lines = []
    model.summary(print_fn=lambda line, *a, **k: lines.append(line), **kwargs)
    return lines

def tolist(value):
    if isinstance(value, (list, tuple)):
        return [tolist(v) for v in value]
    return np.asarray(value, dtype=np.float64).tolist()

def run_snippets(snippets):
    out = {}
    for key, src in snippets.items():
        tf.keras.backend.clear_session()
        scope = {"tf": tf, "np": np, "json": json, "K": tf.keras.backend, "L": tf.keras.layers, "ops": ops,
                 "summary": summary, "tolist": tolist}
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(src, scope)
            out[key] = {"result": scope.get("result")}
        except Exception as e:
            out[key] = {"error": [type(e).__name__, str(e)]}
    return out
"""


def reference(snippets):
    """What each snippet leaves in TF (one subprocess for all)."""
    script = HELPERS + "\nprint(json.dumps(run_snippets(json.loads(sys.argv[1]))))\n"
    return tfref.run_tf_json(script, json.dumps(snippets))


def in_graphlab(snippets):
    import graphlab
    scope = {"tf": graphlab}
    exec(HELPERS, scope)
    return json.loads(json.dumps(scope["run_snippets"](snippets)))


def assert_close(ours, theirs, path):
    """Numbers (in nested lists of any shapes) equal to float32 precision."""
    if isinstance(theirs, list) and any(isinstance(t, list) for t in theirs):
        assert isinstance(ours, list) and len(ours) == len(theirs), (path, ours, theirs)
        for i, (a, b) in enumerate(zip(ours, theirs)):
            assert_close(a, b, "%s[%d]" % (path, i))
        return
    np.testing.assert_allclose(np.asarray(ours, dtype=np.float64), np.asarray(theirs, dtype=np.float64),
                               rtol=2e-5, atol=1e-6, err_msg=path)


def assert_same(ours, theirs, path="result"):
    """Equal, except numbers under a "values" key, which agree to float32 precision."""
    if isinstance(theirs, dict):
        assert isinstance(ours, dict) and sorted(ours) == sorted(theirs), (path, ours, theirs)
        for key in theirs:
            if key == "values":
                assert_close(ours[key], theirs[key], path + "/values")
            else:
                assert_same(ours[key], theirs[key], path + "/" + str(key))
    elif isinstance(theirs, list):
        assert isinstance(ours, list), (path, ours, theirs)
        if ours != theirs:
            import difflib
            diff = "\n".join(difflib.unified_diff([json.dumps(x) for x in theirs], [json.dumps(x) for x in ours],
                                                  "tf", "graphlab", lineterm="", n=2))
            raise AssertionError("%s differs from TF:\n%s" % (path, diff))
    else:
        assert ours == theirs, (path, ours, theirs)

