# StackWeb — build, run and test on Debian. Each command installs (apt-get, pip) only what it needs.
#   make run    install the build's libraries if missing, build (release), start on the bundled demo photos
#   make test   everything CI runs: lint, Swift tests (plain and under ThreadSanitizer), page tests, fuzzing, browser tests
#               (adds the test tools: browsers, redis-server, nginx, promtool, …)
#   make deb    the Debian package (release build with the Swift runtime linked in): .build/deb/stackweb_*.deb
#   make readme-depends   the README's list of the package's dependencies, from the built package
#   make bench  the benchmarks (release build, loopback): writes BENCHMARKS.md and Benchmarks/charts/
#   make screenshots  the README's pictures, taken again (docs/screenshots/)
SHELL := /bin/bash
.DEFAULT_GOAL := build

PREFIX ?= /usr/local
PORT ?= 8080
HOST ?= 127.0.0.1
ARGS ?=
STATE ?= $(HOME)/.local/state/stackweb/state.db
PYTHON ?= python3

# Debian packages, by command (the Swift toolchain itself is installed apart, see README).
# Building and running (`make build`, `make run`): the C libraries Package.swift links, found through
# pkg-config — libmicrohttpd, GnuTLS (linked directly too: CMicroHTTPD_limitHandshake), libvips,
# SQLite, hiredis, libqrencode (the QR code a room shows guests), FFmpeg's libraries (clips: probe,
# poster, rendition).
RUN_APT_PACKAGES := pkg-config libmicrohttpd-dev libgnutls28-dev libvips-dev libsqlite3-dev libhiredis-dev libqrencode-dev \
	libavformat-dev libavcodec-dev libswscale-dev libavutil-dev
# `make deb` adds dpkg-shlibdeps (and strip).
DEB_APT_PACKAGES := dpkg-dev
# `make test` adds the test tools: the browsers and their drivers (e2e), Node (the page's module tests),
# openssl and curl (TLS tests), groff-base (the manual page's test), redis-server (a group's tests and
# the history), nginx (the proxy in front of a group), zbar-tools (zbarimg reads the QR code back),
# vips (a 16:9 photo cut for the README's TV picture), optipng (the README's pictures made
# smaller, losslessly), exiftool (writes a phone's location tags, and finds none in what is served) and
# ffmpeg (the clips the tests make: the CLI is a test tool only).
TEST_APT_PACKAGES := chromium chromium-driver firefox-esr nodejs openssl curl groff-base redis-server nginx \
	zbar-tools libvips-tools optipng libimage-exiftool-perl ffmpeg
# promtool, which checks /metrics, comes with prometheus (a 19 MB download): installed without what
# it recommends (the node exporter and other services Debian would start).
# lintian, which the package's test runs (no errors, no warnings), likewise without its recommends.
TEST_APT_PACKAGES_NO_RECOMMENDS := prometheus lintian
PIP_REQUIREMENTS := Tests/e2e/requirements.txt
# `make bench`: the load generator, the nginx it compares with, its C client's compiler, the
# profilers, Chromium for the page's frames, redis-server for a group, openssl for TLS; and from
# PyPI (Benchmarks/requirements.txt) Pillow, which makes the 24 MP photo the photos item converts.
BENCH_APT_PACKAGES := wrk nginx gcc linux-perf valgrind chromium chromium-driver redis-server openssl

SUDO := $(if $(filter 0,$(shell id -u)),,sudo)
RELEASE_BIN := .build/release/stackweb
DEBUG_BIN := .build/debug/stackweb
TSAN_PATH := .build/tsan
DEB_PATH := .build/deb
## The package's build folder: its release binary links the Swift runtime in, and its own folder lets
## `make test` build it beside the debug build (two SwiftPM builds in one folder wait for each other).
DEB_SCRATCH := .build/deb-pkg

.PHONY: deps run-deps deb-deps test-deps pip-deps build-info build release deb readme-depends run test test-swift build-tsan test-tsan \
	test-web test-e2e screenshots test-history test-nemesis test-deb fuzz-smoke build-fuzz fuzz-smoke-run fuzz lint install \
	clean bench bench-deps bench-pip-deps

