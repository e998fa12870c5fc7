"""Look and feel on real screens: controls that leave the photo alone, the true position in words,
the slideshow button, the swipe style's stacked mode, a photo frame's wall, and flights that leave
the window whatever its shape.

Some of these need the server side of the same issue (marked in each docstring):
- MODEL: the model branch (off-screen flight targets for any aspect 9:21…21:9, `stacked` on the
  `style` command and in snapshots).
- LEAD: the lead's server branch (`play` starts a slideshow at 10 s when the server has no
  `--interval`).
"""

import json

import pytest
from selenium.webdriver.common.by import By

from support.network import RequestLog, logged_from_load
from support.pointer import Mouse, steps
from support.waiting import wait_until, wait_until_steady
from test_keyboard import REFUSED_COMMAND

CONTROLS_FADE_TIMEOUT = 6.0  # the page fades them after 3 s without input
WIDE, TALL = (1260, 540), (540, 1260)  # 21:9 and 9:21 windows

_OPACITY = "return getComputedStyle(document.querySelector(arguments[0])).opacity"
_HIT = """
const rect = document.querySelector(arguments[0]).getBoundingClientRect();
const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
return hit && hit.id;
"""


def opacity(page, selector):
    return float(page.driver.execute_script(_OPACITY, selector))


def test_controls_fade_without_input_and_come_back(page, server):
    """Full stage (F): after 3 s without input nothing lies over the photo; a move brings the bar back."""
    server.command(page.room, command="fullscreen")
    wait_until(lambda: opacity(page, "#controls"), lambda value: value == 0, timeout=CONTROLS_FADE_TIMEOUT,
               message="the controls to fade out")
    assert opacity(page, "#status") == 0, "the status line fades with them"
    # Faded, the bar is inert but still there: a touch on it only shows it (test_safe_taps.py), and
    # never reaches the photo beneath, which would change the room for every screen.
    assert page.driver.execute_script(_HIT, "#controls") != "stage"
    Mouse(page.driver).move_to(200, 200).move_to(220, 210, 50).perform()
    wait_until(lambda: opacity(page, "#controls"), lambda value: value == 1, message="the controls back on a move")
    assert page.driver.execute_script(_HIT, "#controls") != "stage"


def status_numbers(page):
    text = page.driver.find_element(By.ID, "status").get_attribute("textContent")
    words = text.split(":")[0].split()
    assert words[0] == "Photo" and words[2] == "of", text
    return int(words[1]), int(words[3])


def test_status_says_the_true_position_after_insert_and_remove(page, server):
    """"Photo N of M" from the server's current and count, N ≤ M, after an insert and a remove."""
    snapshot = server.snapshot(page.room)
    last = snapshot["count"] - 1
    server.command(page.room, command="goto", index=last)
    wait_until(lambda: status_numbers(page), lambda nm: nm == (last + 1, last + 1), message="the last photo")

    server.command(page.room, command="insert", photo=snapshot["cards"][0]["photo"])
    after_insert = wait_until(lambda: server.snapshot(page.room), lambda snap: snap["count"] == last + 2,
                              message="the inserted card")
    shown = wait_until(lambda: status_numbers(page), lambda nm: nm[1] == last + 2, message="the new count")
    assert shown[0] <= shown[1], f"Photo {shown[0]} of {shown[1]}"
    assert shown[0] == min(after_insert["current"] + 1, after_insert["count"]), (shown, after_insert["current"])

    front = server.snapshot(page.room)["cards"][0]["id"]
    server.command(page.room, command="remove", id=front)
    after_remove = wait_until(lambda: server.snapshot(page.room), lambda snap: snap["count"] == last + 1,
                              message="the removed card gone")
    shown = wait_until(lambda: status_numbers(page), lambda nm: nm[1] == last + 1, message="the count after remove")
    assert 1 <= shown[0] <= shown[1], f"Photo {shown[0]} of {shown[1]}"
    assert shown[0] == min(after_remove["current"] + 1, after_remove["count"]), (shown, after_remove["current"])


def play_button(page):
    return page.driver.find_element(By.CSS_SELECTOR, '#controls [data-action="play-pause"]')


def test_play_starts_a_slideshow_and_the_button_shows_it(page, server):
    """LEAD: ▶ on a server started without --interval starts a slideshow (10 s by default)."""
    assert server.snapshot(page.room)["playing"] is False
    button = play_button(page)
    assert button.get_attribute("aria-pressed") == "false"
    button.click()
    wait_until(lambda: server.snapshot(page.room)["playing"], lambda playing: playing is True, timeout=3,
               message="the room's slideshow to run after ▶ (GET /api/rooms/R: playing)")
    wait_until(lambda: button.get_attribute("aria-pressed"), lambda pressed: pressed == "true",
               message="the button pressed while the slideshow runs")
    assert button.get_attribute("aria-label") == "Pause the slideshow"
    assert "is-playing" in button.get_attribute("class")
    button.click()
    wait_until(lambda: server.snapshot(page.room)["playing"], lambda playing: playing is False,
               message="pause to stop it")
    wait_until(lambda: button.get_attribute("aria-pressed"), lambda pressed: pressed == "false",
               message="the button released")


@pytest.mark.allow_console(REFUSED_COMMAND)
def test_stacked_parameter_asks_for_the_stacked_swipe_once(page, server):
    """?stacked=1 posts the stacked swipe style once; the toggle then shows in the swipe style.
    MODEL: only the snapshot's `stacked` (checked when the server sends it)."""
    driver = page.driver
    with logged_from_load(driver):
        driver.get(f"{page.url}&stacked=1")
        page.wait_until_showing_cards()
        posted = RequestLog(driver, clear=False).wait_for_commands(1, message="the stacked swipe asked for")
    assert [post["body"] for post in posted] == [{"command": "style", "style": "swipe", "stacked": True}]
    snapshot = wait_until(lambda: server.snapshot(page.room), lambda snap: snap["style"] == "swipe",
                          message="the room in the swipe style")
    if "stacked" in snapshot:
        assert snapshot["stacked"] is True
    toggle = driver.find_element(By.CSS_SELECTOR, '#controls [data-action="stacked"]')
    wait_until(toggle.is_displayed, message="the stacked toggle shown in the swipe style")
    if "stacked" in snapshot:
        wait_until(lambda: toggle.get_attribute("aria-pressed"), lambda pressed: pressed == "true",
                   message="the toggle pressed from the room's `stacked`")


# The wall outside the stage, left of it in a 1280×800 window (the 4:3 stage leaves ~107 px).
WALL_POINT = (30, 400)


def wall_colour(page):
    return page.driver.execute_script(
        "return Array.from(document.getElementById('stage').getContext('2d')"
        ".getImageData(arguments[0], arguments[1], 1, 1).data.slice(0, 3))", *WALL_POINT)


def test_kiosk_wall_is_the_front_photo_blurred_and_changes_with_it(open_page, server):
    """?kiosk=1: around the stage, the front photo blurred and darkened (not grey); it follows the
    front photo with a cross-fade, then the page stops drawing."""
    page = open_page(query="&kiosk=1&debug=1")
    page.wait_until_settled()
    first = wall_colour(page)
    assert max(first) - min(first) > 6, f"a grey wall: {first}"
    assert max(first) < 200, f"darkened: {first}"
    server.command(page.room, command="next")
    wait_until(lambda: wall_colour(page), lambda colour: max(abs(a - b) for a, b in zip(colour, first)) > 6,
               message=f"the wall to change from {first} with the front photo")
    page.wait_until_settled()
    frames = page.drawn_frames
    wait_until_steady(lambda: page.drawn_frames, quiet=0.5, message="no frames once the wall has faded")
    assert page.drawn_frames - frames <= 1


def resize(driver, width, height):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    wait_until(lambda: driver.execute_script("return [innerWidth, innerHeight]"), lambda inner: inner == [width, height],
               message=f"a {width}×{height} window")


def outside(rect, width, height):
    return rect["right"] < 0 or rect["left"] > width or rect["bottom"] < 0 or rect["top"] > height


def inside_some(rect, width, height):
    return rect["right"] > 0 and rect["left"] < width and rect["bottom"] > 0 and rect["top"] < height


@pytest.mark.parametrize("style", ["pile", "swipe"])
@pytest.mark.parametrize("window", [WIDE, TALL], ids=["21x9", "9x21"])
def test_a_flown_card_leaves_the_window(open_page, server, style, window):
    """MODEL: a flicked (pile) or swiped (swipe) card is drawn all the way out of a 21:9 or 9:21
    window; the page clips nothing to the stage."""
    page = open_page(query="&debug=1")
    driver = page.driver
    width, height = window
    try:
        resize(driver, width, height)
        if style != "pile":
            server.command(page.room, command="style", style=style)
            wait_until(lambda: page.state()["style"], lambda shown: shown == style, message=f"the {style} style")
        page.wait_until_settled()
        before = server.snapshot(page.room)
        top = page.top_card()
        driver.execute_script("window.stackweb.trackCard(arguments[0])", top["id"])
        mapping = page.mapping()
        start = mapping.to_page(top["x"], top["y"])
        distance = min(width, height) * 0.45
        path = steps(start, (-distance, 0), 5)
        Mouse(driver).move_to(*start).down().move_through(path[:-1], 16).move_to(*path[-1]).up().perform()
        wait_until(lambda: server.snapshot(page.room)["current"], lambda current: current != before["current"],
                   message="the flick to show the next photo")
        page.wait_until_settled()
        rects = driver.execute_script("return window.stackweb.trackedRects()")
        assert rects, "the flown card was drawn"
        assert any(inside_some(rect, width, height) for rect in rects), "drawn in the window as it leaves"
        farthest = min(rects, key=lambda rect: rect["right"])
        assert outside(farthest, width, height), \
            f"{style}: {top['id']} should fly out of the {width}×{height} window; farthest drawn at " \
            f"{json.dumps({k: round(v) for k, v in farthest.items()})}"
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


