"""Odd photos: a tiny one is not blown up to a wall of blur, an animated GIF plays in the frame style,
and a card whose photo is still on its way shows a soft preview of it rather than blank paper."""

import tempfile
from pathlib import Path

import pytest

from support.page import PHOTO_MIN_COLOURS, StackWebPage
from support.photos import write_animated_gif, write_noise_png
from support.screens import emulate, fresh_tab, shoot
from support.server import StackWebServer
from support.waiting import wait_until

TV = (1920, 1080, 1)
TINY = 64
# The photo's variants, as the page asks for them (Resources/web/images.js): held back by the
# browser, as a slow link would; the preview (`w=32`) is not among them.
VARIANT_WIDTHS = (128, 256, 512, 768, 1024, 1536, 2048, 3072, 4096)
# The paper and the placeholder a card shows without its photo; the frame style's dark mat.
PAPER = (255, 255, 255)
MAT = (0x14, 0x14, 0x14)
PLACEHOLDER = (0xD9, 0xD5, 0xCF)
# The animated GIF's frames: each a flat colour with a white bar moving across.
GIF_FRAMES = [(200, 30, 30), (30, 170, 30), (30, 30, 200)]


@pytest.fixture(scope="module")
def tiny_server():
    with tempfile.TemporaryDirectory(prefix="stackweb-tiny-") as folder:
        for number in range(2):
            write_noise_png(Path(folder) / f"tiny-{number}.png", TINY, TINY, seed=number)
        server = StackWebServer(arguments=["--photos", folder]).start()
        yield server
        server.close()


def photo_span(page, card, paper=PAPER):
    """How many device pixels of the row through the card's centre are neither `paper` nor backdrop
    (the photo's width as drawn), and the card's own width in device pixels."""
    mapping = page.mapping()
    dpr = page.driver.execute_script("return devicePixelRatio")
    width = card["w"] * card["scaleX"] * mapping.scale * dpr
    samples = int(width)
    points = [(card["x"] - card["w"] / 2 + card["w"] * (i + 0.5) / samples, card["y"]) for i in range(samples)]
    colours = page.canvas_pixels(points, (0, 0, 1, 1))["points"]
    return sum(1 for colour in colours if tuple(colour) != paper), width


def test_a_tiny_photo_is_drawn_at_most_twice_its_size(browser, tiny_server, room):
    with fresh_tab(browser):
        emulate(browser, *TV)
        page = StackWebPage(browser, tiny_server, room, "&kiosk=1&style=frame").open()
        wait_until(lambda: page.state()["style"], lambda style: style == "frame", message="the frame style")
        page.wait_until_settled(timeout=20)
        front = page.top_card()
        span, card_width = wait_until(lambda: photo_span(page, front, MAT), lambda seen: seen[0] > 0,
                                      message="the photo drawn")
        # Around it, not a white sheet the height of the wall: the frame's dark mat.
        edge = page.canvas_pixels([(front["x"] - front["w"] / 2 + 8, front["y"])], (0, 0, 1, 1))["points"][0]
        shoot(browser, "frame-tiny-photo.png")
        assert tuple(edge) == MAT, f"the card around a tiny photo is {edge}, not the dark mat"
        assert card_width > 4 * TINY, f"the card is {card_width:.0f} px wide: large enough to blow the photo up"
        assert abs(span - 2 * TINY) <= 4, \
            f"a {TINY}-px photo drawn {span} px wide on a {card_width:.0f}-px card (at most twice: {2 * TINY})"


@pytest.fixture(scope="module")
def gif_server():
    with tempfile.TemporaryDirectory(prefix="stackweb-gif-") as folder:
        write_animated_gif(Path(folder) / "clip.gif", 320, 240, GIF_FRAMES)
        server = StackWebServer(arguments=["--photos", folder]).start()
        yield server
        server.close()


def test_an_animated_gif_plays_in_the_frame_style(browser, gif_server, room):
    with fresh_tab(browser):
        emulate(browser, *TV)
        page = StackWebPage(browser, gif_server, room, "&kiosk=1&style=frame").open()
        wait_until(lambda: page.state()["style"], lambda style: style == "frame", message="the frame style")
        front = page.top_card()
        # Right of the middle: the first frame's colour in the first frame, the bar's white in the
        # second, the third's colour in the third (a lossy variant shifts colours a little).
        point = (front["x"] + front["w"] / 12, front["y"])
        seen = set()

        def frames_seen():
            colour = page.canvas_pixels([point], (0, 0, 1, 1))["points"][0]
            seen.update(index for index, frame in enumerate(GIF_FRAMES)
                        if all(abs(a - b) <= 40 for a, b in zip(colour, frame)))
            return sorted(seen)

        wait_until(frames_seen, lambda frames: len(frames) >= 2, timeout=10, message="the GIF's frames drawn in turn")


def hold_variants(driver):
    """The browser holds back every request for a photo variant (never answered while held)."""
    driver.execute_cdp_cmd("Fetch.enable", {"patterns": [{"urlPattern": f"*w={width}"} for width in VARIANT_WIDTHS]})


@pytest.mark.parametrize("style", ["pile", "angles", "grid", "deck", "swipe", "frame"])
def test_a_card_shows_a_preview_while_its_photo_loads(browser, server, room, style):
    with fresh_tab(browser):
        hold_variants(browser)
        try:
            page = StackWebPage(browser, server, f"{room}-{style}"[:64], f"&style={style}").open()
            wait_until(lambda: page.state()["style"], lambda shown: shown == style, message=f"the {style} style")
            wait_until(lambda: [card["id"] for card in page.state()["cards"] if card["animating"]],
                       lambda moving: not moving, message="every card at rest")
            top = page.top_card()
            # The middle of the front card: a soft picture of many colours, not one flat colour, and
            # its very centre no longer the placeholder: both in one reading (on a loaded machine the
            # first reading of many colours once still had the placeholder at the centre).
            box = (top["x"] - top["w"] / 6, top["y"] - top["h"] / 6, top["w"] / 3, top["h"] / 3)
            wait_until(lambda: page.canvas_pixels([(top["x"], top["y"])], box), timeout=10,
                       accept=lambda pixels: pixels["distinct"] > PHOTO_MIN_COLOURS
                       and tuple(pixels["points"][0]) not in (PAPER, PLACEHOLDER),
                       message=f"a preview on the {style} front card while its photo is held back")
            loaded = browser.execute_script(
                "return performance.getEntriesByType('resource').map((e) => e.name).filter((n) => /[?&]w=/.test(n))")
            assert loaded and all(name.endswith("w=32") for name in loaded), f"only previews arrived: {loaded}"
        finally:
            browser.execute_cdp_cmd("Fetch.disable", {})
