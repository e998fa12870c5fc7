"""The frame style's Ken Burns transition (`--transition kenburns`): each photo shown slowly zooms
and pans as the server describes it, the same in every window; a page asking for reduced motion
cuts to where the motion ends."""

import pytest

from support.server import StackWebServer
from support.waiting import wait_until

# Measures the page's own timing (how far a slow motion moves in a few seconds): run with
# nothing beside it, after the rest of the suite (the Makefile's test-e2e).
pytestmark = pytest.mark.alone

# Long enough to see a 10-s motion move by several pixels, short enough for a test.
WATCH_SECONDS = 2.0


@pytest.fixture(scope="module")
def kenburns_server():
    instance = StackWebServer(arguments=["--style", "frame", "--transition", "kenburns"]).start()
    yield instance
    instance.close()


def show_next(page, server):
    """Sends `next` and answers the incoming card as the server describes it (tracked by the page
    from before the change, so every frame it is drawn in is recorded)."""
    driver = page.driver
    page.wait_until_settled()
    incoming = page.state()["cards"][1]
    driver.execute_script("window.stackweb.trackCard(arguments[0])", incoming["id"])
    server.command(page.room, command="next")
    snapshot = wait_until(lambda: server.snapshot(page.room), lambda snap: snap["cards"][0]["id"] == incoming["id"],
                          message="the next photo in front")
    return snapshot["cards"][0]


def tracked_rects(page):
    return page.driver.execute_script("return window.stackweb.trackedRects()")


def size_and_centre(rect):
    return (rect["right"] - rect["left"], rect["bottom"] - rect["top"],
            (rect["left"] + rect["right"]) / 2, (rect["top"] + rect["bottom"]) / 2)


def test_the_incoming_photo_zooms_and_pans_slowly_as_the_server_says(open_page, kenburns_server):
    page = open_page(on_server=kenburns_server, query="&debug=1")
    card = show_next(page, kenburns_server)
    anim = card["anim"]
    assert anim["duration"] == 10000 and anim["curve"]["type"] == "linear"
    assert anim["from"]["opacity"] == 1, "whole from the start, under the outgoing photo"
    assert anim["from"]["scaleX"] != anim["to"]["scaleX"], "a zoom"
    # Frames keep coming while it moves: its drawn rectangle over a couple of seconds.
    rects = wait_until(lambda: tracked_rects(page), lambda rects: len(rects) >= 20, timeout=10,
                       message="frames of the moving photo")
    wait_until(lambda: page.state()["cards"][0]["animating"], message="still moving")
    page.driver.execute_script("return new Promise((done) => setTimeout(done, arguments[0]))", WATCH_SECONDS * 1000)
    rects = tracked_rects(page)
    sizes = [size_and_centre(rect) for rect in rects]
    widths = [size[0] for size in sizes]
    first, last = sizes[0], sizes[-1]
    assert abs(last[0] - first[0]) > 5, f"the photo zooms: widths {widths[0]:.1f} → {widths[-1]:.1f}"
    growing = anim["to"]["scaleX"] > anim["from"]["scaleX"]
    steps = [b - a for a, b in zip(widths, widths[1:])]
    assert all(step >= -0.01 if growing else step <= 0.01 for step in steps), \
        f"one way only ({'growing' if growing else 'shrinking'}): {[round(s, 2) for s in steps]}"
    # About 15 px/s at this size: a frame held back by a busy machine moves a few pixels, a jump
    # to the motion's end about 150.
    assert max(abs(step) for step in steps) < 10, f"slowly, no jump: {[round(s, 2) for s in steps]}"
    # Where it is drawn is where the server's motion puts it now (the page's own card state).
    shown = page.state()["cards"][0]
    mapping = page.mapping()
    drawn_width = shown["w"] * shown["scaleX"] * mapping.scale
    latest = size_and_centre(tracked_rects(page)[-1])
    assert abs(latest[0] - drawn_width) < 3, f"drawn {latest[0]:.1f} px wide, the motion says {drawn_width:.1f}"


def test_reduced_motion_cuts_to_where_the_motion_ends(open_page, kenburns_server):
    page = open_page(on_server=kenburns_server, query="&debug=1")
    driver = page.driver
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    try:
        wait_until(lambda: page.state()["reducedMotion"], message="the page to see reduced motion asked for")
        card = show_next(page, kenburns_server)
        assert card["anim"]["duration"] == 10000, "the server describes the motion for every page"
        page.wait_until_settled()
        rects = tracked_rects(page)
        assert rects, "the incoming photo was drawn"
        sizes = [size_and_centre(rect) for rect in rects]
        spread = [max(values) - min(values) for values in zip(*sizes)]
        assert max(spread) < 0.5, f"a cut: the photo drawn in one place and size, spread {spread}"
        mapping = page.mapping()
        end = card["anim"]["to"]
        assert abs(sizes[0][0] - end["w"] * end["scaleX"] * mapping.scale) < 2, "at the motion's end"
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
