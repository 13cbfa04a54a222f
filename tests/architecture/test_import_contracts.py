"""The engine's layers hold: `lint-imports` (import-linter, contracts in pyproject.toml) keeps every contract,
counting imports inside functions, and an upward import added anywhere in the core breaks it."""
import os
import shutil
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LINT_IMPORTS = os.path.join(os.path.dirname(sys.executable), "lint-imports")


def _lint_imports(root):
    if not os.path.exists(LINT_IMPORTS):
        pytest.fail("lint-imports is missing: run `make setup` (import-linter is in the dev extra)", pytrace=False)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, os.path.join(root, "extension")]))
    return subprocess.run([LINT_IMPORTS, "--no-cache"], cwd=root, env=env, capture_output=True, text=True,
                          timeout=300)


def test_every_contract_is_kept():
    result = _lint_imports(REPO)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout
    for contract in ("Every layer imports only from the layers below it",
                     "The engine core in one direction: ops > runtime > framework > formats",
                     "The engine core imports nothing built on top of it"):
        assert contract + " KEPT" in result.stdout


@pytest.mark.parametrize("module, upward", [
    ("graphlab/framework/tensor_shape.py", "from graphlab.runtime import session"),
    ("graphlab/formats/crc32c.py", "from graphlab.framework import graph"),
    ("graphlab/runtime/pruning.py", "from graphlab.train import saver"),
    ("graphlab/ops/array_ops.py", "from graphlab import gradients"),
])
def test_an_upward_import_inside_a_function_breaks_the_contract(tmp_path, module, upward):
    copy = tmp_path / "repo"
    copy.mkdir()
    shutil.copy(os.path.join(REPO, "pyproject.toml"), copy / "pyproject.toml")
    ignore = shutil.ignore_patterns("__pycache__", "*.so")
    shutil.copytree(os.path.join(REPO, "graphlab"), copy / "graphlab", ignore=ignore)
    shutil.copytree(os.path.join(REPO, "extension"), copy / "extension", ignore=ignore)
    with open(copy / module, "a") as f:
        f.write("\n\ndef _reaches_up():\n    %s  # noqa: F401\n" % upward)
    result = _lint_imports(str(copy))
    assert result.returncode != 0
    assert "BROKEN" in result.stdout
    assert module[:-3].replace("/", ".") in result.stdout     # the report names the importing module
