"""On-screen controls, labels and focus, URL parameters and kiosk mode."""

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from support.network import RequestLog, logged_from_load
from support.page import StackWebPage
from support.server import StackWebServer
from support.pointer import Mouse
from support.screens import emulate, fresh_tab, shoot
from support.waiting import wait_until, wait_until_steady
from test_keyboard import REFUSED_COMMAND

TOKEN_KEY = "stackweb.token"
CURSOR_HIDE_TIMEOUT = 6.0  # the page hides it after 3 s still

# In the bar's order.
CONTROLS = [
    ('[data-action="previous"]', {"command": "previous"}),
    ('[data-action="play-pause"]', {"command": "play"}),
    ('[data-action="next"]', {"command": "next"}),
    ('[data-action="select"]', {"command": "highlight"}),
    ('[data-action="undo"]', {"command": "undo"}),
    ('[data-action="fullscreen"]', {"command": "fullscreen"}),
    ('[data-style="pile"]', {"command": "style", "style": "pile"}),
    ('[data-style="angles"]', {"command": "style", "style": "angles"}),
    ('[data-style="grid"]', {"command": "style", "style": "grid"}),
    ('[data-style="deck"]', {"command": "style", "style": "deck"}),
    ('[data-style="swipe"]', {"command": "style", "style": "swipe"}),
    ('[data-style="frame"]', {"command": "style", "style": "frame"}),
]


@pytest.mark.allow_console(REFUSED_COMMAND)
def test_each_control_posts_its_command(page):
    # The swipe style's stacked toggle is hidden in the pile (test_look.py shows it in the swipe);
    # the QR code's button posts nothing, it opens a view of the page (test_guest_photos.py).
    buttons = page.driver.find_elements(
        By.CSS_SELECTOR, '#controls [data-action]:not([hidden]):not([data-action="add-code"])')
    assert len(buttons) == len(CONTROLS), "a control for each action of the keyboard"
    requests = RequestLog(page.driver)
    for number, (selector, expected) in enumerate(CONTROLS, start=1):
        page.driver.find_element(By.CSS_SELECTOR, f"#controls {selector}").click()
        posted = requests.wait_for_commands(number, message=f"commands posted (after {selector})")
        assert posted[number - 1]["body"] == expected, f"{selector} posted {posted[number - 1]['body']}"
    assert page.state()["cards"], "the page still shows the room"


def test_controls_have_labels_and_the_canvas_a_text_alternative(page):
    canvas = page.driver.find_element(By.ID, "stage")
    assert len(canvas.accessible_name) > 40, f"the canvas' text alternative: {canvas.accessible_name!r}"
    names = {button.get_attribute("data-action") + (button.get_attribute("data-style") or ""): button.accessible_name
             for button in page.driver.find_elements(By.CSS_SELECTOR, "[data-action]:not([hidden])")}
    assert all(names.values()), f"controls without a name: {names}"
    assert names["next"] == "Next photo" and names["stylepile"] == "Pile", names
    pile = page.driver.find_element(By.CSS_SELECTOR, '[data-style="pile"]')
    assert pile.get_attribute("aria-pressed") == "true", "the room's style is shown as pressed"


def test_keyboard_focus_is_visible(page):
    page.driver.execute_script("document.activeElement?.blur()")

    def tab():
        ActionChains(page.driver).send_keys(Keys.TAB).perform()

    def focused_outline():
        return page.driver.execute_script("""
          const element = document.activeElement;
          const style = getComputedStyle(element);
          return [element.id || element.dataset.action, style.outlineStyle, parseFloat(style.outlineWidth)];""")

    tab()
    assert focused_outline()[0] == "stage"
    assert focused_outline()[1] != "none" and focused_outline()[2] >= 2, focused_outline()
    tab()
    assert focused_outline()[0] == "previous"
    assert focused_outline()[1] != "none" and focused_outline()[2] >= 2, focused_outline()


