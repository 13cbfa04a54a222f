#!/usr/bin/env bash
# Idempotent set-up for a fresh machine: .venv with graphlab installed editable plus the
# jupyter and dev extras, and the Debian programs the project uses (graphviz's `dot`,
# chromium for the browser test). Safe to run again: each step is skipped when done.
set -euo pipefail
cd "$(dirname "$0")/.."
PWD_ROOT="$(pwd)"

PYTHON="${PYTHON:-python3}"
VENV=.venv
STAMP="$VENV/.installed"
export DEBIAN_FRONTEND=noninteractive
export PIP_DISABLE_PIP_VERSION_CHECK=1

say() { printf 'setup: %s\n' "$*"; }

# --- Debian packages ---------------------------------------------------------------
apt_updated=0
apt_install() {  # apt_install PACKAGE WHY
    local pkg="$1" why="$2"
    if [ "$(id -u)" -ne 0 ]; then
        say "$why is missing and this is not root: run 'sudo apt-get install $pkg' (continuing without it)"
        return 0
    fi
    if ! command -v apt-get >/dev/null 2>&1; then
        say "$why is missing and apt-get is not available: install '$pkg' by hand (continuing without it)"
        return 0
    fi
    if [ "$apt_updated" -eq 0 ]; then
        say "apt-get update"
        apt-get update -qq </dev/null || say "apt-get update failed (continuing)"
        apt_updated=1
    fi
    say "apt-get install $pkg"
    apt-get install -y -qq --no-install-recommends "$pkg" </dev/null \
        || say "apt-get install $pkg failed (continuing without it)"
}

command -v dot >/dev/null 2>&1 || apt_install graphviz "graphviz's 'dot' program"
[ -x /usr/bin/chromium ] || apt_install chromium "/usr/bin/chromium (browser test)"
# A C compiler and Python's headers build graphlab/ops/_fused.c (the one-pass Adam kernel); without
# them the install still succeeds and graphlab uses its numpy form.
command -v cc >/dev/null 2>&1 || apt_install gcc "a C compiler"
"$PYTHON" -c 'import os, sysconfig; raise SystemExit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
    || apt_install python3-dev "Python's C headers"

# --- Python virtual environment -----------------------------------------------------
if [ ! -x "$VENV/bin/python" ]; then
    say "creating $VENV"
    "$PYTHON" -m venv "$VENV"
fi

install() {
    say "pip install -e '.[jupyter,dev,serve]'"
    "$VENV/bin/python" -m pip install -q -e '.[jupyter,dev,serve]'
    touch "$STAMP"
}

