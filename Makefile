# Thin wrapper over CMake presets. The two quick-start commands are `make demo` and `make test`.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
PREFIX ?= /usr/local
FUZZ_SECONDS ?= 600

.PHONY: all deps build build-asan demo screenshot test lint bench fuzz fuzz-long install clean python

all: build

deps:
	@bash scripts/install-deps.sh

build: deps
	@cmake --preset default >/dev/null
	@cmake --build --preset default -j $(JOBS)

build-asan: deps
	@cmake --preset asan >/dev/null
	@cmake --build --preset asan -j $(JOBS)

# Quiet: one progress line for the build (log in build/demo-build.log), then
# the narrated run; the report stays in demo-report/index.html.
demo:
	@bash scripts/demo/build.sh $(JOBS)
	@bash scripts/demo.sh build/default/qrelkit demo-report

# doc/demo-report.png, the README's picture of the report (needs chromium).
screenshot: demo
	@bash scripts/install-deps.sh --browser
	@bash scripts/demo/screenshot.sh demo-report/index.html doc/demo-report.png

test: build build-asan
	@bash scripts/install-deps.sh --browser
	@bash scripts/run-tests.sh

# clang-tidy (.clang-tidy) and cppcheck over src/; needs only a configured build/default.
lint:
	@bash scripts/install-deps.sh --lint
	@bash scripts/lint.sh

bench: build
	@bash scripts/install-deps.sh --bench
	@bash bench/run.sh build/default/qrelkit

fuzz: deps
	@cmake --preset fuzz >/dev/null
	@cmake --build --preset fuzz -j $(JOBS)
	@bash tests/fuzz/run-fuzz.sh build/fuzz

# Every harness for FUZZ_SECONDS each, one at a time; summary in build/fuzz/fuzz-long.log,
# reproducers in build/fuzz/crashes/ (tests/fuzz/README.md).
fuzz-long: deps
	@cmake --preset fuzz >/dev/null
	@cmake --build --preset fuzz -j $(JOBS) --target fuzzers
	@bash tests/fuzz/fuzz-long.sh build/fuzz $(FUZZ_SECONDS)

# The Python binding, built in place against build/default (PYTHONPATH=python);
# `pip install --no-build-isolation ./python` installs it (doc/python.md).
PYTHON ?= $(shell test -x /usr/bin/python3 && echo /usr/bin/python3 || echo python3)
python: build
	@cd python && QRELKIT_BUILD_DIR=$(CURDIR)/build/default $(PYTHON) setup.py -q build_ext --inplace
	@echo "python: built python/qrelkit (PYTHONPATH=$(CURDIR)/python $(PYTHON) -c 'import qrelkit')"

install: build
	@cmake --install build/default --prefix $(PREFIX)

clean:
	rm -rf build
