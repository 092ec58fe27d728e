# The project's one test command, `make test`: every side of the repository.
#   go       go test ./... (the Go-only subset, enough for a user of Go alone;
#            its browser tests, package e2e, drive Debian's /usr/bin/chromium:
#            apt-get install chromium; without it they skip, and with
#            ANYNT_E2E=1, as .ci/run sets, they fail)
#   python   a virtual environment .venv/ with the locked versions of
#            python/requirements-lock.txt from the package registry, the
#            package python/ installed in it, mypy --strict on it, anynt
#            built into bin/ (ANYNT_BIN), pytest
#   wheel    the platform wheel that carries anynt (make wheel), installed
#            alone in a fresh virtual environment .venv-wheel/ without go,
#            anynt or ANYNT_BIN, where every registered id passes check_env
#   make test-python-bounds (not part of test; CI runs it): python/tests at
#            the lowest and the newest versions python/pyproject.toml's
#            ranges allow (scripts/python-bounds)
#   make test-examples (not part of test): python/examples/ for real in
#            .venv-examples/ with stable-baselines3 and torch (about 5 GB)
# Needs go, python3 with its venv module (Debian: python3-venv) and the
# network to reach the package registry the first time.

PYTHON ?= python3
VENV   := .venv
EXAMPLES_VENV := .venv-examples
BIN    := bin/anynt
# The repository's exact versions, as pip constraints; pyproject.toml has ranges.
LOCK   := python/requirements-lock.txt

# The platform wheel (make wheel): anynt built static for WHEEL_GOOS/
# WHEEL_GOARCH (default: this machine's; any pair of python/setup.py's
# PLATFORMS cross-compiles), in dist/. Release is the version the binary
# reports (internal/version), which make test-wheel expects from it.
WHEEL_GOOS   ?= $(shell go env GOOS)
WHEEL_GOARCH ?= $(shell go env GOARCH)
WHEEL_BIN    := bin/wheel/$(WHEEL_GOOS)_$(WHEEL_GOARCH)/anynt$(if $(filter windows,$(WHEEL_GOOS)),.exe)
WHEEL_VENV   := .venv-wheel
DIST         := dist
RELEASE       = $(shell sed -n 's/^const Release = "\(.*\)"/\1/p' internal/version/version.go)

.PHONY: test test-go test-python test-python-bounds test-wheel wheel test-examples test-editors venv clean

test: test-go test-python test-wheel

test-go:
	go test ./...

$(BIN): FORCE
	go build -o $(BIN) ./cmd/anynt

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --upgrade pip

venv: $(VENV)/bin/python
	$(VENV)/bin/python -m pip install -q -c $(LOCK) './python[test]'

test-python: $(BIN) venv
	$(VENV)/bin/python -m mypy --strict python/src/anynt python/examples python/bench
	cd python && ANYNT_BIN=$(CURDIR)/$(BIN) ../$(VENV)/bin/python -m pytest -q tests

test-python-bounds:
	PYTHON=$(PYTHON) scripts/python-bounds

# CGO_ENABLED=0: a static program, which runs on any Linux of the wheel's
# tags whatever its C library; -trimpath: no paths of this machine in it;
# -buildvcs=auto: the version names the commit where git can tell it (as
# `go build` does by default), whatever GOFLAGS says; -ldflags=-s -w: no
# symbol table or DWARF (a third of the size; a panic's trace keeps its
# function names and lines).
wheel: $(VENV)/bin/python
	CGO_ENABLED=0 GOOS=$(WHEEL_GOOS) GOARCH=$(WHEEL_GOARCH) go build -trimpath -buildvcs=auto -ldflags='-s -w' -o $(WHEEL_BIN) ./cmd/anynt
	rm -rf python/build
	ANYNT_WHEEL_BINARY=$(CURDIR)/$(WHEEL_BIN) ANYNT_WHEEL_GOOS=$(WHEEL_GOOS) ANYNT_WHEEL_GOARCH=$(WHEEL_GOARCH) \
		$(VENV)/bin/python -m pip wheel -q --no-deps -w python/build/dist ./python
	mkdir -p $(DIST)
	mv python/build/dist/*.whl $(DIST)/
	rm -rf python/build
	@ls -t $(DIST)/anynt-*.whl | head -n 1

# The wheel alone, in a virtual environment made anew, with a PATH of the
# environment's bin/ only (no go, no anynt but the wheel's console script;
# /usr/bin may hold Debian's go) and no ANYNT_BIN: python/tests/wheel_check.py.
test-wheel: wheel
	rm -rf $(WHEEL_VENV)
	$(PYTHON) -m venv $(WHEEL_VENV)
	$(WHEEL_VENV)/bin/python -m pip install -q -c $(LOCK) "$$(ls -t $(DIST)/anynt-*.whl | head -n 1)"
	env -u ANYNT_BIN PATH=$(CURDIR)/$(WHEEL_VENV)/bin $(WHEEL_VENV)/bin/python python/tests/wheel_check.py --version "$(RELEASE)"

# Not part of test (nor of CI): the examples of python/examples/ in a venv of
# their own with stable-baselines3 and torch (python/pyproject.toml's extra
# "examples"; about 5 GB), every test of them, the slow ones included (a
# small budget: seconds). make test checks the same examples' arguments only.
$(EXAMPLES_VENV)/bin/python:
	$(PYTHON) -m venv $(EXAMPLES_VENV)
	$(EXAMPLES_VENV)/bin/python -m pip install -q --upgrade pip

test-examples: $(BIN) $(EXAMPLES_VENV)/bin/python
	$(EXAMPLES_VENV)/bin/python -m pip install -q -c $(LOCK) './python[test,examples]'
	$(EXAMPLES_VENV)/bin/python -m mypy --strict python/examples
	cd python && ANYNT_BIN=$(CURDIR)/$(BIN) ../$(EXAMPLES_VENV)/bin/python -m pytest -q -m 'slow or not slow' tests/test_examples.py

# Not part of test (it needs Node.js and npm; CI runs it): the TextMate
# grammar of editors/ tokenises every corpus file in VS Code's own engine,
# the pinned versions of editors/test/package-lock.json (docs/editors.md).
test-editors:
	npm ci --prefix editors/test --no-audit --no-fund
	node editors/test/tokenize.mjs

clean:
	rm -rf editors/test/node_modules
	rm -rf $(VENV) $(WHEEL_VENV) $(EXAMPLES_VENV) .venv-lowest .venv-highest bin $(DIST) .mypy_cache python/build python/src/anynt.egg-info python/.pytest_cache

FORCE:
