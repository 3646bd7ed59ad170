PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip uv
	$(BIN)/uv pip install -q --python $(BIN)/python -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/userlore demo

test: $(STAMP)
	$(BIN)/ruff check src tests cookbook benchmarks graphs
	$(BIN)/mypy src
	$(BIN)/pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests cookbook benchmarks graphs
	$(BIN)/ruff format --check src tests cookbook benchmarks graphs

typecheck: $(STAMP)
	$(BIN)/mypy src

bench: $(STAMP)
	$(BIN)/python benchmarks/plan_latency.py
	$(BIN)/python benchmarks/sensitivity.py --data tests/data/sensitivity_cases.jsonl

clean:
	rm -rf $(VENV)
