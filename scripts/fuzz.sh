#!/usr/bin/env bash
# Builds the libFuzzer targets in Tests/Fuzz with -sanitize=fuzzer,address and runs each for
# SECONDS (default 15). The seed corpus in Tests/Fuzz/corpus is copied, never written to.
#   scripts/fuzz.sh [SECONDS] [TARGET…]     targets: pointer command route last-event-id router clip
# The server is the StackWebServer library product (with StackModel and the C shims in its
# archive), built by SwiftPM instrumented for the fuzzer and ASan in a scratch folder of its own,
# .build/fuzz-pkg, so a second run only relinks. Each target is then one swiftc over its harness,
# Tests/Fuzz/<Name>.swift, which `@testable import`s the library (its types are internal), linked
# against that archive. `router` adds Tests/Fuzz/Router/*.swift, the tests' RecordingSink and the test images' C shims
# (the CVipsTestSupport product) and drives the whole router over real rooms, photos (libvips) and
# page files. `clip` probes any bytes as a clip (FFmpeg's mov and matroska demuxers behind CFFmpeg);
# its seed corpus is made by ClipFuzzCorpusTests. Tests/Fuzz/<target>.dict is used if present.
# FUZZ_CORPUS=DIR keeps each target's grown corpus in DIR/<target> instead of a temporary folder.
#   scripts/fuzz.sh --build-only [TARGET…]          builds the targets, runs none (`make test` builds
#                                                    them beside other suites)
#   scripts/fuzz.sh --no-build SECONDS [TARGET…]    runs the targets built before, each for SECONDS
set -euo pipefail
cd "$(dirname "$0")/.."
build=1
run=1
case "${1:-}" in
  --build-only) run=0; shift ;;
  --no-build) build=0; shift ;;
esac
if [ "$run" = 1 ]; then
  seconds=${1:-15}
  shift || true
fi
targets=("${@:-pointer command route last-event-id router clip}")
read -r -a targets <<< "${targets[*]}"
out=.build/fuzz
mkdir -p "$out"
export LSAN_OPTIONS="suppressions=$PWD/Tests/Fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# libFuzzer prints the crash's stack itself; Swift's backtracer would then read memory that ASan
# reports as a second, unrelated error.
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}

# The harness of each target; `router` also links the test images' shims (below).
harness_for() {
  case "$1" in
    pointer) echo Tests/Fuzz/PointerDecoderFuzz.swift ;;
    command) echo Tests/Fuzz/CommandDecoderFuzz.swift ;;
    route) echo Tests/Fuzz/RouteFuzz.swift ;;
    last-event-id) echo Tests/Fuzz/LastEventIDFuzz.swift ;;
    clip) echo Tests/Fuzz/ClipProbeFuzz.swift ;;
    router) echo Tests/Fuzz/RouterFuzz.swift Tests/Fuzz/Router/*.swift Tests/StackWebTests/Support/RecordingSink.swift ;;
    *) echo "unknown fuzz target $1" >&2; exit 2 ;;
  esac
}
# Unknown targets fail now, not after minutes of building.
for target in "${targets[@]}"; do harness_for "$target" > /dev/null; done

# The library, instrumented as the targets are: ASan, and coverage for the fuzzer (fuzzer-no-link:
# libFuzzer's main comes with each target). Not `--sanitize=fuzzer --sanitize=address`: SwiftPM
# passes those to swiftc as two -sanitize= options and the last one wins, so the Swift code would
# lose one of them; a later -Xswiftc -sanitize= overrides both. -enable-testing lets the harnesses
# see internal types. A scratch folder of its own, so these flags never rebuild .build/release.
package=(swift build -c release --scratch-path .build/fuzz-pkg --sanitize=address
  -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link -Xswiftc -enable-testing)

# Builds the library and every target in `targets`.
build_targets() {
  # libmicrohttpd's and libvips' pkg-config files list -pthread, which SwiftPM warns of and drops.
  for product in StackWebServer CVipsTestSupport; do
    "${package[@]}" --product "$product" 2>&1 | grep -v "warning: prohibited flag(s): -pthread" ||
      { echo "fuzz: swift build --product $product failed" >&2; exit 1; }
  done
  bin=$("${package[@]}" --show-bin-path 2>/dev/null)

  # What a harness needs to import the library: the Swift modules, the module maps of the C modules it
  # imports (SwiftPM's own: generated ones for the shim targets, the packaged ones for the system
  # libraries) and the C libraries' headers and flags, as SwiftPM gets them from pkg-config.
  read -r -a c_include <<< "$(pkg-config --cflags-only-I libmicrohttpd gnutls vips hiredis libqrencode libavformat | sed 's/-I/-Xcc -I/g')"
  read -r -a c_libs <<< "$(pkg-config --libs libmicrohttpd gnutls vips sqlite3 hiredis libqrencode libavformat libavcodec libswscale libavutil)"
  flags=(-sanitize=fuzzer,address -parse-as-library -g -O -swift-version 6 -I "$bin/Modules")
  flags+=("${c_include[@]}")
  for map in "$bin"/*.build/module.modulemap Sources/*/module.modulemap; do
    flags+=(-Xcc "-fmodule-map-file=$map")
  done

  for target in "${targets[@]}"; do
    inputs=$(harness_for "$target")
    if [ "$target" = router ]; then inputs+=" $bin/libCVipsTestSupport.a"; fi
    # shellcheck disable=SC2086
    swiftc "${flags[@]}" -module-name FuzzTarget $inputs "$bin/libStackWebServer.a" "${c_libs[@]}" -lm \
      -o "$out/fuzz-$target" 2> >(grep -v "Cannot export local symbol" >&2)
  done
}

