"""Screens of every shape: what it costs to lay a change out and encode it once per shape class
present. One server, one run: a room whose viewers all report one window size (one class), and a
room whose viewers are spread over four (a 16:9 TV, a 21:9 screen, a portrait phone, a portrait
tablet), the same drag in each, alternately; the figure is the ratio of the two.

With --group, the same in a group of two instances on a redis-server: the viewers watch through
the instance that does not run the room, the drag is posted to the owner, which lays each change
out for the classes the other instance reports and publishes them all in one entry. The figures
are the owner's CPU per change, the other instance's, the bytes Redis holds per change, and the
time for the last viewer to get it, four classes against one.

  python3 Benchmarks/bench_shapes.py [--group] [--bin .build/release/stackweb] [--viewers 1000]
"""

import argparse
import os
import shutil
import sys
import tempfile

from bench_group import Redis
from bench_viewers import LoadClient, _drag_phases, top_card
from common import StackWebServer, cpu_seconds, log

ONE_SHAPE = ("1920x1080",)
FOUR_SHAPES = ("1920x1080", "2560x1080", "390x844", "1080x1920")


def run(binary, exe, out_dir, viewers=1000, changes=200, rounds=3):
    """`rounds` alternations of the two rooms, each `changes` drag moves to `viewers` viewers."""
    results = {"viewers": viewers, "changes": changes, "rounds": []}
    with StackWebServer(binary, stderr_path=os.path.join(out_dir, "server-shapes.log")) as server:
        for round_number in range(rounds):
            measured = {}
            for tag, shapes in (("one", ONE_SHAPE), ("four", FOUR_SHAPES)):
                room = f"bench-shapes-{tag}-{round_number}"
                phase = _drag_phases(exe, server.port, server.pid, room, (viewers,), changes, 40.0, 20.0, 200,
                                     f"shapes ({tag})", shapes=shapes)[0]
                measured[tag] = phase
            ratio = {key: measured["four"][key] / max(1e-9, measured["one"][key])
                     for key in ("server_cpu_ms_per_change",)}
            ratio["last_viewer_p50"] = (measured["four"]["last_viewer"]["p50"]
                                        / max(1e-9, measured["one"]["last_viewer"]["p50"]))
            log(f"shapes: {viewers} viewers, 4 shapes against 1: server CPU per change "
                f"{measured['four']['server_cpu_ms_per_change']:.3f} / {measured['one']['server_cpu_ms_per_change']:.3f} ms "
                f"= {ratio['server_cpu_ms_per_change']:.2f}×, last viewer p50 "
                f"{measured['four']['last_viewer']['p50']:.3f} / {measured['one']['last_viewer']['p50']:.3f} ms "
                f"= {ratio['last_viewer_p50']:.2f}×")
            results["rounds"].append({"one": measured["one"], "four": measured["four"], "ratio": ratio})
    return results


def _owned_room(redis, instances, room):
    """Makes `room` at the first instance; returns (owner, other) once one of them holds its lease."""
    from bench_group import _post, _room_owner
    import time
    _post(instances[0].port, f"/api/rooms/{room}/commands", {"command": "next"})
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        owner = _room_owner(redis, room)
        if owner in ("g1", "g2"):
            index = int(owner[1:]) - 1
            return instances[index], instances[1 - index]
        time.sleep(0.05)
    raise RuntimeError(f"nobody took room {room}")


def _redis_bytes_per_entry(redis, room, count=20):
    """The mean size of the room's last `count` entries in Redis (every field's bytes)."""
    import socket
    with socket.create_connection(("127.0.0.1", redis.port), timeout=5) as connection:
        key = f"stackweb:{{{room}}}:events"
        connection.sendall(f"MEMORY USAGE {key}\r\nXLEN {key}\r\n".encode())
        reply = b""
        while reply.count(b"\r\n") < 2:
            reply += connection.recv(4096)
    usage, length = (int(line[1:]) for line in reply.split(b"\r\n")[:2])
    return usage / max(1, length)


