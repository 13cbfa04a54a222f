"""Run a batch of generated programs in graphlab and in the reference TensorFlow, and compare the records.

Each side is one subprocess running tests/differential/runner.py over the whole batch (TF is imported once);
both run at the same time. A side that dies (a crash in TF, a hang) loses only the program it was running:
the rest of the batch is run again after it.

Comparison: integers, bools, strings, names, shapes, dtypes, Python types, error classes and messages
exactly; floats within rtol 1e-5, atol 1e-6. Why that much: the programs combine a few float32 ops on
small numbers (halves and quarters), so a correct result differs from TF's only by the rounding of a
different evaluation order (sums, means, exp), a few ulps of float32 (eps 1.2e-7), well under 1e-5 in
relative terms; atol covers results that cancel to about zero. Every semantic divergence this test looks
for (a read before instead of after a write, another random stream, a wrong division rule) moves a value
by at least 0.25 or so.
"""
import json
import math
import os
import subprocess
import sys
import threading
import time

from . import generator

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
RUNNER = os.path.join(HERE, "runner.py")
RTOL, ATOL = 1e-5, 1e-6

try:
    from tests import tfref
except ImportError:  # pytest puts tests/ itself on the path
    import tfref


def parse_range(text):
    """'0:300' -> range(0, 300); '7' -> range(7, 8)."""
    if ":" in text:
        lo, hi = text.split(":")
        return range(int(lo or 0), int(hi))
    return range(int(text), int(text) + 1)


def jobs(seeds):
    out = []
    for s in seeds:
        source, features = generator.program(s)
        out.append({"seed": s, "source": source, "features": features})
    return out


def _command(engine):
    if engine == "tf":
        exe = tfref.tf_python()
        if exe is None:
            raise SystemExit("the reference TensorFlow is not available: run `make setup` (it installs "
                             "tensorflow-cpu into .tfvenv) or set GRAPHLAB_TF_PYTHON to a Python that imports "
                             "tensorflow")
        return [exe, RUNNER, "tf"], tfref._env()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([REPO, os.path.join(REPO, "extension")]))
    return [sys.executable, RUNNER, "graphlab"], env


def run_both(batch, nice=0, timeout=900):
    """({engine: {seed: record}}, {engine: seconds}) for the batch; the two sides run at the same time."""
    results = {"tf": {}, "graphlab": {}}
    seconds = {"tf": 0.0, "graphlab": 0.0}
    pending = {"tf": list(batch), "graphlab": list(batch)}
    commands = {engine: _command(engine) for engine in pending}  # fails here, not in a thread, without TF
    while pending["tf"] or pending["graphlab"]:
        outs = {}
        threads = [threading.Thread(target=_run_side, args=(commands[engine], todo, nice, timeout, outs, seconds,
                                                            engine))
                   for engine, todo in pending.items() if todo]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for engine, (out, err, rc) in outs.items():
            done = {}
            for line in out.splitlines():
                if line.startswith("{"):
                    rec = json.loads(line)
                    done[rec["seed"]] = rec
            results[engine].update(done)
            todo = [j for j in pending[engine] if j["seed"] not in done]
            if todo:  # the side died on todo[0]: record it and go on with the rest
                results[engine][todo[0]["seed"]] = {"seed": todo[0]["seed"], "crash": [rc, err[-2000:]]}
                todo = todo[1:]
            pending[engine] = todo
    return results, seconds


def _run_side(command, todo, nice, timeout, outs, seconds, engine):
    cmd, env = command
    if nice:
        cmd = ["nice", "-n", str(nice)] + cmd
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, cwd=REPO, text=True)
    payload = json.dumps([{"seed": j["seed"], "source": j["source"]} for j in todo])
    try:
        out, err = proc.communicate(payload, timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        err += "\n(killed after %d s)" % timeout
    seconds[engine] += time.perf_counter() - started
    outs[engine] = (out, err, proc.returncode)


# ------------------------------------------------------------------------------------------ comparing
def _close(a, b):
    if isinstance(a, str) or isinstance(b, str):  # nan / inf are written as text
        return a == b
    return abs(a - b) <= ATOL + RTOL * abs(b)


def _diff_value(ours, theirs, path):
    """The first difference between two encoded fetch results, as (path, ours, theirs), or None."""
    if isinstance(theirs, dict) and "values" in theirs and isinstance(ours, dict) and "values" in ours:
        for key in ("type", "dtype", "shape"):
            if ours.get(key) != theirs.get(key):
                return (path + "." + key, ours.get(key), theirs.get(key))
        floats = theirs["dtype"].startswith(("float", "complex", "bfloat"))
        for i, (a, b) in enumerate(zip(ours["values"], theirs["values"])):
            if (not _close(a, b)) if floats else a != b:
                return (path + ".values", ours["values"], theirs["values"])
        if len(ours["values"]) != len(theirs["values"]):
            return (path + ".values", ours["values"], theirs["values"])
        return None
    if isinstance(theirs, dict) and isinstance(ours, dict) and len(theirs) == 1 and list(ours) == list(theirs):
        kind = list(theirs)[0]
        a, b = ours[kind], theirs[kind]
        if kind == "dict":
            if [k for k, _ in a] != [k for k, _ in b]:
                return (path + ".keys", [k for k, _ in a], [k for k, _ in b])
            for (k, x), (_, y) in zip(a, b):
                d = _diff_value(x, y, "%s[%r]" % (path, k))
                if d:
                    return d
            return None
        if isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b):
                return (path + ".len", len(a), len(b))
            for i, (x, y) in enumerate(zip(a, b)):
                d = _diff_value(x, y, "%s[%d]" % (path, i))
                if d:
                    return d
            return None
    return None if ours == theirs else (path, ours, theirs)


def differences(ours, theirs):
    """Every difference between graphlab's record and TF's, in program order: (where, ours, theirs)."""
    out = []
    for side, rec in (("graphlab", ours), ("tf", theirs)):
        if "crash" in rec:
            out.append(("crash", ours.get("crash"), theirs.get("crash")))
            return out
    build_differs = ours["build_error"] != theirs["build_error"]
    if build_differs:  # the runs after the build stopped on one side only are its consequences
        out.append(("build_error", ours["build_error"], theirs["build_error"]))
    for i in [] if build_differs else range(max(len(ours["runs"]), len(theirs["runs"]))):
        a = ours["runs"][i] if i < len(ours["runs"]) else None
        b = theirs["runs"][i] if i < len(theirs["runs"]) else None
        where = "run %d" % (i + 1)
        if a is None or b is None or ("error" in a) != ("error" in b):
            out.append((where, a, b))
        elif "error" in a:
            if a["error"] != b["error"]:
                out.append((where + " error", a["error"], b["error"]))
        else:
            d = _diff_value(a["value"], b["value"], where)
            if d:
                out.append(d)
    if ours["ops"] != theirs["ops"]:
        for i, (a, b) in enumerate(zip(ours["ops"], theirs["ops"])):
            if a != b:
                out.append(("op %d" % i, a, b))
                break
        else:
            out.append(("ops", ours["ops"][len(theirs["ops"]):], theirs["ops"][len(ours["ops"]):]))
    return out


RESOURCE_OPS = {"VarHandleOp", "ReadVariableOp", "AssignVariableOp", "AssignAddVariableOp",
                "AssignSubVariableOp", "VarIsInitializedOp", "ResourceGather", "ResourceScatterUpdate",
                "ResourceScatterAdd", "ResourceScatterSub", "ResourceScatterMul", "ResourceScatterMax",
                "ResourceScatterMin", "ResourceScatterNdUpdate", "ResourceScatterNdAdd", "ResourceScatterNdSub",
                "ResourceStridedSliceAssign", "DestroyResourceOp"}


