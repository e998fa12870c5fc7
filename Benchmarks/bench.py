#!/usr/bin/env python3
"""`make bench`: runs the benchmarks of issue #7 against the release binary and writes BENCHMARKS.md
(tables, budgets met or missed, SVG charts in Benchmarks/charts/). Not a test: nothing here fails on
a number; a measurement that cannot run is reported as skipped, with why.

  python3 Benchmarks/bench.py [--bin .build/release/stackweb] [--only latency,fanout,idle,static,model,photos,client,frames,turn,state,profile,library,group,uploads,shapes]
                              [--report-only] [--out bench-out]

BENCHMARKS.md is written whole by one run of every item, on one commit: its header names that commit
and the date, and every section comes from that run. A partial run (`--only`) never touches it: it
writes its own report, raw results and charts under bench-out/partial/. Raw results of a full run go
to bench-out/results.json; `--report-only` rewrites the report from them (with `--only`, the partial
report from bench-out/partial/results.json).
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from common import log, raise_nofile, steal_share  # noqa: E402

ITEMS = ["latency", "fanout", "idle", "static", "model", "photos", "client", "frames", "turn", "state", "profile",
         "library", "group", "uploads", "refused", "shapes"]


def _version(command):
    try:
        out = subprocess.run(command, capture_output=True, text=True, timeout=20)
        return (out.stdout or out.stderr).strip().splitlines()[0]
    except (OSError, subprocess.TimeoutExpired, IndexError):
        return "not found"


def _package(name):
    return _version(["dpkg-query", "-W", "-f", "${Version}", name])


def machine():
    cpu = "unknown"
    with open("/proc/cpuinfo") as info:
        for line in info:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as info:
        memory_kib = int(info.readline().split()[1])
    return {
        "date": time.strftime("%Y-%m-%d %H:%M %Z"),
        "nproc": os.cpu_count(), "cpu": cpu, "memory_gib": round(memory_kib / 1024 / 1024, 1),
        "kernel": platform.release(), "os": _version(["sh", "-c", ". /etc/os-release && echo $PRETTY_NAME"]),
        "swift": _version(["swift", "--version"]), "python": platform.python_version(),
        "libmicrohttpd": _package("libmicrohttpd12"), "nginx": _package("nginx"), "wrk": _package("wrk"),
        "chromium": _package("chromium"), "gcc": _version(["gcc", "--version"]),
        "git": _version(["git", "rev-parse", "--short", "HEAD"]),
        "git_dirty": bool(subprocess.run(["git", "status", "--porcelain", "Sources", "Resources", "Benchmarks",
                                          "Package.swift"], capture_output=True, text=True).stdout.strip()),
    }


def build_sseload(build_dir):
    binary = os.path.join(build_dir, "sseload")
    source = os.path.join(HERE, "sseload.c")
    if not os.path.exists(binary) or os.path.getmtime(binary) < os.path.getmtime(source):
        os.makedirs(build_dir, exist_ok=True)
        subprocess.run(["gcc", "-O2", "-Wall", "-o", binary, source], check=True)
    return binary


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=".build/release/stackweb")
    parser.add_argument("--out", default="bench-out")
    parser.add_argument("--build-dir", default=".build/bench")
    parser.add_argument("--report", default="BENCHMARKS.md")
    parser.add_argument("--charts", default="Benchmarks/charts")
    parser.add_argument("--only", help="a partial run of these items (comma-separated), reported under OUT/partial/")
    parser.add_argument("--peer-bin", help="an earlier build measured beside --bin where an item compares (state)")
    parser.add_argument("--report-only", action="store_true")
    args = parser.parse_args()

    wanted = ITEMS if args.only is None else [item.strip() for item in args.only.split(",") if item.strip()]
    unknown = set(wanted) - set(ITEMS)
    if unknown:
        raise SystemExit(f"unknown --only items: {', '.join(sorted(unknown))} (known: {', '.join(ITEMS)})")
    partial = args.only is not None
    if partial:
        # Never the committed report: a partial run's sections would sit beside another run's.
        out_dir = os.path.join(args.out, "partial")
        report_path = os.path.join(out_dir, "BENCHMARKS.md")
        charts_dir = os.path.join(out_dir, "charts")
    else:
        out_dir, report_path, charts_dir = args.out, args.report, args.charts
    os.makedirs(out_dir, exist_ok=True)
    results_path = os.path.join(out_dir, "results.json")
    if args.report_only:
        with open(results_path) as saved:
            results = json.load(saved)
        if not partial and results.get("items") != ITEMS:
            raise SystemExit(f"{results_path} is not a run of every item: {args.report} is written only from one")
    else:
        results = run(args, wanted, out_dir)
        with open(results_path, "w") as out:
            json.dump(results, out, indent=1)
    import report
    report.write(results, report_path, charts_dir, partial=partial)
    log(f"wrote {report_path} and the charts in {charts_dir}/ (raw results: {results_path})")


def run(args, wanted, out_dir):
    limits = raise_nofile()
    if not os.path.exists(args.bin):
        raise SystemExit(f"{args.bin} is missing: `make release` (or `make bench`) builds it")
    exe = build_sseload(args.build_dir)
    command = "make bench" if wanted == ITEMS else f"python3 Benchmarks/bench.py --only {','.join(wanted)}"
    results = {"machine": machine(), "command": command, "binary": args.bin, "client_nofile": limits,
               "items": wanted}
    mark = steal_share()
    started = time.time()
    results["loadavg_start"] = os.getloadavg()

    import bench_client
    import bench_group
    import bench_frames
    import bench_library
    import bench_photos
    import bench_profile
    import bench_refused
    import bench_shapes
    import bench_state
    import bench_static
    import bench_turn
    import bench_uploads
    import bench_viewers
    import model_bench

    steps = {
        "latency": lambda: bench_viewers.move_latency(args.bin, exe, out_dir),
        "fanout": lambda: bench_viewers.fan_out(args.bin, exe, out_dir),
        "idle": lambda: bench_viewers.idle(args.bin, exe, out_dir),
        "static": lambda: bench_static.run(args.bin, out_dir),
        "model": lambda: model_bench.run(args.build_dir),
        "photos": lambda: bench_photos.run(args.bin, out_dir),
        "client": lambda: bench_client.run(args.bin, out_dir),
        "frames": lambda: bench_frames.run(args.bin, out_dir, repeat=5),
        "turn": lambda: bench_turn.run(),
        "state": lambda: bench_state.run(args.bin, args.peer_bin),
        "library": lambda: bench_library.run(args.bin, out_dir),
        "group": lambda: bench_group.run(args.bin, exe, out_dir),
        "uploads": lambda: bench_uploads.run(args.bin, out_dir),
        "refused": lambda: bench_refused.run(args.bin, out_dir),
        "shapes": lambda: bench_shapes.run(args.bin, exe, out_dir),
        "profile": lambda: {"server": bench_profile.server_profiles(args.bin, exe, out_dir),
                            "model": bench_profile.model_profile(args.build_dir)},
    }
    for item in ITEMS:
        if item not in wanted:
            continue
        log(f"== {item}")
        item_started = time.time()
        try:
            results[item] = steps[item]()
        except Exception as error:  # a benchmark that cannot run is reported, not fatal
            traceback.print_exc()
            results[item] = {"skipped": f"failed: {type(error).__name__}: {error}"}
        if isinstance(results[item], dict):
            results[item]["elapsed_s"] = round(time.time() - item_started, 1)
    results["elapsed_s"] = round(time.time() - started, 1)
    results["loadavg_end"] = os.getloadavg()
    results["steal"] = steal_share(mark)
    return results


if __name__ == "__main__":
    os.chdir(os.path.dirname(HERE))
    main()
