"""One TensorFlow subprocess per test module, comparing snippets of TF1 code run in graphlab and in TF 2.21.

A module gives dicts of snippets (name -> source), and ``reference(...)`` runs them all in TF at once:
``graphs`` (the op list, as tests/programs/test_same_graph_as_tf.py dumps it), ``values`` (a snippet leaves
``fetch`` and ``feed``, and maybe ``init`` to run first; IndexedSlices fetch as their three parts), ``build_errors`` (the exception a snippet
raises), ``run_errors`` (the OpError running ``fetch`` raises, after ``init``) and ``results`` (a snippet leaves ``result``,
any JSON value: statistics, messages). The ``check_*`` functions run the same snippet in graphlab and
compare.
"""
import json

import numpy as np
import pytest

import graphlab
import graphlab as tf
from tests import tfref
from tests.programs.test_same_graph_as_tf import DUMP

RUNNER = DUMP + """
import warnings
def _json(v):
    if type(v).__name__ == "IndexedSlicesValue":
        return {"slices": [_json(p) if p is not None else None for p in v]}
    v = np.asarray(v)
    return {"dtype": v.dtype.name, "shape": list(v.shape),
            "values": [None if isinstance(e, float) and e != e else
                       (("inf" if e > 0 else "-inf") if isinstance(e, float) and abs(e) == float("inf") else e)
                       for e in v.astype(object if v.dtype.kind != "f" else np.float64).reshape(-1).tolist()]}

job = json.loads(sys.argv[1])
data = {k: np.array(v["values"], v["dtype"]).reshape(v["shape"]) for k, v in job["data"].items()}
out = {"graphs": {}, "values": {}, "build_errors": {}, "run_errors": {}, "results": {}}
def scope():
    tf.reset_default_graph()
    return dict(data, tf=tf, np=np)

for key, src in job["graphs"].items():
    exec(src, scope())
    out["graphs"][key] = dump()
for key, src in job["values"].items():
    s = scope()
    exec(src, s)
    with tf.Session() as sess:
        if "init" in s:
            sess.run(s["init"])
        out["values"][key] = [_json(v) for v in sess.run(s["fetch"], s["feed"])]
for key, src in job["build_errors"].items():
    s = scope()
    try:
        exec(src, s)
        out["build_errors"][key] = None
    except Exception as e:
        out["build_errors"][key] = [type(e).__name__, str(e)]
for key, src in job["results"].items():
    s = scope()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exec(src, s)
    out["results"][key] = {"result": s.get("result"), "warnings": [str(w.message) for w in caught]}
for key, src in job["run_errors"].items():
    s = scope()
    exec(src, s)
    with tf.Session() as sess:
        if "init" in s:
            sess.run(s["init"])
        try:
            sess.run(s["fetch"], s["feed"])
            out["run_errors"][key] = None
        except Exception as e:     # TF may fail while dressing up the OpError: take the OpError itself
            while e is not None and not isinstance(e, tf.errors.OpError):
                e = e.__context__
            out["run_errors"][key] = [type(e).__name__, "\\n%s\\n" % e.message]
print(json.dumps(out))
sys.stdout.flush()
os._exit(0)   # TF can crash tearing down a session whose kernel failed; everything is printed by now
"""


def reference(graphs=(), values=(), build_errors=(), run_errors=(), results=(), data=()):
    """Run every snippet in real TensorFlow (one subprocess) and return what each gave. ``data`` (name ->
    numpy array) is visible to every snippet."""
    job = {"graphs": dict(graphs), "values": dict(values), "build_errors": dict(build_errors),
           "run_errors": dict(run_errors), "results": dict(results),
           "data": {k: {"dtype": np.asarray(v).dtype.name, "shape": list(np.shape(v)),
                        "values": np.asarray(v).reshape(-1).tolist()} for k, v in dict(data).items()}}
    return tfref.run_tf_json(RUNNER, json.dumps(job))


def _decode(entry):
    if entry is None:
        return None
    if "slices" in entry:
        return graphlab.framework.indexed_slices.IndexedSlicesValue(*[_decode(p) for p in entry["slices"]])
    values = [np.nan if e is None else float(e) if e in ("inf", "-inf") else e for e in entry["values"]]
    return np.array(values, dtype=entry["dtype"]).reshape(entry["shape"])


