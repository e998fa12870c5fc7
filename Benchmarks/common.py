"""What every benchmark shares: starting the server, reading a process' CPU and memory, percentiles.

Everything runs on loopback (127.0.0.1) only; every wait here is bounded in time.
"""

import os
import re
import resource
import signal
import socket
import subprocess
import sys
import time

# The page benchmarks wait on the page as the end-to-end tests do, with their helper.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Tests", "e2e"))
from support.waiting import wait_until  # noqa: E402

HOST = "127.0.0.1"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_KIB = os.sysconf("SC_PAGE_SIZE") // 1024


def raise_nofile():
    """Lifts this process' soft descriptor limit to the hard one (thousands of viewers need it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def percentile(values, p):
    """The p-th percentile (0-100), nearest rank, as Resources/web/debug.js computes it."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), -(-p * len(ordered) // 100)))
    return ordered[int(rank) - 1]


def summary(values, points=(50, 90, 99, 99.9)):
    """{'n', 'p50', 'p90', 'p99', 'p99.9', 'max'} of `values` (ms or whatever unit they are in)."""
    ordered = sorted(values)
    out = {"n": len(ordered)}
    for p in points:
        out[f"p{p:g}"] = percentile(ordered, p)
    out["max"] = ordered[-1] if ordered else float("nan")
    return out


def free_port():
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def cpu_seconds(pid):
    """User + system CPU time the process has used so far (all its threads)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def memory_kib(pid):
    """{'rss', 'anon', 'file', 'hwm', 'threads'} of a process from /proc/PID/status, in KiB."""
    values = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, rest = line.partition(":")
            values[key] = rest.strip()

    def kib(key):
        return int(values.get(key, "0 kB").split()[0])

    return {"rss": kib("VmRSS"), "anon": kib("RssAnon"), "file": kib("RssFile"), "hwm": kib("VmHWM"),
            "threads": int(values.get("Threads", "0"))}


def descriptor_count(pid):
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return -1


class StackWebServer:
    """The release binary on an ephemeral loopback port, stopped with SIGTERM (then SIGKILL)."""

    def __init__(self, binary, resources="Resources", args=(), stderr_path=None):
        self.binary = binary
        self.resources = resources
        self.args = list(args)
        # Standard error goes to a file: a full pipe nobody reads would block the server.
        self.stderr_path = stderr_path or os.devnull
        self.proc = None
        self.port = None

    def start(self, timeout=15.0):
        with open(self.stderr_path, "a") as stderr:
            self.proc = subprocess.Popen(
                [self.binary, "--host", HOST, "--port", "0", "--resources", self.resources, *self.args],
                stdout=subprocess.PIPE, stderr=stderr, text=True)
        deadline = time.monotonic() + timeout
        line = ""
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if line or self.proc.poll() is not None:
                break
        # "StackWeb 0.1.0 listening on http://127.0.0.1:PORT/" (http:// has a colon too).
        match = re.search(r"listening on http://[^/]*:(\d+)/", line)
        if not match:
            self.stop()
            raise RuntimeError(f"stackweb did not start: {line!r}")
        self.port = int(match.group(1))
        return self

    @property
    def pid(self):
        return self.proc.pid

    def stop(self, timeout=10.0):
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)

    def stderr_tail(self, limit=2000):
        """The end of what the server wrote on standard error."""
        try:
            with open(self.stderr_path, errors="replace") as stderr:
                return stderr.read()[-limit:]
        except OSError:
            return ""

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


def wait_for(read, accept=bool, timeout=20.0, what="condition"):
    """Calls `read()` until `accept` holds for its answer, and returns it: the end-to-end tests'
    polling (Tests/e2e/support/waiting.py), `what` naming the condition when it times out."""
    return wait_until(read, accept, timeout=timeout, message=what)


def log(message):
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", flush=True)


def _cpu_times():
    with open("/proc/stat") as stat:
        fields = [int(x) for x in stat.readline().split()[1:]]
    return fields[7], sum(fields[:8])  # steal, total


def steal_share(since=None):
    """Without `since`: a mark. With a mark: the share of CPU time the hypervisor took (steal) since
    then - how noisy the shared machine was during a measurement."""
    steal, total = _cpu_times()
    if since is None:
        return steal, total
    return (steal - since[0]) / max(1, total - since[1])
