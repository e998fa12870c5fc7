"""A group of instances sharing rooms through Redis (docs/scale-out.md), beside one instance alone:
pointer move -> change at a viewer of another instance, what a change costs in Redis, and how long
a room takes to move again after its owner is killed.

The client is Python (selectors over plain sockets), so its figures include Python's own time; the
single-instance figures beside them are taken by the same client in the same run.
"""

import http.client
import json
import os
import selectors
import shutil
import signal
import socket
import subprocess
import tempfile
import time

from common import HOST, StackWebServer, free_port, log, summary

VIEWERS_PER_INSTANCE = 100
MOVES = 200
MOVE_INTERVAL_S = 0.008
FAILOVER_RUNS = 3


class Redis:
    def __init__(self):
        self.folder = tempfile.mkdtemp(prefix="stackweb-bench-redis-")
        self.port = free_port()
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", HOST, "--save", "", "--appendonly", "no",
             "--dir", self.folder], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while self.command("PING") != "PONG":
            if time.monotonic() > deadline:
                raise RuntimeError("redis-server did not answer")
            time.sleep(0.05)

    @property
    def url(self):
        return f"redis://{HOST}:{self.port}/0"

    def command(self, *words):
        """One command in the inline protocol: a bulk reply's payload, else the first line without its type byte."""
        try:
            with socket.create_connection((HOST, self.port), timeout=2) as connection:
                connection.sendall((" ".join(words) + "\r\n").encode())
                reply = b""
                while b"\r\n" not in reply:
                    chunk = connection.recv(1 << 20)
                    if not chunk:
                        return None
                    reply += chunk
                head, _, rest = reply.partition(b"\r\n")
                if not head.startswith(b"$") or head == b"$-1":
                    return head[1:].decode() if not head.startswith(b"$") else None
                length = int(head[1:])
                while len(rest) < length + 2:
                    chunk = connection.recv(1 << 20)
                    if not chunk:
                        break
                    rest += chunk
                return rest[:length].decode()
        except OSError:
            return None

    def info(self, section):
        text = self.command("INFO", section) or ""
        return dict(line.split(":", 1) for line in text.splitlines() if ":" in line and not line.startswith("#"))

    def commands_and_bytes(self):
        stats = self.info("stats")
        return int(stats.get("total_commands_processed", 0)), int(stats.get("total_net_input_bytes", 0))

    def close(self):
        self.proc.kill()
        self.proc.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


class Viewers:
    """Event-stream viewers over plain sockets, read together with one selector."""

    def __init__(self, port_counts, room):
        self.selector = selectors.DefaultSelector()
        self.sockets = []
        for port, count in port_counts:
            for _ in range(count):
                connection = socket.create_connection((HOST, port))
                connection.sendall(f"GET /api/rooms/{room}/events HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
                                   "Accept: text/event-stream\r\n\r\n".encode())
                connection.setblocking(False)
                self.selector.register(connection, selectors.EVENT_READ, len(self.sockets))
                self.sockets.append(connection)
        self.text = [b""] * len(self.sockets)
        self.wait_for(b"event: snapshot", timeout=20)

    def wait_for(self, marker, timeout=5.0):
        """Reads until every viewer has `marker` after what it had; the time each one got it."""
        got = {}
        deadline = time.monotonic() + timeout
        while len(got) < len(self.sockets) and time.monotonic() < deadline:
            for key, _ in self.selector.select(max(0.0, deadline - time.monotonic())):
                index = key.data
                try:
                    chunk = key.fileobj.recv(1 << 16)
                except BlockingIOError:
                    continue
                self.text[index] += chunk
                if index not in got and marker in self.text[index]:
                    got[index] = time.monotonic()
                    self.text[index] = self.text[index].split(marker, 1)[1]
        return got

    def close(self):
        for connection in self.sockets:
            connection.close()


def _post(port, path, body):
    connection = http.client.HTTPConnection(HOST, port, timeout=10)
    connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, data


