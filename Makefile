# graphlab: `make lab` opens the lessons in JupyterLab, `make test` runs every test.
# Both set up the machine first (scripts/setup.sh; idempotent and quick when nothing changed).

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
NOTEBOOKS := $(wildcard notebooks/*.ipynb notebooks/**/*.ipynb)
# Lessons 10 and 11 run on the reference TensorFlow's kernel: without TF on purpose (GRAPHLAB_NO_TF=1), nbval leaves them out.
ifeq ($(GRAPHLAB_NO_TF),1)
NOTEBOOKS := $(filter-out notebooks/10-% notebooks/11-%,$(NOTEBOOKS))
endif
SANITIZE  := $(wildcard notebooks/nbval_sanitize.cfg)

.PHONY: setup lab test difftest bench clean distclean

setup:
	@PYTHON=$(PYTHON) bash scripts/setup.sh

# JupyterLab refuses to start as root unless told that is intended (containers, CI machines).
lab: setup
	$(VENV)/bin/jupyter lab notebooks/ $(if $(filter 0,$(shell id -u)),--allow-root)

# One pytest run over tests/ and, when there are lessons, the notebooks through nbval,
# so there is a single summary line. pytest's own exit code is the result (5 = no tests).
# GRAPHLAB_STRICT_TESTS=1: a missing dot, Chromium, Playwright or JupyterLab fails its tests instead of
# skipping them (tests/needs.py); without the reference TensorFlow its tests fail unless GRAPHLAB_NO_TF=1.
test: setup
	GRAPHLAB_STRICT_TESTS=1 $(PY) -m pytest -p no:cacheprovider \
	    $(wildcard tests) \
	    $(if $(NOTEBOOKS),$(NOTEBOOKS) --nbval $(if $(SANITIZE),--nbval-sanitize-with $(SANITIZE)))

# The differential test over any seed range (generated TF1 programs run in graphlab and in the reference TF):
# `make difftest SEEDS=0:10000` prints the divergences by category, one full report per category.
SEEDS ?= 0:1000
difftest: setup
	$(PY) -m tests.differential $(SEEDS)

bench: setup
	@set -e; found=0; for f in bench/*.py; do \
	    [ -f "$$f" ] || continue; found=1; \
	    echo "== $$f"; $(PY) "$$f"; \
	done; [ $$found -eq 1 ] || echo "bench: no bench/*.py yet"

clean:
	rm -rf build dist *.egg-info .pytest_cache test-output bench/output
	find . -path ./$(VENV) -prune -o \( -name __pycache__ -o -name .ipynb_checkpoints \) -type d -print \
	    | xargs -r rm -rf

distclean: clean
	rm -rf $(VENV)
