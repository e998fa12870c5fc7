"""Items 1-3 of issue #7: pointer move -> SSE event at the viewers, fan-out, idle viewers.

The viewers and the poster are `sseload client` (C, one epoll loop; see sseload.c), driven line by
line from here. The floor is the same client against `sseload serve`, a plain epoll server that
answers the same routes with no work behind them, measured in the same run.
"""

import http.client
import json
import os
import re
import select
import subprocess
import time

from common import (HOST, StackWebServer, cpu_seconds, descriptor_count, log, memory_kib, steal_share,
                    summary)

HERE = os.path.dirname(os.path.abspath(__file__))


class LoadClient:
    """`sseload client PORT ROOM`: one command per line, answered by data lines and an `ok` line."""

    def __init__(self, exe, port, room, keyed=False, shapes=()):
        """`keyed`: every POST carries an Idempotency-Key (as the page's do); `shapes`: the window
        sizes the viewers report, dealt out in turn (none: the room's own stage)."""
        self.port = port
        env = dict(os.environ)
        if keyed:
            env["SSELOAD_IDEMPOTENCY"] = "1"
        if shapes:
            env["SSELOAD_SHAPES"] = ",".join(shapes)
        self.proc = subprocess.Popen([exe, "client", str(port), room], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, bufsize=0, env=env)
        self.pending = b""

    def _line(self, deadline):
        """One line of the answer, read straight from the pipe (select sees no buffered data)."""
        while b"\n" not in self.pending:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.proc.stdout], [], [], left)[0]:
                return None
            chunk = os.read(self.proc.stdout.fileno(), 1 << 20)
            if not chunk:
                raise RuntimeError("sseload exited")
            self.pending += chunk
        line, _, self.pending = self.pending.partition(b"\n")
        return line.decode()

    def call(self, command, timeout=120.0):
        self.send(command)
        return self.answer(command, timeout)

    def send(self, command):
        """Starts `command` without waiting: `answer` reads what it says (clients run side by side)."""
        self.proc.stdin.write((command + "\n").encode())

    def answer(self, command, timeout=120.0):
        data = {}
        deadline = time.monotonic() + timeout
        while True:
            line = self._line(deadline)
            if line is None:
                self.close()
                raise TimeoutError(f"sseload: no answer to {command!r} within {timeout} s")
            name, _, rest = line.partition(" ")
            if name == "ok":
                data["ok"] = rest.split()
                return data
            if name == "error":
                raise RuntimeError(f"sseload: {rest}")
            data[name] = [float(x) for x in rest.split()]

    def open(self, count, wave_timeout=10.0, port=None, measured=True):
        """Opens `count` more viewers (waves of 250, each given `wave_timeout` s to get its snapshots)
        at `port` (the poster's by default); viewers not `measured` are waited for but left out of
        the figures. Returns (opened, failed, {reason: count})."""
        if count <= 0:
            return 0, 0, {}
        where = f" {port if port is not None else self.port} {1 if measured else 0}"
        fields = self.call(f"open {count} {wave_timeout}{where}", wave_timeout * (count / 250 + 2) + 10)["ok"]
        reasons = dict((r.split(":")[0], int(r.split(":")[1])) for r in fields[2:])
        return int(fields[0]), int(fields[1]), reasons

    def open_count(self):
        return int(self.call("count")["ok"][0])

    def drain(self, seconds):
        fields = self.call(f"drain {seconds}", seconds + 30)["ok"]
        return int(fields[0]), int(fields[1])

    def get(self, rounds, path):
        """`rounds` GETs on the keep-alive poster connection: round trips in ms."""
        return [us / 1000 for us in self.call(f"get {rounds} {path}")["samples"]]

    def drag(self, viewer, moves, interval_ms, cap_s, x, y):
        out = self.call(f"drag {viewer} {moves} {interval_ms} {cap_s} {x} {y}", cap_s + 60)
        n, p50, p90, p99, p999, top = out["pairs"]
        measured, lost, refused, unchanged, seconds, open_count = out["ok"]
        ms = lambda values: [v / 1000 for v in values]  # noqa: E731
        return {
            "moves": int(measured), "lost": int(lost), "refused": int(refused), "unchanged": int(unchanged),
            "seconds": float(seconds), "viewers": int(open_count),
            "any_viewer": {"n": int(n), "p50": p50 / 1000, "p90": p90 / 1000, "p99": p99 / 1000,
                           "p99.9": p999 / 1000, "max": top / 1000},
            "answer": summary(ms(out.get("answer", []))), "first_viewer": summary(ms(out.get("first", []))),
            "last_viewer": summary(ms(out.get("last", []))),
        }

    def watch(self, seconds):
        """Starts recording every change's arrivals for `seconds` (`arrivals` reads them)."""
        self.send(f"watch {seconds}")
        self.watching = seconds

    def arrivals(self):
        """{seq: (count, first_us, last_us)} recorded by `watch` or `pulse`."""
        return _arrivals(self.answer("watch", self.watching + 60))

    def pulse(self, viewer, moves, interval_ms, x, y, after_s):
        """A down, `moves` moves on a fixed clock, the up: ({seq: sent_us}, arrivals, refused)."""
        out = self.call(f"pulse {viewer} {moves} {interval_ms} {x} {y} {after_s}",
                        moves * interval_ms / 1000 + after_s + 60)
        flat = out.get("sent", [])
        sent = {int(flat[i]): flat[i + 1] for i in range(0, len(flat), 2)}
        return sent, _arrivals(out), int(out["ok"][1])

    def close(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write(b"quit\n")
                self.proc.stdin.close()
                self.proc.wait(10)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait(5)


def _arrivals(out):
    flat = out.get("arrivals", [])
    return {int(flat[i]): (int(flat[i + 1]), flat[i + 2], flat[i + 3]) for i in range(0, len(flat), 4)}


class FloorServer:
    """`sseload serve`: the trivial server the floor is measured against."""

    def __init__(self, exe, out_dir, change_bytes=420):
        port_file = os.path.join(out_dir, "floor-server.port")
        if os.path.exists(port_file):
            os.remove(port_file)
        self.proc = subprocess.Popen([exe, "serve", port_file, str(change_bytes)], stdin=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while not os.path.exists(port_file):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError("sseload serve did not start")
            time.sleep(0.02)
        with open(port_file) as port:
            self.port = int(port.read())
        self.pid = self.proc.pid

    def stop(self):
        try:
            self.proc.stdin.close()
            self.proc.wait(5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait(5)


def _get(port, path):
    connection = http.client.HTTPConnection(HOST, port, timeout=10)
    try:
        connection.request("GET", path)
        return connection.getresponse().read()
    finally:
        connection.close()


def top_card(port, room, timeout=60.0):
    """Where the room's top card is (the snapshot's first card); also loads the room.

    A server answers before it has read its photo folder: the library fills in the background and
    a room has no cards until then. So this waits as a page would, until the room has cards, and
    also until the server says it has read every photo (`stackweb_photos_reading 0` in /metrics),
    so that no photo arriving later moves the card the measurement drags."""
    deadline = time.monotonic() + timeout
    while True:
        snapshot = json.loads(_get(port, f"/api/rooms/{room}"))
        metrics = _get(port, "/metrics")
        reading = re.search(rb"^stackweb_photos_reading 1$", metrics, re.MULTILINE) is not None
        if snapshot.get("cards") and not reading:
            return snapshot["cards"][0]["x"], snapshot["cards"][0]["y"]
        if time.monotonic() > deadline:
            raise RuntimeError(f"room {room} has no cards {timeout:.0f} s after the start "
                               f"(photos still being read: {reading})")
        time.sleep(0.05)


def _drag_phases(exe, port, pid, room, counts, moves, interval_ms, cap_s, floor_rounds, tag, shapes=()):
    client = LoadClient(exe, port, room, shapes=shapes)
    phases = []
    try:
        x, y = top_card(port, room)
        for count in counts:
            opened, failed, reasons = client.open(count - client.open_count())
            viewers = client.open_count()
            log(f"{tag}: {viewers} viewers open (asked {count}; refused {failed} {reasons})")
            client.drain(0.8)  # the coalesced presence event goes out and is read
            healthz = client.get(floor_rounds // 2, "/healthz")
            cpu_before, steal_before = cpu_seconds(pid), steal_share()
            phase = client.drag(f"bench-{count}", moves, interval_ms, cap_s, x, y)
            cpu = cpu_seconds(pid) - cpu_before
            healthz += client.get(floor_rounds // 2, "/healthz")
            phase.update({"asked": count, "refused_viewers": failed, "refusals": reasons,
                          "healthz": summary(healthz), "steal": steal_share(steal_before),
                          "server_cpu_ms_per_change": cpu * 1000 / max(1, phase["moves"]),
                          "server_cpu_share": cpu / max(1e-9, phase["seconds"])})
            log(f"{tag}: {viewers} viewers, {phase['moves']} changes: any viewer p50 "
                f"{phase['any_viewer']['p50']:.3f} p99 {phase['any_viewer']['p99']:.3f} ms, last viewer p50 "
                f"{phase['last_viewer']['p50']:.3f} ms; healthz p50 {phase['healthz']['p50']:.3f} ms")
            phases.append(phase)
            if failed and viewers < count:
                break
    finally:
        client.close()
    return phases


def move_latency(binary, exe, out_dir, counts=(1, 100, 1000), moves=2500, interval_ms=8.0, cap_s=25.0,
                 floor_rounds=2000):
    """Item 1: POST one move -> the change at every viewer, closed loop, at most one move every
    `interval_ms` (a 125 Hz pointer); 1 / 100 / 1,000 viewers, added between phases."""
    results = {"interval_ms": interval_ms, "moves": moves}
    with StackWebServer(binary, stderr_path=os.path.join(out_dir, "server-latency.log")) as server:
        results["stackweb"] = _drag_phases(exe, server.port, server.pid, "bench-latency", counts, moves,
                                           interval_ms, cap_s, floor_rounds, "latency")
    floor = FloorServer(exe, out_dir)
    try:
        results["floor"] = _drag_phases(exe, floor.port, floor.pid, "bench-latency", counts, min(moves, 1500),
                                        interval_ms, cap_s / 2, floor_rounds, "latency floor")
    finally:
        floor.stop()
    return results


def fan_out(binary, exe, out_dir, counts=(10, 100, 1000, 4000, 10000), changes=30):
    """Item 2: one change -> the time until the last of N viewers has it; a change every 40 ms at
    most, each only once the previous one reached every viewer."""
    results = {"changes": changes}
    with StackWebServer(binary, stderr_path=os.path.join(out_dir, "server-fanout.log")) as server:
        results["stackweb"] = _drag_phases(exe, server.port, server.pid, "bench-fanout", counts, changes, 40.0,
                                           20.0, 200, "fan-out")
        results["server_fds"] = descriptor_count(server.pid)
        results["server_stderr"] = server.stderr_tail(400)
    floor = FloorServer(exe, out_dir)
    try:
        reached = [phase["viewers"] for phase in results["stackweb"]]
        results["floor"] = _drag_phases(exe, floor.port, floor.pid, "bench-fanout", reached, changes, 40.0,
                                        20.0, 200, "fan-out floor")
    finally:
        floor.stop()
    return results


def idle(binary, exe, out_dir, counts=(1000, 10000), window=15.5):
    """Item 3: server CPU over a window longer than the 15 s heartbeat, and resident memory, with
    N idle viewers; per-viewer memory is the growth over the same server with none."""
    results = {"window_s": window, "steps": []}
    room = "bench-idle"
    with StackWebServer(binary, stderr_path=os.path.join(out_dir, "server-idle.log")) as server:
        top_card(server.port, room)  # the room is loaded before the baseline
        client = LoadClient(exe, server.port, room)
        try:
            # One viewer in and out first, so that what the first stream allocates once is in the baseline.
            client.open(1)
            client.drain(0.7)
            client.close()
            client = LoadClient(exe, server.port, room)
            client.drain(1.0)
            base = memory_kib(server.pid)
            cpu_before = cpu_seconds(server.pid)
            client.drain(5.0)
            results["baseline"] = {"memory_kib": base, "cpu_share": (cpu_seconds(server.pid) - cpu_before) / 5.0}
            log(f"idle: baseline RSS {base['rss']} KiB")
            for count in counts:
                started = time.perf_counter()
                opened, failed, reasons = client.open(count - client.open_count())
                connect_s = time.perf_counter() - started
                viewers = client.open_count()
                client.drain(1.5)  # the presence event; the allocator settles
                memory = memory_kib(server.pid)
                cpu_before, steal_before = cpu_seconds(server.pid), steal_share()
                received, still_open = client.drain(window)
                cpu = cpu_seconds(server.pid) - cpu_before
                step = {"asked": count, "viewers": viewers, "refused": failed, "refusals": reasons,
                        "connect_s": connect_s, "memory_kib": memory, "memory_after_kib": memory_kib(server.pid),
                        "per_viewer_kib": (memory["rss"] - base["rss"]) / max(1, viewers),
                        "per_viewer_anon_kib": (memory["anon"] - base["anon"]) / max(1, viewers),
                        "cpu_share": cpu / window, "cpu_ms": cpu * 1000, "steal": steal_share(steal_before),
                        "bytes_per_viewer": received / max(1, viewers), "still_open": still_open,
                        "server_fds": descriptor_count(server.pid)}
                log(f"idle: {viewers} viewers (asked {count}, refused {failed} {reasons}): RSS {memory['rss']} KiB "
                    f"({step['per_viewer_kib']:.1f} KiB/viewer), CPU {step['cpu_share'] * 100:.2f} % of a core")
                results["steps"].append(step)
        finally:
            client.close()
        results["server_stderr"] = server.stderr_tail(400)
    return results
