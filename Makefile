# The project's one test command, `make test`: every side of the repository.
#   go       go test ./... (the Go-only subset, enough for a user of Go alone;
#            its browser tests, package e2e, drive Debian's /usr/bin/chromium:
#            apt-get install chromium)
#   python   a virtual environment .venv/ with the pinned versions of
#            python/pyproject.toml from the package registry, the package
#            python/ installed in it, mypy --strict on it, anynt built into
#            bin/ (ANYNT_BIN), pytest
#   make test-examples (not part of test): python/examples/ for real in
#            .venv-examples/ with stable-baselines3 and torch (about 5 GB)
# Needs go, python3 with its venv module (Debian: python3-venv) and the
# network to reach the package registry the first time.

PYTHON ?= python3
VENV   := .venv
EXAMPLES_VENV := .venv-examples
BIN    := bin/anynt

.PHONY: test test-go test-python test-examples venv clean

test: test-go test-python

test-go:
	go test ./...

$(BIN): FORCE
	go build -o $(BIN) ./cmd/anynt

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --upgrade pip

venv: $(VENV)/bin/python
	$(VENV)/bin/python -m pip install -q './python[test]'

test-python: $(BIN) venv
	$(VENV)/bin/python -m mypy --strict python/src/anynt python/examples
	cd python && ANYNT_BIN=$(CURDIR)/$(BIN) ../$(VENV)/bin/python -m pytest -q tests

# Not part of test (nor of CI): the examples of python/examples/ in a venv of
# their own with stable-baselines3 and torch (python/pyproject.toml's extra
# "examples"; about 5 GB), every test of them, the slow ones included (a
# small budget: seconds). make test checks the same examples' arguments only.
$(EXAMPLES_VENV)/bin/python:
	$(PYTHON) -m venv $(EXAMPLES_VENV)
	$(EXAMPLES_VENV)/bin/python -m pip install -q --upgrade pip

test-examples: $(BIN) $(EXAMPLES_VENV)/bin/python
	$(EXAMPLES_VENV)/bin/python -m pip install -q './python[test,examples]'
	$(EXAMPLES_VENV)/bin/python -m mypy --strict python/examples
	cd python && ANYNT_BIN=$(CURDIR)/$(BIN) ../$(EXAMPLES_VENV)/bin/python -m pytest -q -m 'slow or not slow' tests/test_examples.py

clean:
	rm -rf $(VENV) $(EXAMPLES_VENV) bin .mypy_cache python/build python/src/anynt.egg-info python/.pytest_cache

FORCE:
