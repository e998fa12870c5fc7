"""How cards are drawn: perspective flips, backs, corners, veils, reduced motion, resizing.

The server draws only the pile today, so most of these show the page a scene of their own through
the debug hook (`?debug=1`: `stackweb.showScene(snapshot)`), built from the card fields of
docs/wire-protocol.md exactly as the server would send them. Cards without a photo are drawn as
a flat placeholder, which makes their outline easy to find in the pixels.
"""

import math
import time
from urllib.parse import parse_qs, urlparse

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from support.page import VIEWPORT
from support.stage import card_point
from support.waiting import wait_until, wait_until_steady

STAGE = {"w": 1024, "h": 768}
PREVIEW_WIDTH = 32  # Resources/web/images.js
PERSPECTIVE = 1000  # stage points, Resources/web/look.js
BORDER = 5  # the pile's border, stage points
# A scene's seq far above the room's, so that nothing the server sends meanwhile replaces it.
SCENE_SEQ = 10**9


def is_background(rgb):
    return max(rgb) <= 100


def is_card(rgb):
    """The placeholder (#d9d5cf) or the white border."""
    return min(rgb) >= 150


def card(number, x, y, w=400, h=300, **fields):
    return {"id": f"s{number}", "photo": f"s{number}", "src": None, "position": number, "x": x, "y": y,
            "w": w, "h": h, "rotation": 0, "scaleX": 1, "scaleY": 1, "opacity": 1, "flip": 0,
            "z": 100 - number, "highlight": False, **fields}


def show(page, style, cards):
    """Shows `cards` in `style` and waits until the page has drawn them."""
    snapshot = {"room": page.room, "seq": SCENE_SEQ, "serverTime": time.time() * 1000, "style": style,
                "stage": STAGE, "count": len(cards), "current": 0, "playing": False, "cards": cards}
    page.driver.execute_script("window.stackweb.showScene(arguments[0])", snapshot)
    wait_until(lambda: page.state()["seq"], lambda seq: seq == SCENE_SEQ, message="the scene shown")
    wait_until(lambda: page.state()["coarse"], lambda coarse: not coarse, message="the scene drawn sharp")
    wait_until_steady(lambda: page.drawn_frames, quiet=0.3, message="the scene drawn")


def debug_page(open_page):
    return open_page(query="&debug=1")


def extent(page, along, at, start, end):
    """How many device pixels of card colour a row (`along`="row", at stage y) or column (at stage
    x) holds between stage `start` and `end`."""
    mapping = page.mapping()
    samples = 400
    points = ([(start + (end - start) * i / samples, at) for i in range(samples + 1)] if along == "row"
              else [(at, start + (end - start) * i / samples) for i in range(samples + 1)])
    colours = page.canvas_pixels(points, (0, 0, 1, 1))["points"]
    step = abs(end - start) / samples * mapping.scale
    return sum(1 for rgb in colours if is_card(rgb)) * step


def test_a_turned_card_is_foreshortened_in_perspective(open_page):
    page = debug_page(open_page)
    angle = 0.9
    show(page, "deck", [card(0, 512, 384, flip=angle)])
    scale = page.mapping().scale
    sin, cos = math.sin(angle), math.cos(angle)
    near_k = PERSPECTIVE / (PERSPECTIVE - 200 * sin)  # the left edge comes towards the eye
    far_k = PERSPECTIVE / (PERSPECTIVE + 200 * sin)
    left_x, right_x = 512 - 200 * cos * near_k, 512 + 200 * cos * far_k

    def expected_height(x):
        # The card column that projects to stage x, and its depth scale (Resources/web/flip.js).
        u = (x - 512) / (cos - (x - 512) * sin / PERSPECTIVE)
        return 300 * PERSPECTIVE / (PERSPECTIVE + u * sin) * scale

    width = extent(page, "row", 384, 512 - 300, 512 + 300)
    # Columns a few points inside each edge, clear of the rounded corners' anti-aliasing.
    inset = 12
    left_h = extent(page, "column", left_x + inset, 384 - 300, 384 + 300)
    right_h = extent(page, "column", right_x - inset, 384 - 300, 384 + 300)

    expected_width = (right_x - left_x) * scale
    assert abs(width - expected_width) < 4, f"width {width:.1f} px, expected {expected_width:.1f}"
    assert left_h > 300 * scale > right_h, f"near edge {left_h:.1f} px, far edge {right_h:.1f} px"
    assert abs(left_h - expected_height(left_x + inset)) < 4, (left_h, expected_height(left_x + inset))
    assert abs(right_h - expected_height(right_x - inset)) < 4, (right_h, expected_height(right_x - inset))


