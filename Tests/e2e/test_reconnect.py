"""A page outlives its server: it shows that it is offline, then comes back by itself."""

import pytest
from selenium.webdriver.common.by import By

from support.waiting import wait_until

RECONNECT_TIMEOUT = 15.0  # EventSource retries after 1 s; the page's own backoff starts at 0.5–1 s


# While the server is down the browser logs each refused or cut stream; that is the point here.
@pytest.mark.allow_console(r"/api/rooms/[a-z0-9_-]+/events(\?\S*)? .*net::ERR_")
def test_reconnects_after_server_restart(restartable_server, open_page):
    page = open_page(on_server=restartable_server)
    badge = page.driver.find_element(By.ID, "offline")
    assert not badge.is_displayed()
    port = restartable_server.port

    restartable_server.crash()
    wait_until(lambda: page.state()["connected"], lambda connected: not connected,
               message="the page to notice the server is gone")
    wait_until(badge.is_displayed, message="the offline badge")

    restartable_server.start()
    assert restartable_server.port == port
    state = page.wait_until_showing_cards(timeout=RECONNECT_TIMEOUT)
    wait_until(badge.is_displayed, lambda shown: not shown, message="the offline badge to go")
    assert state["count"] == restartable_server.snapshot(page.room)["count"]
