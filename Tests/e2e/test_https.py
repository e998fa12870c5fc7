"""The page over HTTPS (--tls-cert/--tls-key), with a self-signed certificate made for the test:
it connects, draws, and a keyboard → advances the server's room."""

import subprocess

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from support.page import StackWebPage, start_chromium
from support.server import StackWebServer
from support.waiting import wait_until


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-days", "1",
         "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True)
    return cert, key


@pytest.fixture(scope="module")
def https_server(certificate):
    cert, key = certificate
    instance = StackWebServer(arguments=["--tls-cert", str(cert), "--tls-key", str(key)], cafile=str(cert)).start()
    yield instance
    instance.close()


@pytest.fixture(scope="module")
def https_browser():
    # The certificate is the test's own, trusted by nobody: Chromium is told to accept it.
    driver = start_chromium(["--ignore-certificate-errors"])
    yield driver
    driver.quit()


def test_the_page_works_over_https(https_browser, https_server):
    assert https_server.base_url.startswith("https://")
    page = StackWebPage(https_browser, https_server, "t-https").open()
    assert https_browser.current_url.startswith("https://")
    assert page.wait_until_photos_drawn()
    assert https_server.snapshot(page.room)["current"] == 0
    # The canvas is focusable, as a keyboard user reaches it; → posts `next` (with an https Origin).
    https_browser.find_element(By.ID, "stage").send_keys(Keys.ARROW_RIGHT)
    wait_until(lambda: https_server.snapshot(page.room)["current"], lambda current: current == 1,
               message="the server's current == 1")
    wait_until(lambda: page.state()["current"], lambda current: current == 1, message="the page's current == 1")
