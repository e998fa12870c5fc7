#!/usr/bin/env python3
"""Measures what issue #2 asks for, against the release binary on loopback:

1. pointer move -> SSE change at another viewer (POST sent to event received), p50/p90/p99;
2. CPU used by the server while 20 SSE viewers sit idle.

Usage: python3 scripts/measure-latency.py [--bin .build/release/stackweb] [--moves 2000]
The figures include this Python client's own overhead; `make bench` (issue #7) is the real bench.
"""
import argparse
import json
import os
import re
import socket
import subprocess
import time


def start_server(binary):
    proc = subprocess.Popen([binary, "--port", "0", "--resources", "Resources"], stdout=subprocess.PIPE, text=True)
    port = int(re.search(r":(\d+)/", proc.stdout.readline()).group(1))
    return proc, port


def open_stream(port, room):
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(f"GET /api/rooms/{room}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    return sock


def read_until(sock, buffer, marker):
    """Reads until `marker` (bytes) is in the buffer; returns the buffer after it."""
    while marker not in buffer:
        buffer += sock.recv(65536)
    return buffer[buffer.index(marker) + len(marker):]


def post(port, room, body):
    sock = socket.create_connection(("127.0.0.1", port))
    data = json.dumps(body).encode()
    sock.sendall(
        f"POST /api/rooms/{room}/pointer HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n".encode() + data)
    reply = b""
    while chunk := sock.recv(65536):
        reply += chunk
    sock.close()
    return json.loads(reply.split(b"\r\n\r\n", 1)[1])["seq"]


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure_moves(port, moves):
    room = "latency"
    snapshot = json.loads(subprocess.run(
        ["curl", "-s", f"http://127.0.0.1:{port}/api/rooms/{room}"], capture_output=True).stdout)
    top = snapshot["cards"][0]
    viewer = open_stream(port, room)
    buffer = read_until(viewer, b"", b"event: snapshot")
    post(port, room, {"viewer": "bench", "events": [
        {"type": "down", "pointer": 1, "x": top["x"], "y": top["y"], "t": 0}]})
    samples = []
    for i in range(1, moves + 1):
        x = top["x"] + (i % 50)  # stays a drag: the pointer never goes up
        start = time.perf_counter()
        seq = post(port, room, {"viewer": "bench", "events": [
            {"type": "move", "pointer": 1, "x": x, "y": top["y"], "t": i * 16}]})
        buffer = read_until(viewer, buffer, f"id: {seq}\n".encode())
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/release/stackweb")
    parser.add_argument("--moves", type=int, default=2000)
    args = parser.parse_args()
    proc, port = start_server(args.bin)
    try:
        samples = measure_moves(port, args.moves)
        print(f"move -> other viewer, {len(samples)} moves: p50 {percentile(samples, 50):.3f} ms, "
              f"p90 {percentile(samples, 90):.3f} ms, p99 {percentile(samples, 99):.3f} ms")
        viewers = [open_stream(port, "idle") for _ in range(20)]
        for sock in viewers:
            read_until(sock, b"", b"event: snapshot")
        before = cpu_seconds(proc.pid)
        time.sleep(10)  # the measurement interval
        used = cpu_seconds(proc.pid) - before
        print(f"idle: 20 viewers for 10 s used {used * 1000:.0f} ms of CPU ({used / 10 * 100:.2f} % of a core)")
    finally:
        proc.terminate()
        proc.wait()


if __name__ == "__main__":
    main()
