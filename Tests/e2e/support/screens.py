"""Screens of every shape and pixel ratio in one Chromium tab (device metrics and touch emulated),
a tab set up before its page loads, screenshots, photos of one flat colour to measure what a photo
covers, and what a screenshot shows of how sharply a photo is drawn."""

import contextlib
import struct
import zlib

from .server import REPO_ROOT
from .waiting import wait_until

SHOTS = REPO_ROOT / ".build" / "e2e-screenshots"


@contextlib.contextmanager
def fresh_tab(driver):
    """A new tab for the block, closed after it with whatever emulation it was given: a page can be
    loaded in it already at its screen size, or with its requests held."""
    home = driver.current_window_handle
    driver.switch_to.new_window("tab")
    try:
        yield driver
    finally:
        restore(driver)
        driver.close()
        driver.switch_to.window(home)


def emulate(driver, width, height, dpr, touch=False, url=None):
    """The tab as a `width`×`height` CSS px screen at `dpr` device pixels per CSS pixel; `url` is
    loaded once it is (a mobile screen lays out about:blank 980 px wide)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": dpr, "mobile": touch})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": touch, "maxTouchPoints": 5 if touch else 1})
    if url:
        driver.get(url)
    wait_until(lambda: driver.execute_script("return [innerWidth, innerHeight]"),
               lambda inner: inner == [width, height], message=f"a {width}×{height} window")


def restore(driver):
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})


# The share of the 2×2 pixel blocks (at even device pixels) of `box` whose four pixels are the same,
# in a screenshot (a PNG, base64): a picture drawn at half resolution and doubled has every block
# the same, a sharp photo hardly any. Decoded in the page, where it takes milliseconds.
_BLOCK_IDENTITY = """
const [png, box, done] = arguments;
const image = new Image();
image.onload = () => {
  const canvas = new OffscreenCanvas(box.w, box.h);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, -box.x, -box.y);
  const data = ctx.getImageData(0, 0, box.w, box.h).data;
  const same = (a, b) => data[a] === data[b] && data[a + 1] === data[b + 1] && data[a + 2] === data[b + 2];
  let identical = 0;
  let blocks = 0;
  for (let y = 0; y + 1 < box.h; y += 2) {
    for (let x = 0; x + 1 < box.w; x += 2) {
      const at = (y * box.w + x) * 4;
      const below = at + box.w * 4;
      blocks += 1;
      if (same(at, at + 4) && same(at, below) && same(at, below + 4)) identical += 1;
    }
  }
  done(identical / blocks);
};
image.onerror = () => done(null);
image.src = `data:image/png;base64,${png}`;
"""


def block_identity(driver, css_box):
    """The share of identical 2×2 device-pixel blocks in a screenshot, within `css_box` (left,
    top, right, bottom in CSS px)."""
    dpr = driver.execute_script("return devicePixelRatio")
    left, top, right, bottom = (round(edge * dpr) for edge in css_box)
    box = {"x": left - left % 2, "y": top - top % 2}
    box.update(w=right - box["x"], h=bottom - box["y"])
    png = driver.get_screenshot_as_base64()
    driver.set_script_timeout(60)
    share = driver.execute_async_script(_BLOCK_IDENTITY, png, box)
    assert share is not None, "the screenshot did not decode"
    return share


def shoot(driver, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    driver.execute_script("window.dispatchEvent(new PointerEvent('pointermove'))")
    assert driver.save_screenshot(str(SHOTS / name))


def write_flat_png(path, width, height, colour):
    """A `width`×`height` PNG of one colour (r, g, b): made here, so the tests need no image library."""
    row = b"\x00" + bytes(colour) * width
    raw = zlib.compress(row * height, 9)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b""))
