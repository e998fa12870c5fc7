"""Screenshots for the README, taken from the real page so they cannot drift from it."""

import os
import shutil
import struct
import subprocess
import tempfile
import urllib.error

import pytest
from selenium.webdriver.common.by import By

from support.guests import ROWS, ZBARIMG, add_url, decode_qr, guest_server, not_a_photo, wait_for_rows
from support.page import VIEWPORT, StackWebPage
from support.pointer import FOLLOW_TOLERANCE, Mouse, steps
from support.screens import emulate, fresh_tab, restore
from support.server import REPO_ROOT, StackWebServer
from support.stage import is_near
from support.waiting import wait_until

# The README's pictures are rewritten only when asked (STACKWEB_UPDATE_SCREENSHOTS=1), so a test
# run leaves the checkout as it was; otherwise they go to the build folder, checked the same way.
SCREENSHOTS = (REPO_ROOT / "docs" / "screenshots" if os.environ.get("STACKWEB_UPDATE_SCREENSHOTS") == "1"
               else REPO_ROOT / ".build" / "e2e-screenshots")
DRAG_PX = (170, -50)


def png_size(path):
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", header[16:24])


# The controls fade after 3 s without input; a picture shows them as a person who just moved the
# mouse sees them (a pointer move on the window reaches no gesture code), unless they are hidden.
_SHOW_CONTROLS = """
window.dispatchEvent(new PointerEvent('pointermove'));
const controls = document.getElementById('controls');
return controls.hidden || getComputedStyle(controls).opacity === '1';
"""


def save(page, name, size=VIEWPORT):
    wait_until(lambda: page.driver.execute_script(_SHOW_CONTROLS), message="the controls shown for the picture")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / name
    assert page.driver.save_screenshot(str(path)), f"could not write {path}"
    assert png_size(path) == tuple(size)
    return path


WALL_SCREEN = (1920, 1080)


def on_a_wall_screen(page):
    """The page in a 1920×1080 window at 1×, as a photo frame on a TV (until the test ends)."""
    page.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": WALL_SCREEN[0], "height": WALL_SCREEN[1], "deviceScaleFactor": 1,
                                 "mobile": False})
    wait_until(lambda: page.driver.execute_script("return [innerWidth, innerHeight]"),
               lambda inner: inner == list(WALL_SCREEN), message="a 1920×1080 window")


def assert_looks_like_a_pile(page):
    # The pile style turns every photo but the top by a few degrees (docs/styles.md); a stack of
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


def test_screenshot_highlighted(page):
    """A tap highlights the top photo (the pile's 15 % black veil)."""
    page.wait_until_settled()
    top = page.top_card()
    Mouse(page.driver).move_to(*page.mapping().to_page(top["x"], top["y"])).down().up().perform()
    wait_until(lambda: page.card(top["id"]), lambda card: card["highlight"],
               message=f"the tap to highlight {top['id']}")
    page.wait_until_settled()
    save(page, "pile-highlighted.png")


def ask(server, room, **command):
    """Posts a command; skips the test when the server does not take it yet (it answers 400)."""
    try:
        server.command(room, **command)
    except urllib.error.HTTPError as error:
        if error.code != 400:
            raise
        pytest.skip(f"the server does not take {command} yet: {error.code} {error.read().decode(errors='replace')}")


# Every style but the pile, which the tests above show. They run as soon as the server has them.
@pytest.mark.parametrize("style", ["angles", "grid", "deck", "swipe"])
def test_screenshot_of_each_style(page, server, style):
    ask(server, page.room, command="style", style=style)
    wait_until(lambda: page.state()["style"], lambda shown: shown == style, message=f"the page to show {style}")
    page.wait_until_settled()
    save(page, f"{style}.png")


def test_screenshot_of_a_flipped_deck_card(page, server):
    ask(server, page.room, command="style", style="deck")
    wait_until(lambda: page.state()["style"], lambda shown: shown == "deck", message="the page to show the deck")
    page.wait_until_settled()
    ask(server, page.room, command="flip")
    wait_until(lambda: abs(page.top_card()["flip"]) > 3, message="the top card turned over")
    page.wait_until_settled()
    save(page, "deck-flipped.png")


def test_screenshot_of_a_kiosk_on_a_wall_screen(open_page):
    """A photo frame (?kiosk=1) on a 1920×1080 screen: the wall around the stage is the front photo,
    blurred and darkened."""
    page = open_page(query="&kiosk=1")
    try:
        on_a_wall_screen(page)
        page.wait_until_settled()
        save(page, "kiosk-1920.png", WALL_SCREEN)
    finally:
        page.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


VIPS = shutil.which("vips")
TV_PHOTO = REPO_ROOT / "Resources" / "demo-photos" / "01-sunset.jpg"


