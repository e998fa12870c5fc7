"""Guests add photos from their phones: the QR code a kiosk shows leads to the add page, five photos
picked on a 390×844 touch screen reach the wall while a kiosk watches them arrive, a file that is no
photo is refused in words and adds no card; the same journey in Firefox ESR."""

import socket
import tempfile
import threading
import time

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from support.guests import (ADD_TOKEN, FOLDER_PHOTOS, REVIEW_ROOM, ROWS, ZBARIMG, add_url, as_control,
                            decode_qr, guest_server, make_room, not_a_photo, other_kinds, phone_photos,
                            wait_for_rows)
from support.marionette import FIREFOX, Firefox, FirefoxPage, Marionette
from support.page import StackWebPage, severe_console_entries
from support.screens import emulate, fresh_tab
from support.server import REPO_ROOT
from support.waiting import wait_until

PHONE = (390, 844, 3)
# An upload slower than 16 KiB/s is cut this long after its head (the server's UploadPace).
UPLOAD_GRACE_S = 10


@pytest.fixture(scope="module")
def guests():
    server = guest_server(tempfile.mkdtemp(prefix="stackweb-e2e-guests-"))
    yield server
    server.close()


@pytest.fixture
def folder():
    """The phone's own files (and screenshots), outside the server's photo folder."""
    return tempfile.mkdtemp(prefix="stackweb-e2e-phone-")


def kiosk_count(page):
    return (page.state() or {}).get("count")


# The large view: shown, its image drawn (complete, with its size), or its words in its place.
LARGE = """
const overlay = document.querySelector('.add-code-overlay');
if (!overlay || overlay.hidden) return null;
const image = overlay.querySelector('img');
return {drawn: Boolean(image && image.complete && image.naturalWidth), text: overlay.querySelector('figcaption').textContent,
        pressed: document.querySelector('[data-action="add-code"]').getAttribute('aria-pressed')};
"""


@pytest.mark.skipif(not ZBARIMG, reason="needs zbarimg (zbar-tools)")
def test_q_shows_the_code_large_and_hides_it_again(browser, guests, room, folder):
    with fresh_tab(browser):
        page = StackWebPage(browser, guests, room).open()
        stage = browser.find_element(By.ID, "stage")
        stage.send_keys("q")
        shown = wait_until(lambda: browser.execute_script(LARGE), lambda large: large and large["drawn"],
                           message="the large code drawn")
        assert shown == {"drawn": True, "text": "Scan to add your photos", "pressed": "true"}
        assert decode_qr(browser.get_screenshot_as_png(), folder) == add_url(guests, room)
        ActionChains(browser).send_keys("q").perform()
        wait_until(lambda: browser.execute_script(LARGE), lambda large: large is None, message="the code hidden")
        assert page.state()["count"] >= FOLDER_PHOTOS


@pytest.mark.allow_console("add-code.svg")
def test_a_room_that_takes_no_photos_says_so_instead_of_a_code(page):
    page.driver.find_element(By.CSS_SELECTOR, '[data-action="add-code"]').click()
    shown = wait_until(lambda: page.driver.execute_script(LARGE), lambda large: large and "no photos" in large["text"],
                       message="the large view's words")
    assert shown == {"drawn": False, "pressed": "true",
                     "text": "This room takes no photos from guests (the server needs --uploads open, or --uploads "
                             f"{page.room}=open)."}


@pytest.mark.skipif(not ZBARIMG, reason="needs zbarimg (zbar-tools)")
def test_the_kiosk_code_reads_back_to_the_add_page(browser, guests, room, folder):
    with fresh_tab(browser):
        StackWebPage(browser, guests, room, "&kiosk=1&qr=1").open()
        corner = wait_until(lambda: browser.execute_script(
            "const f = document.querySelector('.add-code.corner'); return f && !f.hidden && f.offsetWidth ? f : null"),
            message="the code in the kiosk's corner")
        assert decode_qr(browser.get_screenshot_as_png(), folder) == add_url(guests, room)
        assert corner.text == "Add your photos"


