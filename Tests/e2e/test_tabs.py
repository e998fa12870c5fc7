"""Any number of tabs and navigations: a browser holds six HTTP/1.1 connections to a server, and
a page kept in the back/forward cache, or a tab, must not keep one each (the seventh page's
commands would never leave). Twelve tabs on one room and eight navigations in one tab: every page
answers → by moving the stack, in Chromium and in Firefox ESR."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from support.marionette import FIREFOX, Firefox, FirefoxPage, Marionette
from support.page import StackWebPage, start_chromium
from support.waiting import wait_until

TABS = 12
NAVIGATIONS = 8
ARROW_RIGHT = "\ue014"


@pytest.fixture
def own_browser():
    """A browser of the test's own: its tabs and back/forward cache are the test's alone."""
    driver = start_chromium()
    # A page whose requests wait for a connection never finishes loading: fail soon, not in minutes.
    driver.set_page_load_timeout(20)
    driver.set_script_timeout(20)
    yield driver
    driver.quit()


def _server_current(server, room):
    return server.snapshot(room)["current"]


def _press_and_expect(server, room, press, read_page, expected):
    press()
    wait_until(lambda: _server_current(server, room), lambda current: current == expected,
               message=f"{room}: the server's current == {expected}")
    wait_until(read_page, lambda state: state and state["current"] == expected,
               message=f"{room}: the page's current == {expected}")


def _chromium_press(driver):
    driver.find_element(By.ID, "stage").send_keys(Keys.ARROW_RIGHT)


def test_twelve_tabs_on_one_room_all_answer(own_browser, server, room):
    pages = []
    for _ in range(TABS):
        own_browser.switch_to.new_window("tab")
        pages.append((own_browser.current_window_handle, StackWebPage(own_browser, server, room).open()))
    count = server.snapshot(room)["count"]
    for presses, (handle, page) in enumerate(pages, start=1):
        own_browser.switch_to.window(handle)
        # The stack wraps after its last photo.
        _press_and_expect(server, room, lambda: _chromium_press(own_browser), page.state, presses % count)


def test_eight_navigations_in_one_tab_all_answer(own_browser, server, room):
    rooms = [f"{room[:60]}-{number}" for number in range(1, NAVIGATIONS + 1)]
    for name in rooms:
        page = StackWebPage(own_browser, server, name, "&style=grid").open()
        _press_and_expect(server, name, lambda: _chromium_press(own_browser), page.state, 1)
    # Back to a page the back/forward cache kept: it takes its stream up again and answers too.
    own_browser.back()
    page = StackWebPage(own_browser, server, rooms[-2])
    page.wait_until_showing_cards()
    _press_and_expect(server, rooms[-2], lambda: _chromium_press(own_browser), page.state, 2)


@pytest.mark.skipif(not FIREFOX or Marionette is None, reason="needs firefox-esr and the marionette-driver package")
def test_firefox_tabs_and_navigations_all_answer(server, room):
    firefox = Firefox()
    try:
        shared = f"{room[:58]}-ff"
        for presses in range(1, TABS + 1):
            if presses > 1:
                firefox.open_window()
            page = FirefoxPage(firefox, server, shared).open()
            count = server.snapshot(shared)["count"]
            _press_and_expect(server, shared, lambda: page.press(ARROW_RIGHT), page.state, presses % count)
        for number in range(1, NAVIGATIONS + 1):
            page = FirefoxPage(firefox, server, f"{room[:56]}-ff-{number}", "&style=grid").open()
            _press_and_expect(server, page.room, lambda: page.press(ARROW_RIGHT), page.state, 1)
    finally:
        firefox.close()