# Most severe first: the primary category of a program is the first of these among its differences.
PRIORITY = ["crash", "variable_read_time", "resource_variable_as_ref", "random_values", "values",
            "spurious_error", "tuple_with_operation", "missing_error", "queue_close_twice", "dtype_not_checked",
            "error_class", "too_many_indices_indexerror", "op_names",
            "ref_enter_name", "tuple_ref_identity", "error_message", "build_error_node_format",
            "run_error_format", "other"]


def categories(features, diffs, ours, theirs):
    """The category of each difference: what graphlab does wrong, judged from the difference and the
    program's features (the categories and their reasons are in known_divergences.CATEGORIES)."""
    feats = set(features)
    tf_types = {t for _, t in theirs.get("ops", [])}
    resource = "resource_variable" in feats and bool(tf_types & RESOURCE_OPS)
    out = []
    for where, a, b in diffs:
        out.append(_category(feats, resource, where, a, b))
    return out


def _category(feats, resource, where, a, b):
    if where == "crash":
        return "crash"
    if resource and any(w in json.dumps(b) for w in ("_UnreadVariable", "ResourceVariable", "resource")):
        return "resource_variable_as_ref"
    if where.startswith("op"):
        if resource:
            return "resource_variable_as_ref"
        if isinstance(a, list) and isinstance(b, list) and len(a) == 2 and isinstance(a[0], str):
            if b[1] == "RefEnter" and b[0].endswith("/RefEnter"):
                return "ref_enter_name"
            if a[1] == "Identity" and b[1] == "RefIdentity":
                return "tuple_ref_identity"
        return "op_names"
    error_a = a if where.endswith("error") else (a.get("error") if isinstance(a, dict) else None)
    error_b = b if where.endswith("error") else (b.get("error") if isinstance(b, dict) else None)
    if error_a or error_b:
        if not error_a:
            if "not in list of allowed values" in error_b[1]:
                return "dtype_not_checked"
            if "is already closed" in error_b[1]:
                return "queue_close_twice"
            return "missing_error"
        if "'Operation' object has no attribute 'op'" in error_a[1]:
            return "tuple_with_operation"
        if not error_b:
            return "spurious_error"
        if error_a[0] != error_b[0] and "not in list of allowed values" in error_b[1]:
            return "dtype_not_checked"  # TF stopped the build earlier, at an op graphlab let through
        if error_a[0] != error_b[0]:
            return "too_many_indices_indexerror" if error_a[0] == "IndexError" else "error_class"
        if error_b[1].startswith("Graph execution error:") and not error_a[1].startswith("Graph execution error:"):
            return "run_error_format"
        if "{{node " in error_b[1] and "{{node " not in error_a[1]:
            return "build_error_node_format"
        return "error_message"
    if where.startswith("run") or where == "build_error":
        if "resource_variable" in feats and "ref_variable" not in feats and resource:
            return "resource_variable_as_ref"
        if feats & {"assign", "scatter", "stateful_loop", "stateful_cond"} and (
                feats & {"read_under_control_deps", "stateful_loop", "stateful_cond", "tuple", "group", "read"}):
            return "variable_read_time"
        if "resource_variable" in feats:
            return "resource_variable_as_ref"
        if feats & {"random", "random_in_loop", "random_in_cond", "random_shuffle_queue"}:
            return "random_values"
        return "values"
    return "other"


def classify(features, diffs, ours, theirs):
    """The primary category of a diverging program (the most severe of its differences' categories)."""
    found = categories(features, diffs, ours, theirs)
    return min(found, key=PRIORITY.index)


def _short(value, limit=1500):
    text = json.dumps(value)
    return text if len(text) <= limit else text[:limit] + " ..."


