# Playboard: `make demo` runs the board on the simulated board, `make test` runs every test.
# Each target sets up what it needs (a virtual environment in .venv) on a fresh machine.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# (before the rules that name them: make reads a rule's prerequisites at once)
UF2 := build/playboard-pico.uf2
MODEL := build/micropython-board
FIRMWARE_FILES := $(shell find firmware -name '*.py' -o -name '*.json' -o -name '*.tbl')
BUILD_TOOLS := host_tools/build_image.sh host_tools/playboard_host/frozen_data.py $(wildcard host_tools/pico_board/PLAYBOARD_PICO/*)

.PHONY: setup test bench demo sim clean frozen uf2 model

PICO := host_tools/playboard_host/pico
PICO_STAMP := $(PICO)/node_modules/.installed

setup: $(STAMP) $(PICO_STAMP) $(MODEL)

$(STAMP): requirements-dev.txt requirements-nodeps.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -r requirements-dev.txt
	$(PY) -m pip install -q --disable-pip-version-check --no-deps -r requirements-nodeps.txt
	$(PY) -m pip install -q --disable-pip-version-check --no-deps -e .
	touch $(STAMP)

# rp2040js (npm, pinned by package-lock.json) for the virtual Pico (docs/pico.md);
# without Node/npm its tests skip with a message.
$(PICO_STAMP): $(PICO)/package.json $(PICO)/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
	  npm ci --prefix $(PICO) --no-audit --no-fund --silent && touch $@ \
	  || echo "warning: npm ci failed; the virtual Pico tests will skip"; \
	else echo "warning: npm not found; the virtual Pico tests will skip"; fi

# (the slowest 25 tests listed at the end: CI's log shows where the time goes)
test: setup $(UF2)
	$(PY) -m pytest -q --durations=25

bench: setup
	$(PY) -m playboard_host.bench

demo: setup
	$(VENV)/bin/playboard demo

sim: setup
	$(VENV)/bin/playboard sim

# MicroPython v1.28.0 with the firmware frozen in (host_tools/build_image.sh; docs/build.md):
# the RPI_PICO image (`make uf2`: flashing this one file is the whole install) and the
# simulator's model of that board (the unix port built 32-bit, with the chip's heap; every
# simulated board, test and bench runs it). Both from ../shared/rp2's source kit, or from
# MICROPYTHON=/path/to/a v1.28.0 checkout; rebuilt (only what changed) when the firmware does.

# (without ../shared's source kit or MICROPYTHON: a warning, and what needs them skips)
$(UF2): $(FIRMWARE_FILES) $(BUILD_TOOLS)
	@host_tools/build_image.sh uf2 || { test $$? = 3 && echo "warning: no $(UF2): the frozen-image tests will skip"; }

$(MODEL): $(FIRMWARE_FILES) $(BUILD_TOOLS)
	@host_tools/build_image.sh model || { test $$? = 3 && echo "warning: no $(MODEL): the simulated board's tests will skip"; }

uf2: $(UF2)

model: $(MODEL)

frozen: uf2  # (the old name)

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
