"""Photo bombs (issue #25, finding 4): do they show, and how long does an ordinary 300-px variant
wait while they convert?

    python3 Benchmarks/bench_bombs.py BINARY [BINARY …]

makes one folder of photos — four ordinary 6 MP JPEGs, a 20,000 × 20,000 PNG (400 MP, ~1 MB), a
48 MP PNG (within the default --max-pixels, a second or more per variant) and a JPEG declaring
7,000 × 7,000 that holds 64 × 48 pixels' bytes — and runs each binary on it in turn with an
empty cache (say the one before a change and the one after), printing one JSON object per binary:
which photos are shown, then, with five variants of each large photo asked for at once, how long
each ordinary photo's 300-px variant took (429s retried after their Retry-After, as the page does).
Everything is on loopback; every wait is bounded.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import HOST  # noqa: E402

ORDINARY = [f"ordinary-{index}.jpg" for index in range(4)]
HUGE, LARGE, TRUNCATED = "huge-20000x20000.png", "large-48mp.png", "truncated-7000x7000.jpg"


def make_folder(folder):
    def vips(*arguments):
        subprocess.run(["vips", *arguments], check=True, capture_output=True, timeout=600)

    scratch = os.path.join(folder, ".scratch")
    os.makedirs(scratch)
    for index, name in enumerate(ORDINARY):
        vips("gaussnoise", f"{scratch}/n{index}.v", "3000", "2000", "--mean", str(100 + 10 * index))
        vips("cast", f"{scratch}/n{index}.v", f"{scratch}/u{index}.v", "uchar")
        vips("jpegsave", f"{scratch}/u{index}.v", os.path.join(folder, name))
    vips("black", f"{scratch}/huge.v", "20000", "20000")
    vips("pngsave", f"{scratch}/huge.v", os.path.join(folder, HUGE), "--compression", "9")
    vips("gaussnoise", f"{scratch}/large.v", "8000", "6000")
    vips("cast", f"{scratch}/large.v", f"{scratch}/large-u.v", "uchar")
    vips("pngsave", f"{scratch}/large-u.v", os.path.join(folder, LARGE), "--compression", "1")
    vips("black", f"{scratch}/small.v", "64", "48", "--bands", "3")
    vips("jpegsave", f"{scratch}/small.v", f"{scratch}/small.jpg")
    data = bytearray(open(f"{scratch}/small.jpg", "rb").read())
    frame = data.index(b"\xff\xc0")
    data[frame + 5:frame + 9] = (7000).to_bytes(2, "big") + (7000).to_bytes(2, "big")
    open(os.path.join(folder, TRUNCATED), "wb").write(bytes(data))
    shutil.rmtree(scratch)


def get(url, timeout=180):
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            answer.read()
            return answer.status, None
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Retry-After")


class Server:
    def __init__(self, binary, photos, cache):
        self.proc = subprocess.Popen(
            [binary, "--host", HOST, "--port", "0", "--resources", "Resources", "--photos", photos, "--cache", cache],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        match = re.search(r"listening on http://[^/]*:(\d+)/", self.proc.stdout.readline())
        if not match:
            self.stop()
            raise RuntimeError("did not start")
        self.base = f"http://{HOST}:{match.group(1)}"

    def read_all(self, timeout=300):
        """Waits for the server to have read every photo it found (`stackweb_photos_reading 0`)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with urllib.request.urlopen(self.base + "/metrics", timeout=10) as answer:
                if re.search(r"^stackweb_photos_reading 0", answer.read().decode(), re.M):
                    return
            time.sleep(0.5)
        raise RuntimeError("still reading photos")

    def sources(self):
        with urllib.request.urlopen(self.base + "/api/rooms/main", timeout=10) as answer:
            cards = json.load(answer)["cards"]
        return {card["caption"]["name"]: card["src"] for card in cards}

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)


def ordinary_wait(server, src):
    """Seconds until the 300-px variant of `src` is served, retrying a 429 as the page does."""
    started = time.monotonic()
    while time.monotonic() - started < 300:
        status, retry = get(server.base + src + "&w=300")
        if status == 200:
            break
        time.sleep(float(retry or 1))
    return round(time.monotonic() - started, 2)


def run(binary, photos):
    cache = tempfile.mkdtemp(prefix="bombs-cache-")
    server = Server(binary, photos, cache)
    try:
        started = time.monotonic()
        server.read_all()
        result = {"binary": binary, "read_all_s": round(time.monotonic() - started, 1)}
        sources = server.sources()
        result["shown"] = sorted(sources)
        bombs = [sources[name] for name in (HUGE, LARGE, TRUNCATED) if name in sources]
        asked = [threading.Thread(target=get, args=(server.base + src + f"&w={width}",))
                 for src in bombs for width in (128, 256, 512, 768, 1024)]
        for thread in asked:
            thread.start()
        time.sleep(0.3)
        waits = {}
        threads = [threading.Thread(target=lambda name=name: waits.__setitem__(name, ordinary_wait(server, sources[name])))
                   for name in ORDINARY]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        result["ordinary_300px_wait_s"] = [waits[name] for name in ORDINARY]
        result["ordinary_300px_wait_max_s"] = max(waits.values())
        for thread in asked:
            thread.join(300)
        result["all_done_s"] = round(time.monotonic() - started, 1)
        return result
    finally:
        server.stop()
        shutil.rmtree(cache, ignore_errors=True)


def main():
    binaries = sys.argv[1:] or [".build/release/stackweb"]
    with tempfile.TemporaryDirectory(prefix="bombs-") as photos:
        make_folder(photos)
        for binary in binaries:
            print(json.dumps(run(binary, photos)), flush=True)


if __name__ == "__main__":
    main()
