"""The page draws the room's pile, matches the server, and rests when nothing happens."""

import time

from support.stage import card_point

BORDER = 5  # points (docs/styles.md, pile)


def is_white(rgb):
    return min(rgb) >= 235


def is_dark(rgb):
    return max(rgb) <= 100


def test_page_shows_the_pile(page, server):
    state = page.state()
    snapshot = server.snapshot(page.room)
    assert state["count"] == snapshot["count"] > 0
    assert [card["id"] for card in state["cards"]] == [card["id"] for card in snapshot["cards"]]

    size = page.driver.execute_script(
        "const c = document.getElementById('stage'); return [c.width, c.height, devicePixelRatio]")
    assert size[0] > 0 and size[1] > 0

    # Photos decode after the first frame; until then the cards are plain grey placeholders.
    page.wait_until_photos_drawn()

    top = page.top_card()
    inset = BORDER / 2  # the middle of the border, clear of anti-aliased edges on both sides
    edge_middles = [
        card_point(top, -top["w"] / 2 + inset, 0), card_point(top, top["w"] / 2 - inset, 0),
        card_point(top, 0, -top["h"] / 2 + inset), card_point(top, 0, top["h"] / 2 - inset),
    ]
    stage_corner = (4, 4)
    photo_box = (top["x"] - top["w"] / 4, top["y"] - top["h"] / 4, top["w"] / 2, top["h"] / 2)
    pixels = page.canvas_pixels(edge_middles + [stage_corner], photo_box)

    *border, corner = pixels["points"]
    assert all(is_white(rgb) for rgb in border), f"the top card's border is not white: {border}"
    assert is_dark(corner), f"the background is not the dark backdrop: {corner}"
    assert pixels["distinct"] > 500, f"only {pixels['distinct']} colours where the top photo is"


def test_idle_page_draws_no_frames(page):
    before = page.wait_until_settled()
    assert before > 0

    time.sleep(1.0)  # the measurement interval itself, not a wait for a result

    assert page.drawn_frames == before, "an idle page kept drawing frames"
