"""The real `stackweb` binary as a child process, and a small JSON client for its HTTP API."""

import json
import os
import re
import signal
import socket
import ssl
import subprocess
import tempfile
import urllib.request
from pathlib import Path

from .page import VIEWPORT
from .waiting import wait_until

REPO_ROOT = Path(__file__).resolve().parents[3]
# The first stdout line; the port is the number after the host (the scheme has a colon too).
LISTENING = re.compile(r"listening on https?://127\.0\.0\.1:(\d+)/")
START_TIMEOUT = 10.0

# This machine routes some traffic through a proxy; the server is local, so never use one.
_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def binary_path():
    """The binary under test: $STACKWEB_BIN, else the debug build in the repository."""
    return Path(os.environ.get("STACKWEB_BIN", REPO_ROOT / ".build/debug/stackweb"))


def free_port():
    """A port that was free a moment ago, for a server that must come back on the same port."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class StackWebServer:
    """One `stackweb` process. `port=0` lets it pick; the chosen port is read from its first line."""

    def __init__(self, port=0, arguments=(), cafile=None, binary=None, resources=REPO_ROOT / "Resources"):
        """`arguments` are added to the command line; `cafile` is the certificate to trust when
        they make it serve HTTPS (`--tls-cert`); `binary` and `resources` default to the build tree's."""
        self.binary = Path(binary) if binary else binary_path()
        self.resources = resources
        self.requested_port = port
        self.arguments = list(arguments)
        self.scheme = "https" if "--tls-cert" in self.arguments else "http"
        self.context = ssl.create_default_context(cafile=cafile) if cafile else None
        self.port = None
        self.process = None
        # A file rather than a pipe: nobody reads a pipe after start-up, and a full one would block
        # the server mid-test.
        self.log = tempfile.NamedTemporaryFile(prefix="stackweb-e2e-", suffix=".log", delete=False)

    @property
    def base_url(self):
        return f"{self.scheme}://127.0.0.1:{self.port}"

    def start(self):
        binary = self.binary
        if not binary.is_file():
            raise FileNotFoundError(f"{binary} is missing: run `swift build` or set STACKWEB_BIN")
        self.log.truncate(0)
        self.process = subprocess.Popen(
            [str(binary), "--port", str(self.requested_port), "--resources", str(self.resources)]
            + self.arguments,
            stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
        )
        match = wait_until(self._listening_line, timeout=START_TIMEOUT, message="the server's `listening on` line")
        self.port = int(match.group(1))
        return self

    def _listening_line(self):
        if self.process.poll() is not None:
            raise RuntimeError(f"stackweb exited with {self.process.returncode}:\n{self.output()}")
        return LISTENING.search(self.output())

    def output(self):
        return Path(self.log.name).read_text(errors="replace")

    def stop(self):
        """Asks the server to quit, as a service manager would; kills it if it does not."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def crash(self):
        """Kills the server without warning: the pages lose their streams mid-flight."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def close(self):
        self.stop()
        self.log.close()
        os.unlink(self.log.name)

    # --- HTTP API -------------------------------------------------------------------------------

    def _open(self, request):
        if self.context is None:
            return _opener.open(request, timeout=5)
        opener = urllib.request.build_opener(
            urllib.request.ProxyHandler({}), urllib.request.HTTPSHandler(context=self.context))
        return opener.open(request, timeout=5)

    def get_json(self, path):
        with self._open(self.base_url + path) as response:
            return json.load(response)

    def post_json(self, path, body):
        request = urllib.request.Request(
            self.base_url + path, data=json.dumps(body).encode(), method="POST",
            headers={"Content-Type": "application/json"},
        )
        with self._open(request) as response:
            return json.load(response)

    def snapshot(self, room, window=VIEWPORT):
        """The room as a page in a `window` (width, height) sees it: laid out for that screen's
        shape, as the tests' pages are (the browsers open at VIEWPORT); None: the room's own stage."""
        shape = f"?shape={window[0]}x{window[1]}" if window else ""
        return self.get_json(f"/api/rooms/{room}{shape}")

    def command(self, room, **body):
        return self.post_json(f"/api/rooms/{room}/commands", body)