def report(job, ours, theirs, diffs, category):
    """What a developer needs to reproduce a divergence in seconds: the program, both results, where."""
    where, a, b = diffs[0]
    lines = ["seed %d %s (category %s)" % (job["seed"], "diverges from TensorFlow" if is_divergence(category)
                                           else "is racy: TF's own answer varies and graphlab gives one of them",
                                           category),
             "reproduce: python -m tests.differential %d --show" % job["seed"],
             "features: %s" % ", ".join(job["features"]),
             "---- program ----", job["source"].rstrip(), "---- first difference: %s ----" % where,
             "graphlab:   %s" % _short(a), "tensorflow: %s" % _short(b)]
    if len(diffs) > 1:
        lines.append("(%d more differences: %s)" % (len(diffs) - 1, ", ".join(d[0] for d in diffs[1:6])))
    lines.append("categories of the differences: %s" % ", ".join(
        sorted(set(categories(job["features"], diffs, ours, theirs)))))
    lines += ["---- graphlab record ----", _short({k: ours.get(k) for k in ("build_error", "runs", "crash")}, 4000),
              "---- tensorflow record ----", _short({k: theirs.get(k) for k in ("build_error", "runs", "crash")}, 4000)]
    return "\n".join(lines)


def compare(job, ours, theirs, reruns=None):
    """(category, report) for a diverging program, None when graphlab gives what TF gives.

    With `reruns` (more TF records of the same program, see rerun_tf) a program whose TF answer varies
    between runs and whose graphlab answer is one of TF's gets the category RACY instead: not a
    divergence (is_divergence is False for it)."""
    diffs = differences(ours, theirs)
    if not diffs:
        return None
    if reruns and racy(ours, theirs, reruns):
        return RACY, report(job, ours, theirs, diffs, RACY)
    category = classify(job["features"], diffs, ours, theirs)
    return category, report(job, ours, theirs, diffs, category)


# ------------------------------------------------------------------------------------- racy programs
# A generated program may read a variable with nothing ordering the read against an update in the same
# run (a read beside an assign, not under its control dependency). TF's executor then gives either value,
# depending on which thread gets there first, and so may graphlab; such a program measures nothing about
# graphlab. A differing program is therefore run again in TF (only those, so a long run stays fast): when
# TF disagrees with itself and graphlab's answer is one of TF's, the program is racy, not a divergence.
RACY = "racy_in_tensorflow"
RERUNS = 80
# The reruns vary the executor's inter-op thread pool too (0 = TF's default size), each session with a pool
# of its own (use_per_session_threads: otherwise the first session's setting makes the process-wide pool):
# the interleavings a race takes depend on it. Measured on a 2-core machine, 10 runs each: seeds 3130 and
# 2686 never give their other answer with the default pool or 1 or 2 threads, 1-3 times with 8, 16 or 32;
# seed 4749 6 times in 40 runs, and a run of 0:10000 with 40 reruns once missed it: 80 reruns.
RERUN_THREADS = (0, 8, 16, 32)


def is_divergence(category):
    return category != RACY


def rerun_tf(batch, times=RERUNS, nice=0, timeout=900):
    """{seed: [TF records]}: each program of `batch` run `times` more times in one TF subprocess, with
    inter_op_parallelism_threads cycling through RERUN_THREADS. A rerun that crashed is left out."""
    if not batch:
        return {}
    todo = []
    for job in batch:
        for i in range(times):
            threads = RERUN_THREADS[i % len(RERUN_THREADS)]
            config = "tf.ConfigProto(inter_op_parallelism_threads=%d, use_per_session_threads=True)" % threads
            source = job["source"].replace("tf.Session()", "tf.Session(config=%s)" % config)
            todo.append({"seed": job["seed"], "source": source})
    outs, seconds = {}, {"tf": 0.0}
    _run_side(_command("tf"), todo, nice, timeout, outs, seconds, "tf")
    found = {job["seed"]: [] for job in batch}
    for line in outs["tf"][0].splitlines():
        if line.startswith("{"):
            rec = json.loads(line)
            found[rec["seed"]].append(rec)
    return found


def racy(ours, theirs, reruns):
    """Whether TF's answers to the program (theirs and the reruns) differ among themselves and graphlab's
    answer is one of them."""
    answers = [r for r in [theirs] + list(reruns) if "crash" not in r]
    distinct = []
    for rec in answers:
        if not any(not differences(rec, d) for d in distinct):
            distinct.append(rec)
    return len(distinct) > 1 and any(not differences(ours, d) for d in distinct)