def _drag(poster_port, viewers, viewer_ports, moves, redis=None):
    """A down, then `moves` moves posted at `poster_port`; per move the time until each viewer got it."""
    connection = http.client.HTTPConnection(HOST, poster_port, timeout=10)

    def post(events):
        connection.request("POST", "/api/rooms/bench/pointer", json.dumps({"viewer": "bench", "events": events}),
                           {"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        return response.status

    t = 1000.0
    post([{"type": "down", "pointer": 1, "x": 512, "y": 384, "t": t}])
    viewers.wait_for(b"event: change")
    latencies, lost = [], 0
    before = redis.commands_and_bytes() if redis else None
    for move in range(moves):
        t += MOVE_INTERVAL_S * 1000
        x = 512 + (20 if move % 2 == 0 else -20) + move % 7
        started = time.monotonic()
        if post([{"type": "move", "pointer": 1, "x": x, "y": 384, "t": t}]) != 200:
            lost += 1
            continue
        got = viewers.wait_for(b"event: change")
        lost += len(viewers.sockets) - len(got)
        latencies += [(at - started) * 1000 for index, at in got.items() if viewer_ports[index]]
        left = MOVE_INTERVAL_S - (time.monotonic() - started)
        if left > 0:
            time.sleep(left)
    after = redis.commands_and_bytes() if redis else None
    post([{"type": "up", "pointer": 1, "x": 512, "y": 384, "t": t + 8}])
    connection.close()
    return latencies, lost, before, after


def _group(binary, redis, size, out):
    instances = []
    for number in range(1, size + 1):
        instances.append(StackWebServer(binary, args=["--redis", redis.url, "--instance-id", f"b{number}"],
                                        stderr_path=os.path.join(out, f"group-b{number}.log")).start())
    return instances


def _room_owner(redis, room):
    return redis.command("GET", f"stackweb:{{{room}}}:lease")


def move_latency(binary, out):
    results = {"viewers_per_instance": VIEWERS_PER_INSTANCE, "moves": MOVES}
    alone = StackWebServer(binary, stderr_path=os.path.join(out, "group-alone.log")).start()
    try:
        _post(alone.port, "/api/rooms/bench/commands", {"command": "next"})
        viewers = Viewers([(alone.port, VIEWERS_PER_INSTANCE)], "bench")
        latencies, lost, _, _ = _drag(alone.port, viewers, [True] * len(viewers.sockets), MOVES)
        viewers.close()
        results["single"] = {"any_viewer": summary(latencies), "lost": lost}
    finally:
        alone.stop()

    redis = Redis()
    instances = _group(binary, redis, 3, out)
    try:
        # The first POST makes the room and its first instance its owner.
        _post(instances[0].port, "/api/rooms/bench/commands", {"command": "next"})
        owner = next(i for i in instances if f"b{instances.index(i) + 1}" == _room_owner(redis, "bench"))
        ports = [(i.port, VIEWERS_PER_INSTANCE) for i in instances]
        viewers = Viewers(ports, "bench")
        elsewhere = [port != owner.port for port, count in ports for _ in range(count)]
        started = time.monotonic()
        latencies, lost, before, after = _drag(owner.port, viewers, elsewhere, MOVES, redis)
        took = time.monotonic() - started
        # Redis's own background (leases, presence, blocked reads) over an idle interval as long as the drag.
        idle_start = redis.commands_and_bytes()
        time.sleep(took)
        idle_end = redis.commands_and_bytes()
        viewers.close()
        background = ((idle_end[0] - idle_start[0]), (idle_end[1] - idle_start[1]))
        results["group"] = {
            "any_viewer_elsewhere": summary(latencies), "lost": lost, "instances": len(instances),
            "commands_per_move": (after[0] - before[0] - background[0]) / MOVES,
            "bytes_in_per_move": (after[1] - before[1] - background[1]) / MOVES,
            "background_commands_per_s": background[0] / took,
        }
        single, group = results["single"]["any_viewer"]["p50"], results["group"]["any_viewer_elsewhere"]["p50"]
        results["p50_ratio"] = group / single if single else None
    finally:
        for instance in instances:
            instance.stop()
        redis.close()
    return results


def failover(binary, out):
    runs = []
    for run in range(FAILOVER_RUNS):
        redis = Redis()
        instances = _group(binary, redis, 3, out)
        try:
            _post(instances[0].port, "/api/rooms/bench/commands", {"command": "next"})
            owner_id = _room_owner(redis, "bench")
            owner = instances[int(owner_id[1:]) - 1]
            survivor = next(i for i in instances if i is not owner)
            viewers = Viewers([(survivor.port, 1)], "bench")
            owner.proc.send_signal(signal.SIGKILL)
            owner.proc.wait()
            killed = time.monotonic()
            status = 0
            while status != 200 and time.monotonic() - killed < 15:
                status, _ = _post(survivor.port, "/api/rooms/bench/commands", {"command": "next"})
                if status != 200:
                    time.sleep(0.05)
            got = viewers.wait_for(b"event: change", timeout=15)
            viewers.close()
            runs.append(round(got[0] - killed, 3) if got else None)
            log(f"failover run {run + 1}: {runs[-1]} s")
        finally:
            for instance in instances:
                instance.stop()
            redis.close()
    measured = [r for r in runs if r is not None]
    return {"runs_s": runs, "p50_s": sorted(measured)[len(measured) // 2] if measured else None,
            "max_s": max(measured) if measured else None}


def run(binary, out):
    if not shutil.which("redis-server"):
        return {"skipped": "redis-server is not installed"}
    os.makedirs(out, exist_ok=True)
    return {"latency": move_latency(binary, out), "failover": failover(binary, out),
            "command": "python3 Benchmarks/bench.py --only group"}
