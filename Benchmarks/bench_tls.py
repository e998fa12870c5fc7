"""TLS a guest cannot exhaust (issue #25, findings 1 and 2): what the server negotiates, what an
oversized ClientHello costs it in memory, and what a ClientHello flood does to `/healthz`.

    python3 Benchmarks/bench_tls.py BINARY [BINARY …]

runs every probe against each binary in turn (say the one before a change and the one after) and
prints one JSON object per binary. Everything is on loopback; every wait is bounded.

- `protocols`: whether TLS 1.0, 1.1, 1.2, 1.3 and the static-RSA suite AES128-SHA are negotiated
  (openssl s_client).
The guest's connections come from 127.0.0.2, the measuring client's from 127.0.0.1.

- `bomb`: `connections` clients each send a handshake record whose ClientHello declares 16 MiB,
  then 16 KiB records of it for `seconds`: the server's resident memory before, at its peak, and
  2 s after they close.
- `flood`: `/healthz` over one kept-alive HTTPS connection, its latency percentiles alone and
  while `flooders` clients replay a real ClientHello as fast as the server answers it.
"""

import json
import os
import re
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import HOST, memory_kib, summary  # noqa: E402

# The hostile guest connects from another loopback address than the client it would slow down,
# as a guest on a LAN has an address of its own.
GUEST = "127.0.0.2"


def make_certificate(folder):
    certificate, key = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-days", "1",
         "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", key, "-out", certificate],
        check=True, capture_output=True, timeout=60)
    return certificate, key


class Server:
    def __init__(self, binary, certificate, key):
        self.proc = subprocess.Popen(
            [binary, "--host", HOST, "--port", "0", "--resources", "Resources", "--tls-cert", certificate,
             "--tls-key", key], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.proc.stdout.readline()
        match = re.search(r"listening on https://[^/]*:(\d+)/", line)
        if not match:
            self.stop()
            raise RuntimeError(f"did not start: {line!r}")
        self.port = int(match.group(1))

    def rss_mib(self):
        return memory_kib(self.proc.pid)["rss"] / 1024

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)


def protocols(port):
    """Which old protocols and suites the server agrees to."""
    probes = {
        "tls1.0": ["-tls1", "-cipher", "ALL:@SECLEVEL=0"], "tls1.1": ["-tls1_1", "-cipher", "ALL:@SECLEVEL=0"],
        "tls1.2": ["-tls1_2"], "tls1.3": ["-tls1_3"], "AES128-SHA": ["-tls1_2", "-cipher", "AES128-SHA:@SECLEVEL=0"],
        "tls1.2-no-forward-secrecy": ["-tls1_2", "-cipher", "kRSA:@SECLEVEL=0"],
    }
    out = {}
    for name, extra in probes.items():
        result = subprocess.run(
            ["openssl", "s_client", "-connect", f"{HOST}:{port}", "-brief", *extra], input="", capture_output=True,
            text=True, timeout=20)
        out[name] = "negotiated" if "Protocol version" in result.stderr and result.returncode == 0 else "refused"
    return out


def bomb(server, connections=20, seconds=6.0):
    """Oversized ClientHellos: a 16 MiB handshake message, sent as fast as it is taken."""
    before = server.rss_mib()
    record = bytes([0x16, 0x03, 0x01, 0x40, 0x00])
    first = record + bytes([0x01, 0xFF, 0xFF, 0xFF]) + bytes(0x4000 - 4)
    rest = record + bytes(0x4000)
    stop = time.monotonic() + seconds
    sent = [0] * connections
    peak = [before]

    def client(index):
        try:
            with socket.create_connection((HOST, server.port), timeout=2, source_address=(GUEST, 0)) as sock:
                sock.sendall(first)
                sent[index] += len(first)
                while time.monotonic() < stop:
                    sock.sendall(rest)
                    sent[index] += len(rest)
        except OSError:
            pass

    threads = [threading.Thread(target=client, args=(i,)) for i in range(connections)]
    for thread in threads:
        thread.start()
    while any(thread.is_alive() for thread in threads):
        peak[0] = max(peak[0], server.rss_mib())
        time.sleep(0.05)
    time.sleep(2)
    return {"connections": connections, "seconds": seconds, "sent_mib_each": round(max(sent) / 2**20, 1),
            "rss_before_mib": round(before, 1), "rss_peak_mib": round(peak[0], 1),
            "rss_after_mib": round(server.rss_mib(), 1)}


def client_hello():
    """A real ClientHello, as a browser would send it (TLS 1.2 and 1.3, ECDHE suites)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    tls = context.wrap_bio(incoming, outgoing, server_hostname="localhost")
    try:
        tls.do_handshake()
    except ssl.SSLWantReadError:
        pass
    return outgoing.read()


def healthz_latencies(port, seconds):
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    latencies = []
    with socket.create_connection((HOST, port), timeout=5) as raw, context.wrap_socket(raw) as sock:
        request = f"GET /healthz HTTP/1.1\r\nHost: {HOST}:{port}\r\n\r\n".encode()
        stop = time.monotonic() + seconds
        while time.monotonic() < stop:
            started = time.perf_counter()
            sock.sendall(request)
            data = b""
            while b"\r\n\r\n" not in data or not data.rstrip().endswith(b"}"):
                chunk = sock.recv(65536)
                if not chunk:
                    raise RuntimeError("closed")
                data += chunk
            latencies.append((time.perf_counter() - started) * 1000)
            time.sleep(0.01)
    return summary(latencies)


def flood(server, flooders=3, seconds=6.0):
    """`/healthz` alone, then while `flooders` clients replay a ClientHello."""
    quiet = healthz_latencies(server.port, seconds)
    hello = client_hello()
    stop = time.monotonic() + seconds + 0.5
    answered = [0]

    def flooder():
        while time.monotonic() < stop:
            try:
                with socket.create_connection((HOST, server.port), timeout=2, source_address=(GUEST, 0)) as sock:
                    sock.sendall(hello)
                    if sock.recv(65536):
                        answered[0] += 1
            except OSError:
                pass

    threads = [threading.Thread(target=flooder) for _ in range(flooders)]
    for thread in threads:
        thread.start()
    time.sleep(0.5)
    loaded = healthz_latencies(server.port, seconds)
    for thread in threads:
        thread.join()
    return {"flooders": flooders, "hellos_answered_per_s": round(answered[0] / (seconds + 0.5)),
            "healthz_ms_quiet": {k: round(v, 2) for k, v in quiet.items()},
            "healthz_ms_flooded": {k: round(v, 2) for k, v in loaded.items()}}


def main():
    binaries = sys.argv[1:] or [".build/release/stackweb"]
    with tempfile.TemporaryDirectory() as folder:
        certificate, key = make_certificate(folder)
        for binary in binaries:
            result = {"binary": binary}
            server = Server(binary, certificate, key)
            try:
                result["protocols"] = protocols(server.port)
                result["flood"] = flood(server)
                result["bomb"] = bomb(server)
            finally:
                server.stop()
            print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
