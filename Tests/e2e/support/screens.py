"""Screens of every shape in one Chromium tab (device metrics and touch emulated), screenshots of
them, and photos of one flat colour to measure what a photo covers."""

import struct
import zlib

from .server import REPO_ROOT
from .waiting import wait_until

SHOTS = REPO_ROOT / ".build" / "e2e-screenshots"


def emulate(driver, width, height, dpr, touch=False):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": dpr, "mobile": touch})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": touch, "maxTouchPoints": 5 if touch else 1})
    wait_until(lambda: driver.execute_script("return [innerWidth, innerHeight]"),
               lambda inner: inner == [width, height], message=f"a {width}×{height} window")


def restore(driver):
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})


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
