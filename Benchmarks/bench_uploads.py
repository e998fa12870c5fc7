"""Guests' photos (`POST /api/rooms/{room}/photos`): a 12 MP, ~4 MB phone JPEG from the POST to the
change at another viewer, beside the first 1280-px conversion of the same photo alone; ten 20 MB
uploads at once (each from its own loopback address, as ten phones) and the server's resident
memory around them; and the rate a body is taken at on loopback.

The photos are made with libvips' `vips` command (noise, so the JPEG is as large as a phone's);
each one sent gets a comment segment of its own, so no two have the same bytes.
"""

import http.client
import json
import os
import shutil
import socket
import subprocess
import threading
import time

from common import HOST, StackWebServer, log, memory_kib, summary


def make_photo(folder, name, width, height, quality):
    path = os.path.join(folder, name)
    if os.path.exists(path):
        return path
    os.makedirs(folder, exist_ok=True)
    noise = os.path.join(folder, "noise.v")
    bands = os.path.join(folder, "bands.v")
    subprocess.run(["vips", "gaussnoise", noise, str(width), str(height), "--sigma", "60"], check=True)
    subprocess.run(["vips", "bandjoin", f"{noise} {noise} {noise}", bands], check=True)
    subprocess.run(["vips", "copy", bands, f"{path}[Q={quality}]"], check=True)
    os.remove(noise)
    os.remove(bands)
    return path


def unique(jpeg, mark):
    """The same photo with a JPEG comment after its SOI: other bytes, the same pixels."""
    text = f"stackweb bench {mark}".encode()
    return jpeg[:2] + b"\xff\xfe" + (len(text) + 2).to_bytes(2, "big") + text + jpeg[2:]


def post(port, body, source="127.0.0.1", content_type="image/jpeg"):
    connection = http.client.HTTPConnection(HOST, port, timeout=300, source_address=(source, 0))
    started = time.perf_counter()
    connection.request("POST", "/api/rooms/main/photos", body=body,
                       headers={"Content-Type": content_type, "X-Photo-Sender": "bench"})
    response = connection.getresponse()
    answer = response.read()
    elapsed = (time.perf_counter() - started) * 1000
    connection.close()
    return response.status, answer, elapsed


