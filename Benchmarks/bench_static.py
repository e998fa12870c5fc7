"""Item 4 of issue #7: requests/s for `/` and the JS module with wrk, against StackWeb and against
nginx (Debian's package, started here on loopback) serving the same files, in the same run.

nginx runs in the foreground from a config written to the output folder: Debian's defaults where
they matter (sendfile, etag, keepalive), access log off (StackWeb keeps none) and
`keepalive_requests` raised so that both servers keep wrk's connections for the whole run. It is run
with one worker (StackWeb answers on one libmicrohttpd thread) and with `auto` (one per core,
Debian's default). Runs are interleaved and repeated; the median of the repeats is reported.
"""

import os
import re
import shutil
import subprocess
import time

from common import HOST, StackWebServer, free_port, log, steal_share

NGINX_CONF = """\
worker_processes {workers};
daemon off;
master_process on;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    types {{ text/html html; text/javascript js; text/css css; }}
    default_type application/octet-stream;
    access_log off;
    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    keepalive_timeout 65;
    keepalive_requests 10000000;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    server {{
        listen {host}:{port};
        root {root};
        index index.html;
        add_header Cache-Control no-cache;
    }}
}}
"""


class Nginx:
    def __init__(self, out_dir, root, workers):
        self.prefix = os.path.abspath(os.path.join(out_dir, f"nginx-{workers}"))
        os.makedirs(self.prefix, exist_ok=True)
        self.port = free_port()
        conf = os.path.join(self.prefix, "nginx.conf")
        with open(conf, "w") as out:
            out.write(NGINX_CONF.format(workers=workers, prefix=self.prefix, host=HOST, port=self.port,
                                        root=os.path.abspath(root)))
        self.proc = subprocess.Popen([shutil.which("nginx") or "/usr/sbin/nginx", "-p", self.prefix, "-c", conf],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        import socket
        while time.monotonic() < deadline:
            try:
                socket.create_connection((HOST, self.port), timeout=0.5).close()
                return
            except OSError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.05)
        raise RuntimeError(f"nginx did not start; see {self.prefix}/error.log")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()  # SIGTERM: fast shutdown of the master and its workers
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


def wrk(port, path, seconds, connections, threads=1):
    """Requests/s and latency percentiles of one wrk run (keep-alive connections)."""
    out = subprocess.run(["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency",
                          f"http://{HOST}:{port}{path}"], capture_output=True, text=True,
                         timeout=seconds + 30).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    latency = {}
    for p in ("50", "99"):
        match = re.search(rf"\s{p}%\s+([\d.]+)(us|ms|s)", out)
        if match:
            value, unit = float(match.group(1)), match.group(2)
            latency[f"p{p}_ms"] = value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    socket_errors = re.search(r"Socket errors: (.*)", out)
    return {"rps": rps, **latency, "non2xx": int(errors.group(1)) if errors else 0,
            "socket_errors": socket_errors.group(1) if socket_errors else ""}


def run(binary, out_dir, paths=("/", "/main.js"), seconds=3, repeats=3, connections=32):
    if not shutil.which("wrk") or not (shutil.which("nginx") or os.path.exists("/usr/sbin/nginx")):
        return {"skipped": "wrk or nginx is not installed (make bench-deps installs them)"}
    root = "Resources/web"
    sizes = {path: os.path.getsize(os.path.join(root, "index.html" if path == "/" else path.lstrip("/")))
             for path in paths}
    results = {"seconds": seconds, "repeats": repeats, "connections": connections, "wrk_threads": 1,
               "sizes": sizes, "runs": {}}
    servers = {}
    stackweb = StackWebServer(binary, stderr_path=os.path.join(out_dir, "server-static.log")).start()
    nginx_one = nginx_auto = None
    try:
        nginx_one = Nginx(out_dir, root, 1)
        nginx_auto = Nginx(out_dir, root, "auto")
        servers = {"stackweb": stackweb.port, "nginx-1-worker": nginx_one.port, "nginx-auto": nginx_auto.port}
        for server, port in servers.items():  # warm-up
            for path in paths:
                wrk(port, path, 1, connections)
        mark = steal_share()
        for _ in range(repeats):
            for path in paths:
                for server, port in servers.items():
                    run_result = wrk(port, path, seconds, connections)
                    results["runs"].setdefault(server, {}).setdefault(path, []).append(run_result)
        results["steal"] = steal_share(mark)
    finally:
        stackweb.stop()
        for server in (nginx_one, nginx_auto):
            if server:
                server.stop()
    table = {}
    for server, by_path in results["runs"].items():
        for path, runs in by_path.items():
            ordered = sorted(runs, key=lambda r: r["rps"])
            middle = ordered[len(ordered) // 2]
            table.setdefault(path, {})[server] = {"rps": middle["rps"], "all_rps": [r["rps"] for r in runs],
                                                  "p50_ms": middle.get("p50_ms"), "p99_ms": middle.get("p99_ms"),
                                                  "non2xx": sum(r["non2xx"] for r in runs)}
    for path, row in table.items():
        for nginx in ("nginx-1-worker", "nginx-auto"):
            row[f"ratio_vs_{nginx}"] = row["stackweb"]["rps"] / row[nginx]["rps"]
        log(f"static {path}: stackweb {row['stackweb']['rps']:.0f} req/s, nginx 1 worker "
            f"{row['nginx-1-worker']['rps']:.0f}, nginx auto {row['nginx-auto']['rps']:.0f}")
    results["table"] = table
    return results
