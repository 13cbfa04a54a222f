"""Run generated TF1 programs under one engine and print one JSON record per program.

Self-contained on purpose: the reference TensorFlow runs this file in its own Python with graphlab kept
off the path, and graphlab runs the very same file, so both sides record results the same way.

    python runner.py tf|graphlab < jobs.json      (jobs: [{"seed": n, "source": "..."}, ...])

A program is TF1 source that builds a graph and calls ``run(sess, fetches, feed_dict=None)`` (given by
this file) for each ``sess.run`` whose outcome is recorded. Each record holds the error that stopped the
build (if any), every run's fetched values or error, and the op names and types of the graph.
"""
import json
import os
import re
import signal
import sys
import time

PROGRAM_TIMEOUT = 20  # seconds; a program that blocks (a queue waiting forever) is recorded as a hang


class ProgramTimeout(Exception):
    pass


def _on_alarm(signum, frame):
    raise ProgramTimeout("program still running after %d s" % PROGRAM_TIMEOUT)


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
# TF 2.21's run-time messages list the Python frames where the failing node was defined ("Detected at node
# 'add' defined at (most recent call last):" then '    File "...", line N, in f' lines): TF gives the whole
# stack, which here is this runner's, graphlab the user's line. The frames are dropped; the rest (which
# node, its text, the [[{{node add}}]] tag) is compared exactly.
_FRAME = re.compile(r'^ +File "[^"]*", line \d+, in .*\n', re.M)


# A queue made without shared_name is named '_N_fifo_queue' with N from a counter of TF's process, so in a
# batch N depends on the programs run before; N is compared as 'N' (one queue per program).
_RESOURCE_COUNTER = re.compile(r"'_\d+_(\w+)'")


def describe(err, tf):
    """[class name, message]: an OpError's message (what e.message holds), str() of any other error."""
    msg = err.message if isinstance(err, tf.errors.OpError) else str(err)
    msg = _RESOURCE_COUNTER.sub(r"'_N_\1'", _FRAME.sub("", _ADDRESS.sub(" at 0x?", msg)))
    return [type(err).__name__, msg]


def encode(value, np):
    """A fetched structure as JSON: containers keep their kind, arrays give dtype, shape, values and the
    Python type sess.run returned (numpy scalar or ndarray)."""
    if value is None:
        return None
    if isinstance(value, dict):
        return {"dict": [[str(k), encode(v, np)] for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))]}
    if isinstance(value, tuple):
        return {type(value).__name__ if hasattr(value, "_fields") else "tuple": [encode(v, np) for v in value]}
    if isinstance(value, list):
        return {"list": [encode(v, np) for v in value]}
    if isinstance(value, (np.ndarray, np.generic, bytes, int, float, bool)):
        arr = np.asarray(value)
        if arr.dtype.kind in "OSU":
            flat = [e.decode("utf-8", "replace") if isinstance(e, bytes) else str(e) for e in arr.reshape(-1)]
        elif arr.dtype.kind in "fc":
            flat = [float(e) if np.isfinite(e) else str(float(e)) for e in arr.astype(np.float64).reshape(-1)]
        else:
            flat = arr.reshape(-1).tolist()
        return {"type": type(value).__name__, "dtype": arr.dtype.name, "shape": list(arr.shape), "values": flat}
    return {"type": type(value).__name__, "repr": _ADDRESS.sub(" at 0x?", repr(value))}


def run_program(tf, np, source):
    runs = []

    def run(sess, fetches, feed_dict=None):
        try:
            runs.append({"value": encode(sess.run(fetches, feed_dict=feed_dict), np)})
        except ProgramTimeout:
            raise
        except Exception as e:  # the error a user sees is the result
            runs.append({"error": describe(e, tf)})

    graph = tf.Graph()
    scope = {"tf": tf, "np": np, "run": run}
    build_error = None
    signal.alarm(PROGRAM_TIMEOUT)
    try:
        with graph.as_default():
            try:
                exec(compile(source, "<program>", "exec"), scope)
            except ProgramTimeout as e:
                build_error = ["ProgramTimeout", str(e)]
            except Exception as e:
                build_error = describe(e, tf)
    finally:
        signal.alarm(0)
    ops = [[op.name, op.type] for op in graph.get_operations()]
    sess = scope.get("sess")
    if sess is not None and hasattr(sess, "close"):
        try:
            sess.close()
        except Exception:
            pass
    return {"build_error": build_error, "runs": runs, "ops": ops}


def main():
    engine = sys.argv[1]
    out = sys.stdout
    sys.stdout = sys.stderr  # whatever a program prints must not mix with the records
    signal.signal(signal.SIGALRM, _on_alarm)
    if engine == "tf":
        import tensorflow.compat.v1 as tf
        tf.disable_v2_behavior()
    else:
        import graphlab as tf
    import numpy as np
    jobs = json.load(sys.stdin)
    for job in jobs:
        start = time.perf_counter()
        record = run_program(tf, np, job["source"])
        record["seed"] = job["seed"]
        record["seconds"] = time.perf_counter() - start
        out.write(json.dumps(record) + "\n")
        out.flush()
    os._exit(0)  # TF can crash tearing down sessions; every record is written by now


if __name__ == "__main__":
    main()
