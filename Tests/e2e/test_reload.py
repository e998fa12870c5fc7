"""A `reload` event from the server (a new version of the page) reloads the page."""

import pytest

from support.stub_server import StubServer
from support.waiting import wait_until

# What a navigation was: "navigate" for the first load, "reload" after location.reload().
_NAVIGATION_TYPE = """
return window.__e2eBeforeReload ? 'not yet' : performance.getEntriesByType('navigation')[0]?.type;
"""


@pytest.fixture
def stub_server():
    """Requested before `open_page`, so that it closes after the page's tab does."""
    stub = StubServer().start()
    yield stub
    stub.close()


def test_reload_event_reloads_the_page(stub_server, open_page):
    page = open_page(on_server=stub_server)
    assert stub_server.streams_opened == 1
    page.driver.execute_script("window.__e2eBeforeReload = true")

    stub_server.send_reload()

    wait_until(lambda: page.driver.execute_script(_NAVIGATION_TYPE), lambda kind: kind == "reload",
               message="the page to reload itself")
    page.wait_until_showing_cards()
    assert stub_server.streams_opened == 2, "the old page did not reconnect meanwhile; the new one did, once"
