"""A stand-in for `stackweb`, for what the real server does not do yet: send `event: reload`.

It serves the real page (Resources/web) and an event stream that opens with a snapshot of two
photo-less cards; `send_reload()` makes the first stream send `reload`. Every later stream (the
reloaded page's) gets its snapshot and stays open until the stub closes.
"""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from .server import REPO_ROOT

WEB = REPO_ROOT / "Resources" / "web"
CONTENT_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                 ".css": "text/css; charset=utf-8"}
POLL = 0.05


def _snapshot(room):
    card = {"src": None, "y": 384, "w": 300, "h": 220, "rotation": 0, "scaleX": 1, "scaleY": 1, "opacity": 1,
            "flip": 0, "highlight": False}
    return {"room": room, "seq": 1, "serverTime": time.time() * 1000, "style": "pile", "stage": {"w": 1024, "h": 768},
            "count": 2, "current": 0, "playing": False, "viewers": 1,
            "cards": [{**card, "id": "a", "photo": "a", "position": 0, "x": 400, "z": 2},
                      {**card, "id": "b", "photo": "b", "position": 1, "x": 640, "z": 1}]}


class StubServer:
    def __init__(self):
        self._reload = threading.Event()
        self._closing = threading.Event()
        self._lock = threading.Lock()
        self.streams_opened = 0
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._httpd.daemon_threads = True
        self.port = self._httpd.server_address[1]
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def base_url(self):
        return f"http://127.0.0.1:{self.port}"

    def start(self):
        self._thread.start()
        return self

    def send_reload(self):
        self._reload.set()

    def close(self):
        self._closing.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    def _stream(self, handler, room):
        with self._lock:
            self.streams_opened += 1
            number = self.streams_opened
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.send_header("Cache-Control", "no-cache")
        handler.end_headers()
        handler.wfile.write(f"retry: 1000\n\nid: 1\nevent: snapshot\ndata: {json.dumps(_snapshot(room))}\n\n".encode())
        handler.wfile.flush()
        while not self._closing.is_set():
            if number == 1 and self._reload.wait(POLL):
                handler.wfile.write(b"id: 2\nevent: reload\ndata: {}\n\n")
                handler.wfile.flush()
                return
            self._closing.wait(POLL)

    def _handler_class(self):
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                path = self.path.split("?")[0]
                parts = path.strip("/").split("/")
                if len(parts) == 4 and parts[:2] == ["api", "rooms"] and parts[3] == "events":
                    stub._stream(self, parts[2])
                    return
                if path == "/healthz":
                    # The page asks for its version before opening the stream.
                    body = b'{"status":"ok","version":"stub","pageVersion":"stub"}'
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                name = "index.html" if path == "/" else path.lstrip("/")
                file = WEB / name
                if "/" in name or not file.is_file() or file.suffix not in CONTENT_TYPES:
                    self.send_error(404)
                    return
                body = file.read_bytes()
                self.send_response(200)
                self.send_header("Content-Type", CONTENT_TYPES[file.suffix])
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                body = b'{"seq":1}'
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        return Handler
