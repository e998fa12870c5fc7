"""Item 6 of issue #7: a 24 MP JPEG -> a screen-sized variant (`GET /photos/{id}?w=&h=`), the first
request (libvips decodes, resizes and encodes) and cached ones (served from the disk cache), and the
server's peak resident memory around them.

The photo is generated once (6000×4000, smooth gradients and noise, JPEG quality 90) into the
output folder; each run starts the server on that folder with an empty variant cache.
"""

import http.client
import json
import os
import shutil
import time

from common import HOST, StackWebServer, log, memory_kib, summary

SIZES = [(1280, 800), (1920, 1080), (3840, 2160)]


def make_photo(folder, width=6000, height=4000):
    path = os.path.join(folder, "photo-24mp.jpg")
    if os.path.exists(path):
        return path
    from PIL import Image, ImageChops

    os.makedirs(folder, exist_ok=True)
    ramp = Image.linear_gradient("L").resize((width, height))
    across = Image.linear_gradient("L").rotate(90).resize((width, height))
    noise = Image.effect_noise((width, height), 40)
    red = ImageChops.add(ramp, noise, scale=2.0)
    green = ImageChops.add(across, noise, scale=2.0)
    blue = ImageChops.multiply(ramp, across)
    Image.merge("RGB", (red, green, blue)).save(path, quality=90)
    return path


def _get(port, path, accept=None):
    connection = http.client.HTTPConnection(HOST, port, timeout=120)
    headers = {"Accept": accept} if accept else {}
    started = time.perf_counter()
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    body = response.read()
    elapsed = (time.perf_counter() - started) * 1000
    connection.close()
    return response.status, len(body), response.getheader("Content-Type"), elapsed


def run(binary, out_dir, cached_rounds=30):
    try:
        import PIL  # noqa: F401
    except ImportError:
        return {"skipped": "Pillow is not installed (needed to generate the 24 MP test photo)"}
    photos = os.path.join(out_dir, "photos-24mp")
    photo = make_photo(photos)
    cache = os.path.join(out_dir, "variant-cache")
    shutil.rmtree(cache, ignore_errors=True)
    results = {"photo_bytes": os.path.getsize(photo), "photo_pixels": "6000×4000", "rows": []}
    with StackWebServer(binary, args=["--photos", photos, "--cache", cache],
                        stderr_path=os.path.join(out_dir, "server-photos.log")) as server:
        # The server answers before it has read its folder: wait for the photo's card, as a page would.
        deadline = time.monotonic() + 60
        while True:
            connection = http.client.HTTPConnection(HOST, server.port, timeout=30)
            connection.request("GET", "/api/rooms/bench-photos")
            response = connection.getresponse()
            body = response.read()
            connection.close()
            if response.status != 200:
                return {"skipped": f"snapshot answered {response.status}: {body[:200]!r}"}
            cards = json.loads(body)["cards"]
            if cards:
                break
            if time.monotonic() > deadline:
                return {"skipped": "the server showed no card of the 24 MP photo within 60 s"}
            time.sleep(0.05)
        src = cards[0]["src"]
        separator = "&" if "?" in src else "?"
        before = memory_kib(server.pid)
        results["rss_before_kib"] = before["rss"]
        results["hwm_before_kib"] = before["hwm"]
        for width, height in SIZES:
            for fmt, accept in (("JPEG", None), ("WebP", "image/webp,image/*")):
                path = f"{src}{separator}w={width}&h={height}"
                status, size, content_type, first = _get(server.port, path, accept)
                if fmt == "WebP" and status == 200 and content_type != "image/webp":
                    results["note"] = f"this build answers {content_type} to Accept: image/webp"
                    continue
                if status != 200:
                    results["rows"].append({"size": f"{width}×{height}", "format": fmt, "status": status})
                    continue
                cached = [_get(server.port, path, accept)[3] for _ in range(cached_rounds)]
                memory = memory_kib(server.pid)
                row = {"size": f"{width}×{height}", "format": fmt, "content_type": content_type, "bytes": size,
                       "first_ms": first, "cached": summary(cached), "hwm_kib": memory["hwm"], "rss_kib": memory["rss"]}
                results["rows"].append(row)
                log(f"photos: {width}×{height} {fmt}: first {first:.0f} ms, cached p50 "
                    f"{row['cached']['p50']:.2f} ms, peak RSS {memory['hwm'] / 1024:.0f} MiB")
        original = [_get(server.port, src)[3] for _ in range(5)]
        results["original_ms"] = summary(original)
        results["hwm_after_kib"] = memory_kib(server.pid)["hwm"]
    return results
