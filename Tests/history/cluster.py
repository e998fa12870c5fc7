"""The processes of a history run: one `redis-server` (append-only file, so that a restart keeps the
group's data, unless the nemesis wipes it) and the `stackweb` instances of the group, each on a
fixed port so that a restarted process comes back where clients and readers expect it; or, in the
single mode, one `stackweb` with `--state FILE` and no Redis."""

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
ROOM = "main"
LEASE_KEY = "stackweb:{" + ROOM + "}:lease"


def binary_path():
    """The binary under test: $STACKWEB_BIN, else the debug build in the repository."""
    return Path(os.environ.get("STACKWEB_BIN", REPO_ROOT / ".build/debug/stackweb"))


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def poll(condition, timeout, interval=0.05, message="condition"):
    """Polls `condition` until it returns something truthy; returns it, or raises after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise TimeoutError(f"timed out after {timeout} s waiting for {message}")
        time.sleep(interval)


def redis_command(port, *words, timeout=1.0):
    """One command over RESP; returns the decoded reply (bytes → str), or raises OSError."""
    payload = f"*{len(words)}\r\n".encode()
    for word in words:
        data = str(word).encode()
        payload += b"$%d\r\n%s\r\n" % (len(data), data)
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
        connection.sendall(payload)
        reader = connection.makefile("rb")
        return _read_reply(reader)


def _read_reply(reader):
    line = reader.readline()
    if not line:
        raise OSError("redis closed the connection")
    kind, rest = line[:1], line[1:-2]
    if kind == b"+":
        return rest.decode()
    if kind == b"-":
        raise OSError(f"redis error: {rest.decode()}")
    if kind == b":":
        return int(rest)
    if kind == b"$":
        length = int(rest)
        if length < 0:
            return None
        data = reader.read(length + 2)
        return data[:-2].decode(errors="replace")
    if kind == b"*":
        count = int(rest)
        return None if count < 0 else [_read_reply(reader) for _ in range(count)]
    raise OSError(f"unexpected redis reply {line!r}")


class Redis:
    """A redis-server of the run's own, on a free port, keeping its data in an append-only file."""

    def __init__(self, folder):
        self.folder = Path(folder)
        self.port = free_port()
        self.process = None
        self.log = self.folder / "redis.log"

    @property
    def url(self):
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self):
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "yes", "--appendfsync", "always", "--dir", str(self.folder),
             "--logfile", str(self.log)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        poll(self.answers, timeout=10, message="redis-server to answer PING")
        return self

    def answers(self):
        try:
            return redis_command(self.port, "PING", timeout=0.5) == "PONG"
        except OSError:
            return False

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def get(self, key):
        return redis_command(self.port, "GET", key)

    def owner(self):
        """The instance id holding the room's lease, or None (no lease, or Redis not answering)."""
        try:
            return self.get(LEASE_KEY)
        except OSError:
            return None

    def wipe(self):
        """Deletes what the stopped server would restart from (its append-only files, any RDB): the
        next start is empty, as a Redis without persistence comes back after any restart."""
        shutil.rmtree(self.folder / "appendonlydir", ignore_errors=True)
        for name in ("appendonly.aof", "dump.rdb"):
            (self.folder / name).unlink(missing_ok=True)

    def shutdown_nosave(self):
        """SHUTDOWN NOSAVE: no RDB, but the append-only file is flushed and kept."""
        try:
            redis_command(self.port, "SHUTDOWN", "NOSAVE", timeout=2)
        except OSError:
            pass  # the connection closes as the server exits
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()

    def kill(self):
        if self.alive():
            self.process.send_signal(signal.SIGKILL)
        if self.process is not None:
            self.process.wait()

    def stop_signal(self):
        self.process.send_signal(signal.SIGSTOP)

    def cont_signal(self):
        if self.alive():
            self.process.send_signal(signal.SIGCONT)


class Instance:
    """One `stackweb` of the group, `web-N`, on a fixed port; with `redis` None, the one instance of
    the single mode, keeping its rooms in `--state FILE` (in the run's folder, kept across restarts)."""

    def __init__(self, number, folder, redis, photos, binary=None):
        self.id = f"web-{number}"
        self.number = number
        self.folder = Path(folder)
        self.port = free_port()
        self.redis = redis
        self.photos = photos
        self.binary = Path(binary) if binary else binary_path()
        self.process = None
        self.starts = 0
        self.stopped = False
        self.killing = False  # the nemesis killed it on purpose
        self.start_failed = False  # the monitor's restart after a crash did not come up

    @property
    def log(self):
        return self.folder / f"{self.id}.log"

    def start(self, timeout=15):
        if not self.binary.is_file():
            raise FileNotFoundError(f"{self.binary} is missing: run `swift build` or set STACKWEB_BIN")
        self.starts += 1
        cache = self.folder / f"cache-{self.id}"
        cache.mkdir(exist_ok=True)
        with open(self.log, "ab") as log:
            log.write(f"\n=== start {self.starts} at {time.monotonic():.3f}\n".encode())
            log.flush()
            self.process = subprocess.Popen(
                [str(self.binary), "--host", "127.0.0.1", "--port", str(self.port), *self.storage_arguments(),
                 "--photos", str(self.photos), "--resources", str(REPO_ROOT / "Resources"), "--cache", str(cache)],
                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.stopped = False
        poll(self._listening, timeout=timeout, interval=0.05, message=f"{self.id} to listen on {self.port}")
        return self

    def storage_arguments(self):
        if self.redis is None:
            return ["--state", str(self.folder / f"state-{self.id}.db")]
        return ["--redis", self.redis.url, "--instance-id", self.id]

    def _listening(self):
        if self.process.poll() is not None:
            raise RuntimeError(f"{self.id} exited with {self.process.returncode}; log: {self.log}")
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                return True
        except OSError:
            return False

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def kill(self):
        if self.alive():
            if self.stopped:
                self.process.send_signal(signal.SIGCONT)
            self.process.send_signal(signal.SIGKILL)
        if self.process is not None:
            self.process.wait()

    def stop_signal(self):
        self.process.send_signal(signal.SIGSTOP)
        self.stopped = True

    def cont_signal(self):
        if self.alive():
            self.process.send_signal(signal.SIGCONT)
        self.stopped = False

    def terminate(self, timeout=5):
        """SIGTERM, waiting up to `timeout` for the exit, then kill -9. True if it exited by itself."""
        if self.alive():
            if self.stopped:
                self.cont_signal()
            self.process.terminate()
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.kill()
                return False
        return True
