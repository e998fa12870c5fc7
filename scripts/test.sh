#!/usr/bin/env bash
# `make test`: every suite of `make test-*`, in less wall time than one after another.
#
# Four builds (debug with the tests, ThreadSanitizer, the fuzz targets, the static release of the
# package) and suites that mostly wait on real time (servers, browsers, the history's fault schedule).
# So: the debug build runs first, at full priority, since every real-time suite needs it; the three
# other builds run meanwhile and afterwards, one after another, in the background under SCHED_IDLE
# (`chrt --idle`, and nice 19): they take only the CPU the suites leave idle, so a suite that waits on
# real time never competes with a build for the CPU (a runnable suite thread always goes first). The
# suites run at normal priority, as `make test-*` runs them, one at a time but for the last: the
# history (two fault schedules, about four minutes, mostly waiting, that assert on outcomes, not speed)
# runs beside the package's test. The fuzz smoke run runs alone: its targets run for fixed seconds,
# one per core side by side (scripts/fuzz.sh), and beside the history they got through a third to a
# half fewer inputs. Each suite spreads itself over the cores as far as it safely can: the Swift
# tests (plain and under ThreadSanitizer) as four test processes, one test at a time in each
# (scripts/swift-test-parallel.sh), the browser tests three at a time and those that time the page
# alone. A suite that needs a background build waits for it.
#
# Background builds log to .build/test-logs/; a failed one's log is printed. The run stops at the
# first failure, as `make` does; `TEST_KEEP_GOING=1 make test` runs every suite whatever fails (as
# `make -k`) and fails at the end, naming them.
set -euo pipefail
cd "$(dirname "$0")/.."
make=${MAKE:-make}
logs=.build/test-logs
mkdir -p "$logs"
started=$SECONDS

step() { echo "== $1 ($(( SECONDS - started )) s)"; }

failed=()
# Records a failed suite: stops the run, or with TEST_KEEP_GOING=1 goes on.
failure() {
  failed+=("$1")
  echo "make test: $1 failed ($(( SECONDS - started )) s)" >&2
  if [ "${TEST_KEEP_GOING:-0}" != 1 ]; then exit 1; fi
}
suite() {
  step "$1"
  "$make" --no-print-directory "$1" || failure "$1"
}

# The builds no suite needs yet, one after another, only on idle CPU. In a process group of their own
# (job control on), so that a failing suite stops them all.
rm -f "$logs"/build-*.done
step "background: ThreadSanitizer build, fuzz targets, release package (logs in $logs/)"
background() { nice -n 19 chrt --idle 0 "$make" --no-print-directory "$1" > "$logs/build-$2.log" 2>&1; }
set -m
(
  set -e
  background build-tsan tsan
  touch "$logs/build-tsan.done"
  background build-fuzz fuzz
  touch "$logs/build-fuzz.done"
  background deb deb
  touch "$logs/build-deb.done"
) &
builds=$!
set +m
trap 'kill -- -$builds 2>/dev/null || true' EXIT

# Waits until the background build `name` is done; fails with its log if the builds stopped first.
wait_for() {
  local name=$1
  until [ -e "$logs/build-$name.done" ]; do
    if ! kill -0 "$builds" 2>/dev/null; then
      [ -e "$logs/build-$name.done" ] && return 0
      echo "make test: the $name build failed:" >&2
      tail -n 60 "$logs/build-$name.log" >&2
      failure "the $name build"
      return 1
    fi
    sleep 1
  done
}

suite lint
suite test-swift
suite test-web
suite test-e2e
if wait_for tsan; then suite test-tsan; fi
if wait_for fuzz; then suite fuzz-smoke-run; fi
step "test-history, and beside it test-deb (the history's output follows)"
"$make" --no-print-directory test-history > "$logs/test-history.log" 2>&1 &
history=$!
if wait_for deb; then suite test-deb; fi
history_status=0
wait "$history" || history_status=$?
cat "$logs/test-history.log"
if [ "$history_status" -ne 0 ]; then failure test-history; fi
wait "$builds" || true
trap - EXIT
if [ ${#failed[@]} -ne 0 ]; then
  step "make test: failed: ${failed[*]}"
  exit 1
fi
step "make test: every suite passed"
