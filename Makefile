# Two entry points for a new user: `make run` and `make test`.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test setup setup-test native lint typecheck pytest serve clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# Byte-compile the package as pip does for a regular install: an editable install otherwise
# compiles every module at each start wherever bytecode caching is off (PYTHONDONTWRITEBYTECODE).
setup: $(BIN)/python
	$(BIN)/pip install -q -e .
	$(BIN)/python -m compileall -q src/matjip > /dev/null

setup-test: $(BIN)/python
	$(BIN)/pip install -q -e ".[test]"
	$(BIN)/python -m compileall -q src/matjip > /dev/null
	-$(BIN)/python -m matjip.ingest.enrich.native

# Compile the review reader with mypyc (about 80 s, once per change of its sources): ingest of
# review text ~2x faster. Without it (no C compiler) the plain Python reader runs.
native: setup
	$(BIN)/pip install -q "mypy>=1.11"
	$(BIN)/python -m matjip.ingest.enrich.native

# Install, ingest + index the embedded demo data (idempotent), then chat in the terminal.
run: setup
	$(BIN)/matjip ingest
	$(BIN)/matjip chat

serve: setup
	$(BIN)/matjip ingest
	$(BIN)/matjip serve

lint:
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck:
	$(BIN)/mypy

pytest:
	$(BIN)/python -m pytest

# Install with test extras (+ Debian chromium for browser tests when missing), then lint, type check, test.
test: setup-test
	./scripts/ensure-browser.sh
	$(MAKE) lint typecheck pytest

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
