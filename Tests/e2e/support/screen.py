"""Screens of other sizes and pixel ratios for one tab (Chromium's device-metrics emulation), a tab
set up before its page loads, and what a screenshot shows of how sharply a photo is drawn."""

import contextlib

from .waiting import wait_until


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


def emulate(driver, width, height, dpr, touch=False):
    """The tab as a `width`×`height` CSS px screen at `dpr` device pixels per CSS pixel."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": dpr, "mobile": touch})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": touch, "maxTouchPoints": 5 if touch else 1})
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