def test_five_photos_from_a_phone_reach_the_wall(browser, second_browser, guests, room, folder):
    with fresh_tab(browser):
        kiosk = StackWebPage(browser, guests, room, "&kiosk=1&qr=1").open()
        # The folder's photos, and those guests sent to earlier tests' rooms: they are the folder's too.
        before = kiosk_count(kiosk)
        assert before >= FOLDER_PHOTOS
        with fresh_tab(second_browser) as phone:
            emulate(phone, *PHONE, touch=True, url=add_url(guests, room))
            # The token left the address bar at once (kept for the page, not for a shared link).
            assert ADD_TOKEN not in phone.current_url
            assert phone.execute_script("return navigator.maxTouchPoints") > 0
            photos = phone_photos(folder, 5, shade=10)
            phone.find_element("id", "sender").send_keys("Anna")
            phone.find_element("id", "files").send_keys("\n".join(photos))
            rows = wait_for_rows(lambda: phone.execute_script(ROWS), 5)
            assert [(row["state"], row["kind"], row["text"]) for row in rows] == [("done", "shown", "On the wall")] * 5
            # The kiosk sees them arrive over its event stream.
            wait_until(lambda: kiosk_count(kiosk), lambda count: count == before + 5,
                       message="the kiosk showing the five new photos")
            assert guests.snapshot(room)["count"] == before + 5
            assert phone.find_element("id", "summary").text == "5 of 5 sent"
            # The name went with each photo (X-Photo-Sender), into its file's name.
            kept = sorted(path.name for path in (guests.uploads / room).iterdir())
            assert len(kept) == 5 and all("-anna-phone-10-" in name for name in kept), kept

            # A text file named .jpg: refused in words, with no Retry (the same bytes get the same
            # answer), and no card added.
            phone.find_element("id", "files").send_keys(not_a_photo(folder))
            rows = wait_for_rows(lambda: phone.execute_script(ROWS), 6)
            assert rows[5] == {"state": "failed", "kind": "not-photo", "retry": False,
                               "text": "Not a photo the wall can show (JPEG, PNG, WebP, GIF, HEIC)"}
            assert guests.snapshot(room)["count"] == before + 5
            assert kiosk_count(kiosk) == before + 5
            # Nothing the page did was refused by the browser (the policy allows no blob: URL, no
            # inline style): the refused photo's 415 is the one error.
            assert severe_console_entries(phone, ("status of 415",)) == []


def test_a_phone_added_photo_again_is_already_on_the_wall(second_browser, guests, room, folder):
    photo = phone_photos(folder, 1, shade=20)
    before = guests.snapshot(room)["count"]
    with fresh_tab(second_browser) as phone:
        emulate(phone, *PHONE, touch=True, url=add_url(guests, room))
        phone.find_element("id", "files").send_keys(photo[0])
        wait_for_rows(lambda: phone.execute_script(ROWS), 1)
        phone.find_element("id", "files").send_keys(photo[0])
        rows = wait_for_rows(lambda: phone.execute_script(ROWS), 2)
        assert [row["kind"] for row in rows] == ["shown", "existing"]
        assert rows[1]["text"] == "Already on the wall"
    assert guests.snapshot(room)["count"] == before + 1


def test_in_a_review_room_a_photo_waits_for_approval(second_browser, guests, folder):
    with fresh_tab(second_browser) as phone:
        emulate(phone, *PHONE, touch=True, url=add_url(guests, REVIEW_ROOM))
        phone.find_element(By.ID, "files").send_keys(phone_photos(folder, 1, shade=40)[0])
        rows = wait_for_rows(lambda: phone.execute_script(ROWS), 1)
    assert rows == [{"state": "done", "kind": "waiting", "text": "Waiting for approval", "retry": False}]
    waiting = as_control(guests, "GET", f"/api/rooms/{REVIEW_ROOM}/uploads")["uploads"]
    assert len(waiting) == 1
    # Not on the wall until approved: then one card more.
    before = guests.snapshot(REVIEW_ROOM)["count"]
    as_control(guests, "POST", f"/api/rooms/{REVIEW_ROOM}/uploads/{waiting[0]['id']}/approve")
    assert guests.snapshot(REVIEW_ROOM)["count"] == before + 1


