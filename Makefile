# Hexslinger: the two commands that work on a fresh clone are `make play` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-test
PLAY_STAMP := $(VENV)/.installed
MAP ?=
VIEW_MAP ?= maps/frontier_town.tmx
# make fuzz: how long (seconds), which seed, which targets (save, map, settings, command)
FUZZ_SECONDS ?= 1200
FUZZ_SEED ?= 1
FUZZ_TARGETS ?= save,map,settings,command
# make soak: how many complete games, which seed, how many worker processes
SOAK_GAMES ?= 10000
SOAK_SEED ?= 1
SOAK_WORKERS ?= 2
PAIRS ?= 200
WORKERS ?= 2

.PHONY: play test wheel-smoke lint lint-imports typecheck bench bench-ai soak fuzz screenshots clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# One install with the test extras serves both commands; reinstalled whenever pyproject.toml changes.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

$(PLAY_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $(PLAY_STAMP)

play: $(PLAY_STAMP)
	@$(BIN)/hexslinger play $(MAP) || [ $$? -eq 3 ]

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy game ai tools
	$(MAKE) --no-print-directory lint-imports
	$(BIN)/python -m pytest -q --benchmark-disable -n 2
	$(MAKE) --no-print-directory wheel-smoke

# The installed game, not the checkout: build the wheel, install it into a fresh venv outside the
# checkout and run its `hexslinger` from another directory (tools/wheel_smoke.sh; about 30 s).
wheel-smoke: $(STAMP)
	PYTHON=$(PYTHON) BUILD_PYTHON=$(BIN)/python tools/wheel_smoke.sh

# A long seeded fuzz run (tests/fuzz, docs/RELIABILITY.md): one worker process, failures kept in .fuzz/.
fuzz: $(STAMP)
	$(BIN)/python -m tests.fuzz --seconds $(FUZZ_SECONDS) --seed $(FUZZ_SEED) --targets $(FUZZ_TARGETS) --work .fuzz

# Complete games on every shipped map for every ruleset, checked after every command (tests/soak.py,
# docs/RELIABILITY.md); failing games kept in .soak/ with a one-line repro. 10,000 games: about 40 minutes.
soak: $(STAMP)
	$(BIN)/python -m tests.soak --games $(SOAK_GAMES) --seed $(SOAK_SEED) --workers $(SOAK_WORKERS) --work .soak

# The layers and the other import contracts in pyproject.toml [tool.importlinter] (docs/ARCHITECTURE.md).
lint-imports: $(STAMP)
	$(BIN)/lint-imports --no-cache

typecheck: $(STAMP)
	$(BIN)/mypy game ai tools

bench: $(STAMP)
	mkdir -p .benchmarks
	$(BIN)/python -m pytest -q tests/bench --benchmark-only --benchmark-columns=min,median,mean,max,rounds \
		--benchmark-json=.benchmarks/latest.json --benchmark-save-data
	$(BIN)/python -m tools.bench_report .benchmarks/latest.json

# How well and how fast the AI plays (issue 12): side-swapped seed pairs per ruleset, map and opponent with
# Wilson 95% intervals, decision time over the recorded positions, throughput; tables into docs/AI.md.
# PAIRS=200 is the issue's measure (hours on two cores); PAIRS=10 or 20 for a quick look.
bench-ai: $(STAMP)
	$(BIN)/python -m tools.bench_ai --pairs $(PAIRS) --workers $(WORKERS)

screenshots: $(STAMP)
	SDL_VIDEODRIVER=dummy $(BIN)/hexslinger play $(VIEW_MAP) --frames 30 --mouse 520,330 --screenshot docs/images/battlefield.png
	SDL_VIDEODRIVER=dummy $(BIN)/hexslinger play --size 1280x720 --frames 10 --mouse 640,336 --screenshot docs/images/title.png
	SDL_VIDEODRIVER=dummy $(BIN)/hexslinger play --screen settings --size 1280x720 --frames 10 --screenshot docs/images/settings.png
	SDL_VIDEODRIVER=dummy $(BIN)/hexslinger play --screen posse --ruleset rift --size 1280x720 --frames 40 --mouse 682,403 --screenshot docs/images/posse_builder.png
	SDL_VIDEODRIVER=dummy $(BIN)/hexslinger play --screen newbattle --size 1280x720 --frames 10 --mouse 640,700 --screenshot docs/images/newbattle.png
	SDL_VIDEODRIVER=dummy $(BIN)/hexslinger play --screen pause --ruleset rift --size 1280x720 --frames 10 --mouse 640,700 --screenshot docs/images/pause.png
	SDL_VIDEODRIVER=dummy $(BIN)/hexslinger play --screen results --ruleset frontier --size 1280x720 --frames 10 --mouse 640,700 --screenshot docs/images/results.png
	SDL_VIDEODRIVER=dummy $(BIN)/python -m tools.battle_shot docs/images/battle.png
	SDL_VIDEODRIVER=dummy $(BIN)/python -m tools.battle_shot docs/images/battle_assign.png --decision assign
	SDL_VIDEODRIVER=dummy $(BIN)/python -m tools.battle_shot docs/images/battle_joker.png --ruleset frontier --decision prompt
	SDL_VIDEODRIVER=dummy $(BIN)/python -m tools.battle_shot docs/images/solo.png --ruleset frontier --decision ai

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis .benchmarks .fuzz .soak build dist *.egg-info
