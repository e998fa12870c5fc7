"""Item `library` (issue "The photo frame on a real library"): a 20,000-photo folder as a frame meets it.

20,000 small JPEGs (640×480, EXIF DateTimeOriginal) in year/month folders, and 8 distinct 24 MP
JPEGs, are generated once with the `vips` command line and cached under /tmp (the EXIF block is
spliced into one base JPEG per file, so generating costs seconds, not minutes). Measured:

- a first start on the library plus four 24 MP originals (`--order name`, empty cache): seconds
  until every photo is read and CPU-seconds by then (`--index-before A` measures binary A and
  `--bin` alternately in one run, nothing else);
- start-up to the first answer (`GET /api/rooms/main` 200), with an empty cache (three times: the
  median) and again with a warm one;
  a server that reads the folder after it answers (`stackweb_photos_reading` in /metrics): also the
  time until it has read every photo on the cold start (`indexed_cold_s`);
- CPU of one rescan of the unchanged library (`--rescan` when the binary has it; else a file created
  in the root, which makes a watcher without `--rescan` rescan everything);
- time from a photo copied into a month folder to the change event that adds it;
- seconds from SIGTERM to the warm server's exit;
- 8 concurrent first `?w=1536` requests for different 24 MP originals: wall time and peak RSS (VmHWM)
  of the server process;
- a slideshow step over 24 MP originals: how long the new front photo's `?w=1024` takes to come once
  the server has had the step's interval to get ready (made ahead), against a photo nobody made ahead.

  python3 Benchmarks/bench_library.py [--bin .build/release/stackweb] [--out bench-out] [--index-before A]
"""

import argparse
import http.client
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from common import HOST, StackWebServer, cpu_seconds, log, memory_kib  # noqa: E402

LIBRARY = "/tmp/stackweb-bench-library"
LARGE = "/tmp/stackweb-bench-large"
COUNT = 20_000


def _vips(*args):
    subprocess.run(["vips", *args], check=True, capture_output=True)


def _exif(taken):
    """A minimal little-endian EXIF APP1 segment: IFD0 -> Exif IFD -> DateTimeOriginal."""
    tiff = b"II*\x00" + struct.pack("<I", 8)
    tiff += struct.pack("<H", 1) + struct.pack("<HHII", 0x8769, 4, 1, 26) + struct.pack("<I", 0)
    tiff += struct.pack("<H", 1) + struct.pack("<HHII", 0x9003, 2, 20, 44) + struct.pack("<I", 0)
    tiff += taken.encode() + b"\x00"
    body = b"Exif\x00\x00" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body


def _made_before(root):
    """Whether `root` was made completely before (its marker file is there); else empties it."""
    if os.path.exists(os.path.join(root, ".complete")):
        return True
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    return False


def _gradient(work, width, height):
    """`x.v` and `y.v` in `work`: each pixel's column and row, the bands the generated photos mix."""
    _vips("xyz", f"{work}/xy.v", str(width), str(height))
    _vips("extract_band", f"{work}/xy.v", f"{work}/x.v", "0")
    _vips("extract_band", f"{work}/xy.v", f"{work}/y.v", "1")


def make_library(root=LIBRARY, count=COUNT):
    """Year/month folders 2010-2024 holding `count` JPEGs; made once (a marker file says complete)."""
    if _made_before(root):
        return root
    with tempfile.TemporaryDirectory() as work:
        _gradient(work, 640, 480)
        _vips("bandjoin", f"{work}/x.v {work}/y.v {work}/x.v", f"{work}/c.v")
        _vips("linear", f"{work}/c.v", f"{work}/l.v", "0.4", "10")
        _vips("cast", f"{work}/l.v", f"{work}/base.jpg[Q=85,strip]", "uchar")
        with open(f"{work}/base.jpg", "rb") as f:
            base = f.read()
    rng = random.Random(7)
    for index in range(count):
        year = 2010 + index * 15 // count
        month = rng.randint(1, 12)
        taken = f"{year:04d}:{month:02d}:{rng.randint(1, 28):02d} {rng.randint(0, 23):02d}:" \
                f"{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"
        folder = os.path.join(root, f"{year}", f"{month:02d}")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"IMG_{index:05d}.jpg"), "wb") as out:
            out.write(base[:2] + _exif(taken) + base[2:])
    open(os.path.join(root, ".complete"), "w").close()
    return root


