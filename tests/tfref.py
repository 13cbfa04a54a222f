"""Run real TensorFlow in a subprocess, as the reference our files and behaviour are compared with.

TensorFlow lives in its own venv. Comparison scripts keep graphlab out of TF's process (PYTHONPATH
dropped), so each side answers alone; run_tf_with_graphlab() puts this tree on the path for the tests of
the two living side by side (graphlab's protos sit in a descriptor pool of their own). Which Python: $GRAPHLAB_TF_PYTHON, else <repo>/.tfvenv/bin/python. Tests that
need it call run_tf() (or require_tf()). When no TF Python is found they FAIL, saying how to get one:
scripts/setup.sh installs the pinned reference, so a missing TF is a broken set-up. Only a user who sets
GRAPHLAB_NO_TF=1 on purpose gets skips instead (the pytest summary then counts them, tests/conftest.py).
"""

import json
import os
import subprocess
import sys
import textwrap

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_checked = {}


def tf_python():
    """Path of a Python that can import tensorflow, or None."""
    candidates = [os.environ.get("GRAPHLAB_TF_PYTHON"), os.path.join(REPO, ".tfvenv", "bin", "python")]
    for exe in candidates:
        if not exe or not os.path.exists(exe):
            continue
        if exe not in _checked:
            probe = subprocess.run([exe, "-c", "import tensorflow"], capture_output=True, env=_env(),
                                   timeout=300)
            _checked[exe] = probe.returncode == 0
        if _checked[exe]:
            return exe
    return None


def _env():
    # TF_ENABLE_ONEDNN_OPTS=0: the reference is TF's own CPU kernels on every machine. TF swaps in oneDNN
    # kernels on processors with AVX-512 VNNI/BF16, and those skip some of its argument checks (a depthwise
    # backprop with mismatched rows gives AbortedError "could not create a primitive descriptor", or a
    # segfault, instead of TF's InvalidArgumentError) and round differently.
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", CUDA_VISIBLE_DEVICES="", TF_USE_LEGACY_KERAS="1",
               TF_ENABLE_ONEDNN_OPTS="0")
    env.pop("PYTHONPATH", None)  # keep graphlab out of the TF process
    return env


NO_TF_REASON = "GRAPHLAB_NO_TF=1: the reference TensorFlow is not used"


def require_tf():
    """The path of the reference TF's Python; without one, skip only under GRAPHLAB_NO_TF=1, else fail."""
    if os.environ.get("GRAPHLAB_NO_TF") == "1":
        pytest.skip(NO_TF_REASON)
    exe = tf_python()
    if exe is None:
        pytest.fail("the reference TensorFlow is not available: run `make setup` (it installs tensorflow-cpu "
                    "into .tfvenv) or set GRAPHLAB_TF_PYTHON to a Python that imports tensorflow; set "
                    "GRAPHLAB_NO_TF=1 to run without the comparisons on purpose", pytrace=False)
    return exe


PRELUDE = """
import json, sys, os
import numpy as np
import tensorflow.compat.v1 as tf
tf.disable_v2_behavior()
"""


def run_tf(script, *args, timeout=600):
    """Run `script` (TF1 prelude added; sys.argv[1:] = args) under TF; return its stdout."""
    exe = require_tf()
    code = PRELUDE + textwrap.dedent(script)
    proc = subprocess.run([exe, "-c", code] + [str(a) for a in args], capture_output=True, text=True,
                          env=_env(), timeout=timeout, cwd=REPO)
    if proc.returncode != 0:
        raise AssertionError("TensorFlow reference script failed (exit %d):\n%s"
                             % (proc.returncode, proc.stderr[-4000:]))
    return proc.stdout


def tf_env_with_graphlab():
    """The TF subprocess's environment with this tree's graphlab and extension importable."""
    return dict(_env(), PYTHONPATH=os.pathsep.join([REPO, os.path.join(REPO, "extension")]))


def run_tf_with_graphlab(script, *args, timeout=600):
    """Run `script` as is (no prelude) under TF's Python with graphlab importable; return its stdout."""
    exe = require_tf()
    proc = subprocess.run([exe, "-c", textwrap.dedent(script)] + [str(a) for a in args], capture_output=True,
                          text=True, env=tf_env_with_graphlab(), timeout=timeout, cwd=REPO)
    if proc.returncode != 0:
        raise AssertionError("script under TensorFlow with graphlab failed (exit %d):\n%s"
                             % (proc.returncode, proc.stderr[-4000:]))
    return proc.stdout


def run_tf_json(script, *args, timeout=600):
    """run_tf() for a script whose last stdout line is JSON."""
    out = run_tf(script, *args, timeout=timeout)
    return json.loads(out.strip().splitlines()[-1])


if __name__ == "__main__":
    print(tf_python() or "no TensorFlow python found", file=sys.stderr)
