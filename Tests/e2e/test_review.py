"""Guests' photos waiting for review (`--uploads review`), reviewed on the control page: its badge,
its panel with previews, Approve (the photo joins the wall another window shows) and Reject (gone
from the queue and from disk), by mouse and by keyboard, and a phone-sized panel."""

import json
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from support.photos import write_noise_png
from support.guests import make_room
from support.screens import emulate, fresh_tab, shoot
from support.server import StackWebServer
from support.page import StackWebPage, severe_console_entries
from support.waiting import wait_until

CONTROL_TOKEN = "review-control-token-0123"
ADD_TOKEN = "review-add-token-01234567"
_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


@pytest.fixture(scope="module")
def review_server():
    with tempfile.TemporaryDirectory(prefix="stackweb-review-") as folder:
        for number in range(3):
            write_noise_png(Path(folder) / f"wall-{number}.png", 320, 240, seed=number)
        secrets = Path(folder) / ".secrets"
        secrets.mkdir()
        (secrets / "control").write_text(CONTROL_TOKEN)
        (secrets / "add").write_text(ADD_TOKEN)
        server = StackWebServer(arguments=[
            "--photos", folder, "--uploads", "review", "--token-file", str(secrets / "control"),
            "--add-token-file", str(secrets / "add"),
        ]).start()
        server.folder = Path(folder)
        yield server
        server.close()


def send_photo(server, room, seed, sender="Anna"):
    """A guest's upload over HTTP with the add token, as the add page sends it: its JSON answer."""
    make_room(server, room, token=CONTROL_TOKEN)
    path = Path(tempfile.mkdtemp(prefix="stackweb-guest-")) / "photo.png"
    write_noise_png(path, 400, 300, seed=seed)
    request = urllib.request.Request(
        f"{server.base_url}/api/rooms/{room}/photos", data=path.read_bytes(), method="POST",
        headers={"Content-Type": "image/png", "Authorization": f"Bearer {ADD_TOKEN}", "X-Photo-Sender": sender})
    with _opener.open(request, timeout=10) as response:
        assert response.status == 202, "a review room keeps the photo out of sight"
        return json.load(response)


def waiting_ids(server, room):
    request = urllib.request.Request(f"{server.base_url}/api/rooms/{room}/uploads",
                                     headers={"Authorization": f"Bearer {CONTROL_TOKEN}"})
    with _opener.open(request, timeout=5) as response:
        return [upload["id"] for upload in json.load(response)["uploads"]]


def held_files(server, room):
    folder = server.folder / "Uploads" / ".review" / room
    return sorted(path.name for path in folder.iterdir()) if folder.exists() else []


def panel_items(driver):
    return driver.execute_script("""
        return [...document.querySelectorAll('#review li')].map((item) => {
          const image = item.querySelector('img');
          return {id: item.dataset.id, loaded: image.complete && image.naturalWidth > 0, label: image.alt};
        });""")


def badge(driver):
    return driver.execute_script("""
        const badge = document.querySelector('.review-badge');
        return badge && {shown: !badge.closest('.group').hidden, count: badge.textContent,
                         name: badge.getAttribute('aria-label')};""")


def test_a_guests_photo_is_approved_onto_the_wall_and_another_rejected(browser, second_browser, review_server, room):
    first = send_photo(review_server, room, seed=11)
    with fresh_tab(browser), fresh_tab(second_browser):
        wall = StackWebPage(second_browser, review_server, room, "&kiosk=1").open()
        assert wall.state()["count"] == 3, "the waiting photo is not on the wall"
        assert badge(second_browser) is None, "a wall has no review"
        control = StackWebPage(browser, review_server, room, f"&token={CONTROL_TOKEN}").open()
        shown = wait_until(lambda: badge(browser), lambda seen: seen and seen["shown"], message="the review badge")
        assert shown["count"] == "1" and shown["name"] == "1 guest photo waits for review", shown

        browser.find_element(By.CSS_SELECTOR, ".review-badge").click()
        items = wait_until(lambda: panel_items(browser), lambda items: items and items[0]["loaded"],
                           message="the waiting photo's preview in the panel")
        assert [item["id"] for item in items] == [first["id"]]
        assert "from Anna" in items[0]["label"], items[0]["label"]
        assert browser.switch_to.active_element.get_attribute("data-decision") == "approve", \
            "the panel opens with focus on the first Approve"

        # Another photo comes while the panel is open: it shows without a reload.
        second = send_photo(review_server, room, seed=12, sender="Ben")
        wait_until(lambda: [item["id"] for item in panel_items(browser)], lambda ids: ids == [first["id"], second["id"]],
                   timeout=15, message="the second photo in the open panel")
        wait_until(lambda: badge(browser)["count"], lambda count: count == "2", message="the badge counts two")

        browser.find_element(By.CSS_SELECTOR, f'#review li[data-id="{first["id"]}"] [data-decision="approve"]').click()
        wait_until(lambda: [card["photo"] for card in wall.state()["cards"]], lambda photos: first["id"] in photos,
                   message="the approved photo on the other window's wall")
        assert wall.state()["count"] == 4
        wait_until(lambda: [item["id"] for item in panel_items(browser)], lambda ids: ids == [second["id"]],
                   message="the approved photo gone from the panel")

        # By keyboard: focus went to the next photo's Approve; Tab reaches its Reject.
        focused = browser.switch_to.active_element
        assert focused.get_attribute("data-decision") == "approve"
        focused.send_keys(Keys.TAB)
        assert browser.switch_to.active_element.get_attribute("data-decision") == "reject"
        browser.switch_to.active_element.send_keys(Keys.ENTER)
        wait_until(lambda: waiting_ids(review_server, room), lambda ids: ids == [], message="the queue empty")
        assert held_files(review_server, room) == [], "the rejected photo is gone from disk"
        assert second["id"] not in [card["photo"] for card in wall.state()["cards"]]
        assert wall.state()["count"] == 4
        wait_until(lambda: browser.execute_script("return document.querySelector('.review-empty').hidden"),
                   lambda hidden: hidden is False, message="the panel says nothing waits")
        browser.switch_to.active_element.send_keys(Keys.ESCAPE)
        assert browser.execute_script("return document.getElementById('review').hidden")
        assert control.state()["count"] == 4


