"""Uploads of files that are no photo the server shows (`POST /api/rooms/{room}/photos`): BMP, PSD,
MIFF, PDF, SVG, TIFF, JPEG 2000 and JPEG XL, each refused 415 by its first bytes. The figure is the
server's CPU (user + system, from /proc) per refused upload, and whether ImageMagick left any
`/tmp/magick-*` file (it did, when every libvips loader could parse a guest's file).

TIFF and JPEG 2000 are written by libvips' `vips` command; the rest are written here as their
programs write them (a MIFF of 820 KB, as large as the one that cost 3.1 s of CPU).
"""

import os
import shutil
import subprocess

from common import StackWebServer, cpu_seconds, log
from bench_uploads import make_photo, post

ROUNDS = 20


def _bmp(width=64, height=64):
    row = (width * 3 + 3) // 4 * 4
    pixels = bytes(row * height)
    header = b"BM" + (54 + len(pixels)).to_bytes(4, "little") + bytes(4) + (54).to_bytes(4, "little")
    info = (40).to_bytes(4, "little") + width.to_bytes(4, "little") + height.to_bytes(4, "little")
    info += (1).to_bytes(2, "little") + (24).to_bytes(2, "little") + bytes(4) + len(pixels).to_bytes(4, "little")
    info += bytes(16)
    return header + info + pixels


def _miff(side=520):
    head = f"id=ImageMagick  version=1.0\nclass=DirectClass  matte=False\ncolumns={side}  rows={side}  depth=8\n"
    return (head + "\f\n:\x1a").encode() + os.urandom(side * side * 3)


def _psd(side=64):
    header = b"8BPS" + (1).to_bytes(2, "big") + bytes(6) + (3).to_bytes(2, "big")
    header += side.to_bytes(4, "big") * 2 + (8).to_bytes(2, "big") + (3).to_bytes(2, "big")
    return header + bytes(12) + bytes(2) + bytes(side * side * 3)


PDF = (b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
       b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n")
SVG = (b"<svg xmlns='http://www.w3.org/2000/svg' width='4000' height='4000'>"
       b"<filter id='b'><feGaussianBlur stdDeviation='50'/></filter><rect width='4000' height='4000' filter='url(#b)'/>"
       b"</svg>")
JXL = bytes.fromhex("ff0a414052dc0801a8009361090080 0a9551c60d5ecef57cf9a1c362dac67586b6dab6b084b1d95e18242494126c83616ca19204"
                    .replace(" ", ""))


def _with_vips(folder, suffix):
    seed = make_photo(folder, "seed.jpg", 640, 480, 85)
    path = os.path.join(folder, f"picture.{suffix}")
    subprocess.run(["vips", "copy", seed, path], check=True)
    return open(path, "rb").read()


def _magick_files():
    return {name for name in os.listdir("/tmp") if name.startswith("magick-")}


def run(binary, out_dir):
    if shutil.which("vips") is None:
        return {"skipped": "libvips' `vips` command is not installed (it makes the TIFF and JPEG 2000 files)"}
    folder = os.path.join(out_dir, "uploads-refused")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(os.path.join(folder, "photos"))
    make_photo(os.path.join(folder, "photos"), "seed.jpg", 64, 48, 80)
    files = {"bmp": _bmp(), "psd": _psd(), "miff": _miff(), "pdf": PDF, "svg": SVG,
             "tif": _with_vips(folder, "tif"), "jp2": _with_vips(folder, "jp2"), "jxl": JXL}
    leftovers = _magick_files()
    kinds = {}
    with StackWebServer(binary, args=["--photos", os.path.join(folder, "photos"), "--cache",
                                      os.path.join(folder, "cache"), "--uploads", "open"],
                        stderr_path=os.path.join(out_dir, "server-refused.log")) as server:
        for number, (kind, body) in enumerate(files.items()):
            statuses = set()
            before = cpu_seconds(server.pid)
            for round_ in range(ROUNDS):
                # Each from an address of its own, as many guests: one address may send 30 a minute.
                status, answer, _ = post(server.port, body, source=f"127.0.{number + 1}.{round_ + 2}")
                statuses.add(status)
                named = b"load" in answer
            used = cpu_seconds(server.pid) - before
            kinds[kind] = {"bytes": len(body), "statuses": sorted(statuses), "cpu_ms": used * 1000 / ROUNDS,
                           "names_a_loader": named}
    worst = max(kinds.values(), key=lambda row: row["cpu_ms"])
    result = {"rounds": ROUNDS, "kinds": kinds, "worst_cpu_ms": worst["cpu_ms"],
              "magick_files_left": len(_magick_files() - leftovers)}
    log("refused uploads: " + ", ".join(f"{kind} {row['cpu_ms']:.1f} ms {row['statuses']}" for kind, row in
                                        kinds.items()) + f"; /tmp/magick-* left: {result['magick_files_left']}")
    return result