def run_group(binary, exe, out_dir, viewers=1000, changes=200, rounds=3):
    """`rounds` alternations of a room watched in one class and one in four, all viewers at the
    instance that does not run the room, `changes` drag moves posted to the owner."""
    if not shutil.which("redis-server"):
        return {"skipped": "redis-server is not installed"}
    results = {"viewers": viewers, "changes": changes, "rounds": []}
    redis = Redis()
    instances = []
    try:
        for number in (1, 2):
            instances.append(StackWebServer(binary, args=["--redis", redis.url, "--instance-id", f"g{number}"],
                                            stderr_path=os.path.join(out_dir, f"server-shapes-g{number}.log")).start())
        for round_number in range(rounds):
            measured = {}
            for tag, shapes in (("one", ONE_SHAPE), ("four", FOUR_SHAPES)):
                room = f"bench-shapes-group-{tag}-{round_number}"
                owner, other = _owned_room(redis, instances, room)
                client = LoadClient(exe, owner.port, room, shapes=shapes)
                try:
                    opened, failed, reasons = client.open(viewers, port=other.port)
                    if failed:
                        raise RuntimeError(f"{failed} viewers refused: {reasons}")
                    x, y = top_card(owner.port, room)
                    # The owner hears of the other instance's classes with its next count (about 1 s).
                    client.drain(2.5)
                    cpu_owner, cpu_other = cpu_seconds(owner.pid), cpu_seconds(other.pid)
                    phase = client.drag(f"bench-{tag}", changes, 40.0, 20.0, x, y)
                    moves = max(1, phase["moves"])
                    phase["owner_cpu_ms_per_change"] = (cpu_seconds(owner.pid) - cpu_owner) * 1000 / moves
                    phase["other_cpu_ms_per_change"] = (cpu_seconds(other.pid) - cpu_other) * 1000 / moves
                    phase["redis_bytes_per_entry"] = _redis_bytes_per_entry(redis, room)
                finally:
                    client.close()
                measured[tag] = phase
                log(f"shapes (group, {tag}): owner CPU {phase['owner_cpu_ms_per_change']:.3f} ms/change, other "
                    f"{phase['other_cpu_ms_per_change']:.3f} ms/change, Redis {phase['redis_bytes_per_entry']:.0f} "
                    f"B/entry, last viewer p50 {phase['last_viewer']['p50']:.3f} ms")
            ratio = {key: measured["four"][key] / max(1e-9, measured["one"][key])
                     for key in ("owner_cpu_ms_per_change", "other_cpu_ms_per_change", "redis_bytes_per_entry")}
            ratio["last_viewer_p50"] = (measured["four"]["last_viewer"]["p50"]
                                        / max(1e-9, measured["one"]["last_viewer"]["p50"]))
            log("shapes (group): 4 shapes against 1: " + ", ".join(f"{key} {value:.2f}×" for key, value in ratio.items()))
            results["rounds"].append({"one": measured["one"], "four": measured["four"], "ratio": ratio})
    finally:
        for instance in instances:
            instance.stop()
        redis.close()
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=".build/release/stackweb")
    parser.add_argument("--group", action="store_true", help="in a group of two instances on a redis-server")
    parser.add_argument("--viewers", type=int, default=1000)
    parser.add_argument("--changes", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--build-dir", default=".build/bench")
    args = parser.parse_args()
    from bench import build_sseload
    exe = build_sseload(args.build_dir)
    out_dir = tempfile.mkdtemp(prefix="stackweb-bench-shapes-")
    measure = run_group if args.group else run
    results = measure(args.bin, exe, out_dir, viewers=args.viewers, changes=args.changes, rounds=args.rounds)
    log(f"logs in {out_dir}")
    return 0 if results else 1


if __name__ == "__main__":
    sys.exit(main())
