"""Item 5 of issue #7: nanoseconds per pointer move and per layout against stack size.

Compiles Sources/StackModel as its own module with `swiftc -O -wmo` (the flags SwiftPM's release
build uses, Swift 6 language mode and the package's upcoming features), then
Benchmarks/model/ModelBench.swift against it, into .build/bench/, and runs it.
"""

import glob
import json
import os
import subprocess

from common import log

FEATURES = ["-enable-upcoming-feature", "ExistentialAny", "-enable-upcoming-feature", "MemberImportVisibility"]


def build(build_dir):
    os.makedirs(build_dir, exist_ok=True)
    sources = sorted(glob.glob("Sources/StackModel/**/*.swift", recursive=True))
    library = os.path.join(build_dir, "libStackModel.a")
    binary = os.path.join(build_dir, "model-bench")
    bench_source = "Benchmarks/model/ModelBench.swift"
    inputs = sources + [bench_source, __file__]
    if os.path.exists(binary) and os.path.getmtime(binary) > max(os.path.getmtime(p) for p in inputs):
        return binary
    log(f"model: compiling {len(sources)} StackModel sources with swiftc -O")
    subprocess.run(["swiftc", "-O", "-wmo", "-swift-version", "6", *FEATURES, "-parse-as-library",
                    "-module-name", "StackModel", "-emit-module", "-emit-module-path",
                    os.path.join(build_dir, "StackModel.swiftmodule"), "-emit-library", "-static", "-o", library,
                    *sources], check=True)
    subprocess.run(["swiftc", "-O", "-wmo", "-swift-version", "6", *FEATURES, "-parse-as-library", "-I", build_dir,
                    bench_source, library, "-lm", "-o", binary], check=True)
    return binary


def run(build_dir, sizes=(10, 100, 1000, 10_000, 100_000, 1_000_000)):
    binary = build(build_dir)
    results = []
    proc = subprocess.run([binary, *map(str, sizes)], capture_output=True, text=True, timeout=300, check=True)
    for line in proc.stdout.splitlines():
        if line.startswith("{"):
            row = json.loads(line)
            results.append(row)
            log(f"model: {row['size']:>9} cards: move {row['move_ns_p50']} ns, layout {row['layout_ns_p50']} ns")
    return {"rows": results, "swiftc_flags": "-O -wmo -swift-version 6 (StackModel as its own module)"}