def make_large(root=LARGE, count=8):
    """`count` distinct 6000×4000 JPEGs (gradient plus noise, Q 90)."""
    if _made_before(root):
        return root
    with tempfile.TemporaryDirectory() as work:
        _gradient(work, 6000, 4000)
        for index in range(count):
            _vips("gaussnoise", f"{work}/n.v", "6000", "4000", "--sigma", "30", "--mean", str(60 + 10 * index))
            _vips("bandjoin", f"{work}/x.v {work}/y.v {work}/n.v", f"{work}/c.v")
            _vips("linear", f"{work}/c.v", f"{work}/l.v", "0.04", "20")
            _vips("cast", f"{work}/l.v", os.path.join(root, f"large-{index}.jpg[Q=90]"), "uchar")
    open(os.path.join(root, ".complete"), "w").close()
    return root


def _get(port, path, timeout=300):
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, body


def _supports(binary, option):
    out = subprocess.run([binary, "--help"], capture_output=True, text=True)
    return option in out.stdout + out.stderr


def startup(binary, args, stderr):
    """Seconds from launch to the first answered snapshot, and the server (still running)."""
    started = time.monotonic()
    server = StackWebServer(binary, args=args, stderr_path=stderr).start(timeout=600)
    while True:
        status, body = _get(server.port, "/api/rooms/main")
        if status == 200:
            return time.monotonic() - started, server, json.loads(body)
        time.sleep(0.01)


def _reads_in_background(server):
    return b"stackweb_photos_reading" in _get(server.port, "/metrics")[1]


def _wait_until_read(server, poll=0.05):
    """Returns once a server that answers before it has read the folder says it has read it all."""
    if _reads_in_background(server):
        while b"stackweb_photos_reading 0" not in _get(server.port, "/metrics")[1]:
            time.sleep(poll)


def _server_on(binary, folder, cache, log_path):
    """A server on `folder` that has read every photo in it."""
    _, server, _ = startup(binary, ["--photos", folder, "--cache", cache], log_path)
    _wait_until_read(server)
    return server


def rescan_cpu(server, library, has_rescan, period):
    if has_rescan:
        # Idle except for the periodic rescans: CPU over a window, per rescan.
        time.sleep(period + 0.5)
        before = cpu_seconds(server.pid)
        rounds = 5
        time.sleep(period * rounds)
        return (cpu_seconds(server.pid) - before) / rounds
    samples = []
    for attempt in range(3):
        before = cpu_seconds(server.pid)
        path = os.path.join(library, f"trigger-{attempt}.txt")
        open(path, "w").close()
        time.sleep(4)
        os.unlink(path)
        samples.append(cpu_seconds(server.pid) - before)
        time.sleep(4)
    return sorted(samples)[1]


def added_photo_ms(server, library):
    """Copies a photo into a month folder; ms until the change event that grows the stack."""
    connection = http.client.HTTPConnection(HOST, server.port, timeout=30)
    connection.request("GET", "/api/rooms/main/events", headers={"Accept": "text/event-stream"})
    response = connection.getresponse()
    count = None
    event = None
    source = os.path.join(library, "2015", "06", sorted(os.listdir(os.path.join(library, "2015", "06")))[0])
    target = os.path.join(library, "2024", "12", f"added-{time.time_ns()}.jpg")
    started = None
    while True:
        line = response.fp.readline().decode().rstrip("\n")
        if line.startswith("event:"):
            event = line.split(":", 1)[1].strip()
        elif line.startswith("data:"):
            data = json.loads(line[5:])
            if event == "snapshot":
                count = data["count"]
                started = time.monotonic()
                shutil.copyfile(source, target)
            elif event == "change" and data.get("count", count) > count:
                elapsed = (time.monotonic() - started) * 1000
                connection.close()
                os.unlink(target)
                return elapsed


