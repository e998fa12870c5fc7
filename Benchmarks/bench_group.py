"""A group of instances sharing rooms through Redis (docs/scale-out.md), beside one instance alone:
pointer move -> change at a viewer of another instance, one change -> 30,000 viewers over three
instances, what a change costs in Redis, and how long a room takes to move again after its owner is
killed.

Viewers and poster are the C `sseload client` (one epoll loop: it posts at the owner and watches
every instance); the single-instance figures beside them are taken by the same client in the same run.
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

from bench_viewers import FloorServer, LoadClient, top_card
from common import HOST, StackWebServer, free_port, log, summary

ROOM = "bench"
VIEWERS_PER_INSTANCE = 100
MOVES = 1000
MOVE_INTERVAL_MS = 8.0
MOVE_CAP_S = 20.0
FAN_OUT_PER_INSTANCE = 10_000
FAN_OUT_CHANGES = 20
# Open loop: a change every second, well past the time one takes to reach every viewer, so that
# changes do not queue behind each other.
FAN_OUT_INTERVAL_MS = 1000.0
FAN_OUT_AFTER_S = 2.0
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


def _group(binary, redis, size, out):
    instances = []
    for number in range(1, size + 1):
        instances.append(StackWebServer(binary, args=["--redis", redis.url, "--instance-id", f"b{number}"],
                                        stderr_path=os.path.join(out, f"group-b{number}.log")).start())
    return instances


def _room_owner(redis, room):
    return redis.command("GET", f"stackweb:{{{room}}}:lease")


def _owned_group(binary, redis, out):
    """Three instances and the room made at the first: (instances, its owner)."""
    instances = _group(binary, redis, 3, out)
    _post(instances[0].port, f"/api/rooms/{ROOM}/commands", {"command": "next"})
    owner = instances[int(_room_owner(redis, ROOM)[1:]) - 1]
    return instances, owner


def _open(client, port, count, measured=True):
    opened, failed, reasons = client.open(count, port=port, measured=measured)
    if failed:
        raise RuntimeError(f"{failed} of {count} viewers at port {port} were refused: {reasons}")


def _drag(client, port, moves, interval_ms, cap_s):
    x, y = top_card(port, ROOM)
    client.drain(0.8)  # the coalesced presence event goes out and is read
    return client.drag("bench", moves, interval_ms, cap_s, x, y)


def _alone(exe, port, viewers):
    client = LoadClient(exe, port, ROOM)
    try:
        _open(client, port, viewers)
        return _drag(client, port, MOVES, MOVE_INTERVAL_MS, MOVE_CAP_S)
    finally:
        client.close()


def move_latency(binary, exe, out):
    """A pointer move posted at the room's owner -> the change at viewers of the two other
    instances (100 viewers on each of the three), beside one instance alone with 100 viewers."""
    results = {"viewers_per_instance": VIEWERS_PER_INSTANCE, "moves": MOVES, "interval_ms": MOVE_INTERVAL_MS}
    # Peers in the same run: one instance with as many viewers as one of the group's, and with as many
    # as the whole group's (the same sends on the same two cores); the trivial C server (the floor).
    for key, viewers in (("single", VIEWERS_PER_INSTANCE), ("single_all", 3 * VIEWERS_PER_INSTANCE)):
        with StackWebServer(binary, stderr_path=os.path.join(out, "group-alone.log")) as alone:
            _post(alone.port, f"/api/rooms/{ROOM}/commands", {"command": "next"})
            results[key] = _alone(exe, alone.port, viewers)
        log(f"group: one instance, {viewers} viewers, move -> viewer p50 {results[key]['any_viewer']['p50']:.3f} ms")
    floor = FloorServer(exe, out)
    try:
        results["floor"] = _alone(exe, floor.port, VIEWERS_PER_INSTANCE)
    finally:
        floor.stop()

    redis = Redis()
    instances, owner = _owned_group(binary, redis, out)
    try:
        client = LoadClient(exe, owner.port, ROOM)
        try:
            for instance in instances:
                _open(client, instance.port, VIEWERS_PER_INSTANCE, measured=instance is not owner)
            before = redis.commands_and_bytes()
            group = _drag(client, owner.port, MOVES, MOVE_INTERVAL_MS, MOVE_CAP_S)
            after = redis.commands_and_bytes()
            # Redis's own background (leases, presence, blocked reads) over an idle interval as long as the drag.
            client.drain(group["seconds"])
            idle_end = redis.commands_and_bytes()
        finally:
            client.close()
        background = (idle_end[0] - after[0], idle_end[1] - after[1])
        posts = group["moves"] + group["unchanged"] + group["lost"] + group["refused"] + 2  # with the down and up
        took = group["seconds"]
        group.update({
            "instances": len(instances),
            "commands_per_move": (after[0] - before[0] - background[0]) / posts,
            "bytes_in_per_move": (after[1] - before[1] - background[1]) / posts,
            "background_commands_per_s": background[0] / took,
        })
        results["group"] = group
        single, elsewhere = results["single"]["any_viewer"]["p50"], group["any_viewer"]["p50"]
        results["p50_ratio"] = elsewhere / single if single else None
        results["p99_ratio"] = group["any_viewer"]["p99"] / results["single"]["any_viewer"]["p99"]
        log(f"group: move -> viewer elsewhere p50 {elsewhere:.3f} ms ({results['p50_ratio']:.2f}x)")
    finally:
        for instance in instances:
            instance.stop()
        redis.close()
    return results


def _pulse(exe, poster_port, ports):
    """`FAN_OUT_PER_INSTANCE` viewers at each of `ports`, one client process per port (a process
    holds at most the descriptor limit); the first also posts `FAN_OUT_CHANGES` moves at
    `poster_port`, one every `FAN_OUT_INTERVAL_MS`, while the others record when each change
    reached their viewers. Per change: the time from its post to its first and its last viewer."""
    clients = []
    try:
        for port in ports:
            clients.append(LoadClient(exe, port, ROOM))
            _open(clients[-1], port, FAN_OUT_PER_INSTANCE)
        viewers = sum(client.open_count() for client in clients)
        x, y = top_card(poster_port, ROOM)
        for client in clients:
            client.drain(0.8)  # the coalesced presence event goes out and is read
        span = FAN_OUT_CHANGES * FAN_OUT_INTERVAL_MS / 1000 + FAN_OUT_AFTER_S
        for client in clients[1:]:
            client.watch(span + 2)
        sent, arrivals, refused = clients[0].pulse("bench", FAN_OUT_CHANGES, FAN_OUT_INTERVAL_MS, x, y,
                                                   FAN_OUT_AFTER_S)
        everyone = [arrivals] + [client.arrivals() for client in clients[1:]]
    finally:
        for client in clients:
            client.close()
    firsts, lasts, lost = [], [], 0
    for seq, at in sent.items():
        got = [part[seq] for part in everyone if seq in part]
        reached = sum(count for count, _, _ in got)
        lost += viewers - reached
        if reached:
            firsts.append((min(first for _, first, _ in got) - at) / 1000)
            lasts.append((max(last for _, _, last in got) - at) / 1000)
    return {"viewers": viewers, "changes": len(sent), "refused": refused, "lost": lost,
            "first_viewer": summary(firsts), "last_viewer": summary(lasts)}


def fan_out(binary, exe, out):
    """One change -> the last of 30,000 viewers spread over three instances (10,000 each), beside
    one instance alone with 10,000 (the same load per instance)."""
    results = {"viewers_per_instance": FAN_OUT_PER_INSTANCE, "changes": FAN_OUT_CHANGES,
               "interval_ms": FAN_OUT_INTERVAL_MS}
    with StackWebServer(binary, stderr_path=os.path.join(out, "group-fanout-alone.log")) as alone:
        _post(alone.port, f"/api/rooms/{ROOM}/commands", {"command": "next"})
        results["single"] = _pulse(exe, alone.port, [alone.port])
    log(f"group fan-out: one instance, {results['single']['viewers']} viewers, last viewer p50 "
        f"{results['single']['last_viewer']['p50']:.1f} ms")

    redis = Redis()
    instances, owner = _owned_group(binary, redis, out)
    try:
        others = [instance.port for instance in instances if instance is not owner]
        results["group"] = _pulse(exe, owner.port, [owner.port, *others])
        results["group"]["instances"] = len(instances)
        single, group = results["single"]["last_viewer"]["p50"], results["group"]["last_viewer"]["p50"]
        results["last_viewer_p50_ratio"] = group / single if single else None
        log(f"group fan-out: {results['group']['viewers']} viewers over 3 instances, last viewer p50 {group:.1f} ms "
            f"(lost {results['group']['lost']})")
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


def _alone_keyed(exe, port, viewers, keyed):
    client = LoadClient(exe, port, ROOM, keyed=keyed)
    try:
        _open(client, port, viewers)
        return _drag(client, port, MOVES, MOVE_INTERVAL_MS, MOVE_CAP_S)
    finally:
        client.close()


def idempotency_cost(binary, exe, out, rounds=3):
    """Pointer move -> viewer at one instance (100 viewers), every POST with an Idempotency-Key (as
    the page sends them) against none, alternating in the same run: what remembering the answers
    costs. The ratio is of the medians' medians."""
    keyed, plain = [], []
    with StackWebServer(binary, stderr_path=os.path.join(out, "group-keys.log")) as alone:
        _post(alone.port, f"/api/rooms/{ROOM}/commands", {"command": "next"})
        for _ in range(rounds):
            plain.append(_alone_keyed(exe, alone.port, VIEWERS_PER_INSTANCE, False)["any_viewer"]["p50"])
            keyed.append(_alone_keyed(exe, alone.port, VIEWERS_PER_INSTANCE, True)["any_viewer"]["p50"])
    middle = lambda values: sorted(values)[len(values) // 2]  # noqa: E731
    ratio = middle(keyed) / middle(plain) if middle(plain) else None
    log(f"idempotency: move -> viewer p50 keyed {middle(keyed):.3f} ms, plain {middle(plain):.3f} ms ({ratio:.3f}x)")
    return {"rounds": rounds, "keyed_p50_ms": keyed, "plain_p50_ms": plain, "ratio": ratio}


def redis_return(binary, out, runs=3, stall_s=4.0):
    """Redis frozen (SIGSTOP) for `stall_s`, past the leases: from SIGCONT to the first lasting
    command acknowledged, posted again and again (with one Idempotency-Key) at a non-owner and at the
    owner of before."""
    results = []
    for run in range(runs):
        redis = Redis()
        instances = _group(binary, redis, 2, out)
        try:
            _post(instances[0].port, f"/api/rooms/{ROOM}/commands", {"command": "next"})
            redis.proc.send_signal(signal.SIGSTOP)
            time.sleep(stall_s)
            redis.proc.send_signal(signal.SIGCONT)
            resumed = time.monotonic()
            status, tries = 0, 0
            while status != 200 and time.monotonic() - resumed < 15:
                tries += 1
                port = instances[tries % 2].port
                connection = http.client.HTTPConnection(HOST, port, timeout=10)
                connection.request("POST", f"/api/rooms/{ROOM}/commands", json.dumps({"command": "next"}),
                                   {"Content-Type": "application/json", "Idempotency-Key": f"return-{run}"})
                response = connection.getresponse()
                response.read()
                connection.close()
                status = response.status
                if status != 200:
                    time.sleep(0.02)
            results.append(round(time.monotonic() - resumed, 3) if status == 200 else None)
            log(f"redis back, run {run + 1}: first acknowledgement after {results[-1]} s")
        finally:
            for instance in instances:
                instance.stop()
            redis.close()
    measured = sorted(r for r in results if r is not None)
    return {"stall_s": stall_s, "runs_s": results, "p50_s": measured[len(measured) // 2] if measured else None,
            "max_s": measured[-1] if measured else None}


def run(binary, exe, out):
    """`exe` is the `sseload` client (see sseload.c)."""
    if not shutil.which("redis-server"):
        return {"skipped": "redis-server is not installed"}
    os.makedirs(out, exist_ok=True)
    return {"latency": move_latency(binary, exe, out), "fan_out": fan_out(binary, exe, out),
            "failover": failover(binary, out), "redis_return": redis_return(binary, out),
            "idempotency": idempotency_cost(binary, exe, out),
            "command": "python3 Benchmarks/bench.py --only group"}