def test_kiosk_mode(open_page, server):
    page = open_page(query="&kiosk=1&token=e2e-token")
    driver = page.driver
    try:
        assert not driver.find_element(By.ID, "controls").is_displayed(), "no controls in kiosk mode"
        assert "token" not in driver.current_url, "the token is taken out of the address"
        assert "kiosk=1" in driver.current_url
        assert driver.execute_script(f"return localStorage.getItem('{TOKEN_KEY}')") == "e2e-token"
        status = driver.find_element(By.ID, "status")
        assert status.get_attribute("textContent").startswith("Photo 1 of"), "still announced"

        requests = RequestLog(driver)
        driver.execute_script("document.getElementById('stage').focus()")
        ActionChains(driver).send_keys(Keys.ARROW_RIGHT).perform()
        posted = requests.wait_for_commands(1)
        assert posted[0]["headers"].get("Authorization") == "Bearer e2e-token"

        wake_lock = wait_until(lambda: page.state()["wakeLock"], lambda state: state != "requested",
                               message="the wake lock to be held or refused")
        assert wake_lock in ("held", "unsupported") or wake_lock.startswith("refused"), wake_lock

        def cursor():
            return driver.execute_script("return getComputedStyle(document.getElementById('stage')).cursor")

        wait_until(cursor, lambda value: value == "none", timeout=CURSOR_HIDE_TIMEOUT,
                   message="the cursor to hide after 3 s still")
        Mouse(driver).move_to(40, 40).move_to(60, 50, 50).perform()
        wait_until(cursor, lambda value: value != "none", message="the cursor to come back when the mouse moves")
    finally:
        driver.execute_script(f"localStorage.removeItem('{TOKEN_KEY}')")


@pytest.mark.allow_console(REFUSED_COMMAND)
def test_style_parameter_asks_the_room_once(page):
    driver = page.driver
    with logged_from_load(driver):
        driver.get(f"{page.url}&style=deck")
        page.wait_until_showing_cards()
        requests = RequestLog(driver, clear=False)
        posted = requests.wait_for_commands(1, message="the style asked for by the URL")
    assert [post["body"] for post in posted] == [{"command": "style", "style": "deck"}]
    assert "style=deck" in driver.current_url, "unlike the token, the style stays in the address"


def test_style_parameter_is_not_sent_when_the_room_has_it(page):
    driver = page.driver
    with logged_from_load(driver):
        driver.get(f"{page.url}&style=pile")
        # The page decides on its first snapshot: wait for it, not just for a quiet canvas.
        page.wait_until_showing_cards()
        page.wait_until_settled()
        assert RequestLog(driver, clear=False).commands() == []


# Every shown control's box in CSS px, and the window's width.
_CONTROL_BOXES = """
return {width: innerWidth, boxes: [...document.querySelectorAll('#controls button:not([hidden])')].map((button) => {
  const rect = button.getBoundingClientRect();
  return {name: button.textContent.trim() || button.dataset.action, left: rect.left, right: rect.right,
          width: rect.width, height: rect.height};
})};
"""


@pytest.mark.parametrize("style", ["swipe", "pile"])
def test_every_control_fits_a_390_px_phone(browser, server, room, style):
    """The swipe style shows one more button (Stacked): the style row wraps rather than running off
    a 390 px phone (Pile was at x −3.9, Stacked ended at 393.9), each still 44 px square."""
    server.command(room, command="style", style=style)
    with fresh_tab(browser):
        page = StackWebPage(browser, server, room).open()
        emulate(browser, 390, 844, 3, touch=True)
        wait_until(lambda: page.state()["style"], lambda seen: seen == style, message=f"the {style} style")
        seen = wait_until(lambda: browser.execute_script(_CONTROL_BOXES),
                          lambda seen: any(box["name"] == "Stacked" for box in seen["boxes"]) == (style == "swipe"),
                          message="the Stacked button shown in the swipe style only")
        shoot(browser, f"controls-phone-{style}.png")
        outside = [box for box in seen["boxes"] if box["left"] < 0 or box["right"] > seen["width"]]
        assert not outside, f"controls off the 390 px screen: {outside}"
        assert all(box["width"] >= 44 and box["height"] >= 44 for box in seen["boxes"]), seen["boxes"]


def test_a_wall_without_the_control_token_asks_for_nothing(browser, room):
    """The documented wall URL on a LAN server (a token needed): `?room=…&style=deck` watches the
    room and asks for no style (it would be refused: no "may only watch" toast on the wall)."""
    lan = StackWebServer(arguments=["--host", "0.0.0.0", "--token", "e2e-control-token-0123456789"]).start()
    try:
        with fresh_tab(browser), logged_from_load(browser):
            page = StackWebPage(browser, lan, room, "&kiosk=1&style=deck").open()
            requests = RequestLog(browser, clear=False)
            # The page decides on its first snapshot, which it has: a second more shows no change.
            posted = wait_until_steady(requests.commands, quiet=1.0, message="the commands posted")
            assert posted == [], posted
            assert page.state()["style"] == "pile", "the room keeps its style"
            assert browser.find_element(By.ID, "toast").get_attribute("hidden") is not None
    finally:
        lan.close()
