"""Issue #25, finding 8: what keyed photo ids and the "in some room's stack" check cost.

Compiles the server's own PhotoIDs, StackedPhotos, Digest, FNV1a and Locked with
Benchmarks/ids/IDBench.swift (`swiftc -O -wmo`, GnuTLS through the CGnuTLS module map) into
.build/bench/, and runs it: nanoseconds per id (HMAC-SHA-256 against the FNV-1a id it replaces),
per `GET /photos/{id}` check (against the library look-up the request makes already), and per save.
"""

import json
import os
import subprocess
import sys

SOURCES = [
    "Sources/StackWebServer/Photos/PhotoIDs.swift",
    "Sources/StackWebServer/Photos/StackedPhotos.swift",
    "Sources/StackWebServer/Support/Digest.swift",
    "Sources/StackWebServer/Support/FNV1a.swift",
    "Sources/StackWebServer/Support/Locked.swift",
    "Benchmarks/ids/IDBench.swift",
]


def run(build_dir=".build/bench", photos=20_000):
    os.makedirs(build_dir, exist_ok=True)
    binary = os.path.join(build_dir, "id-bench")
    subprocess.run(["swiftc", "-O", "-wmo", "-swift-version", "6", "-parse-as-library",
                    "-Xcc", "-fmodule-map-file=Sources/CGnuTLS/module.modulemap", "-module-name", "IDBench",
                    *SOURCES, "-o", binary], check=True)
    proc = subprocess.run([binary, str(photos)], capture_output=True, text=True, timeout=300, check=True)
    return json.loads(proc.stdout)


if __name__ == "__main__":
    print(json.dumps(run(photos=int(sys.argv[1]) if len(sys.argv) > 1 else 20_000)))
