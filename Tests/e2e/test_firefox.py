"""The core journeys in Firefox ESR (a Raspberry Pi's or a locked-down kiosk's browser), driven
over Marionette: the page draws, the keyboard steps, a mouse drag flicks, two windows share a room,
and the page comes back after its server restarts. Skipped where Firefox ESR or the
marionette-driver package is missing."""

import pytest

from support.marionette import FIREFOX, Firefox, FirefoxPage, Marionette
from support.waiting import wait_until

pytestmark = pytest.mark.skipif(not FIREFOX or Marionette is None,
                                reason="needs firefox-esr and the marionette-driver package")

# Distinct colours in the middle of the canvas, and the colour at the wall left of the stage.
PIXELS = """
const ctx = document.getElementById('stage').getContext('2d');
const data = ctx.getImageData(540, 300, 200, 200).data;
const colours = new Set();
for (let i = 0; i < data.length; i += 4) colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
return {distinct: colours.size, wall: Array.from(ctx.getImageData(30, 400, 1, 1).data.slice(0, 3))};
"""
ARROW_RIGHT = "\ue014"
# Five 80 px steps to the left: far past ¼ of a card's short side, a flick by distance alone.
FLICK_POINTS = 5 * 80


@pytest.fixture(scope="module")
def firefox():
    browser = Firefox()
    yield browser
    browser.close()


@pytest.fixture
def ff_room(room):
    return room[:61] + "-ff"


@pytest.mark.parametrize("kiosk", [False, True], ids=["page", "kiosk"])
def test_firefox_draws_the_room(firefox, server, ff_room, kiosk):
    page = FirefoxPage(firefox, server, ff_room, "&kiosk=1" if kiosk else "").open()
    assert firefox.run("return document.getElementById('status').textContent").startswith(
        f"Photo 1 of {server.snapshot(ff_room)['count']}")
    pixels = wait_until(lambda: firefox.run(PIXELS), lambda p: p["distinct"] > 64,
                        message="the top photo decoded and drawn")
    assert firefox.run("return window.stackweb.renderCounters().sprites") > 0
    if kiosk:
        wall = wait_until(lambda: firefox.run(PIXELS)["wall"], lambda rgb: max(rgb) - min(rgb) > 6,
                          message="the wall: the front photo blurred, not grey")
        assert max(wall) < 200, wall
    else:
        assert pixels["wall"] and max(pixels["wall"]) - min(pixels["wall"]) <= 6, "the grey gradient"
    assert page.state()["style"] == "pile"


def test_firefox_arrow_key_advances(firefox, server, ff_room):
    page = FirefoxPage(firefox, server, ff_room).open()
    assert server.snapshot(ff_room)["current"] == 0
    page.press(ARROW_RIGHT)
    wait_until(lambda: server.snapshot(ff_room)["current"], lambda current: current == 1,
               message="the server's current == 1 after →")
    wait_until(lambda: page.state()["current"], lambda current: current == 1, message="the page's current == 1")


def test_firefox_mouse_drag_flicks_the_top_photo(firefox, server, ff_room):
    page = FirefoxPage(firefox, server, ff_room).open()
    before = server.snapshot(ff_room)
    top, second = before["cards"][0], before["cards"][1]
    assert FLICK_POINTS > min(top["w"], top["h"]) / 4
    page.drag((top["x"], top["y"]), (top["x"] - FLICK_POINTS, top["y"]))
    after = wait_until(
        lambda: server.snapshot(ff_room),
        lambda snap: snap["seq"] > before["seq"] and snap["cards"][0]["id"] == second["id"],
        message=f"the server to send {top['id']} to the back")
    assert after["current"] != before["current"]
    wait_until(lambda: page.state()["cards"][0]["id"], lambda shown: shown == second["id"],
               message=f"the page to show {second['id']} on top")


def test_firefox_two_windows_share_the_room(firefox, server, ff_room):
    first = FirefoxPage(firefox, server, ff_room).open()
    home = firefox.open_window()
    try:
        second = FirefoxPage(firefox, server, ff_room).open()
        second.press(ARROW_RIGHT)
        wait_until(lambda: server.snapshot(ff_room)["current"], lambda current: current == 1,
                   message="the server's current == 1 after → in the second window")
        firefox.client.switch_to_window(home)
        wait_until(lambda: first.state()["current"], lambda current: current == 1,
                   message="the first window to follow the second")
    finally:
        if firefox.client.current_window_handle != home:
            firefox.client.switch_to_window(home)
        for handle in firefox.client.window_handles:
            if handle != home:
                firefox.client.switch_to_window(handle)
                firefox.client.close()
        firefox.client.switch_to_window(home)


def test_firefox_reconnects_after_server_restart(firefox, restartable_server, ff_room):
    page = FirefoxPage(firefox, restartable_server, ff_room).open()
    offline = "return getComputedStyle(document.getElementById('offline')).display !== 'none'"
    assert not firefox.run(offline)
    port = restartable_server.port

    restartable_server.crash()
    wait_until(lambda: page.state()["connected"], lambda connected: not connected,
               message="the page to notice the server is gone")
    wait_until(lambda: firefox.run(offline), message="the offline badge")

    restartable_server.start()
    assert restartable_server.port == port
    state = page.wait_until_showing_cards(timeout=15.0)
    wait_until(lambda: firefox.run(offline), lambda shown: not shown, message="the offline badge to go")
    assert state["count"] == restartable_server.snapshot(ff_room)["count"]