class ChangeWatcher:
    """Another viewer: an event stream on the room, each chunk kept with when it arrived."""

    def __init__(self, port):
        self.sock = socket.create_connection((HOST, port))
        self.sock.sendall(f"GET /api/rooms/main/events HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode())
        self.chunks = []
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while True:
            try:
                chunk = self.sock.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            with self.lock:
                self.chunks.append((time.perf_counter(), chunk))

    def when(self, photo, timeout=30):
        """When the first event naming `photo` arrived (a change carries the new card's photo id)."""
        wanted = photo.encode()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                for index, (arrived, chunk) in enumerate(self.chunks):
                    # An id split across two chunks is found in the pair.
                    joined = (self.chunks[index - 1][1][-64:] if index else b"") + chunk
                    if wanted in joined:
                        return arrived
            time.sleep(0.001)
        return None


def conversion_ms(port, photo_id):
    connection = http.client.HTTPConnection(HOST, port, timeout=120)
    started = time.perf_counter()
    connection.request("GET", f"/photos/{photo_id}?w=1280")
    response = connection.getresponse()
    response.read()
    connection.close()
    return (time.perf_counter() - started) * 1000 if response.status == 200 else None


def to_viewer(binary, out_dir, photo, rounds):
    folder = os.path.join(out_dir, "uploads-latency")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(os.path.join(folder, "photos"))
    make_photo(os.path.join(folder, "photos"), "seed.jpg", 64, 48, 80)
    jpeg = open(photo, "rb").read()
    rows, conversions = [], []
    with StackWebServer(binary, args=["--photos", os.path.join(folder, "photos"), "--cache",
                                      os.path.join(folder, "cache"), "--state", os.path.join(folder, "state.db"),
                                      "--uploads", "open"],
                        stderr_path=os.path.join(out_dir, "server-uploads.log")) as server:
        watcher = ChangeWatcher(server.port)
        time.sleep(0.5)
        for index in range(rounds):
            body = unique(jpeg, f"latency {index}")
            started = time.perf_counter()
            status, answer, answered = post(server.port, body)
            if status != 201:
                return {"skipped": f"an upload was answered {status}: {answer[:200]!r}"}
            photo_id = json.loads(answer)["id"]
            seen = watcher.when(photo_id)
            rows.append({"answer_ms": answered, "viewer_ms": (seen - started) * 1000 if seen else None})
            conversions.append(conversion_ms(server.port, photo_id))
    viewer = [row["viewer_ms"] for row in rows if row["viewer_ms"] is not None]
    converted = [value for value in conversions if value is not None]
    result = {"rounds": rounds, "photo_bytes": len(jpeg), "answer": summary([r["answer_ms"] for r in rows]),
              "viewer": summary(viewer), "conversion_1280": summary(converted)}
    result["ratio_p50"] = result["viewer"]["p50"] / result["conversion_1280"]["p50"]
    log(f"uploads: POST to another viewer p50 {result['viewer']['p50']:.0f} ms, the 1280-px conversion alone "
        f"p50 {result['conversion_1280']['p50']:.0f} ms (ratio {result['ratio_p50']:.2f})")
    return result


def at_once(binary, out_dir, photo, count=10):
    folder = os.path.join(out_dir, "uploads-at-once")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(os.path.join(folder, "photos"))
    make_photo(os.path.join(folder, "photos"), "seed.jpg", 64, 48, 80)
    jpeg = open(photo, "rb").read()
    bodies = [unique(jpeg, f"at once {index}") for index in range(count)]
    with StackWebServer(binary, args=["--photos", os.path.join(folder, "photos"), "--cache",
                                      os.path.join(folder, "cache"), "--uploads", "open"],
                        stderr_path=os.path.join(out_dir, "server-uploads.log")) as server:
        time.sleep(0.5)
        before = memory_kib(server.pid)
        statuses = [None] * count

        def send(index):
            statuses[index] = post(server.port, bodies[index], source=f"127.0.0.{index + 2}")[0]

        started = time.perf_counter()
        threads = [threading.Thread(target=send, args=(index,)) for index in range(count)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - started
        after = memory_kib(server.pid)
    growth = (after["hwm"] - before["rss"]) / 1024
    result = {"count": count, "photo_bytes": len(jpeg), "statuses": statuses, "seconds": elapsed,
              "rss_before_mib": before["rss"] / 1024, "peak_mib": after["hwm"] / 1024, "growth_mib": growth}
    log(f"uploads: {count} × {len(jpeg) / 1e6:.0f} MB at once in {elapsed:.1f} s, statuses {statuses}, "
        f"peak RSS {after['hwm'] / 1024:.0f} MiB ({growth:+.0f} MiB)")
    return result


def throughput(binary, out_dir, megabytes=50):
    """A body that is no photo, taken whole and refused (415) once libvips has read its header:
    the time is the transfer to disk."""
    folder = os.path.join(out_dir, "uploads-throughput")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(os.path.join(folder, "photos"))
    make_photo(os.path.join(folder, "photos"), "seed.jpg", 64, 48, 80)
    body = os.urandom(megabytes * 1_000_000 - 1)
    with StackWebServer(binary, args=["--photos", os.path.join(folder, "photos"), "--cache",
                                      os.path.join(folder, "cache"), "--uploads", "open"],
                        stderr_path=os.path.join(out_dir, "server-uploads.log")) as server:
        rates = []
        for _ in range(3):
            status, _, elapsed = post(server.port, body)
            rates.append(len(body) / 1e6 / (elapsed / 1000))
    result = {"megabytes": megabytes, "status": status, "mb_per_s": summary(rates)}
    log(f"uploads: {megabytes} MB taken at p50 {result['mb_per_s']['p50']:.0f} MB/s (answered {status})")
    return result


def run(binary, out_dir, rounds=15):
    if shutil.which("vips") is None:
        return {"skipped": "libvips' `vips` command is not installed (it makes the test photos)"}
    photos = os.path.join(out_dir, "upload-photos")
    phone = make_photo(photos, "phone-12mp.jpg", 4000, 3000, 86)
    large = make_photo(photos, "large-48mp.jpg", 8000, 6000, 88)
    return {"to_viewer": to_viewer(binary, out_dir, phone, rounds), "at_once": at_once(binary, out_dir, large),
            "throughput": throughput(binary, out_dir)}