def test_a_waiting_photos_sender_is_still_named_after_a_restart(browser, room):
    with tempfile.TemporaryDirectory(prefix="stackweb-review-restart-") as folder:
        for number in range(3):
            write_noise_png(Path(folder) / f"wall-{number}.png", 320, 240, seed=number)
        state = tempfile.mkdtemp(prefix="stackweb-review-state-")
        arguments = [
            "--photos", folder, "--state", f"{state}/state.db", "--uploads", "review", "--token", CONTROL_TOKEN,
            "--add-token", ADD_TOKEN,
        ]
        server = StackWebServer(arguments=arguments).start()
        try:
            sent = send_photo(server, room, seed=41, sender="Anna")
        finally:
            server.close()
        server = StackWebServer(arguments=arguments).start()
        try:
            with fresh_tab(browser):
                StackWebPage(browser, server, room, f"&token={CONTROL_TOKEN}").open()
                wait_until(lambda: badge(browser), lambda seen: seen and seen["count"] == "1", message="the badge")
                browser.find_element(By.CSS_SELECTOR, ".review-badge").click()
                items = wait_until(lambda: panel_items(browser), lambda items: items and items[0]["loaded"],
                                   message="the waiting photo's preview in the panel")
                assert [item["id"] for item in items] == [sent["id"]]
                assert "from Anna" in items[0]["label"], items[0]["label"]
                shoot(browser, "review-sender-after-restart.png")
        finally:
            server.close()


def test_the_panel_fits_a_phone_with_finger_sized_buttons(browser, review_server, room):
    send_photo(review_server, room, seed=21)
    send_photo(review_server, room, seed=22, sender="Ben")
    with fresh_tab(browser):
        StackWebPage(browser, review_server, room, f"&token={CONTROL_TOKEN}").open()
        # A page's viewport tag makes it 390 px wide once loaded.
        emulate(browser, 390, 844, 3, touch=True)
        wait_until(lambda: badge(browser), lambda seen: seen and seen["count"] == "2", message="the badge")
        browser.find_element(By.CSS_SELECTOR, ".review-badge").click()
        wait_until(lambda: panel_items(browser), lambda items: len(items) == 2 and all(i["loaded"] for i in items),
                   message="both previews")
        boxes = browser.execute_script("""
            return [...document.querySelectorAll('#review button, .review-badge')].map((button) => {
              const r = button.getBoundingClientRect();
              return {name: button.getAttribute('aria-label') || button.textContent, w: r.width, h: r.height,
                      left: r.left, right: r.right, top: r.top, bottom: r.bottom};
            });""")
        for box in boxes:
            assert box["w"] >= 44 and box["h"] >= 44, f"{box['name']} is {box['w']}×{box['h']} px"
            assert box["left"] >= 0 and box["right"] <= 390 and box["top"] >= 0 and box["bottom"] <= 844, box
        panel = browser.execute_script("return document.getElementById('review').getBoundingClientRect().bottom")
        bar = browser.execute_script("return document.getElementById('controls').getBoundingClientRect().top")
        assert panel <= bar, f"the panel (bottom {panel}) covers the control bar (top {bar})"
        shoot(browser, "review-phone.png")


def test_a_page_without_the_control_token_never_asks(browser, review_server, room):
    send_photo(review_server, room, seed=31)
    with fresh_tab(browser):
        # A token kept by an earlier page of this origin would make this one a control page.
        browser.get(f"{review_server.base_url}/healthz")
        browser.execute_script("localStorage.removeItem('stackweb.token')")
        StackWebPage(browser, review_server, room).open()
        # The stream opens after the page's first requests are answered: an ask made with them is over.
        asks = browser.execute_script(
            "return performance.getEntriesByType('resource').filter((e) => e.name.includes('/uploads')).length")
        assert asks == 0
        assert badge(browser) is None


def test_a_control_page_of_a_server_without_uploads_asks_once_without_an_error(browser, server, room):
    """The session's server takes no photos: the queue is an empty answer, not a failed request."""
    with fresh_tab(browser):
        severe_console_entries(browser)
        StackWebPage(browser, server, room, "&token=any-token-0123456789").open()
        wait_until(
            lambda: browser.execute_script(
                "return performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/uploads')).length"),
            lambda count: count == 1, message="the one ask")
        assert badge(browser)["shown"] is False
        assert severe_console_entries(browser) == []