_FRAME_SAMPLER = """
window.__coarseSamples = [];
window.__coarseSampling = true;
const sample = () => {
  const state = window.stackweb.state();
  const layer = document.getElementById('coarse');
  window.__coarseSamples.push({
    coarse: state.coarse, moving: state.cards.some((card) => card.animating),
    shown: Boolean(layer) && getComputedStyle(layer).display !== 'none',
    scaling: layer ? getComputedStyle(layer).imageRendering : null,
  });
  if (window.__coarseSampling) requestAnimationFrame(sample);
};
requestAnimationFrame(sample);
"""
_STAGE_PIXEL = """
const [x, y] = arguments;
const canvas = document.getElementById('stage');
const scale = canvas.width / canvas.clientWidth;
return Array.from(canvas.getContext('2d').getImageData(Math.round(x * scale), Math.round(y * scale), 1, 1).data);
"""


def test_a_style_switch_is_drawn_coarse_while_it_moves_then_sharp_on_the_page_canvas(page, server):
    """Twelve photo-sized cards turning and growing at once (grid → pile) are drawn on a coarse
    canvas over the stage while they move (a software canvas cannot draw them sharp in a frame);
    once they rest the coarse canvas is hidden and the stage itself shows them, sharp."""
    driver = page.driver
    server.command(page.room, command="style", style="grid")
    wait_until(lambda: page.state()["style"], lambda shown: shown == "grid", message="the grid")
    page.wait_until_settled()
    driver.execute_script(_FRAME_SAMPLER)
    server.command(page.room, command="style", style="pile")
    wait_until(lambda: page.state()["style"], lambda shown: shown == "pile", message="the pile")
    page.wait_until_settled()
    wait_until(lambda: page.state()["coarse"], lambda coarse: coarse is False, message="the sharp frame")
    samples = driver.execute_script("window.__coarseSampling = false; return window.__coarseSamples")
    moving = [sample for sample in samples if sample["moving"]]
    assert moving, "the switch moved the cards"
    assert sum(sample["coarse"] for sample in moving) >= len(moving) * 0.8, \
        f"the motion was drawn coarse ({sum(s['coarse'] for s in moving)} of {len(moving)} frames)"
    assert all(sample["shown"] == sample["coarse"] for sample in samples), "the coarse canvas is shown exactly then"
    # Scaled up by doubling its pixels: filtering it up costs a software compositor a frame's time.
    assert {sample["scaling"] for sample in samples if sample["shown"]} == {"pixelated"}
    assert not samples[-1]["coarse"] and not samples[-1]["shown"], "at rest: sharp, the coarse canvas hidden"
    # The stage canvas itself shows the top photo where the top card is (not only the backdrop).
    top = page.top_card()
    x, y = page.mapping().to_page(top["x"], top["y"])
    backdrop = driver.execute_script(_STAGE_PIXEL, 5, 5)
    centre = driver.execute_script(_STAGE_PIXEL, x, y)
    assert centre != backdrop, f"the stage shows the card at ({x:.0f}, {y:.0f}): {centre} vs backdrop {backdrop}"


def test_a_kiosk_resized_during_a_style_switch_is_drawn_sharp_once_the_cards_rest(open_page, server):
    """A photo frame's window resized while a switch moves its cards coarse (a TV's screen coming
    up): once they rest the stage shows them sharp, although the browser then gave idle work no
    idle time (each idle callback comes from its timeout: without the slice idle work is then given
    anyway, the page would stay coarse for good)."""
    page = open_page(query="&kiosk=1")
    driver = page.driver
    try:
        page.wait_until_settled()
        server.command(page.room, command="style", style="frame")
        wait_until(lambda: page.state()["coarse"], lambda coarse: coarse, message="the switch drawn coarse")
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": False})
        wait_until(lambda: page.state(), lambda state: not state["coarse"]
                   and not any(card["animating"] for card in state["cards"]), timeout=15, message="sharp at rest")
        page.wait_until_photos_drawn()
        front = page.top_card()
        x, y = page.mapping().to_page(front["x"], front["y"])
        assert driver.execute_script(_STAGE_PIXEL, x, y) != driver.execute_script(_STAGE_PIXEL, 2, 2), \
            "the stage shows the front photo, not the wall alone"
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
