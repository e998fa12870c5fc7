"""Fixtures: the real `stackweb` binary, headless Chromium, and pages open on a room.

Run from the repository root: `python3 -m pytest -q Tests/e2e` (STACKWEB_BIN picks another binary).
One server and one browser serve the whole session (starting them is most of the suite's time);
every test gets its own room, so tests cannot see each other's cards.
"""

import re

import pytest

from support.page import StackWebPage, severe_console_entries, start_chromium
from support.pointer import release_all_input
from support.server import StackWebServer, free_port


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "allow_console(*patterns): SEVERE console entries matching a pattern are expected")
    config.addinivalue_line(
        "markers", "alone: measures the page's own timing; `make test-e2e` runs these after the others, one at a time")


@pytest.fixture(scope="session")
def server():
    instance = StackWebServer().start()
    yield instance
    instance.close()


@pytest.fixture
def restartable_server():
    """A server of the test's own on a fixed port, so that it can come back where the page expects it."""
    instance = StackWebServer(port=free_port()).start()
    yield instance
    instance.close()


@pytest.fixture(scope="session")
def browser():
    driver = start_chromium()
    yield driver
    driver.quit()


@pytest.fixture(scope="session")
def second_browser():
    """Another browser, for a second viewer of the same room; started only by the tests that ask."""
    driver = start_chromium()
    yield driver
    driver.quit()


@pytest.fixture
def room(request):
    """A room named after the test: `t-<name>`, within the room-name grammar."""
    name = re.sub(r"[^a-z0-9_-]", "-", request.node.name.lower().removeprefix("test_"))
    return f"t-{name}"[:64]


@pytest.fixture
def open_page(request, browser, server, room):
    """Opens the test's room (by default in `browser` on `server`; `query` adds URL parameters) and
    waits for its cards.

    Each browser gets a fresh tab for the test, closed at the end: a page merely navigated away
    from can live on in the back/forward cache with its event stream open, and five of those use
    up Chromium's six connections to the host, so that a later test's photos never load.
    At the end it also lets go of any held mouse button and fails the test on SEVERE console
    entries beyond those its `allow_console` marker expects.
    """
    marker = request.node.get_closest_marker("allow_console")
    allowed = marker.args if marker else ()
    home_tabs = {}

    def open_room(driver=browser, on_server=server, in_room=room, query=""):
        if driver not in home_tabs:
            severe_console_entries(driver)  # drop what earlier tests left in the log
            home_tabs[driver] = driver.current_window_handle
            driver.switch_to.new_window("tab")
        return StackWebPage(driver, on_server, in_room, query).open()

    yield open_room

    problems = []
    for driver, home in home_tabs.items():
        release_all_input(driver)
        problems += severe_console_entries(driver, allowed)
        driver.close()
        driver.switch_to.window(home)
    assert not problems, f"SEVERE browser console entries: {problems}"


@pytest.fixture
def page(open_page):
    """The test's room, open in the session's browser on the session's server."""
    return open_page()