@pytest.mark.skipif(VIPS is None, reason="needs vips (libvips-tools) to cut a 16:9 photo")
def test_screenshot_of_the_frame_style_in_a_kiosk(browser):
    """MODEL: the sixth style, `frame`, as a photo frame on a 16:9 TV (`?kiosk=1&style=frame` at
    1920×1080): laid out for the screen's shape, a 16:9 photo fills it (the demo photos are 4:3 and
    3:4, so the picture's photo is one of them cut to 16:9)."""
    with tempfile.TemporaryDirectory(prefix="stackweb-tv-") as folder:
        # 1200×675 from the middle of the 1200×900 sunset: the horizon and the sun stay.
        subprocess.run([VIPS, "crop", str(TV_PHOTO), f"{folder}/sunset-16x9.jpg[Q=92]", "0", "112", "1200", "675"],
                       check=True)
        server = StackWebServer(arguments=["--photos", folder, "--style", "frame"]).start()
        try:
            with fresh_tab(browser):
                emulate(browser, *WALL_SCREEN, 1)
                page = StackWebPage(browser, server, "main", "&kiosk=1&style=frame").open()
                wait_until(lambda: page.state()["shape"], lambda shape: shape == "16x9", message="laid out for 16:9")
                page.wait_until_settled()
                front = page.top_card()
                mapping = page.mapping()
                shown = (front["w"] * front["scaleX"] * mapping.scale, front["h"] * front["scaleY"] * mapping.scale)
                assert shown[0] >= 0.99 * WALL_SCREEN[0] and shown[1] >= 0.99 * WALL_SCREEN[1], \
                    f"the photo is drawn {shown[0]:.0f}×{shown[1]:.0f} on a {WALL_SCREEN[0]}×{WALL_SCREEN[1]} TV"
                page.wait_until_photos_drawn()
                save(page, "frame-kiosk-1920.png", WALL_SCREEN)
        finally:
            server.close()


_BUTTON_BOXES = """
return [...document.querySelectorAll('#controls button')].filter((button) => button.offsetParent !== null)
  .map((button) => { const box = button.getBoundingClientRect();
                     return {label: button.getAttribute('aria-label') || button.textContent.trim(),
                             w: box.width, h: box.height, bottom: box.bottom}; });
"""

# A phone held upright, at its CSS size; pictured at 2 device pixels per CSS pixel.
PHONE = (390, 844, 2)


def test_screenshot_of_a_phone_as_a_remote(open_page, browser, server):
    """A phone driving the room's frame (what the TV shows), its controls under the photo."""
    page = open_page()
    server.command(page.room, command="style", style="frame")
    wait_until(lambda: page.state()["style"], lambda shown: shown == "frame", message="the page to show frame")
    emulate(browser, *PHONE, touch=True)
    try:
        page.wait_until_settled()
        # A remote's buttons are fingers' targets: each at least 44 CSS px each way, all on the screen.
        buttons = page.driver.execute_script(_BUTTON_BOXES)
        assert buttons, "the controls are shown"
        small = [box for box in buttons if box["w"] < 44 - 0.01 or box["h"] < 44 - 0.01]
        assert not small, f"buttons under 44 px: {small}"
        assert all(box["bottom"] <= PHONE[1] for box in buttons), buttons
        save(page, "phone-remote.png", (PHONE[0] * PHONE[2], PHONE[1] * PHONE[2]))
    finally:
        restore(browser)


def test_screenshot_of_the_empty_room(browser):
    """A server whose photo folder is empty says so, and how to add photos, in the middle."""
    with tempfile.TemporaryDirectory(prefix="stackweb-empty-") as folder:
        server = StackWebServer(arguments=["--photos", folder]).start()
        try:
            with fresh_tab(browser):
                emulate(browser, *VIEWPORT, 1)
                browser.get(StackWebPage(browser, server, "main").url)
                note = browser.find_element(By.ID, "empty")
                wait_until(lambda: note.is_displayed(), message="the empty room's note")
                # It says which folder the room shows and how photos get there.
                assert "--photos DIR" in note.text and "STACKWEB_PHOTOS" in note.text, note.text
                assert "Copy JPEG" in note.text, note.text
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                path = SCREENSHOTS / "empty-room.png"
                assert browser.save_screenshot(str(path)), f"could not write {path}"
                assert png_size(path) == VIEWPORT
        finally:
            server.close()


def test_screenshot_of_the_add_page_on_a_phone(browser):
    """A guest's phone after sending four photos, one file refused in words."""
    with tempfile.TemporaryDirectory(prefix="stackweb-guests-") as folder, \
            tempfile.TemporaryDirectory(prefix="stackweb-phone-") as phone_files:
        server = guest_server(folder)
        try:
            with fresh_tab(browser):
                emulate(browser, *PHONE, touch=True, url=add_url(server, "main"))
                browser.find_element(By.ID, "sender").send_keys("Anna")
                photos = sorted((REPO_ROOT / "Resources/demo-photos").glob("*.jpg"))[6:10]
                browser.find_element(By.ID, "files").send_keys("\n".join([*map(str, photos), not_a_photo(phone_files)]))
                wait_for_rows(lambda: browser.execute_script(ROWS), 5)
                browser.execute_script("document.activeElement.blur()")
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                path = SCREENSHOTS / "add-page-phone.png"
                assert browser.save_screenshot(str(path)), f"could not write {path}"
                assert png_size(path) == (PHONE[0] * PHONE[2], PHONE[1] * PHONE[2])
        finally:
            server.close()


def test_screenshot_of_the_qr_code_on_the_wall(browser):
    """A kiosk (?kiosk=1&qr=1) on a 1920×1080 screen, the code guests scan in its corner."""
    with tempfile.TemporaryDirectory(prefix="stackweb-guests-") as folder, \
            tempfile.TemporaryDirectory(prefix="stackweb-code-") as scratch:
        server = guest_server(folder)
        try:
            with fresh_tab(browser):
                page = StackWebPage(browser, server, "main", "&kiosk=1&qr=1").open()
                on_a_wall_screen(page)
                page.wait_until_settled()
                wait_until(lambda: browser.execute_script(
                    "const f = document.querySelector('.add-code.corner'); return f && !f.hidden && f.offsetWidth"),
                    message="the code in the corner")
                path = save(page, "qr-on-the-wall.png", WALL_SCREEN)
                if ZBARIMG:
                    assert decode_qr(path.read_bytes(), scratch) == add_url(server, "main")
        finally:
            server.close()
