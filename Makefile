# Hexslinger: the two commands that work on a fresh clone are `make play` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-test
PLAY_STAMP := $(VENV)/.installed
MAP ?= maps/frontier_town.tmx

.PHONY: play test lint typecheck bench soak screenshots clean

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
	$(BIN)/python -m pytest -q --benchmark-disable

typecheck: $(STAMP)
	$(BIN)/mypy game ai tools

bench: $(STAMP)
	mkdir -p .benchmarks
	$(BIN)/python -m pytest -q tests/bench --benchmark-only --benchmark-columns=min,median,mean,max,rounds \
		--benchmark-json=.benchmarks/latest.json --benchmark-save-data
	$(BIN)/python -m tools.bench_report .benchmarks/latest.json

screenshots: $(STAMP)
	SDL_VIDEODRIVER=dummy $(BIN)/hexslinger play $(MAP) --frames 30 --mouse 520,330 --screenshot docs/images/battlefield.png

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis .benchmarks
