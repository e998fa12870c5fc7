"""Every screen filled: a phone used as a remote (touch targets, the grid's columns), a TV's text,
and an empty room saying what to do. Pictures go to .build/e2e-screenshots (look at them)."""

import shutil
import tempfile

import pytest
from selenium.webdriver.common.by import By

from support.page import StackWebPage
from support.pointer import Finger
from support.screens import emulate, restore, shoot
from support.server import REPO_ROOT, StackWebServer
from support.waiting import wait_until

PHONE = (390, 844, 3)
TV = (1920, 1080, 1)
MIN_TARGET_CSS_PX = 44
# A transformed element's box is computed in floats: 44 CSS px can measure 43.999996.
SUBPIXEL = 0.01


def visible_rects(driver, selector):
    return driver.execute_script("""
      return [...document.querySelectorAll(arguments[0])].filter((e) => e.offsetParent !== null)
        .map((e) => { const r = e.getBoundingClientRect();
                      return {name: e.dataset.action + (e.dataset.style || ''), w: r.width, h: r.height}; });""",
                                 selector)


def big_enough(rect):
    return min(rect["w"], rect["h"]) >= MIN_TARGET_CSS_PX - SUBPIXEL


@pytest.fixture
def phone(open_page, browser):
    """Opens the test's room, then makes its tab a phone (a mobile viewport needs the page's own
    viewport tag to be 390 px wide)."""
    def open_on_a_phone(style=None):
        page = open_page(query=f"&style={style}" if style else "")
        emulate(browser, *PHONE, touch=True)
        if style:
            wait_until(lambda: page.state()["style"], lambda seen: seen == style, message=f"the {style} style")
        page.wait_until_settled()
        return page

    yield open_on_a_phone
    restore(browser)


def test_a_phone_gets_targets_of_44_css_pixels(phone):
    page = phone()
    rects = visible_rects(page.driver, "#controls button")
    assert rects, "the controls show on a phone"
    small = [rect for rect in rects if not big_enough(rect)]
    assert not small, f"targets under {MIN_TARGET_CSS_PX} CSS px: {small}"
    shoot(page.driver, "phone-pile.png")


def test_the_grid_keeps_every_column_on_a_phone(phone, server):
    page = phone("grid")
    mapping = page.mapping()
    width, height = PHONE[0], PHONE[1]
    for card in page.state()["cards"]:
        left, top = mapping.to_page(card["x"] - card["w"] / 2, card["y"] - card["h"] / 2)
        right, bottom = mapping.to_page(card["x"] + card["w"] / 2, card["y"] + card["h"] / 2)
        if card["opacity"] > 0:
            assert left >= 0 and right <= width, f"{card['id']} reaches past the screen's sides: {left}…{right}"
    shoot(page.driver, "phone-grid.png")


def test_a_tv_kiosk_shows_no_presence_and_large_text(open_page, browser, server):
    page = open_page(query="&kiosk=1&style=frame&caption=date,name&clock=1")
    emulate(browser, *TV)
    try:
        # A second screen watching: a remote's business, not the wall's.
        presence = page.driver.find_element(By.ID, "presence")
        page.driver.execute_script("arguments[0].textContent = '2 watching'", presence)
        assert not presence.is_displayed()
        page.wait_until_settled()
        shoot(page.driver, "tv-kiosk-frame.png")
    finally:
        restore(browser)


@pytest.fixture(scope="module")
def empty_server():
    with tempfile.TemporaryDirectory(prefix="stackweb-empty-") as folder:
        server = StackWebServer(arguments=["--photos", folder]).start()
        yield server
        server.close()


@pytest.mark.parametrize("query", ["", "&kiosk=1", "&style=grid", "&style=frame&kiosk=1"])
def test_an_empty_room_says_how_to_add_photos(browser, empty_server, query):
    page = StackWebPage(browser, empty_server, "main", query)
    home = browser.current_window_handle
    browser.switch_to.new_window("tab")
    try:
        browser.get(page.url)
        note = browser.find_element(By.ID, "empty")
        wait_until(lambda: note.is_displayed(), message="the empty room's note")
        assert "No photos here yet" in note.text and "--photos" in note.text, note.text
        centre = browser.execute_script(
            "const r = arguments[0].getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]", note)
        size = browser.execute_script("return [innerWidth, innerHeight]")
        assert abs(centre[0] - size[0] / 2) < 2 and abs(centre[1] - size[1] / 2) < 2, "centred"
        if not query:
            shoot(browser, "empty-room.png")
    finally:
        browser.close()
        browser.switch_to.window(home)


