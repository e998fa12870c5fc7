#!/usr/bin/env bash
# Builds the libFuzzer targets in Tests/Fuzz with -sanitize=fuzzer,address and runs each for
# SECONDS (default 15). The seed corpus in Tests/Fuzz/corpus is copied, never written to.
#   scripts/fuzz.sh [SECONDS] [TARGET…]     targets: pointer command route last-event-id
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-15}
shift || true
targets=("${@:-pointer command route last-event-id}")
read -r -a targets <<< "${targets[*]}"
out=.build/fuzz
mkdir -p "$out"
flags=(-sanitize=fuzzer,address -parse-as-library -g -O)

# StackModel as a static library the targets link against (the decoders use its types).
swiftc "${flags[@]}" -static -emit-library -emit-module -module-name StackModel \
  -emit-module-path "$out/StackModel.swiftmodule" -o "$out/libStackModel.a" Sources/StackModel/*/*.swift

http=Sources/StackWeb/HTTP
support=Sources/StackWeb/Support
sources_for() {
  case "$1" in
    pointer) echo "Tests/Fuzz/PointerDecoderFuzz.swift $http/APIRequest.swift $http/PointerBody.swift $support/JSONShape.swift" ;;
    command) echo "Tests/Fuzz/CommandDecoderFuzz.swift $http/APIRequest.swift $http/PointerBody.swift $support/JSONShape.swift" ;;
    route) echo "Tests/Fuzz/RouteFuzz.swift $http/Route.swift $http/RequestFilter.swift $http/Request.swift $http/Response.swift $support/JSONWriter.swift" ;;
    last-event-id) echo "Tests/Fuzz/LastEventIDFuzz.swift $http/LastEventID.swift" ;;
    *) echo "unknown fuzz target $1" >&2; exit 2 ;;
  esac
}

for target in "${targets[@]}"; do
  # shellcheck disable=SC2046
  swiftc "${flags[@]}" -module-name FuzzTarget -I "$out" -L "$out" -lStackModel -lm \
    $(sources_for "$target") -o "$out/fuzz-$target" 2> >(grep -v "Cannot export local symbol" >&2)
  corpus=$(mktemp -d)
  cp "Tests/Fuzz/corpus/$target/"* "$corpus/"
  echo "fuzz-$target: $seconds s"
  "$out/fuzz-$target" -max_total_time="$seconds" -print_final_stats=1 "$corpus" 2>&1 \
    | grep -E "^(#[0-9]+.*DONE|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY)" || true
  # A crash leaves a crash-* file and a non-zero exit; run again to surface it as a failure.
  ls crash-* leak-* timeout-* >/dev/null 2>&1 && { echo "fuzz-$target found a failing input" >&2; exit 1; }
  rm -rf "$corpus"
done
