# Playboard: `make demo` runs the board on the simulated board, `make test` runs every test.
# Each target sets up what it needs (a virtual environment in .venv) on a fresh machine.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup test bench demo sim clean frozen

PICO := host_tools/playboard_host/pico
PICO_STAMP := $(PICO)/node_modules/.installed

setup: $(STAMP) $(PICO_STAMP)

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

test: setup
	$(PY) -m pytest -q

bench: setup
	$(PY) -m playboard_host.bench

demo: setup
	$(VENV)/bin/playboard demo

sim: setup
	$(VENV)/bin/playboard sim

# A MicroPython RPI_PICO image with the firmware frozen in (README, "Frozen build";
# docs/pico.md): needs a micropython checkout with its submodules and the Arm
# toolchain, so CI never builds it. Measured by `PICO_FROZEN_UF2=build/firmware-frozen.uf2
# .venv/bin/python -m playboard_host.bench py_pico` (bench/py_pico.py).
#   make frozen MICROPYTHON=/path/to/micropython [PICOTOOL_REPO=/path/to/picotool] [PATCH_MPY_TOOL=1]
FROZEN_UF2 ?= build/firmware-frozen.uf2
frozen:
	@test -n "$(MICROPYTHON)" || { echo "usage: make frozen MICROPYTHON=/path/to/micropython [PICOTOOL_REPO=...]"; false; }
	PICOTOOL_REPO="$(PICOTOOL_REPO)" PATCH_MPY_TOOL="$(PATCH_MPY_TOOL)" host_tools/build_frozen.sh "$(MICROPYTHON)" "$(FROZEN_UF2)"

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