def test_a_missing_photo_folder_is_named_and_its_photos_shown_when_it_appears(browser, tmp_path):
    """A frame booted without its USB stick: the empty room's note names the missing folder; once
    the folder appears, its photos are shown, with no restart and no reload."""
    folder = tmp_path / "stick"
    server = StackWebServer(arguments=["--photos", str(folder)]).start()
    home = browser.current_window_handle
    browser.switch_to.new_window("tab")
    try:
        browser.get(StackWebPage(browser, server, "main", "&kiosk=1").url)
        note = browser.find_element(By.ID, "empty")
        wait_until(lambda: f"{folder} is missing" in note.text, message="the note naming the missing folder")
        folder.mkdir()
        demo = sorted((REPO_ROOT / "Resources/demo-photos").iterdir())[0]
        shutil.copy(demo, folder / demo.name)
        wait_until(lambda: not note.is_displayed(), timeout=15, message="the photo shown")
        assert server.snapshot("main")["count"] == 1
    finally:
        browser.close()
        browser.switch_to.window(home)
        server.close()


@pytest.mark.parametrize("query, paper", [("&style=deck", True), ("&style=swipe", True),
                                          ("&style=deck&fit=cover", False)])
def test_the_deck_and_swipe_show_a_landscape_photo_whole(open_page, server, query, paper):
    """A 4:3 photo on the deck's portrait card: letterboxed on the card's paper (covering it would
    keep 53 % of the photo); `?fit=cover` keeps the crop."""
    page = open_page(query=query)
    style = query.split("&style=")[1].split("&")[0]
    wait_until(lambda: page.state()["style"], lambda seen: seen == style, message=f"the {style} style")
    page.wait_until_settled()
    top = page.top_card()
    # Just inside the card's top border, at its centre: paper above a letterboxed photo.
    inside_top = (top["x"], top["y"] - top["h"] / 2 + 12)
    colour = page.canvas_pixels([inside_top], (top["x"] - 2, top["y"] - 2, 4, 4))["points"][0]
    is_paper = all(channel >= 245 for channel in colour)
    assert is_paper == paper, f"{query}: colour {colour} near the card's top edge"
    if query == "&style=deck":
        shoot(page.driver, "deck-letterboxed.png")


def test_on_a_phone_a_removal_offers_a_44_pixel_undo(phone, server):
    page = phone("angles")
    top = page.top_card()
    count = server.snapshot(page.room)["count"]
    x, y = page.mapping().to_page(top["x"], top["y"])
    Finger(page.driver).move_to(x, y).down().pause(40).up().perform()
    wait_until(lambda: server.snapshot(page.room)["count"], lambda now: now == count - 1, message="the photo removed")
    offer = page.driver.find_element(By.ID, "undo-offer")
    wait_until(lambda: offer.is_displayed(), message="the undo offer")
    undo = visible_rects(page.driver, "#undo-offer button")[0]
    assert big_enough(undo), undo
    shoot(page.driver, "phone-undo.png")
    button = offer.find_element(By.CSS_SELECTOR, "button")
    centre = page.driver.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]", button)
    Finger(page.driver).move_to(*centre).down().pause(40).up().perform()
    wait_until(lambda: server.snapshot(page.room)["count"], lambda now: now == count, message="the photo back")


def test_a_4k_screen_scales_the_controls(open_page, browser):
    page = open_page()
    emulate(browser, 3840, 2160, 1)
    try:
        page.wait_until_settled()
        rects = visible_rects(page.driver, "#controls button")
        # 3 rem at 1.4 % of 2160 px: about 90 px, not the 34 px of a laptop's bar.
        assert min(rect["h"] for rect in rects) >= 80, rects
        size = page.driver.execute_script("return parseFloat(getComputedStyle(document.getElementById('status')).fontSize)")
        assert size >= 0.012 * 2160, f"status text {size} px on a 2160-px screen"
        shoot(page.driver, "tv-4k-pile.png")
    finally:
        restore(browser)