if [ "$build" = 1 ]; then build_targets; fi
if [ "$run" = 0 ]; then exit 0; fi

for target in "${targets[@]}"; do
  if [ ! -x "$out/fuzz-$target" ]; then echo "fuzz: $out/fuzz-$target is not built (scripts/fuzz.sh --build-only)" >&2; exit 1; fi
done

# Runs one target for `seconds` on its corpus; its summary and, on failure, its log's end go to
# .build/fuzz/fuzz-TARGET.summary, read once every target has run.
run_target() {
  local target=$1 corpus status=0
  if [ -n "${FUZZ_CORPUS:-}" ]; then
    corpus="$FUZZ_CORPUS/$target"
    mkdir -p "$corpus"
  else
    corpus=$(mktemp -d)
  fi
  cp "Tests/Fuzz/corpus/$target/"* "$corpus/"
  local options=(-max_total_time="$seconds" -print_final_stats=1)
  if [ -f "Tests/Fuzz/$target.dict" ]; then options+=(-dict="Tests/Fuzz/$target.dict"); fi
  # The router's rooms outlive each input, so nearly every input ends with more allocations than
  # frees and libFuzzer would scan the whole heap for leaks after it: half the speed. Check the
  # final corpus for leaks instead: `.build/fuzz/fuzz-router -runs=0 -detect_leaks=1 DIR`.
  if [ "$target" = router ]; then options+=(-detect_leaks=0); fi
  local log="$out/fuzz-$target.log" summary="$out/fuzz-$target.summary"
  "$out/fuzz-$target" "${options[@]}" "$corpus" > "$log" 2>&1 || status=$?
  {
    echo "fuzz-$target: $seconds s"
    grep -E "^(#[0-9]+.*DONE|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY)" "$log" || true
    # A crash leaves a crash-* file (run it again to see it); any other failure (a bad option or
    # dictionary) only the exit status and the log's end.
    if [ "$status" -ne 0 ]; then
      tail -n 30 "$log"
      echo "fuzz-$target failed (exit $status; log $log)"
    fi
  } > "$summary"
  if [ -z "${FUZZ_CORPUS:-}" ]; then rm -rf "$corpus"; fi
  return "$status"
}

# Each target is one process on one core for fixed seconds: as many run side by side as there are
# cores (FUZZ_JOBS), so each still gets a core of its own and as many inputs as it would alone.
jobs=${FUZZ_JOBS:-$(nproc)}
for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  rm -f "$out/fuzz-$target.summary"
  run_target "$target" &
done
wait || true
# Judged by each target's summary (a status reaped by `wait -n` is not kept for a later `wait`).
failed=0
for target in "${targets[@]}"; do
  summary="$out/fuzz-$target.summary"
  if [ ! -s "$summary" ]; then
    echo "fuzz-$target: no summary (log $out/fuzz-$target.log)" >&2
    failed=1
  elif grep -q "^fuzz-$target failed (exit" "$summary"; then
    cat "$summary" >&2
    failed=1
  else
    cat "$summary"
  fi
done
exit "$failed"
