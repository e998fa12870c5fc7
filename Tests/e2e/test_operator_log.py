"""`--log-format json`: the real server's lines for the operator are one JSON object each, name the
notable events (start with its URLs, a room made, the photo folder gone and back, a save that failed
and recovered, the stop), and never hold the control token."""

import json
import os
import shutil
import socket
import struct
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from support.server import REPO_ROOT, StackWebServer
from support.waiting import wait_until

TOKEN = "operator-log-token-5f1c9a7e"
_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def post_command(server, room, body):
    request = urllib.request.Request(
        f"{server.base_url}/api/rooms/{room}/commands", data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}"})
    try:
        with _opener.open(request, timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def events(server):
    """Every line the server wrote, each parsed (a line that is not JSON fails the test)."""
    return [json.loads(line) for line in server.output().splitlines() if line.strip()]


def wait_for_event(server, name, timeout=15.0):
    return wait_until(lambda: [e for e in events(server) if e["event"] == name], timeout=timeout,
                      message=f"a `{name}` line")[-1]


@pytest.fixture
def tiny_disk():
    """A 1 MiB tmpfs (as root), where a save fails once it is full; a plain folder otherwise."""
    folder = tempfile.mkdtemp(prefix="stackweb-log-disk-")
    mounted = os.geteuid() == 0 and subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", folder], capture_output=True).returncode == 0
    yield folder, mounted
    if mounted:
        subprocess.run(["umount", "-l", folder], check=False)
    shutil.rmtree(folder, ignore_errors=True)


def fill(folder):
    """Fills the disk at `folder` with one file until the kernel says it is full."""
    path = Path(folder) / "filler"
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        while True:
            os.write(descriptor, b"\x55" * 4096)
    except OSError:
        pass
    finally:
        os.close(descriptor)
    return path


def test_json_lines_name_the_events_and_never_the_token(tmp_path, tiny_disk):
    disk, mounted = tiny_disk
    photos = tmp_path / "photos"
    photos.mkdir()
    demo = sorted((REPO_ROOT / "Resources/demo-photos").iterdir())[:3]
    for photo in demo:
        shutil.copy(photo, photos / photo.name)
    server = StackWebServer(arguments=[
        "--log-format", "json", "--token", TOKEN, "--photos", str(photos), "--state", f"{disk}/state.db",
        "--cache", str(tmp_path / "cache")])
    server.start()
    try:
        start = wait_for_event(server, "start")
        assert start["url"] == f"{server.base_url}/"
        assert any(address.get("kind") == "control" and "?token=<token>" in address.get("url", "")
                   for address in start["addresses"])

        # A first start reads the photos in the background; `next` needs a second one.
        wait_until(lambda: server.snapshot("main")["count"], lambda count: count == len(demo),
                   message="the photos read")
        assert post_command(server, "logs", {"command": "next"}) == 200
        assert wait_for_event(server, "room.created")["room"] == "logs"

        shutil.rmtree(photos)
        assert wait_for_event(server, "folder.gone")["folder"] == str(photos)
        photos.mkdir()
        shutil.copy(demo[0], photos / demo[0].name)
        assert wait_for_event(server, "folder.back")["folder"] == str(photos)

        if mounted:
            filler = fill(disk)
            statuses = [post_command(server, "logs", {"command": "style", "style": ("grid", "deck")[i % 2]})
                        for i in range(40)]
            assert 503 in statuses, statuses
            failed = wait_for_event(server, "save.failed")
            assert failed["path"] == f"{disk}/state.db" and failed["error"]
            filler.unlink()
            wait_for_event(server, "save.recovered")
    finally:
        server.stop()
    lines = events(server)
    assert lines[-1]["event"] == "stop"
    for line in lines:
        assert {"time", "event", "message"} <= line.keys(), line
    assert TOKEN not in server.output()
    server.close()


def test_a_group_instance_tells_when_it_takes_a_room_over():
    """With `--redis`, the instance that comes to run a room says so (`room.takeover`), and when its
    owner stops, another one does."""
    from support.group import Group, missing_tools

    if missing_tools():
        pytest.skip(f"missing: {', '.join(missing_tools())}")
    group = Group(size=2)
    for instance in group.instances:
        instance.arguments += ["--log-format", "json"]
    group.start()
    try:
        def takeovers(instance):
            return [e for e in events(instance) if e["event"] == "room.takeover" and e["room"] == "main"]

        owner = wait_until(lambda: [i for i in group.instances if takeovers(i)], message="a takeover of main")[0]
        assert isinstance(takeovers(owner)[0]["epoch"], int)
        other = next(instance for instance in group.instances if instance is not owner)
        owner.stop()
        wait_until(lambda: takeovers(other), message="the other instance taking main over")
    finally:
        group.close()


def hostile_exchange(port, payload, linger_reset=False, read=True):
    """Sends `payload` on a new connection, reads what comes back for a moment, and closes it (with a
    reset when `linger_reset`, as a viewer whose network went away)."""
    with socket.create_connection(("127.0.0.1", port), timeout=2) as connection:
        if linger_reset:
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        try:
            connection.sendall(payload)
            if read:
                connection.recv(4096)
        except OSError:
            pass


BAD_LENGTHS = ["abc", "5, 6", "-1", "99999999999999999999999", "0x10", "1 2"]


def test_json_lines_stay_json_under_a_hostile_client(tmp_path):
    """10,000 hostile exchanges — malformed Content-Lengths, bad TLS hellos, viewers that drop
    mid-stream — and every line the servers write is still one JSON object: libmicrohttpd's own
    messages come through the operator log (`http.library`), at most about one a second."""
    if not shutil.which("openssl"):
        pytest.skip("openssl is not installed")
    certificate, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost",
                    "-days", "1", "-keyout", str(key), "-out", str(certificate)], check=True, capture_output=True)
    plain = StackWebServer(arguments=["--log-format", "json"])
    tls = StackWebServer(arguments=["--log-format", "json", "--tls-cert", str(certificate), "--tls-key", str(key)],
                         cafile=str(certificate))
    plain.start()
    tls.start()
    began = time.monotonic()
    try:
        def bad_length(i):
            hostile_exchange(plain.port, (
                f"POST /api/rooms/main/commands HTTP/1.1\r\nHost: 127.0.0.1:{plain.port}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {BAD_LENGTHS[i % len(BAD_LENGTHS)]}\r\n\r\n{{}}"
            ).encode())

        def bad_hello(i):
            hello = [b"\x16\x03\x01\x00\x05hello", b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", bytes(range(256))][i % 3]
            hostile_exchange(tls.port, hello, linger_reset=i % 2 == 0)

        def dropped_viewer(i):
            hostile_exchange(plain.port, (
                f"GET /api/rooms/main/events HTTP/1.1\r\nHost: 127.0.0.1:{plain.port}\r\n\r\n").encode(),
                linger_reset=True)

        acts = [bad_length] * 6000 + [bad_hello] * 3000 + [dropped_viewer] * 1000
        with ThreadPoolExecutor(max_workers=16) as pool:
            list(pool.map(lambda pair: pair[1](pair[0]), enumerate(acts)))
        assert plain.get_json("/api/rooms/main")["room"] == "main"
    finally:
        plain.stop()
        tls.stop()
    seconds = time.monotonic() - began
    for server in (plain, tls):
        lines = [line for line in server.output().splitlines() if line.strip()]
        parsed = []
        for line in lines:
            try:
                parsed.append(json.loads(line))
            except ValueError:
                pytest.fail(f"not JSON: {line!r}")
        library = [event for event in parsed if event["event"] == "http.library"]
        assert library, "libmicrohttpd said nothing through the operator log"
        assert all(event["message"].startswith("libmicrohttpd: ") for event in library)
        # Rate-limited: the first, then at most one a second.
        assert len(library) <= seconds + 2, (len(library), seconds)
        server.close()
