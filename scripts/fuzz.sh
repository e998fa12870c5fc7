#!/usr/bin/env bash
# Builds the libFuzzer targets in Tests/Fuzz with -sanitize=fuzzer,address and runs each for
# SECONDS (default 15). The seed corpus in Tests/Fuzz/corpus is copied, never written to.
#   scripts/fuzz.sh [SECONDS] [TARGET…]     targets: pointer command route last-event-id router
# `router` is the whole router over real rooms, photos (libvips) and page files: every StackWeb
# source but App/main.swift, with the C shims compiled here (SwiftPM would generate their module
# maps; here they are written into the build folder). Tests/Fuzz/<target>.dict is used if present.
# FUZZ_CORPUS=DIR keeps each target's grown corpus in DIR/<target> instead of a temporary folder.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-15}
shift || true
targets=("${@:-pointer command route last-event-id router}")
read -r -a targets <<< "${targets[*]}"
out=.build/fuzz
mkdir -p "$out"
flags=(-sanitize=fuzzer,address -parse-as-library -g -O -swift-version 6)
export LSAN_OPTIONS="suppressions=$PWD/Tests/Fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# libFuzzer prints the crash's stack itself; Swift's backtracer would then read memory that ASan
# reports as a second, unrelated error.
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}

# StackModel as a static library the targets link against (the decoders use its types).
swiftc "${flags[@]}" -static -emit-library -emit-module -module-name StackModel \
  -emit-module-path "$out/StackModel.swiftmodule" -o "$out/libStackModel.a" Sources/StackModel/*/*.swift

http=Sources/StackWebServer/HTTP
support=Sources/StackWebServer/Support
sources_for() {
  case "$1" in
    pointer) echo "Tests/Fuzz/PointerDecoderFuzz.swift $http/APIRequest.swift $http/PointerBody.swift $support/JSONShape.swift" ;;
    command) echo "Tests/Fuzz/CommandDecoderFuzz.swift $http/APIRequest.swift $http/PointerBody.swift $support/JSONShape.swift" ;;
    route) echo "Tests/Fuzz/RouteFuzz.swift $http/Route.swift $http/RequestFilter.swift $http/Request.swift $http/Response.swift $support/JSONWriter.swift" ;;
    last-event-id) echo "Tests/Fuzz/LastEventIDFuzz.swift $http/LastEventID.swift" ;;
    router)
      find Sources/StackWebServer -name "*.swift" | sort | tr '\n' ' '
      echo "Tests/Fuzz/RouterFuzz.swift Tests/Fuzz/Router/*.swift" ;;
    *) echo "unknown fuzz target $1" >&2; exit 2 ;;
  esac
}

# For `router`: module maps for the two C targets, their shims compiled for the fuzzer, and the
# flags of the C libraries, as SwiftPM gets them from pkg-config.
c_inputs() {
  [ "$1" = router ] || return 0
  local modules="$out/c-modules" cflags shim
  mkdir -p "$modules"
  printf 'module %s { header "%s" export * }\n' \
    CMicroHTTPD "$PWD/Sources/CMicroHTTPD/include/CMicroHTTPD.h" \
    CVips "$PWD/Sources/CVips/include/CVips.h" \
    CVipsTestSupport "$PWD/Tests/CVipsTestSupport/include/CVipsTest.h" > "$modules/module.modulemap"
  read -r -a cflags <<< "$(pkg-config --cflags libmicrohttpd vips)"
  for shim in CMicroHTTPD CVips; do
    clang -fsanitize=fuzzer-no-link,address -g -O1 -I "Sources/$shim/include" "${cflags[@]}" \
      -c "Sources/$shim/shim.c" -o "$out/$shim.o"
  done
  echo "-I $modules -I Sources/CMicroHTTPDSystem -I Sources/CVipsSystem $out/CMicroHTTPD.o $out/CVips.o"
  pkg-config --cflags-only-I libmicrohttpd vips | sed 's/-I/-Xcc -I/g'
  pkg-config --libs libmicrohttpd vips
}

for target in "${targets[@]}"; do
  inputs=$(c_inputs "$target")
  # shellcheck disable=SC2046,SC2086
  swiftc "${flags[@]}" -module-name FuzzTarget -I "$out" -L "$out" -lStackModel -lm \
    $inputs $(sources_for "$target") -o "$out/fuzz-$target" 2> >(grep -v "Cannot export local symbol" >&2)
  if [ -n "${FUZZ_CORPUS:-}" ]; then
    corpus="$FUZZ_CORPUS/$target"
    mkdir -p "$corpus"
  else
    corpus=$(mktemp -d)
  fi
  cp "Tests/Fuzz/corpus/$target/"* "$corpus/"
  options=(-max_total_time="$seconds" -print_final_stats=1)
  if [ -f "Tests/Fuzz/$target.dict" ]; then options+=(-dict="Tests/Fuzz/$target.dict"); fi
  # The router's rooms outlive each input, so nearly every input ends with more allocations than
  # frees and libFuzzer would scan the whole heap for leaks after it: half the speed. Check the
  # final corpus for leaks instead: `.build/fuzz/fuzz-router -runs=0 -detect_leaks=1 DIR`.
  if [ "$target" = router ]; then options+=(-detect_leaks=0); fi
  echo "fuzz-$target: $seconds s"
  log="$out/fuzz-$target.log"
  status=0
  "$out/fuzz-$target" "${options[@]}" "$corpus" > "$log" 2>&1 || status=$?
  grep -E "^(#[0-9]+.*DONE|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY)" "$log" || true
  # A crash leaves a crash-* file (run it again to see it); any other failure (a bad option or
  # dictionary) only the exit status and the log's end.
  if [ "$status" -ne 0 ]; then
    tail -n 30 "$log" >&2
    echo "fuzz-$target failed (exit $status; log $log)" >&2
    exit 1
  fi
  if [ -z "${FUZZ_CORPUS:-}" ]; then rm -rf "$corpus"; fi
done