def check_graph(src, theirs):
    """graphlab builds the snippet's graph exactly as TF did: every op's name, type, inputs, in order."""
    graphlab.reset_default_graph()
    scope = {"tf": graphlab, "np": np}
    exec(DUMP + src, scope)
    ours = scope["dump"]()
    for mine, tfs in zip(ours, theirs):
        assert mine == tfs
    assert len(ours) == len(theirs)


def run_ours(src, **data):
    """Run a values snippet in graphlab: what ``fetch`` gives with ``feed``."""
    graphlab.reset_default_graph()
    scope = dict(data, tf=tf, np=np)
    exec(src, scope)
    with tf.Session() as sess:
        if "init" in scope:
            sess.run(scope["init"])
        return sess.run(scope["fetch"], scope["feed"])


def run_result(src):
    """Run a results snippet in graphlab: {"result": what it leaves in ``result``, "warnings": [...]}."""
    import warnings
    graphlab.reset_default_graph()
    scope = {"tf": tf, "np": np}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exec(src, scope)
    return {"result": json.loads(json.dumps(scope.get("result"))), "warnings": [str(w.message) for w in caught]}


def check_values(ours, theirs_json, rtol=2e-6, atol=1e-7, what=""):
    """Same dtypes, shapes and (within rtol/atol for floats) values; IndexedSlices part by part."""
    theirs = [_decode(e) for e in theirs_json]
    assert len(ours) == len(theirs), what
    for i, (mine, tfs) in enumerate(zip(ours, theirs)):
        if isinstance(tfs, tuple):
            assert type(mine).__name__ == "IndexedSlicesValue", (what, i)
            check_values(list(mine), theirs_json[i]["slices"], rtol, atol, "%s output %d" % (what, i))
            continue
        if tfs is None:
            assert mine is None, (what, i)
            continue
        mine = np.asarray(mine)
        assert mine.dtype == tfs.dtype and mine.shape == tfs.shape, (what, i, mine.dtype, mine.shape, tfs.shape)
        if mine.dtype.kind == "f":
            np.testing.assert_allclose(mine, tfs, rtol=rtol, atol=atol, err_msg="%s output %d" % (what, i))
        else:
            np.testing.assert_array_equal(mine, tfs, err_msg="%s output %d" % (what, i))


def check_build_error(src, entry):
    """The snippet raises TF's exception class with TF's words (a shape-function error in TF1's form)."""
    assert entry is not None, "TensorFlow raised nothing for this snippet"
    kind, text = entry
    graphlab.reset_default_graph()
    with pytest.raises(Exception) as info:
        exec(src, {"tf": tf, "np": np})
    assert type(info.value).__name__ == kind, info.value
    ours = str(info.value).strip("'\"") if kind == "KeyError" else str(info.value)
    text = text.strip("'\"") if kind == "KeyError" else text
    assert ours == text, (ours, text)


def check_run_error(src, entry):
    """Running the snippet's ``fetch`` raises TF's OpError class with the kernel's own words."""
    assert entry is not None, "TensorFlow raised nothing for this snippet"
    kind, text = entry
    graphlab.reset_default_graph()
    scope = {"tf": tf, "np": np}
    exec(src, scope)
    with tf.Session() as sess:
        if "init" in scope:
            sess.run(scope["init"])
        with pytest.raises(tf.errors.OpError) as info:
            sess.run(scope["fetch"], scope["feed"])
    assert type(info.value).__name__ == kind
    # both messages say "Graph execution error: Detected at node ... defined at" with each engine's own
    # frames; from "Node: 'name'" on (the node, the kernel's words, the [[{{node ...}}]] tag) they are TF's
    ours = info.value.message
    assert ours.startswith("Graph execution error:\n\nDetected at node "), ours
    assert ours[ours.index("\nNode: "):] + "\n" in text, (ours, text)


def last_json_in_tf(program):
    """What a whole program prints last (one JSON line), run in real TensorFlow (a subprocess)."""
    return json.loads(tfref.run_tf(program).strip().splitlines()[-1])


def last_json_in_graphlab(program):
    """What the same program prints last, run here with ``tf`` = graphlab."""
    printed = []
    exec(compile(program, "<program>", "exec"), {"tf": graphlab, "np": np, "json": json, "print": printed.append})
    return json.loads(printed[-1])
