"""Chromium driven by Selenium, and the StackWeb page in it seen through its debug hook."""

import os
import re

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from .stage import StageMapping
from .waiting import wait_until, wait_until_steady

CHROMIUM = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver")
VIEWPORT = (1280, 800)
CONNECT_TIMEOUT = 10.0
# Cropped photos have hundreds of colours in any patch; the grey placeholder drawn before a
# photo decodes has one.
PHOTO_MIN_COLOURS = 64

_CANVAS_RECT = """
const rect = document.getElementById('stage').getBoundingClientRect();
return {left: rect.left, top: rect.top, width: rect.width, height: rect.height};
"""

# The photos whose variants have arrived (each is decoded, then drawn, right after); not their
# previews (`w=32`, Resources/web/images.js), which only stand in while the variant loads.
_PHOTOS_LOADED = """
return new Set(performance.getEntriesByType('resource').map((entry) => new URL(entry.name))
  .filter((url) => url.pathname.startsWith('/photos/') && url.searchParams.get('w') !== '32')
  .map((url) => url.pathname)).size;
"""

# Reads the drawn canvas: the colour at each device pixel of `points`, and how many distinct
# colours the device-pixel rectangle `box` holds.
_CANVAS_PIXELS = """
const [points, box] = arguments;
const ctx = document.getElementById('stage').getContext('2d');
const colourAt = ([x, y]) => Array.from(ctx.getImageData(Math.round(x), Math.round(y), 1, 1).data.slice(0, 3));
const data = ctx.getImageData(Math.round(box.x), Math.round(box.y), Math.round(box.w), Math.round(box.h)).data;
const colours = new Set();
for (let i = 0; i < data.length; i += 4) colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
return {points: points.map(colourAt), distinct: colours.size};
"""


def start_chromium(extra_arguments=()):
    """Headless Chromium whose viewport (not window) is exactly VIEWPORT, with console capture."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                     f"--window-size={VIEWPORT[0]},{VIEWPORT[1]}", "--no-proxy-server", *extra_arguments):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    size_viewport(driver, *VIEWPORT)
    return driver


def size_viewport(driver, width, height):
    # Headless windows still reserve room for browser chrome: --window-size=1280,800 leaves a
    # 1280×657 viewport, so grow the window by the difference (the screenshots must be 1280×800).
    driver.get("about:blank")
    extra_w, extra_h = driver.execute_script(
        "return [outerWidth - innerWidth, outerHeight - innerHeight]")
    driver.set_window_size(width + extra_w, height + extra_h)
    inner = driver.execute_script("return [innerWidth, innerHeight]")
    assert inner == [width, height], f"viewport is {inner}, wanted {[width, height]}"


def severe_console_entries(driver, allowed=()):
    """The SEVERE browser log entries since the last call, except those matching an `allowed` pattern."""
    return [
        entry for entry in driver.get_log("browser")
        if entry["level"] == "SEVERE"
        and "favicon" not in entry["message"]
        and not any(re.search(pattern, entry["message"]) for pattern in allowed)
    ]


class StackWebPage:
    """One room open in one browser, read through `window.stackweb` (read-only)."""

    def __init__(self, driver, server, room, query=""):
        self.driver = driver
        self.server = server
        self.room = room
        self.query = query

    @property
    def url(self):
        """The page's address; `query` adds parameters (`&kiosk=1`, `&debug=1`, …)."""
        return f"{self.server.base_url}/?room={self.room}{self.query}"

    def open(self):
        self.driver.get(self.url)
        self.wait_until_showing_cards()
        return self

    def wait_until_showing_cards(self, timeout=CONNECT_TIMEOUT):
        return wait_until(
            self.state, lambda state: state and state["connected"] and state["cards"],
            timeout=timeout, message=f"room {self.room} connected with cards on the page",
        )

    def state(self):
        """The page's view of the room (None before its script has run)."""
        return self.driver.execute_script("return window.stackweb ? window.stackweb.state() : null")

    @property
    def drawn_frames(self):
        return self.driver.execute_script("return window.stackweb.drawnFrames")

    def mapping(self):
        """How stage points map to viewport pixels right now (needs the snapshot's stage)."""
        rect = self.driver.execute_script(_CANVAS_RECT)
        return StageMapping.fit(rect, self.state()["stage"])

    def top_card(self):
        return self.state()["cards"][0]

    def card(self, card_id):
        return next((card for card in self.state()["cards"] if card["id"] == card_id), None)

    def canvas_pixels(self, stage_points, stage_box):
        """Colours at `stage_points` and the distinct-colour count of `stage_box` (x, y, w, h in
        stage points), read back from the canvas in device pixels."""
        mapping = self.mapping()
        dpr = self.driver.execute_script("return devicePixelRatio")
        points = [mapping.to_device(x, y, dpr) for x, y in stage_points]
        left, top = mapping.to_device(stage_box[0], stage_box[1], dpr)
        box = {"x": left, "y": top, "w": stage_box[2] * mapping.scale * dpr, "h": stage_box[3] * mapping.scale * dpr}
        return self.driver.execute_script(_CANVAS_PIXELS, points, box)

    def top_photo_colours(self):
        """Distinct colours in the middle half of the top card: a photo has many, a placeholder one."""
        card = self.top_card()
        box = (card["x"] - card["w"] / 4, card["y"] - card["h"] / 4, card["w"] / 2, card["h"] / 2)
        return self.canvas_pixels([], box)["distinct"]

    def wait_until_photos_drawn(self, timeout=CONNECT_TIMEOUT):
        return wait_until(self.top_photo_colours, lambda colours: colours > PHOTO_MIN_COLOURS, timeout=timeout,
                          message=f"more than {PHOTO_MIN_COLOURS} colours in the top photo (decoded and drawn)")

    def wait_until_settled(self, timeout=CONNECT_TIMEOUT):
        """Every drawn photo loaded, no card moving, no frame pending: what a person sees after a
        moment. Returns the frame count then."""
        self.wait_until_photos_drawn(timeout)
        photos = {card["src"] for card in self.state()["cards"] if card["src"]}
        wait_until(lambda: self.driver.execute_script(_PHOTOS_LOADED), lambda loaded: loaded >= len(photos),
                   timeout=timeout, message=f"all {len(photos)} drawn photos loaded")
        wait_until(lambda: [card["id"] for card in self.state()["cards"] if card["animating"]],
                   lambda moving: not moving, timeout=timeout, message="no card animating")
        # A large motion is drawn coarse and drawn sharp once idle time has made what that needs.
        wait_until(lambda: self.state().get("coarse"), lambda coarse: not coarse, timeout=timeout,
                   message="the cards drawn sharp")
        # The last photo to land still asks for one frame after its response: let it be drawn.
        return wait_until_steady(lambda: self.drawn_frames, quiet=0.4, timeout=timeout,
                                 message="the frame counter to settle")
