"""Debian's Firefox ESR driven over Marionette, its own remote protocol (no geckodriver): a fresh
profile, a free Marionette port, and the StackWeb page read through its debug hook."""

import os
import shutil
import subprocess
import tempfile

from .server import free_port
from .stage import StageMapping
from .waiting import wait_until

try:
    from marionette_driver.marionette import Actions, Marionette
except ImportError:  # the test module skips itself
    Marionette = None

FIREFOX = os.environ.get("FIREFOX_BIN") or shutil.which("firefox-esr")
VIEWPORT = (1280, 800)
START_TIMEOUT = 60.0

# A test browser: no first-run pages, no update or telemetry traffic, no proxy (the server is
# local), and Marionette on the port chosen for this instance.
PREFERENCES = {
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.startup.page": 0,
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "app.update.disabledForTesting": True,
    "network.proxy.type": 0,
    "dom.disable_beforeunload": True,
}

STATE = "return window.stackweb ? window.stackweb.state() : null"
_CANVAS_RECT = """
const rect = document.getElementById('stage').getBoundingClientRect();
return {left: rect.left, top: rect.top, width: rect.width, height: rect.height};
"""


def _user_js(port):
    values = dict(PREFERENCES, **{"marionette.port": port})
    def literal(value):
        return ("true" if value else "false") if isinstance(value, bool) else repr(value).replace("'", '"')
    return "".join(f"user_pref({name!r}, {literal(value)});\n".replace("'", '"') for name, value in values.items())


class Firefox:
    """One headless Firefox ESR process with a Marionette session."""

    def __init__(self):
        self.profile = tempfile.mkdtemp(prefix="stackweb-firefox-")
        port = free_port()
        with open(os.path.join(self.profile, "user.js"), "w") as prefs:
            prefs.write(_user_js(port))
        self.process = subprocess.Popen(
            [FIREFOX, "--headless", "--marionette", "--no-remote", "--profile", self.profile,
             "--width", str(VIEWPORT[0]), "--height", str(VIEWPORT[1]), "about:blank"],
            env=dict(os.environ, HOME=self.profile, MOZ_HEADLESS="1"),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        self.client = Marionette(host="127.0.0.1", port=port, startup_timeout=START_TIMEOUT)
        self.client.start_session(timeout=START_TIMEOUT)
        self.client.timeout.script = 10
        self._size_viewport(*VIEWPORT)

    def _size_viewport(self, width, height):
        extra_w, extra_h = self.run("return [outerWidth - innerWidth, outerHeight - innerHeight]")
        self.client.set_window_rect(width=width + extra_w, height=height + extra_h)

    def run(self, script, *arguments):
        """`script` in the page itself (not a sandbox), so that it sees `window.stackweb`."""
        return self.client.execute_script(script, script_args=list(arguments), new_sandbox=False, sandbox=None)

    def open_window(self):
        """A second top-level window, made current; returns the handle to come back to."""
        previous = self.client.current_window_handle
        handle = self.client.open(type="window", focus=True)["handle"]
        self.client.switch_to_window(handle)
        self._size_viewport(*VIEWPORT)
        return previous

    def close(self):
        try:
            self.client.delete_session()
        except Exception:  # the browser may be gone already; it is ended below either way
            pass
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


class FirefoxPage:
    """One room open in the current window of `firefox`, read through `window.stackweb`."""

    def __init__(self, firefox, server, room, query=""):
        self.firefox = firefox
        self.server = server
        self.room = room
        self.url = f"{server.base_url}/?room={room}&debug=1{query}"

    def open(self):
        self.firefox.client.navigate(self.url)
        self.wait_until_showing_cards()
        return self

    def state(self):
        return self.firefox.run(STATE)

    def wait_until_showing_cards(self, timeout=15.0):
        return wait_until(self.state, lambda s: s and s["connected"] and s["cards"], timeout=timeout,
                          message=f"Firefox connected to {self.room} with cards")

    def stage(self):
        """Stage points to CSS pixels of the viewport, as the page fits the stage into its canvas."""
        return StageMapping.fit(self.firefox.run(_CANVAS_RECT), self.state()["stage"])

    def press(self, key):
        """A key typed at the focused canvas, as a keyboard user reaches it (tabindex 0)."""
        self.firefox.run("document.getElementById('stage').focus()")
        Actions(self.firefox.client).sequence("key", "keyboard").key_down(key).key_up(key).perform()

    def drag(self, start, end, steps=6, step_ms=16):
        """A mouse drag in stage points from `start` to `end`, through `steps` moves `step_ms` apart."""
        mapping = self.stage()
        (x0, y0), (x1, y1) = mapping.to_page(*start), mapping.to_page(*end)
        mouse = Actions(self.firefox.client).sequence("pointer", "mouse", {"pointerType": "mouse"})
        mouse.pointer_move(round(x0), round(y0)).pointer_down()
        for step in range(1, steps + 1):
            fraction = step / steps
            mouse.pointer_move(round(x0 + (x1 - x0) * fraction), round(y0 + (y1 - y0) * fraction), duration=step_ms)
        mouse.pointer_up().perform()