def test_without_the_token_the_page_says_to_scan_the_code_again(second_browser, guests, room, folder):
    with fresh_tab(second_browser) as phone:
        emulate(phone, *PHONE, touch=True, url=f"{guests.base_url}/add?room={room}")
        # A token kept by an earlier visit would still add: this phone never had one.
        phone.execute_script("localStorage.clear()")
        phone.refresh()
        phone.find_element(By.ID, "files").send_keys(phone_photos(folder, 1, shade=50)[0])
        rows = wait_for_rows(lambda: phone.execute_script(ROWS), 1)
        severe_console_entries(phone)  # the 401, expected
    assert rows == [{"state": "failed", "kind": "token", "retry": False,
                     "text": "This link cannot add photos: scan the code on the wall again"}]


def network(driver, offline=False, upload=-1):
    """Chromium's network for the tab: offline, or its uplink throttled to `upload` bytes a second."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": offline, "latency": 20 if upload > 0 else 0, "downloadThroughput": -1, "uploadThroughput": upload})


def test_offline_then_retry_puts_the_photo_on_the_wall_once(second_browser, guests, room, folder):
    before = guests.snapshot(room)["count"]
    with fresh_tab(second_browser) as phone:
        emulate(phone, *PHONE, touch=True, url=add_url(guests, room))
        network(phone, offline=True)
        try:
            phone.find_element(By.ID, "files").send_keys(phone_photos(folder, 1, shade=60)[0])
            rows = wait_for_rows(lambda: phone.execute_script(ROWS), 1)
        finally:
            network(phone)
        assert rows == [{"state": "failed", "kind": "offline", "retry": True,
                         "text": "No connection: check the Wi-Fi, then retry"}]
        severe_console_entries(phone)  # the failed request, expected
        phone.find_element(By.CSS_SELECTOR, ".upload .retry").click()
        rows = wait_for_rows(lambda: phone.execute_script(ROWS), 1)
        assert rows == [{"state": "done", "kind": "shown", "text": "On the wall", "retry": False}]
    assert guests.snapshot(room)["count"] == before + 1


# Each change of each row as the page makes it: state and the progress bar's value, in order.
RECORD_ROWS = """
window.rowHistory = [];
new MutationObserver(() => {
  for (const row of document.querySelectorAll('.upload')) {
    const entry = [row.dataset.state, row.querySelector('progress').value];
    const last = row.history?.at(-1);
    if (!last || last[0] !== entry[0] || last[1] !== entry[1]) (row.history ??= []).push(entry);
  }
  window.rowHistory = [...document.querySelectorAll('.upload')].map((row) => row.history ?? []);
}).observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
"""


def test_a_hostile_guests_bitmap_and_pdf_are_refused_in_words_and_leave_the_wall_as_it_was(
        second_browser, guests, room, folder):
    """A BMP and a PDF are refused by their first bytes (no ImageMagick, no poppler read them)."""
    with fresh_tab(second_browser) as phone:
        emulate(phone, *PHONE, touch=True, url=add_url(guests, room))
        before = guests.snapshot(room)["count"]
        phone.find_element(By.ID, "files").send_keys("\n".join(other_kinds(folder)))
        rows = wait_for_rows(lambda: phone.execute_script(ROWS), 2)
        # Sending the same bytes again would be refused the same: no Retry is offered.
        assert rows == [{"state": "failed", "kind": "not-photo", "retry": False,
                         "text": "Not a photo the wall can show (JPEG, PNG, WebP, GIF, HEIC)"}] * 2, rows
        severe_console_entries(phone)  # the two 415s, expected
    assert guests.snapshot(room)["count"] == before
    assert list((guests.uploads / room).glob("[!.]*")) == []


def test_trickling_uploads_keep_a_phone_out_only_until_their_grace_is_over(second_browser, guests, room, folder):
    """Sixteen uploads from four other addresses, a byte a second each, hold every upload slot: the
    phone's photo is refused as busy, and once the trickles are cut (408, past 10 s of grace) its
    Retry puts it on the wall."""
    make_room(guests, room)
    head = (f"POST /api/rooms/{room}/photos HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/jpeg\r\n"
            f"Authorization: Bearer {ADD_TOKEN}\r\nContent-Length: 1000000\r\n\r\n").encode()
    trickles = []
    for index in range(16):
        trickle = socket.create_connection(("127.0.0.1", guests.port), source_address=(f"127.0.0.{2 + index // 4}", 0))
        trickle.settimeout(UPLOAD_GRACE_S + 5)
        trickle.sendall(head + b"\xff\xd8")
        trickles.append(trickle)
    started = time.monotonic()
    stop = threading.Event()

    def trickle_on():
        while not stop.wait(1):
            for trickle in trickles:
                try:
                    trickle.sendall(b"\0")
                except OSError:
                    pass

    threading.Thread(target=trickle_on, daemon=True).start()
    try:
        with fresh_tab(second_browser) as phone:
            emulate(phone, *PHONE, touch=True, url=add_url(guests, room))
            before = guests.snapshot(room)["count"]
            phone.find_element(By.ID, "files").send_keys(phone_photos(folder, 1, shade=90)[0])
            rows = wait_for_rows(lambda: phone.execute_script(ROWS), 1)
            assert (rows[0]["kind"], rows[0]["retry"]) == ("busy", True), rows
            severe_console_entries(phone)  # the 429, expected
            answers = [trickle.recv(64) for trickle in trickles]
            assert all(answer.startswith(b"HTTP/1.1 408") for answer in answers), answers
            assert time.monotonic() - started <= UPLOAD_GRACE_S + 3
            phone.find_element(By.CSS_SELECTOR, ".upload .retry").click()
            rows = wait_for_rows(lambda: phone.execute_script(ROWS), 1)
            assert rows == [{"state": "done", "kind": "shown", "text": "On the wall", "retry": False}]
        assert guests.snapshot(room)["count"] == before + 1
    finally:
        stop.set()
        for trickle in trickles:
            trickle.close()


def test_the_bar_follows_the_bytes_then_checking_then_the_wall(second_browser, guests, room, folder):
    """On a slow uplink (160 kB/s, as throttled by Chromium), the bar moves with the bytes sent."""
    photo = sorted((REPO_ROOT / "Resources/demo-photos").glob("*.jpg"))[10]
    with fresh_tab(second_browser) as phone:
        emulate(phone, *PHONE, touch=True, url=add_url(guests, room))
        network(phone, upload=160_000)
        try:
            phone.execute_script(RECORD_ROWS)
            phone.find_element(By.ID, "files").send_keys(str(photo))
            wait_for_rows(lambda: phone.execute_script(ROWS), 1)
            history = phone.execute_script("return window.rowHistory[0]")
        finally:
            network(phone)
    states = [state for state, _ in history]
    sending = [value for state, value in history if state == "sending"]
    assert states[-1] == "done" and "checking" in states, history
    assert states.index("checking") > max(index for index, state in enumerate(states) if state == "sending"), history
    assert any(0 < value < 1 for value in sending), f"no partial progress: {history}"
    assert sending == sorted(sending), f"the bar went back: {history}"


@pytest.mark.skipif(not FIREFOX or Marionette is None, reason="needs firefox-esr and the marionette-driver package")
def test_five_photos_from_firefox_reach_the_wall(guests, room, folder):
    firefox = Firefox()
    try:
        kiosk = FirefoxPage(firefox, guests, room, "&kiosk=1&qr=1").open()
        before = kiosk.state()["count"]
        kiosk_window = firefox.open_window()
        firefox.client.navigate(add_url(guests, room))
        files = firefox.client.find_element("id", "files")
        files.send_keys("\n".join(phone_photos(folder, 5, shade=30)))
        rows = wait_for_rows(lambda: firefox.run(ROWS), 5)
        assert [(row["state"], row["kind"]) for row in rows] == [("done", "shown")] * 5
        firefox.client.find_element("id", "files").send_keys(not_a_photo(folder))
        rows = wait_for_rows(lambda: firefox.run(ROWS), 6)
        assert (rows[5]["kind"], rows[5]["retry"]) == ("not-photo", False)
        assert guests.snapshot(room)["count"] == before + 5
        firefox.client.switch_to_window(kiosk_window)
        wait_until(kiosk.state, lambda state: state["count"] == before + 5,
                   message="the Firefox kiosk showing the five new photos")
    finally:
        firefox.close()
