"""Screenshots for the README, taken from the real page so they cannot drift from it."""

import struct

from support.page import VIEWPORT
from support.pointer import FOLLOW_TOLERANCE, Mouse, steps
from support.server import REPO_ROOT
from support.stage import is_near
from support.waiting import wait_until

SCREENSHOTS = REPO_ROOT / "docs" / "screenshots"
DRAG_PX = (170, -50)


def png_size(path):
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", header[16:24])


def save(page, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / name
    assert page.driver.save_screenshot(str(path)), f"could not write {path}"
    assert png_size(path) == VIEWPORT
    return path


def assert_looks_like_a_pile(page):
    # The pile style turns every photo but the top by a few degrees (DESIGN.md); a stack of
    # straight cards shows one photo and would make a misleading README picture.
    cards = page.state()["cards"]
    assert len(cards) > 1 and any(card["rotation"] != 0 for card in cards[1:]), \
        f"the cards under the top one are all straight: {[card['rotation'] for card in cards]}"


def test_screenshot_of_the_settled_pile(page):
    assert_looks_like_a_pile(page)
    page.wait_until_settled()
    save(page, "pile.png")


def test_screenshot_mid_drag(page):
    assert_looks_like_a_pile(page)
    page.wait_until_settled()
    top = page.top_card()
    mapping = page.mapping()
    start = mapping.to_page(top["x"], top["y"])
    Mouse(page.driver).move_to(*start).down().move_through(steps(start, DRAG_PX, 6), 40).perform()
    try:
        expected = (top["x"] + mapping.points(DRAG_PX[0]), top["y"] + mapping.points(DRAG_PX[1]))
        wait_until(lambda: page.card(top["id"]),
                   lambda card: is_near(card, *expected, FOLLOW_TOLERANCE),
                   message=f"the page to show {top['id']} dragged to {expected}")
        page.wait_until_settled()
        save(page, "pile-drag.png")
    finally:
        # Back where it started, slowly: the room is left as it was found.
        Mouse(page.driver).move_to(*start, 300).pause(300).up().perform()
