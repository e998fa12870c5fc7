#!/usr/bin/env bash
# Runs a built Swift test bundle as several processes side by side, a few suites each.
#
#   scripts/swift-test-parallel.sh BUNDLE PROCESSES [--except ERE] [ARGUMENT…]
#
# Why: most server tests wait on real time (a server process to start, a stream to arrive, a
# deadline to pass) and block their thread while they wait. One test process runs only as many
# tests at once as its concurrency pool has threads (about the number of cores), so on 2 cores a
# run of waiting tests is nearly serial: the plain run used a third of the CPU it had. Several
# processes wait side by side. The suites are dealt out a few at a time to whichever process slot is
# free (xargs -P), so a slow suite delays only its own slot.
#
# `make test` passes `--no-parallel`: then PROCESSES is how many tests run at once, few enough that a
# test with a deadline (a server's exit within 2 s of SIGTERM) keeps it.
#
# The suites are those the bundle lists, but for those whose "Module.Suite" name matches `--except`.
# ARGUMENTs go to every process (e.g. `--no-parallel`). Each process's output is kept under
# .build/test-logs/ and printed whole if it failed; the run fails if any process failed.
set -euo pipefail
bundle=$1
processes=$2
shift 2
except='^$'
if [ "${1:-}" = --except ]; then
  except=$2
  shift 2
fi
# A folder per bundle: the plain and the sanitizer runs may run at once.
logs=.build/test-logs/$(printf %s "$bundle" | tr -c 'A-Za-z0-9' - | sed 's/^-*//')
rm -rf "$logs"
mkdir -p "$logs"

# "Module.Suite/test()" → "Module.Suite", each once.
"$bundle" --testing-library swift-testing --list-tests 2>/dev/null | sed 's|/.*||' | sort -u \
  | { grep -Ev -- "$except" || true; } > "$logs/suites"
suites=$(wc -l < "$logs/suites")
if [ "$suites" -eq 0 ]; then
  echo "swift-test-parallel: $bundle lists no suite" >&2
  exit 1
fi
echo "swift-test-parallel: $suites suites in $processes processes at a time"

# One batch: its suites as one anchored filter (a suite's name never matches another's).
run_batch() {
  local filter
  filter=$(printf '%s\n' "$@" | sed 's/[.]/\\./g; s/^/^/; s|$|/|' | paste -sd'|')
  local log
  log=$(mktemp "$logs/batch-XXXXXX.log")
  if "$bundle" --testing-library swift-testing "${extra[@]}" --filter "$filter" > "$log" 2>&1; then
    grep -E '^. Test run with' "$log" || true
  else
    echo "swift-test-parallel: these suites failed: $*" >&2
    cat "$log" >&2
    return 1
  fi
}
export -f run_batch
export bundle logs
# xargs passes the suites; the arguments travel through the environment as one quoted string.
extra_arguments=$(printf '%q ' "$@")
export extra_arguments
status=0
xargs -P "$processes" -n 4 bash -c 'eval "extra=($extra_arguments)"; run_batch "$@"' batch < "$logs/suites" || status=$?
if [ "$status" -ne 0 ]; then
  echo "swift-test-parallel: a test process failed (its output is above)" >&2
  exit 1
fi
echo "swift-test-parallel: every suite passed"
