"""Big screens sharp at rest, an idle page idle.

A motion too large to draw sharp without a GPU (a style switch) is drawn at half resolution; once the
cards rest, the page must draw them at full resolution again within a second, at every size and
pixel ratio up to 3840×2160, and then do nothing at all until something happens. The photos are
random pixels, so that a photo drawn at half resolution and doubled shows in a screenshot: every
2×2 block of it the same colour (a sharp one has hardly any such block).
"""

import tempfile
import time
from pathlib import Path

import pytest

from support.page import StackWebPage
from support.photos import write_noise_png
from support.screens import block_identity, emulate, fresh_tab
from support.server import StackWebServer
from support.waiting import wait_until

# Measures the page's own timing (how soon it is sharp, that it idles, its frame times): run with
# nothing beside it, after the rest of the suite (the Makefile's test-e2e).
pytestmark = pytest.mark.alone

BIG_SCREENS = [(3840, 2160, 1), (1920, 1080, 2)]
# A photo drawn at half resolution has every block the same; a sharp one of random pixels almost none.
MAX_BLOCK_IDENTITY = 0.40
# Back to full resolution this long after the cards come to rest; the polling adds up to 50 ms.
SHARP_WITHIN_S = 1.0
# 4:3, drawn 2880×2160 device pixels by the frame style on these screens: less than twice its size.
PHOTO_SIZE = (1600, 1200)
# Seconds an idle page is watched doing nothing, once it has nothing scheduled.
IDLE_WATCH_S = 5.0


@pytest.fixture(scope="module")
def noise_server():
    with tempfile.TemporaryDirectory(prefix="stackweb-noise-") as folder:
        for number in range(6):
            write_noise_png(Path(folder) / f"noise-{number}.png", *PHOTO_SIZE, seed=number)
        server = StackWebServer(arguments=["--photos", folder]).start()
        yield server
        server.close()


@pytest.fixture
def big_screen(browser, noise_server, room):
    """Opens the test's room on a screen of the size asked for, set before the page loads."""
    with fresh_tab(browser):
        def open_on(screen, query):
            emulate(browser, *screen)
            return StackWebPage(browser, noise_server, room, query).open()

        yield open_on


def scheduled(page):
    return page.driver.execute_script("return window.stackweb.scheduled()")


def sharp_after_rest(page, style):
    """Waits for `style` and for every card to rest, then for the cards drawn sharp; answers how
    long that took after the rest, in seconds."""
    wait_until(lambda: page.state()["style"], lambda shown: shown == style, message=f"the {style} style")
    wait_until(lambda: [card["id"] for card in page.state()["cards"] if card["animating"]],
               lambda moving: not moving, timeout=10, message="every card at rest")
    rested = time.monotonic()
    wait_until(lambda: page.state()["coarse"], lambda coarse: not coarse, timeout=10,
               message="the cards drawn at full resolution")
    took = time.monotonic() - rested
    # Then every photo's variant in (not its preview), whatever the time a loaded machine takes.
    page.wait_until_settled(timeout=30)
    return took


def front_photo_box(page, inset=0.15):
    """The middle of the front photo, in CSS px (left, top, right, bottom)."""
    card = next(card for card in page.state()["cards"] if card["opacity"] > 0.99)
    mapping = page.mapping()
    half_w = card["w"] * card["scaleX"] * (0.5 - inset)
    half_h = card["h"] * card["scaleY"] * (0.5 - inset)
    left, top = mapping.to_page(card["x"] - half_w, card["y"] - half_h)
    right, bottom = mapping.to_page(card["x"] + half_w, card["y"] + half_h)
    return left, top, right, bottom


def assert_sharp(page, what):
    identity = block_identity(page.driver, front_photo_box(page))
    assert identity < MAX_BLOCK_IDENTITY, f"{what}: {identity:.0%} of the photo's 2×2 blocks identical (half resolution)"


# Three styles' photos resized for a 4K screen: a minute and more on a loaded machine.
@pytest.mark.timeout(240)
@pytest.mark.parametrize("screen", BIG_SCREENS, ids=["3840x2160@1", "1920x1080@2"])
def test_a_big_screen_is_sharp_at_rest_after_loading_and_switching(big_screen, noise_server, screen):
    page = big_screen(screen, "&kiosk=1&style=frame&debug=1")
    sharp_after_rest(page, "frame")
    assert_sharp(page, "the frame style as loaded")
    for style in ["pile", "frame"]:
        noise_server.command(page.room, command="style", style=style)
        took = sharp_after_rest(page, style)
        assert took <= SHARP_WITHIN_S + 0.1, f"{style}: drawn sharp {took:.2f} s after the cards rested"
        assert_sharp(page, f"after switching to {style}")


@pytest.mark.timeout(180)
@pytest.mark.parametrize("screen", BIG_SCREENS, ids=["3840x2160@1", "1920x1080@2"])
def test_an_idle_page_does_no_work(big_screen, noise_server, screen):
    page = big_screen(screen, "&kiosk=1&style=frame&debug=1")
    sharp_after_rest(page, "frame")
    noise_server.command(page.room, command="style", style="pile")
    sharp_after_rest(page, "pile")
    # Nothing scheduled: no frame, no idle work. Then nothing can happen until something comes.
    wait_until(lambda: scheduled(page), lambda asked: not any(asked.values()), timeout=10,
               message="a page with nothing scheduled")
    counters = page.driver.execute_script("return window.stackweb.renderCounters()")
    frames = page.drawn_frames
    deadline = time.monotonic() + IDLE_WATCH_S
    while time.monotonic() < deadline:  # watching for the whole interval: nothing may happen in it
        assert not any(scheduled(page).values()), scheduled(page)
        time.sleep(0.25)
    after = page.driver.execute_script("return window.stackweb.renderCounters()")
    assert (after["sprites"], after["layers"], page.drawn_frames) == (counters["sprites"], counters["layers"], frames), \
        f"at rest the page made {after['sprites'] - counters['sprites']} sprites, {after['layers'] - counters['layers']} layers"


# Another script on the page keeps the browser busy: a frame in every vsync, 14 ms of work in each,
# so that idle callbacks come only from their timeout.
_BUSY_FRAMES = """
window.__busy = true;
const spin = () => {
  const until = performance.now() + 14;
  while (performance.now() < until) { /* busy, as a heavy page would be */ }
  if (window.__busy) requestAnimationFrame(spin);
};
requestAnimationFrame(spin);
"""


def test_a_busy_browser_still_draws_the_cards_sharp_within_a_second_of_rest(open_page, server):
    page = open_page(query="&debug=1")
    server.command(page.room, command="style", style="grid")
    page.wait_until_settled()
    page.driver.execute_script(_BUSY_FRAMES)
    try:
        server.command(page.room, command="style", style="pile")
        took = sharp_after_rest(page, "pile")
        assert took <= SHARP_WITHIN_S + 0.1, f"drawn sharp {took:.2f} s after the cards rested"
    finally:
        page.driver.execute_script("window.__busy = false")
