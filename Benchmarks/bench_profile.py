"""Where the time goes, for the budgets the tables show missed: `perf record` (software cpu-clock
event, call graphs) on the server during a 100-viewer drag and during a wrk run of the JS module,
and callgrind's instruction counts for the model's pointer moves. Skipped where perf or valgrind
is missing (they are not needed for the measurements themselves).
"""

import os
import re
import shutil
import signal
import subprocess
import time

from bench_static import wrk
from bench_viewers import LoadClient, top_card
from common import StackWebServer, log

# Inclusive shares of these frames are what the analysis needs: the request path, top to bottom.
INTERESTING = re.compile(
    r"accessHandler|Router\.|RequestFilter\.|APIRequest\.|JSONDecoder\.decode|JSONShape\.|Room\.|Stack\.|"
    r"RoomEncoder\.|StreamConnection\.|StaticFiles\.|connectionValues|queue\(|MHD_|resume|suspend|"
    r"tcp_sendmsg$|epoll_ctl|epoll_wait$|__memset|__memmove|swift_allocObject|swift_release$|malloc$|"
    r"PointerRateLimiter|ServerSentEvent|JSONWriter|Locked")
NOISE = re.compile(r"^0x|^\[unknown\]|thunk|closure #\d+ in variable initialization|partial apply")


def _demangle(names):
    swift = shutil.which("swift")
    if not swift:
        return names
    out = subprocess.run([swift, "demangle", "--simplified", "--compact"], input="\n".join(names),
                         capture_output=True, text=True, timeout=60).stdout.splitlines()
    return out if len(out) == len(names) else names


def _perf_dso(data_file):
    """Self time by shared object (the kernel, libmicrohttpd, the Swift runtime, the binary...)."""
    report = subprocess.run(["perf", "report", "-i", data_file, "--no-children", "--sort", "dso", "--stdio",
                             "-g", "none"], capture_output=True, text=True, timeout=120).stdout
    rows = []
    for line in report.splitlines():
        match = re.match(r"\s*([\d.]+)%\s+(\S+)", line)
        if match and float(match.group(1)) >= 0.5:
            rows.append({"share": float(match.group(1)), "dso": match.group(2)})
    return rows


def _perf_top(data_file, limit=22):
    report = subprocess.run(["perf", "report", "-i", data_file, "--children", "--sort", "symbol", "--stdio",
                             "-g", "none", "--percent-limit", "0.5"], capture_output=True, text=True,
                            timeout=120).stdout
    rows = []
    for line in report.splitlines():
        match = re.match(r"\s*([\d.]+)%\s+([\d.]+)%\s+\[(.)\]\s+(.*?)\s*$", line)
        if match:
            rows.append((float(match.group(1)), float(match.group(2)), match.group(3), match.group(4)))
    names = _demangle([row[3] for row in rows])
    picked = []
    seen = set()
    for (total, own, kind, _), name in zip(rows, names):
        name = re.sub(r"(\s+-)+\s*$", "", name).strip()
        short = re.sub(r"\(.*", "", name.replace("specialized ", "").replace("static ", ""))
        if NOISE.search(name) or not INTERESTING.search(name) or short in seen:
            continue
        seen.add(short)
        picked.append({"inclusive": total, "self": own, "kernel": kind == "k", "symbol": short[:90]})
        if len(picked) >= limit:
            break
    return picked


def _record(pid, data_file):
    return subprocess.Popen(["perf", "record", "-e", "cpu-clock", "-F", "2000", "-g", "-p", str(pid), "-o", data_file],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _stop(proc):
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


def server_profiles(binary, exe, out_dir):
    if not shutil.which("perf"):
        return {"skipped": "perf is not installed"}
    results = {}
    with StackWebServer(binary, stderr_path=os.path.join(out_dir, "server-profile.log")) as server:
        room = "bench-profile"
        x, y = top_card(server.port, room)
        client = LoadClient(exe, server.port, room)
        try:
            client.open(100)
            client.drain(0.8)
            data = os.path.join(out_dir, "perf-move.data")
            recorder = _record(server.pid, data)
            time.sleep(0.5)
            phase = client.drag("bench-profile", 800, 8.0, 10.0, x, y)
            _stop(recorder)
        finally:
            client.close()
        results["move_100_viewers"] = {"moves": phase["moves"], "top": _perf_top(data), "dso": _perf_dso(data)}
        data = os.path.join(out_dir, "perf-static.data")
        recorder = _record(server.pid, data)
        time.sleep(0.5)
        rate = wrk(server.port, "/main.js", 3, 32)["rps"]
        _stop(recorder)
        results["static_main_js"] = {"rps": rate, "top": _perf_top(data), "dso": _perf_dso(data)}
    log("profile: server profiles recorded")
    return results


def model_profile(build_dir, size=1000, rounds=5000):
    """callgrind on the model bench: instructions per pointer move, by function (inclusive)."""
    binary = os.path.join(build_dir, "model-bench")
    if not shutil.which("valgrind") or not os.path.exists(binary):
        return {"skipped": "valgrind or the model bench is missing"}
    out = os.path.join(build_dir, "callgrind.out")
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary, str(size)],
                   env={**os.environ, "MODEL_BENCH_ROUNDS": str(rounds), "MODEL_BENCH_ONLY_MOVES": "1"},
                   capture_output=True, timeout=600)
    annotated = subprocess.run(["callgrind_annotate", "--inclusive=yes", out], capture_output=True, text=True,
                               timeout=120).stdout
    rows = []
    for line in annotated.splitlines():
        match = re.match(r"\s*([\d,]+) \(\s*([\d.]+)%\)\s+\S*?:(.*?) \[", line)
        if match:
            rows.append((int(match.group(1).replace(",", "")), float(match.group(2)), match.group(3)))
    names = _demangle([row[2] for row in rows])
    handle_calls = rounds + 1  # the moves and the down before them
    top = []
    seen = set()
    for (count, share, _), name in zip(rows, names):
        short = re.sub(r"\(.*", "", name.replace("specialized ", "").replace("static ", "")).strip()
        if (short in seen or "ModelBench" in short or "timed" in short or short.startswith(("0x", "???", "(below"))
                or not short or "libc_start" in short or short in ("main", "_start")):
            continue
        seen.add(short)
        top.append({"instructions_per_handle": count / handle_calls, "share": share, "symbol": short[:90]})
        if len(top) >= 16:
            break
    log("profile: model callgrind done")
    return {"size": size, "moves": rounds, "top": top}
