"""A server whose rooms take guests' photos, the photos a phone picks, and the add page read from
its rows (Resources/web/add.js: each row says its state and outcome in data attributes)."""

import json
import shutil
import subprocess
import urllib.request
import tempfile
from pathlib import Path

from .screens import write_flat_png
from .server import REPO_ROOT, StackWebServer, free_port
from .waiting import wait_until

CONTROL_TOKEN = "e2e-control-token-0123456789"
ADD_TOKEN = "e2e-add-token-0123456789abcdef"
ZBARIMG = shutil.which("zbarimg")
FOLDER_PHOTOS = 3
# The guest server's room whose photos wait for the control token's approval.
REVIEW_ROOM = "review"

# Every row's state, outcome and words, in order.
ROWS = """
return [...document.querySelectorAll('.upload')].map((row) => ({
  state: row.dataset.state, kind: row.dataset.kind, text: row.querySelector('.state').textContent,
  retry: !row.querySelector('.retry').hidden,
}));
"""


def guest_server(folder):
    """A server on `folder` (three photos copied in) whose rooms take photos (REVIEW_ROOM's once
    approved), with both tokens."""
    for photo in sorted((REPO_ROOT / "Resources/demo-photos").glob("*.jpg"))[:FOLDER_PHOTOS]:
        shutil.copy(photo, folder)
    cache = tempfile.mkdtemp(prefix="stackweb-e2e-cache-")
    # On loopback, the QR code names the address the test's phones reach: --public-url says it.
    port = free_port()
    server = StackWebServer(port=port, arguments=[
        "--photos", str(folder), "--cache", cache, "--uploads", "open", "--uploads", f"{REVIEW_ROOM}=review",
        "--token", CONTROL_TOKEN, "--add-token", ADD_TOKEN, "--public-url", f"http://127.0.0.1:{port}"]).start()
    server.uploads = Path(folder) / "Uploads"
    # A first start reads its photos after it listens: a test counting cards waits for them.
    wait_until(lambda: server.snapshot("main", window=None)["count"], lambda count: count == FOLDER_PHOTOS,
               message="the folder's photos read")
    return server


def phone_photos(folder, count, shade):
    """`count` photos no other test sends (the server keeps one photo per content): flat PNGs."""
    paths = []
    for index in range(count):
        path = Path(folder) / f"phone-{shade}-{index + 1}.png"
        write_flat_png(path, 320, 240, (shade, 40 * index % 256, 200))
        paths.append(str(path))
    return paths


def not_a_photo(folder):
    """A text file named like a photo: the browser calls it image/jpeg, the server reads its bytes."""
    path = Path(folder) / "IMG_9999.jpg"
    path.write_text("these are not the bytes of a photo\n" * 40)
    return str(path)


def other_kinds(folder):
    """Files a hostile guest sends that are no photo the wall shows, whole as their programs write
    them: a Windows bitmap (ImageMagick would read it) and a PDF (poppler would)."""
    width = height = 2
    pixels = bytes([0, 0, 255, 0, 255, 0, 0, 0, 255, 0, 0, 255, 255, 255, 0, 0])
    bmp = (b"BM" + (54 + len(pixels)).to_bytes(4, "little") + bytes(4) + (54).to_bytes(4, "little")
           + (40).to_bytes(4, "little") + width.to_bytes(4, "little") + height.to_bytes(4, "little")
           + (1).to_bytes(2, "little") + (24).to_bytes(2, "little") + bytes(4) + len(pixels).to_bytes(4, "little")
           + bytes(16) + pixels)
    pdf = (b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
           b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 64 64]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n")
    paths = [Path(folder) / "drawing.bmp", Path(folder) / "invoice.pdf"]
    paths[0].write_bytes(bmp)
    paths[1].write_bytes(pdf)
    return [str(path) for path in paths]


def as_control(server, method, path, body=b""):
    """`method path` with the control token (`body`, JSON, for a POST); the parsed answer."""
    request = urllib.request.Request(
        server.base_url + path, method=method, data=body if method == "POST" else None,
        headers={"Authorization": f"Bearer {CONTROL_TOKEN}", "Content-Type": "application/json"})
    with server._open(request) as response:
        return json.load(response)


def make_room(server, room, token=CONTROL_TOKEN):
    """Makes `room` as its operator would before guests are sent to it: uploads never make rooms (a
    guest's photo to a room nobody made is 404), and a first POST with control rights does. An
    empty pointer POST changes nothing else."""
    request = urllib.request.Request(
        f"{server.base_url}/api/rooms/{room}/pointer", method="POST", data=b'{"viewer":"e2e","events":[]}',
        headers={"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {}))
    with server._open(request) as response:
        assert response.status == 200


def add_url(server, room):
    """The add page for `room`, the room made first."""
    make_room(server, room)
    return f"{server.base_url}/add?room={room}#token={ADD_TOKEN}"


def decode_qr(png_bytes, folder):
    """What zbarimg reads in a PNG screenshot."""
    path = Path(folder) / "code.png"
    path.write_bytes(png_bytes)
    found = subprocess.run([ZBARIMG, "--quiet", "--raw", str(path)], capture_output=True, text=True)
    return found.stdout.strip()


def wait_for_rows(read_rows, count, timeout=60.0):
    """The add page's rows once each of `count` is through (done or failed)."""
    return wait_until(read_rows, lambda rows: len(rows) == count and all(
        row["state"] in ("done", "failed") for row in rows), timeout=timeout,
        message=f"{count} photos through the add page")
