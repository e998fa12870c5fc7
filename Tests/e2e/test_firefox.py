"""The page in Firefox ESR (a Raspberry Pi's or a locked-down kiosk's browser): it draws the room
with the features it has (OffscreenCanvas, canvas filters, ImageBitmap, each feature-checked), in
kiosk mode too, without console errors. Skipped where Firefox is not installed."""

import pytest

from support.firefox import FIREFOX, Firefox
from support.waiting import wait_until

pytestmark = pytest.mark.skipif(not FIREFOX, reason="Firefox is not installed")

STATE = "window.stackweb ? window.stackweb.state() : null"
# Distinct colours in the middle of the canvas, and the colour at the wall left of the stage.
PIXELS = """(() => {
  const ctx = document.getElementById('stage').getContext('2d');
  const data = ctx.getImageData(540, 300, 200, 200).data;
  const colours = new Set();
  for (let i = 0; i < data.length; i += 4) colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
  return {distinct: colours.size, wall: Array.from(ctx.getImageData(30, 400, 1, 1).data.slice(0, 3))};
})()"""


@pytest.fixture(scope="module")
def firefox():
    browser = Firefox()
    yield browser
    browser.close()


@pytest.mark.parametrize("kiosk", [False, True], ids=["page", "kiosk"])
def test_firefox_draws_the_room(firefox, server, room, kiosk):
    firefox.open(f"{server.base_url}/?room={room}-ff&debug=1{'&kiosk=1' if kiosk else ''}")
    state = wait_until(lambda: firefox.evaluate(STATE), lambda s: s and s["connected"] and s["cards"],
                       message="Firefox connected with cards")
    assert firefox.evaluate("document.getElementById('status').textContent").startswith(
        f"Photo 1 of {server.snapshot(room + '-ff')['count']}")
    pixels = wait_until(lambda: firefox.evaluate(PIXELS), lambda p: p["distinct"] > 64,
                        message="the top photo decoded and drawn")
    assert firefox.evaluate("window.stackweb.renderCounters().sprites") > 0
    if kiosk:
        wall = wait_until(lambda: firefox.evaluate(PIXELS)["wall"], lambda rgb: max(rgb) - min(rgb) > 6,
                          message="the wall: the front photo blurred, not grey")
        assert max(wall) < 200, wall
    else:
        assert pixels["wall"] and max(pixels["wall"]) - min(pixels["wall"]) <= 6, "the grey gradient"
    assert state["style"] == "pile"
    assert firefox.console_errors() == []
