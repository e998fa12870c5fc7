"""Every keyboard shortcut posts its command; the arrows step through the photos and the page says so."""

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from support.network import RequestLog
from support.waiting import wait_until

# Commands the server does not know yet are answered 400, which Chromium logs on its own as a
# failed resource load (the page itself logs no error); once the server takes them, nothing matches.
REFUSED_COMMAND = r"/api/rooms/[a-z0-9_-]+/commands - Failed to load resource: the server responded with a status of 400"


def press(page, key):
    # The canvas is focusable (tabindex 0), as a keyboard user reaches it; clicking it would be a tap.
    page.driver.find_element(By.ID, "stage").send_keys(key)


def press_with_control(page, key):
    # Focused without a click: a click on the canvas would be a tap on the top photo.
    page.driver.execute_script("document.getElementById('stage').focus()")
    ActionChains(page.driver).key_down(Keys.CONTROL).send_keys(key).key_up(Keys.CONTROL).perform()


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


def test_aria_live_region_announces_the_photo(page, server):
    status = page.driver.find_element(By.ID, "status")
    assert status.get_attribute("aria-live") == "polite"
    count = server.snapshot(page.room)["count"]
    # The photo's name (and date taken, when known) follows: "Photo 1 of 12: 01-sunset".
    wait_until(lambda: status.text, lambda text: text.startswith(f"Photo 1 of {count}: "),
               message="the first announcement")

    press(page, Keys.ARROW_RIGHT)

    wait_until(lambda: status.text, lambda text: text.startswith(f"Photo 2 of {count}: "),
               message=f"the live region to say 'Photo 2 of {count}'")


# In the order pressed: Enter comes before the style keys, as it flips in the deck.
SHORTCUTS = [
    ("Space", Keys.SPACE, False, {"command": "play"}),
    ("F", "f", False, {"command": "fullscreen"}),
    ("Enter", Keys.ENTER, False, {"command": "highlight"}),
    ("U", "u", False, {"command": "undo"}),
    ("Ctrl+Z", "z", True, {"command": "undo"}),
    ("1", "1", False, {"command": "style", "style": "pile"}),
    ("2", "2", False, {"command": "style", "style": "angles"}),
    ("3", "3", False, {"command": "style", "style": "grid"}),
    ("4", "4", False, {"command": "style", "style": "deck"}),
    ("5", "5", False, {"command": "style", "style": "swipe"}),
]


@pytest.mark.allow_console(REFUSED_COMMAND)
def test_each_shortcut_posts_its_command(page):
    requests = RequestLog(page.driver)
    toast = page.driver.find_element(By.ID, "toast")
    for number, (name, key, with_control, expected) in enumerate(SHORTCUTS, start=1):
        if with_control:
            press_with_control(page, key)
        else:
            press(page, key)
        posted = requests.wait_for_commands(number, message=f"commands posted (after {name})")
        assert posted[number - 1]["body"] == expected, f"{name} posted {posted[number - 1]['body']}"
        if posted[number - 1]["status"] == 400:
            # An older server: the page says so in a toast, and nothing else happens.
            wait_until(lambda: toast.is_displayed() and toast.text, message=f"a toast after {name} was refused")
    assert len(requests.commands()) == len(SHORTCUTS), "one command per key press"


def test_space_on_a_focused_button_presses_only_that_button(page, server):
    requests = RequestLog(page.driver)
    button = page.driver.find_element(By.CSS_SELECTOR, '[data-action="next"]')
    page.driver.execute_script("arguments[0].focus()", button)

    ActionChains(page.driver).send_keys(Keys.SPACE).perform()

    wait_for_current(page, server, 1)
    assert [post["body"] for post in requests.wait_for_commands(1)] == [{"command": "next"}]
