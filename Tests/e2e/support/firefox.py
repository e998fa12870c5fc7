"""Firefox ESR driven over WebDriver BiDi, which Firefox speaks itself (no geckodriver): enough to
load the page, read it through its debug hook and collect console errors."""

import json
import os
import shutil
import socket
import subprocess
import tempfile
import time

import websocket  # selenium's own dependency

FIREFOX = os.environ.get("FIREFOX_BIN") or shutil.which("firefox-esr") or shutil.which("firefox")
START_TIMEOUT = 30.0


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Firefox:
    """One headless Firefox with a BiDi session and one browsing context (a tab)."""

    def __init__(self, width=1280, height=800):
        self.profile = tempfile.mkdtemp(prefix="stackweb-firefox-")
        port = _free_port()
        self.process = subprocess.Popen(
            [FIREFOX, "--headless", "--remote-debugging-port", str(port), "--profile", self.profile, "about:blank"],
            env=dict(os.environ, HOME=self.profile, MOZ_HEADLESS="1"),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        self._socket = self._connect(port)
        self._next_id = 0
        self.events = []
        self._call("session.new", {"capabilities": {}})
        self._call("session.subscribe", {"events": ["log.entryAdded"]})
        self.context = self._call("browsingContext.getTree", {})["contexts"][0]["context"]
        self._call("browsingContext.setViewport", {"context": self.context,
                                                   "viewport": {"width": width, "height": height}})

    def _connect(self, port):
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                # Firefox refuses a WebSocket with an Origin it was not told to allow.
                return websocket.create_connection(f"ws://127.0.0.1:{port}/session", timeout=30,
                                                   suppress_origin=True)
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def _call(self, method, params):
        self._next_id += 1
        self._socket.send(json.dumps({"id": self._next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self._socket.recv())
            if message.get("id") == self._next_id:
                if message.get("type") == "error":
                    raise RuntimeError(f"{method}: {message}")
                return message["result"]
            self.events.append(message)

    def open(self, url):
        self._call("browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"})

    def evaluate(self, expression):
        """The JSON-serialisable value of `expression` (a promise is awaited)."""
        result = self._call("script.evaluate", {
            "expression": f"Promise.resolve({expression}).then((value) => JSON.stringify(value ?? null))",
            "target": {"context": self.context}, "awaitPromise": True})
        if result.get("type") == "exception":
            raise RuntimeError(result["exceptionDetails"]["text"])
        return json.loads(result["result"]["value"])

    def console_errors(self):
        return [event["params"]["text"] for event in self.events
                if event.get("method") == "log.entryAdded" and event["params"].get("level") == "error"]

    def close(self):
        try:
            self._socket.close()
        finally:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
            shutil.rmtree(self.profile, ignore_errors=True)