## Installs only what is missing: apt-get is slow even when it has nothing to do.
## $(1): the packages; $(2): options for apt-get install.
define apt_install
	@missing=$$(for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:" $$missing; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(2) $$missing; \
	fi
endef

## Everything `make test` needs.
deps: run-deps deb-deps test-deps pip-deps

run-deps:
	$(call apt_install,$(RUN_APT_PACKAGES))

deb-deps:
	$(call apt_install,$(DEB_APT_PACKAGES))

test-deps:
	$(call apt_install,$(TEST_APT_PACKAGES))
	$(call apt_install,$(TEST_APT_PACKAGES_NO_RECOMMENDS),--no-install-recommends)

pip-deps:
	@$(PYTHON) -c "import selenium, pytest, pytest_timeout, xdist, marionette_driver" 2>/dev/null || $(PYTHON) -m pip install -q -r $(PIP_REQUIREMENTS)

## The commit the binary names (`stackweb --version`, the `stackweb_build_info` metric): a header
## written only when it changes, so that an unchanged tree rebuilds nothing (the C file is touched
## when it does: a header that appears is not in the build's dependencies yet). `swift build` alone
## builds without it, and the binary names no commit.
BUILD_INFO := Sources/CBuildInfo/commit.h
build-info:
	@commit=$$(git rev-parse --short=12 HEAD 2>/dev/null || true); \
	if [ -n "$$commit" ] && ! git diff --quiet HEAD -- 2>/dev/null; then commit=$$commit-modified; fi; \
	line="#define STACKWEB_COMMIT \"$$commit\""; \
	if [ "$$(cat $(BUILD_INFO) 2>/dev/null)" != "$$line" ]; then \
	  echo "$$line" >$(BUILD_INFO); touch Sources/CBuildInfo/BuildInfo.c; \
	fi

build: run-deps build-info
	swift build

release: run-deps build-info
	swift build -c release

## The package installs no Swift toolchain: the Swift runtime is linked into the binary.
deb: run-deps deb-deps build-info
	swift build -c release --static-swift-stdlib --product stackweb --scratch-path $(DEB_SCRATCH)
	scripts/make-deb.sh $(DEB_SCRATCH)/release/stackweb $(DEB_PATH)

## The README's list of the package's runtime dependencies, written from the built package's Depends
## (Tests/package checks that they agree).
readme-depends: deb
	scripts/deb-depends.sh $$(ls $(DEB_PATH)/stackweb_*.deb) README.md

run: release
	$(RELEASE_BIN) --host $(HOST) --port $(PORT) --state $(STATE) $(ARGS)

## Every suite below (scripts/test.sh): the suites at normal priority, one at a time but the history,
## which runs beside the package's test; the ThreadSanitizer, fuzz and package
## builds meanwhile, on the CPU the suites leave idle. TEST_KEEP_GOING=1 runs every suite whatever fails.
test: deps
	MAKE="$(MAKE)" scripts/test.sh

## A test run that hangs fails after this long, rather than holding CI to its own limit (a server
## left running by a crashed test runner keeps `swift test` waiting on its output).
TEST_TIMEOUT ?= 20m
TIMED = timeout --kill-after=30s $(TEST_TIMEOUT)

## The Swift tests as TEST_PROCESSES test processes side by side, one test at a time in each
## (scripts/swift-test-parallel.sh says why): most of them wait on real time, and a process running
## many at once let a test with a deadline (SIGTERM while the first start reads, exit within 2 s)
## miss it beside a dozen others.
TEST_PROCESSES ?= 4
test-swift:
	swift build --build-tests
	$(TIMED) scripts/swift-test-parallel.sh .build/debug/StackWebPackageTests.xctest $(TEST_PROCESSES) --no-parallel

## The server tests again, under ThreadSanitizer, in a build folder of their own.
## As test-swift, one test at a time in each process: the sanitizer slows every thread several
## times over, and the tests that wait on real time (streams, deadlines, process exits) must not
## also wait on many others. The memory bound and the process-exit deadlines are the plain run's: an instrumented
## binary is several times slower and its shadow memory is not the server's.
build-tsan:
	swift build --build-tests --sanitize=thread --scratch-path $(TSAN_PATH)

test-tsan: build-tsan
	TSAN_OPTIONS=halt_on_error=1 $(TIMED) scripts/swift-test-parallel.sh $(TSAN_PATH)/debug/StackWebPackageTests.xctest \
		$(TEST_PROCESSES) --except '^StackModelTests\.|\.PhotoMemoryTests$$|\.PhotoProcessTests$$' --no-parallel

test-web:
	node --test Tests/web

## Three browser tests at a time, then those that measure the page's own timing (marked `alone`) one
## at a time with nothing beside them.
test-e2e: build
	STACKWEB_BIN=$(DEBUG_BIN) $(PYTHON) -m pytest -q -n 3 -m "not alone" --durations=12 Tests/e2e
	STACKWEB_BIN=$(DEBUG_BIN) $(PYTHON) -m pytest -q -m alone --durations=6 Tests/e2e

## The README's pictures (docs/screenshots/), taken again from the real page in headless Chromium:
## after any change to how a style or a screen looks. SCREENSHOTS=phone picks some (pytest's -k).
SCREENSHOTS ?=
screenshots: build
	STACKWEB_BIN=$(DEBUG_BIN) STACKWEB_UPDATE_SCREENSHOTS=1 $(PYTHON) -m pytest -q Tests/e2e/test_screenshots.py \
		$(if $(SCREENSHOTS),-k "$(SCREENSHOTS)")
	@pictures=$$(git ls-files -m -o docs/screenshots); \
	if [ -n "$$pictures" ] && command -v optipng >/dev/null; then optipng -quiet -o2 -strip all $$pictures; fi

## A small Jepsen (Tests/history/README.md): three instances and a redis-server under a fixed fault
## schedule (kill -9, SIGSTOP, Redis restarts, Redis wiped), four clients, a reader per instance,
## retries of acknowledged keys and cold readers; then one instance with --state restarted ten times
## under the same clients; then each history's checks: about four minutes. `STACKWEB_NEMESIS_SECONDS=900
## make test-nemesis` runs random faults for that long in each of the two (default 300);
## STACKWEB_HISTORY_MODE=group|single runs one, STACKWEB_NEMESIS_SEED replays a run, STACKWEB_BIN
## tests another binary.
HISTORY_BIN = $${STACKWEB_BIN:-$(DEBUG_BIN)}
## `make test` replays one seed (the clients' and the nemesis's choices, not the servers' timing):
## STACKWEB_NEMESIS_SEED picks another.
test-history: build
	STACKWEB_BIN=$(HISTORY_BIN) STACKWEB_NEMESIS_SECONDS= STACKWEB_NEMESIS_SEED=$${STACKWEB_NEMESIS_SEED:-41} $(PYTHON) -m pytest -q -s Tests/history

test-nemesis: build
	STACKWEB_BIN=$(HISTORY_BIN) STACKWEB_NEMESIS_SECONDS=$${STACKWEB_NEMESIS_SECONDS:-300} $(PYTHON) -m pytest -q -s Tests/history

## The package, unpacked into a scratch root: its files, dependencies, unit, and its binary serving.
test-deb: deb
	STACKWEB_DEB=$$(ls $(DEB_PATH)/stackweb_*.deb) $(PYTHON) -m pytest -q Tests/package

## libFuzzer targets (Tests/Fuzz) for the body decoders, the request filter and routes,
## Last-Event-ID, the whole router over live rooms and photos, and the clip probe: a short run in `make test`,
## a longer one with `make fuzz FUZZ_SECONDS=600`.
FUZZ_SECONDS ?= 120
FUZZ_SMOKE_SECONDS := 10
fuzz-smoke: build-fuzz fuzz-smoke-run

build-fuzz:
	scripts/fuzz.sh --build-only

fuzz-smoke-run:
	scripts/fuzz.sh --no-build $(FUZZ_SMOKE_SECONDS)

fuzz:
	scripts/fuzz.sh $(FUZZ_SECONDS)

lint:
	swift format lint --recursive --strict Package.swift Sources Tests

## Benchmarks, not tests (issue #7): about 15 minutes on 2 cores; raw results in bench-out/.
bench: release bench-deps pip-deps bench-pip-deps
	$(PYTHON) Benchmarks/bench.py --bin $(RELEASE_BIN)

bench-pip-deps:
	@$(PYTHON) -c "import PIL" 2>/dev/null || $(PYTHON) -m pip install -q -r Benchmarks/requirements.txt

bench-deps:
	$(call apt_install,$(BENCH_APT_PACKAGES))

install: release
	install -D -m 755 $(RELEASE_BIN) $(DESTDIR)$(PREFIX)/bin/stackweb
	mkdir -p $(DESTDIR)$(PREFIX)/share/stackweb
	cp -R Resources/web Resources/demo-photos $(DESTDIR)$(PREFIX)/share/stackweb/

clean:
	rm -rf .build
