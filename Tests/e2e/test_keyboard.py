"""The arrow keys step through the photos, on the server and on the page."""

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from support.waiting import wait_until


def press(page, key):
    # The canvas is focusable (tabindex 0), as a keyboard user reaches it; clicking it would be a tap.
    page.driver.find_element(By.ID, "stage").send_keys(key)


def wait_for_current(page, server, index):
    wait_until(lambda: server.snapshot(page.room)["current"], lambda current: current == index,
               message=f"the server's current == {index}")
    wait_until(lambda: page.state()["current"], lambda current: current == index,
               message=f"the page's current == {index}")


def test_keyboard_arrows(page, server):
    assert server.snapshot(page.room)["current"] == 0

    press(page, Keys.ARROW_RIGHT)
    wait_for_current(page, server, 1)

    press(page, Keys.ARROW_LEFT)
    wait_for_current(page, server, 0)
