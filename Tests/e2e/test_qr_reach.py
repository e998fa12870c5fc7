"""A QR code a phone can open: on a server listening on every interface the wall's code names the
LAN address start-up prints (never 127.0.0.1, which on a guest's phone is the phone), and on a
server listening on this machine only the large view says why guests cannot reach it and how to
fix it."""

import re
import shutil
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from selenium.webdriver.common.by import By

from support.guests import ADD_TOKEN, ZBARIMG, decode_qr
from support.page import StackWebPage
from support.screens import fresh_tab
from support.server import REPO_ROOT, StackWebServer
from support.waiting import wait_until

CORNER = "const f = document.querySelector('.add-code.corner'); return f && !f.hidden && f.offsetWidth ? f : null"
LARGE_TEXT = """
const overlay = document.querySelector('.add-code-overlay');
return overlay && !overlay.hidden ? overlay.querySelector('figcaption').textContent : null;
"""


def _server(host, folder):
    for photo in sorted((REPO_ROOT / "Resources/demo-photos").glob("*.jpg"))[:2]:
        shutil.copy(photo, folder)
    return StackWebServer(arguments=[
        "--host", host, "--photos", str(folder), "--cache", tempfile.mkdtemp(prefix="stackweb-e2e-cache-"),
        "--uploads", "open", "--add-token", ADD_TOKEN, "--token", "e2e-control-token-0123456789"]).start()


@pytest.mark.skipif(not ZBARIMG, reason="needs zbarimg (zbar-tools)")
def test_the_code_on_a_lan_server_names_the_lan_address(browser, room):
    folder = Path(tempfile.mkdtemp(prefix="stackweb-e2e-lan-"))
    server = _server("0.0.0.0", folder)
    try:
        wall = wait_until(lambda: re.search(r"^  wall:    (\S+)", server.output(), re.MULTILINE),
                          message="start-up's wall line")
        wall_url = urlsplit(wall.group(1))
        assert wall_url.query == "kiosk=1&qr=1"
        assert wall_url.hostname not in ("127.0.0.1", "localhost")
        assert f"  add:     http://{wall_url.netloc}/add?room=main#token=" in server.output()
        with fresh_tab(browser):
            # The wall is opened on the server's own screen, at 127.0.0.1.
            StackWebPage(browser, server, room, "&kiosk=1&qr=1").open()
            wait_until(lambda: browser.execute_script(CORNER), message="the code in the kiosk's corner")
            decoded = decode_qr(browser.get_screenshot_as_png(), folder)
        assert decoded == f"http://{wall_url.netloc}/add?room={room}#token={ADD_TOKEN}"
        assert urlsplit(decoded).hostname not in ("127.0.0.1", "localhost")
    finally:
        server.close()


@pytest.mark.allow_console("add-code.svg")
def test_a_loopback_server_says_why_phones_cannot_reach_it(browser, room):
    # A folder of its own: guests' photos go to an Uploads/ folder inside it (never the repository's).
    folder = Path(tempfile.mkdtemp(prefix="stackweb-e2e-photos-"))
    for photo in sorted((REPO_ROOT / "Resources/demo-photos").glob("*.jpg"))[:2]:
        shutil.copy(photo, folder)
    server = StackWebServer(arguments=[
        "--photos", str(folder), "--uploads", "open",
        "--cache", tempfile.mkdtemp(prefix="stackweb-e2e-cache-")]).start()
    try:
        assert "  note:    Guests' phones cannot reach this server" in server.output()
        with fresh_tab(browser):
            StackWebPage(browser, server, room).open()
            browser.find_element(By.ID, "stage").send_keys("q")
            text = wait_until(lambda: browser.execute_script(LARGE_TEXT), lambda words: words and "reach" in words,
                              message="the large view's words")
            assert "127.0.0.1" in text and "--host 0.0.0.0" in text and "--public-url" in text, text
            assert not browser.find_elements(By.CSS_SELECTOR, ".add-code-overlay img")
    finally:
        server.close()
