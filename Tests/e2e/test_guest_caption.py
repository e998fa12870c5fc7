"""A guest's photo on a frame that draws captions: it arrives moving, says who sent it ("from
Anna") while it is first in front, and its ordinary caption afterwards."""

import json
import tempfile
import urllib.request
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from support.page import StackWebPage
from support.photos import write_noise_png
from support.screens import fresh_tab
from support.guests import make_room
from support.server import StackWebServer
from support.waiting import wait_until

_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


@pytest.fixture(scope="module")
def open_server():
    with tempfile.TemporaryDirectory(prefix="stackweb-guests-") as folder:
        for number in range(3):
            write_noise_png(Path(folder) / f"wall-{number}.png", 320, 240, seed=number)
        server = StackWebServer(arguments=["--photos", folder, "--uploads", "open"]).start()
        yield server
        server.close()


def send_photo(server, room, sender):
    make_room(server, room, token=None)
    path = Path(tempfile.mkdtemp(prefix="stackweb-guest-")) / "photo.png"
    write_noise_png(path, 400, 300, seed=41)
    request = urllib.request.Request(
        f"{server.base_url}/api/rooms/{room}/photos", data=path.read_bytes(), method="POST",
        headers={"Content-Type": "image/png", "X-Photo-Sender": sender})
    with _opener.open(request, timeout=10) as response:
        assert response.status == 201
        return json.load(response)


def status(driver):
    return driver.find_element(By.ID, "status").get_attribute("textContent")


def test_a_guests_photo_says_who_sent_it_while_first_in_front(browser, open_server, room):
    with fresh_tab(browser):
        page = StackWebPage(browser, open_server, room, "&kiosk=1&caption=name").open()
        sent = send_photo(open_server, room, "Anna%20%E2%80%AEK.")
        card = wait_until(lambda: next((c for c in page.state()["cards"] if c["photo"] == sent["id"]), None),
                          message="the guest's card on the page")
        assert card["position"] == 1, "it joins next"
        assert card["animating"], "it joins with the style's arrival motion"
        open_server.command(room, command="next")
        wait_until(lambda: status(browser), lambda text: text.endswith(": from Anna K."),
                   message="the status line (the caption) naming the sender")
        open_server.command(room, command="next")
        open_server.command(room, command="previous")
        wait_until(lambda: page.top_card()["photo"], lambda photo: photo == sent["id"],
                   message="the guest's photo in front again")
        wait_until(lambda: status(browser), lambda text: "from" not in text and "anna" in text,
                   message="its ordinary caption (its file name) the second time")