def conversions(binary, out_dir, large):
    cache = tempfile.mkdtemp(prefix="stackweb-bench-cache-")
    try:
        server = _server_on(binary, large, cache, os.path.join(out_dir, "server-library-large.log"))
        try:
            status, body = _get(server.port, "/api/rooms/main")
            ids = [card["photo"] for card in json.loads(body)["cards"]][:8]
            before = memory_kib(server.pid)
            statuses = []
            started = time.monotonic()
            threads = [threading.Thread(target=lambda i=i: statuses.append(_get(server.port, f"/photos/{i}?w=1536")[0]))
                       for i in ids]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            elapsed = time.monotonic() - started
            after = memory_kib(server.pid)
        finally:
            server.stop()
        return {"count": len(ids), "statuses": sorted(statuses), "wall_s": round(elapsed, 2),
                "hwm_before_mib": round(before["hwm"] / 1024), "hwm_mib": round(after["hwm"] / 1024)}
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def _post(port, path, body):
    connection = http.client.HTTPConnection(HOST, port, timeout=60)
    connection.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
    status = connection.getresponse().status
    connection.close()
    return status


def _variants(cache):
    return [name for name in os.listdir(cache) if not name.startswith("photo-index") and ".tmp-" not in name]


def slideshow_step(binary, out_dir, large):
    """Milliseconds to the new front photo after a step (made ahead), and to a photo not made ahead."""
    cache = tempfile.mkdtemp(prefix="stackweb-bench-cache-")
    try:
        server = _server_on(binary, large, cache, os.path.join(out_dir, "server-library-step.log"))
        try:
            cards = json.loads(_get(server.port, "/api/rooms/main")[1])["cards"]
            order = [card["photo"] for card in sorted(cards, key=lambda card: card["position"])]
            # A page shows the front photo, the room steps on, the page shows the new front.
            for front in order[:2]:
                if front != order[0]:
                    _post(server.port, "/api/rooms/main/commands", {"command": "next"})
                _get(server.port, f"/photos/{front}?w=1024")
            # The interval: the three photos after the front one are made meanwhile.
            deadline = time.monotonic() + 120
            while len(_variants(cache)) < 5 and time.monotonic() < deadline:
                time.sleep(0.05)
            made_ahead = len(_variants(cache)) - 2
            _post(server.port, "/api/rooms/main/commands", {"command": "next"})
            started = time.monotonic()
            status_ahead, _ = _get(server.port, f"/photos/{order[2]}?w=1024")
            ahead_ms = (time.monotonic() - started) * 1000
            started = time.monotonic()
            status_cold, _ = _get(server.port, f"/photos/{order[-1]}?w=1024")
            cold_ms = (time.monotonic() - started) * 1000
        finally:
            server.stop()
        return {"made_ahead": made_ahead, "statuses": [status_ahead, status_cold],
                "next_front_ms": round(ahead_ms, 1), "not_made_ahead_ms": round(cold_ms, 1)}
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def make_mixed(library, large, originals=4):
    """The library as the frame meets it: the 20,000 small JPEGs and a few 24 MP originals in one
    folder, hard links (no copy) in a folder of its own so the photo index does not know it."""
    root = "/tmp/stackweb-bench-mixed"
    if os.path.exists(os.path.join(root, ".complete")):
        return root
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(library, root, copy_function=os.link)
    os.makedirs(os.path.join(root, "originals"), exist_ok=True)
    for name in sorted(name for name in os.listdir(large) if name.endswith(".jpg"))[:originals]:
        os.link(os.path.join(large, name), os.path.join(root, "originals", name))
    open(os.path.join(root, ".complete"), "w").close()
    return root


