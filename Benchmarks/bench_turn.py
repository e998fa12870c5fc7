#!/usr/bin/env python3
"""What turning one photo-sized card costs in headless Chromium without a GPU, each way it can be
drawn (Benchmarks/turn/turn.js): the floor under the frame budget of section 8.

  python3 Benchmarks/bench_turn.py [--json out.json]
"""
import argparse
import functools
import http.server
import json
import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_frames import _chromium  # noqa: E402
from common import log  # noqa: E402

PAGE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "turn")


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def run(timeout=300.0):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=PAGE_DIR))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    driver = _chromium()
    try:
        driver.get(f"http://127.0.0.1:{server.server_port}/turn.html")
        deadline = time.monotonic() + timeout
        results = None
        while time.monotonic() < deadline:
            results = driver.execute_script("return window.turnResults || null")
            if results:
                break
            time.sleep(0.5)
        if not results:
            raise TimeoutError("the turn page gave no results")
        if "error" in results:
            raise RuntimeError(results["error"])
    finally:
        driver.quit()
        server.shutdown()
    straight = results["draws"]["straight copy"]["p50"]
    for stats in results["draws"].values():
        stats["x_straight"] = round(stats["p50"] / straight, 1) if straight else None
        stats["ns_per_px"] = round(stats["p50"] * 1e6 / results["card"]["pixels"], 1)
    results["loadavg"] = os.getloadavg()[0]
    for name, stats in results["draws"].items():
        log(f"turn draw {name}: p50 {stats['p50']:.2f} ms ({stats['ns_per_px']} ns/px, {stats['x_straight']}× straight)")
    for name, stats in results["loops"].items():
        log(f"turn frames {name}: p50 {stats['p50']:.1f} p99 {stats['p99']:.1f} ms, {stats['doubled']} of {stats['n']} shown twice or more")
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    results = run()
    text = json.dumps(results, indent=2)
    if args.json:
        with open(args.json, "w") as out:
            out.write(text + "\n")
    else:
        print(text)


if __name__ == "__main__":
    main()
