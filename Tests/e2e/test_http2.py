"""One instance behind nginx terminating TLS and HTTP/2 (docs/scale-out/nginx-http2.conf, with a
self-signed certificate made by the test): the browser multiplexes its streams on one connection,
so eight tabs on eight rooms (eight event streams, more than HTTP/1.1's six connections) all
answer → by moving their room."""

import re
import shutil
import subprocess
import tempfile
import urllib.request
import ssl
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from support.page import StackWebPage, start_chromium
from support.server import REPO_ROOT, StackWebServer, free_port
from support.waiting import wait_until

NGINX_CONF = REPO_ROOT / "docs/scale-out/nginx-http2.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
OPENSSL = shutil.which("openssl")
ROOMS = 8

pytestmark = pytest.mark.skipif(not Path(NGINX).is_file() or not OPENSSL, reason="needs nginx and openssl")


class ProxiedServer:
    """`server` as the browser reaches it: through nginx on `port`, over HTTPS."""

    def __init__(self, server, port):
        self.server = server
        self.port = port

    @property
    def base_url(self):
        return f"https://127.0.0.1:{self.port}"


@pytest.fixture(scope="module")
def behind_nginx():
    folder = Path(tempfile.mkdtemp(prefix="stackweb-h2-"))
    subprocess.run(
        [OPENSSL, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-days", "1",
         "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(folder / "key.pem"),
         "-out", str(folder / "cert.pem")], check=True, capture_output=True)
    server = StackWebServer(port=free_port()).start()
    port = free_port()
    text = NGINX_CONF.read_text()
    text, listens = re.subn(r"listen 0\.0\.0\.0:8443 ssl http2;", f"listen 127.0.0.1:{port} ssl http2;", text)
    text, upstreams = re.subn(r"server 127\.0\.0\.1:8081;", f"server 127.0.0.1:{server.port};", text)
    assert (listens, upstreams) == (1, 1), "docs/scale-out/nginx-http2.conf changed shape"
    (folder / "nginx.conf").write_text(text)
    nginx = subprocess.Popen([NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-g", "daemon off;"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    context = ssl.create_default_context(cafile=str(folder / "cert.pem"))

    def answers():
        try:
            with urllib.request.urlopen(f"https://127.0.0.1:{port}/healthz", timeout=1, context=context) as reply:
                return reply.status == 200
        except OSError:
            return False

    try:
        wait_until(answers, message="nginx to answer /healthz over TLS")
        yield ProxiedServer(server, port)
    finally:
        nginx.terminate()
        nginx.wait()
        server.close()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def h2_browser():
    # The certificate is the test's own, trusted by nobody: Chromium is told to accept it.
    driver = start_chromium(["--ignore-certificate-errors"])
    driver.set_page_load_timeout(20)
    yield driver
    driver.quit()


def test_eight_rooms_in_eight_tabs_share_one_http2_connection(behind_nginx, h2_browser, room):
    tabs = []
    for number in range(1, ROOMS + 1):
        h2_browser.switch_to.new_window("tab")
        page = StackWebPage(h2_browser, behind_nginx, f"{room[:60]}-{number}").open()
        tabs.append((h2_browser.current_window_handle, page))
    protocol = h2_browser.execute_script("return performance.getEntriesByType('navigation')[0].nextHopProtocol")
    assert protocol == "h2"
    for handle, page in tabs:
        h2_browser.switch_to.window(handle)
        h2_browser.find_element(By.ID, "stage").send_keys(Keys.ARROW_RIGHT)
        wait_until(lambda: behind_nginx.server.snapshot(page.room)["current"], lambda current: current == 1,
                   message=f"{page.room}: the server's current == 1")
        wait_until(page.state, lambda state: state["current"] == 1, message=f"{page.room}: the page's current == 1")