def test_past_a_quarter_turn_the_back_shows(open_page):
    page = debug_page(open_page)
    flips = [1.2, 1.9, math.pi]
    cards = [card(i, 200 + 300 * i, 384, w=240, h=180, flip=flip) for i, flip in enumerate(flips)]
    show(page, "deck", cards)
    centres = page.canvas_pixels([(c["x"], c["y"]) for c in cards], (0, 0, 1, 1))["points"]
    face, *backs = centres
    assert is_card(face), f"a card turned 1.2 rad still shows its face: {face}"
    for flip, (r, g, b) in zip(flips[1:], backs):
        assert b > r + 30 and max(r, g, b) < 160, f"turned {flip:.2f} rad: the blue back should show, got {(r, g, b)}"


def test_corners_are_rounded_only_where_the_style_has_them(open_page):
    page = debug_page(open_page)
    flat = card(0, 512, 384)
    corner = (512 - 200 + 1.2, 384 - 150 + 1.2)  # just inside the top-left corner
    edge = (512 - 200 + 1.2, 384)
    for style, rounded in [("pile", False), ("grid", False), ("angles", False), ("deck", True), ("swipe", True)]:
        show(page, style, [flat])
        at_corner, at_edge = page.canvas_pixels([corner, edge], (0, 0, 1, 1))["points"]
        assert is_card(at_edge), f"{style}: the border at the left edge: {at_edge}"
        if rounded:
            assert is_background(at_corner), f"{style} has rounded corners, but its corner is {at_corner}"
        else:
            assert is_card(at_corner), f"{style} has square corners, but its corner is {at_corner}"


def test_highlight_darkens_and_opacity_fades(open_page):
    page = debug_page(open_page)
    cards = [card(0, 200, 384, w=200, h=200), card(1, 512, 384, w=200, h=200, highlight=True),
             card(2, 824, 384, w=200, h=200, opacity=0.5)]
    show(page, "pile", cards)
    plain, highlighted, faded = page.canvas_pixels([(c["x"], c["y"]) for c in cards], (0, 0, 1, 1))["points"]
    assert all(abs(h - p * 0.85) <= 3 for h, p in zip(highlighted, plain)), \
        f"the highlight is black at 15 %: {highlighted} over {plain}"
    assert all(60 < f < p - 40 for f, p in zip(faded, plain)), f"half transparent over the backdrop: {faded}"


def test_photos_are_requested_at_the_size_drawn(page):
    page.wait_until_settled()
    urls = page.driver.execute_script(
        "return performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.includes('/photos/'))")
    assert urls
    # Each photo is asked for at a step of a short ladder at or above its card's size on screen,
    # after its preview (a few KB, blurred: what the card shows while the photo loads).
    widths = [width for width in (int(parse_qs(urlparse(url).query)["w"][0]) for url in urls) if width != PREVIEW_WIDTH]
    scale = page.mapping().scale
    drawn = [(max(card["w"], card["h"]) - 2 * BORDER) * scale for card in page.state()["cards"]]
    assert all(min(drawn) <= width < 2 * max(drawn) for width in widths), \
        f"cards {min(drawn):.0f}–{max(drawn):.0f} px on screen, photos asked for at {widths}"


def test_reduced_motion_cuts_instead_of_moving(page, server):
    driver = page.driver
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    try:
        assert wait_until(lambda: page.state()["reducedMotion"], message="the page to see the preference")
        top = page.top_card()
        rest, flown_to = top["x"], None
        driver.find_element(By.ID, "stage").send_keys(Keys.ARROW_RIGHT)
        seen = []
        deadline = time.monotonic() + 2.0  # the flight and its landing at the back take about 1 s

        while time.monotonic() < deadline:  # sampling for the whole interval, not waiting for a result
            card_now = page.card(top["id"])
            if card_now:
                seen.append(round(card_now["x"], 1))
        after = server.snapshot(page.room)
        assert after["current"] == 1
        flown_to = sorted(set(seen) - {round(rest, 1)})
        assert len(flown_to) <= 1, f"{top['id']} passed through in-between places: {sorted(set(seen))}"
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def test_the_canvas_follows_resizes_and_pixel_ratio(page):
    driver = page.driver
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 600, "height": 900, "deviceScaleFactor": 2, "mobile": False})
        size = wait_until(lambda: driver.execute_script(
            "const c = document.getElementById('stage'); return [c.width, c.height, devicePixelRatio]"),
            lambda value: value == [1200, 1800, 2], message="a 1200×1800 canvas for 600×900 CSS px at 2×")
        assert size
        wait_until_steady(lambda: page.drawn_frames, quiet=0.3, message="the new layout drawn")
        top = page.top_card()
        border = card_point(top, -top["w"] / 2 + 2.5, 0)
        inside = (top["x"], top["y"])
        above_stage = (512, -100)  # the portrait view letterboxes the stage: this is above it
        pixels = page.canvas_pixels([border, inside, above_stage], (0, 0, 1, 1))["points"]
        assert min(pixels[0]) >= 235, f"the top card's border, fitted into the portrait view: {pixels[0]}"
        assert is_background(pixels[2]), pixels[2]
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    wait_until(lambda: driver.execute_script("return [innerWidth, innerHeight]"), lambda inner: inner == list(VIEWPORT),
               message="the viewport restored")