def first_index(binary, folder, out_dir, order="name", poll=0.05):
    """A first start on `folder` with an empty cache: seconds from launch to every photo read (and
    shown), and the server's CPU seconds by then."""
    cache = tempfile.mkdtemp(prefix="stackweb-bench-cache-")
    try:
        started = time.monotonic()
        server = StackWebServer(binary, args=["--photos", folder, "--cache", cache, "--order", order],
                                stderr_path=os.path.join(out_dir, "server-library-index.log")).start(timeout=600)
        try:
            while b"stackweb_photos_reading 0" not in _get(server.port, "/metrics")[1]:
                time.sleep(poll)
            seconds = time.monotonic() - started
            cpu = cpu_seconds(server.pid)
            count = json.loads(_get(server.port, "/api/rooms/main")[1])["count"]
        finally:
            server.stop()
        return {"indexed_s": round(seconds, 1), "cpu_s": round(cpu, 1), "photos": count}
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def index_before_after(before, after, out_dir, rounds=1):
    """The first index by `before` and by `after` in the same minutes, alternated (ABAB… for
    `rounds` > 1) so that the machine's other load weighs on both alike."""
    folder = make_mixed(make_library(), make_large())
    runs = {"before": [], "after": []}
    with open("/proc/loadavg") as load:
        start_load = load.read().split()[0]
    for _ in range(rounds):
        for label, binary in (("before", before), ("after", after)):
            runs[label].append(first_index(binary, folder, out_dir))
            log(f"{label}: {runs[label][-1]}")
    with open("/proc/loadavg") as load:
        end_load = load.read().split()[0]
    return {"folder": folder, "load_average": [start_load, end_load], **runs}


def run(binary, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    started = time.monotonic()
    library = make_library()
    large = make_large()
    log(f"library ready ({time.monotonic() - started:.0f} s)")
    has_rescan = _supports(binary, "--rescan")
    period = 3
    cache = tempfile.mkdtemp(prefix="stackweb-bench-cache-")
    results = {"photos": COUNT, "binary_has_rescan": has_rescan}
    args = ["--photos", library, "--cache", cache, "--order", "date"]
    if has_rescan:
        args += ["--rescan", str(period)]
    stderr = os.path.join(out_dir, "server-library.log")
    try:
        # Two extra cold starts, each with an empty cache of its own: the first start after the
        # library was made (or after other work evicted its inodes from the kernel's cache) also
        # pays for reading the folder's directories from disk.
        colds = []
        for _ in range(2):
            scratch = tempfile.mkdtemp(prefix="stackweb-bench-cache-")
            try:
                seconds, server, _ = startup(binary, ["--photos", library, "--cache", scratch, "--order", "date"],
                                             stderr)
                server.stop()
                colds.append(round(seconds, 2))
            finally:
                shutil.rmtree(scratch, ignore_errors=True)
        for label in ("startup_cold_s", "startup_warm_s"):
            started_cold = time.monotonic()
            seconds, server, snapshot = startup(binary, args, stderr)
            results[label] = round(seconds, 2)
            results["count"] = snapshot["count"]
            if label == "startup_cold_s":
                colds.append(results[label])
                results["startup_cold_runs_s"] = colds
                results[label] = sorted(colds)[len(colds) // 2]
                # A server that answers before it has read the folder: time until it has read it all
                # (and written the photo index a warm start reads), when /metrics says so.
                if _reads_in_background(server):
                    _wait_until_read(server, poll=0.1)
                    results["indexed_cold_s"] = round(time.monotonic() - started_cold, 1)
                server.stop()
                continue
            # startup() already started it: `with server:` would start a second process and leave
            # this one running.
            try:
                results["startup_rss_mib"] = round(memory_kib(server.pid)["rss"] / 1024)
                results["rescan_cpu_s"] = round(rescan_cpu(server, library, has_rescan, period), 3)
                results["added_photo_ms"] = round(added_photo_ms(server, library))
            finally:
                stopping = time.monotonic()
                server.stop()
                results["sigterm_exit_s"] = round(time.monotonic() - stopping, 2)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    results["first_index"] = first_index(binary, make_mixed(library, large), out_dir)
    results["conversions_24mp"] = conversions(binary, out_dir, large)
    results["slideshow_step_24mp"] = slideshow_step(binary, out_dir, large)
    return results


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=".build/release/stackweb")
    parser.add_argument("--out", default="bench-out")
    parser.add_argument("--index-before", metavar="BIN",
                        help="only the first index of the mixed library, by BIN and by --bin, alternated")
    parser.add_argument("--rounds", type=int, default=1, help="with --index-before: rounds of both binaries")
    args = parser.parse_args()
    os.chdir(os.path.dirname(HERE))
    os.makedirs(args.out, exist_ok=True)
    if args.index_before:
        print(json.dumps(index_before_after(args.index_before, args.bin, args.out, args.rounds), indent=1))
    else:
        print(json.dumps(run(args.bin, args.out), indent=1))
