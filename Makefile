# Playboard: `make demo` runs the board on the simulated board, `make test` runs every test.
# Each target sets up what it needs (a virtual environment in .venv) on a fresh machine.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup test bench demo sim clean

setup: $(STAMP)

$(STAMP): requirements-dev.txt requirements-nodeps.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -r requirements-dev.txt
	$(PY) -m pip install -q --disable-pip-version-check --no-deps -r requirements-nodeps.txt
	$(PY) -m pip install -q --disable-pip-version-check --no-deps -e .
	touch $(STAMP)

test: setup
	$(PY) -m pytest -q

bench: setup
	$(PY) -m playboard_host.bench

demo: setup
	$(VENV)/bin/playboard demo

sim: setup
	$(VENV)/bin/playboard sim

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