# Install again when the project's metadata or a C source changed since the last install, or when the
# C kernels are not built but a compiler is now there (an earlier set-up ran without one).
stale() {
    [ ! -f "$STAMP" ] && return 0
    local f
    for f in pyproject.toml graphlab/ops/*.c; do
        [ -e "$f" ] && [ "$f" -nt "$STAMP" ] && return 0
    done
    if command -v cc >/dev/null 2>&1 && ! compgen -G 'graphlab/ops/_fused*.so' >/dev/null; then
        return 0
    fi
    return 1
}

if stale; then
    install
else
    # The editable install maps each top-level package found at install time; a package
    # directory that appeared later (e.g. after a pull) needs one more install to be importable.
    missing=$(cd / && REPO_ROOT="$PWD_ROOT" "$PWD_ROOT/$VENV/bin/python" -c '
import importlib.util, os
root = os.environ["REPO_ROOT"]
wanted = {"graphlab": "graphlab", "graphlab_ipython": "extension/graphlab_ipython"}
print(" ".join(n for n, d in wanted.items()
               if os.path.isfile(os.path.join(root, d, "__init__.py"))
               and getattr(importlib.util.find_spec(n), "origin", None) in (None, "namespace")))
' 2>/dev/null || echo "(import check failed)")
    if [ -n "$missing" ]; then
        say "not importable yet: $missing"
        install
    fi
fi

# --- Real TensorFlow, the reference, in its own venv ----------------------------------
# Interoperability tests and benchmarks run it in a subprocess (tests/tfref.py); it never shares a
# process (or a venv) with graphlab. The version is pinned: the tests hold its values. tensorboard: its event
# reader checks that TensorBoard reads our event files (tests/test_tensorboard.py). tf-keras serves
# tf.compat.v1.layers and tf.nn.rnn_cell in TF 2.21 (with TF_USE_LEGACY_KERAS=1, set by tests/tfref.py).
# tensorboard: its own event reader checks that TensorBoard reads graphlab's event files (test_tensorboard.py).
# h5py, which tf-keras writes and reads .h5 files with (the HDF5 saving tests), comes with tensorflow-cpu itself.
# GRAPHLAB_NO_TF=1 skips this step on purpose (the tests that need TF then skip, and the pytest summary
# counts them); otherwise a failed install stops the set-up, and without TF those tests fail, so
# `make test` cannot pass by skipping them.
TFVENV=.tfvenv
TF_PINS="tensorflow-cpu==2.21.0 tf-keras==2.21.0 tensorboard==2.21.0"
if [ "${GRAPHLAB_NO_TF:-}" != 1 ] && [ -z "${GRAPHLAB_TF_PYTHON:-}" ] \
        && ! cmp -s <(echo "$TF_PINS") "$TFVENV/.installed" 2>/dev/null; then
    say "installing $TF_PINS into $TFVENV (the reference for interop tests; a few minutes, once)"
    [ -x "$TFVENV/bin/python" ] || "$PYTHON" -m venv "$TFVENV"
    # shellcheck disable=SC2086
    if ! "$TFVENV/bin/python" -m pip install -q $TF_PINS; then
        say "could not install $TF_PINS into $TFVENV."
        say "The interoperability tests need it; set GRAPHLAB_NO_TF=1 to run without them on purpose."
        exit 1
    fi
    echo "$TF_PINS" > "$TFVENV/.installed"
fi

# --- graphlab on real TensorFlow: a notebook kernel "Python (TensorFlow)" ---------------------------------
# The reference venv also gets graphlab[jupyter] (editable, from this tree) and a kernelspec that .venv's
# JupyterLab lists, so `%load_ext graphlab` runs on real TF (tests/tfgraphs, lesson 10). graphlab's protos
# live in a descriptor pool of their own, so both import in one process. numpy and protobuf stay at the
# versions TF installed (a constraint), so this never moves the reference's own dependencies.
TF_KERNEL=python-tf
TF_KERNEL_STAMP="$TFVENV/.graphlab-installed"
if [ "${GRAPHLAB_NO_TF:-}" != 1 ] && [ -z "${GRAPHLAB_TF_PYTHON:-}" ] && [ -x "$TFVENV/bin/python" ] \
        && { [ ! -f "$TF_KERNEL_STAMP" ] || [ pyproject.toml -nt "$TF_KERNEL_STAMP" ] \
             || [ "$(cat "$TF_KERNEL_STAMP")" != "$PWD_ROOT" ] \
             || [ ! -f "$VENV/share/jupyter/kernels/$TF_KERNEL/kernel.json" ]; }; then
    say "installing graphlab[jupyter] into $TFVENV and the kernel 'Python (TensorFlow)'"
    pins="$(mktemp)"
    "$TFVENV/bin/python" -m pip freeze 2>/dev/null | grep -iE '^(numpy|protobuf)==' > "$pins" || true
    if "$TFVENV/bin/python" -m pip install -q -c "$pins" -e '.[jupyter]' \
            && "$TFVENV/bin/python" -m ipykernel install --prefix "$PWD_ROOT/$VENV" --name "$TF_KERNEL" \
                --display-name "Python (TensorFlow)" --env TF_USE_LEGACY_KERAS 1 --env TF_CPP_MIN_LOG_LEVEL 2 \
                >/dev/null; then
        echo "$PWD_ROOT" > "$TF_KERNEL_STAMP"
    else
        say "could not install graphlab into $TFVENV: the 'Python (TensorFlow)' kernel is missing (its tests fail)"
    fi
    rm -f "$pins"
fi
