#!/usr/bin/env python3
"""Lasting state at scale: `next` with `--state` on a 20,000-photo library in 5 rooms, and `/healthz`
meanwhile; start-up to the first answer. Measured for the binary under test and, when given, a peer
binary (an earlier build) in the same run, so the comparison is a ratio on the same noisy machine.

  python3 Benchmarks/bench_state.py --bin .build/release/stackweb [--peer-bin OLD] [--peer-state-name state.json]
                                    [--photos 20000] [--commands 300] [--json out.json]

The library is 20,000 hard links to the 12 demo photos in year/month folders (made once under /tmp):
each file has its own path, so its own photo id and card, without 20,000 files' worth of disk.
Everything is on loopback; every loop is bounded.
"""

import argparse
import http.client
import json
import os
import shutil
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from common import HOST, StackWebServer, log, summary  # noqa: E402

ROOMS = ["main", "hall", "lobby", "stage", "foyer"]


def make_library(count, demo="Resources/demo-photos"):
    """A folder of `count` photos (hard links to the demo photos), reused across runs."""
    root = os.path.join(tempfile.gettempdir(), f"stackweb-bench-library-{count}")
    marker = os.path.join(root, ".complete")
    if os.path.exists(marker):
        return root
    shutil.rmtree(root, ignore_errors=True)
    sources = sorted(os.path.join(demo, name) for name in os.listdir(demo) if name.endswith(".jpg"))
    for index in range(count):
        folder = os.path.join(root, str(2000 + index // 1000), f"{index % 12 + 1:02d}")
        os.makedirs(folder, exist_ok=True)
        os.link(sources[index % len(sources)], os.path.join(folder, f"IMG_{index:05d}.jpg"))
    open(marker, "w").close()
    return root


def request(port, method, path, body=None, timeout=30):
    """One request on a fresh connection: (status, milliseconds)."""
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    started = time.perf_counter()
    connection.request(method, path, body=body, headers=headers)
    reply = connection.getresponse()
    reply.read()
    elapsed = (time.perf_counter() - started) * 1000
    connection.close()
    return reply.status, elapsed


def first_answer(port, started, timeout=300):
    """Seconds from `started` until `/healthz` answers (the server may print before it serves)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if request(port, "GET", "/healthz", timeout=5)[0] in (200, 503):
                return time.monotonic() - started
        except OSError:
            time.sleep(0.01)
    return float("nan")


def measure(binary, library, state_name, commands):
    """Start-up, then `commands` `next`s round-robin over 5 rooms while another thread asks `/healthz`."""
    folder = tempfile.mkdtemp(prefix="stackweb-bench-state-")
    state = os.path.join(folder, state_name)
    result = {"binary": binary}
    try:
        for phase in ("cold", "warm"):
            server = StackWebServer(binary, args=["--photos", library, "--state", state],
                                    stderr_path=os.path.join(folder, "stderr.log"))
            started = time.monotonic()
            server.start(timeout=600)
            result[f"start_{phase}_s"] = round(first_answer(server.port, started), 3)
            if phase == "cold":
                for room in ROOMS:
                    request(server.port, "POST", f"/api/rooms/{room}/commands", '{"command":"next"}', timeout=120)
                server.stop()
        port = server.port
        health, stop = [], threading.Event()

        def poll_health():
            while not stop.is_set() and len(health) < 100_000:
                health.append(request(port, "GET", "/healthz")[1])

        poller = threading.Thread(target=poll_health, daemon=True)
        poller.start()
        latencies, failures = [], 0
        for index in range(commands):
            status, elapsed = request(port, "POST", f"/api/rooms/{ROOMS[index % 5]}/commands", '{"command":"next"}')
            latencies.append(elapsed)
            failures += status != 200
        stop.set()
        poller.join(30)
        result.update({"next_ms": summary(latencies), "healthz_ms": summary(health), "failures": failures})
        server.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return result


def run(binary, peer=None, peer_state_name="state.json", photos=20_000, commands=300):
    library = make_library(photos)
    log(f"state: {photos} photos in {library}")
    results = {"photos": photos, "rooms": len(ROOMS), "commands": commands,
               "command": f"python3 Benchmarks/bench_state.py --bin {binary}"
                          + (f" --peer-bin {peer}" if peer else "")}
    results["server"] = measure(binary, library, "state.db", commands)
    if peer:
        results["peer"] = measure(peer, library, peer_state_name, commands)
        mine, theirs = results["server"]["next_ms"]["p50"], results["peer"]["next_ms"]["p50"]
        results["next_p50_ratio"] = round(mine / theirs, 3) if theirs else None
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=".build/release/stackweb")
    parser.add_argument("--peer-bin")
    parser.add_argument("--peer-state-name", default="state.json")
    parser.add_argument("--photos", type=int, default=20_000)
    parser.add_argument("--commands", type=int, default=300)
    parser.add_argument("--json")
    args = parser.parse_args()
    results = run(args.bin, args.peer_bin, args.peer_state_name, args.photos, args.commands)
    text = json.dumps(results, indent=1)
    if args.json:
        with open(args.json, "w") as out:
            out.write(text)
    print(text)


if __name__ == "__main__":
    os.chdir(os.path.dirname(HERE))
    main()
