"""A group of `stackweb` instances sharing rooms through a real `redis-server`, behind the nginx
configuration the repository documents (docs/scale-out/nginx.conf), each on ports of its own."""

import re
import shutil
import socket
import subprocess
import tempfile
import urllib.request
from pathlib import Path

from .server import REPO_ROOT, StackWebServer, free_port
from .waiting import wait_until

NGINX_CONF = REPO_ROOT / "docs/scale-out/nginx.conf"
REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def missing_tools():
    """The tools a group needs that this machine lacks."""
    return [tool for tool in (REDIS_SERVER, NGINX) if not Path(tool).is_file()]


def _redis_answers(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as connection:
            connection.sendall(b"PING\r\n")
            return connection.recv(16).startswith(b"+PONG")
    except OSError:
        return False


class Group:
    """A redis-server, `size` instances (`s1`, `s2`, …) and nginx in front of them."""

    def __init__(self, size=3):
        self.folder = Path(tempfile.mkdtemp(prefix="stackweb-group-"))
        self.redis_port = free_port()
        self.redis = None
        self.instances = [StackWebServer(port=free_port()) for _ in range(size)]
        self.port = free_port()
        self.nginx = None

    @property
    def base_url(self):
        return f"http://127.0.0.1:{self.port}"

    def start(self):
        self.redis = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.redis_port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        wait_until(lambda: _redis_answers(self.redis_port), message="redis-server to answer PING")
        for number, instance in enumerate(self.instances, start=1):
            instance.arguments += ["--redis", f"redis://127.0.0.1:{self.redis_port}/0", "--instance-id", f"s{number}"]
            instance.start()
        self.nginx = subprocess.Popen(
            [NGINX, "-p", str(self.folder), "-c", str(self._nginx_conf()), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        wait_until(self._answers, message="nginx to answer /healthz")
        return self

    def _nginx_conf(self):
        """The documented configuration with this group's ports in place of 8080 and 8081-8083."""
        text = NGINX_CONF.read_text()
        text = text.replace("listen 127.0.0.1:8080;", f"listen 127.0.0.1:{self.port};")
        upstreams = "".join(f"        server 127.0.0.1:{instance.port};\n" for instance in self.instances)
        text, replaced = re.subn(r"(        server 127\.0\.0\.1:808[1-3];\n)+", upstreams, text)
        assert replaced == 1, "the upstream block of docs/scale-out/nginx.conf changed shape"
        path = self.folder / "nginx.conf"
        path.write_text(text)
        return path

    def _answers(self):
        try:
            with _opener.open(self.base_url + "/healthz", timeout=1) as response:
                return response.status == 200
        except OSError:
            return False

    def viewers_at(self, instance, room):
        """The event streams of `room` that `instance` holds itself (its /metrics)."""
        with _opener.open(instance.base_url + "/metrics", timeout=5) as response:
            text = response.read().decode()
        match = re.search(rf'^stackweb_viewers\{{room="{re.escape(room)}"\}} (\d+)$', text, re.MULTILINE)
        return int(match.group(1)) if match else 0

    def close(self):
        if self.nginx is not None:
            self.nginx.terminate()
            self.nginx.wait()
        for instance in self.instances:
            instance.close()
        if self.redis is not None:
            self.redis.kill()
            self.redis.wait()
        shutil.rmtree(self.folder, ignore_errors=True)
