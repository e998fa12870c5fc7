"""What a page at rest costs: CPU of headless Chromium's processes and the card sprites the page makes
over 20 s after its cards came to rest, on big screens, without a GPU.

For each screen (3840×2160 at 1×, 1920×1080 at 2×, 1920×1080 at 1×) a fresh room is opened as a
photo frame (`?kiosk=1&style=frame&debug=1`), switched to the pile and back to the frame (a switch
is drawn coarse, then sharp once idle time has made what that needs), and left alone: once no card
moves and no photo has arrived for 3 s, the CPU time of the renderer and of the GPU process (the compositor, in software
here) is read from /proc over 20 s, with the sprites and frames the page made meanwhile
(`window.stackweb.renderCounters()`, `drawnFrames`). With --before, a second copy of the page is
served by a second server and the two are measured alternately, in the same minutes.

  python3 Benchmarks/bench_idle.py [--bin .build/release/stackweb] [--json out.json]   # prints JSON
  git archive REV Resources | tar -x -C /tmp/before
  python3 Benchmarks/bench_idle.py --before /tmp/before/Resources --repeat 2   # that page, then this one
"""

import argparse
import json
import os
import re
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from common import StackWebServer, cpu_seconds, log, wait_for as _wait  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver")
SCREENS = [(3840, 2160, 1), (1920, 1080, 2), (1920, 1080, 1)]
WINDOW_S = 20.0
# How long no photo may have arrived (and no card moved) before the window opens: at rest.
REST_S = 3.0

_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _chromium():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-proxy-server", "--window-size=1280,800"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    return driver


def _descendants(root):
    """{pid: its --type (renderer, gpu-process, …; 'browser' for none)} of every process below `root`."""
    parents = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as stat:
                parents[int(name)] = int(stat.read().rsplit(")", 1)[1].split()[1])
        except OSError:
            continue
    found, frontier = {}, [root]
    while frontier:
        parent = frontier.pop()
        for pid, ppid in parents.items():
            if ppid == parent and pid not in found:
                try:
                    with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                        words = cmdline.read().split(b"\0")
                except OSError:
                    continue
                # Chromium rewrites its arguments as one string: the process's role is in it.
                role = re.search(rb"--type=(\S+)", b" ".join(words))
                found[pid] = role.group(1).decode() if role else "browser"

                frontier.append(pid)
    return found


def _cpu_by_kind(processes):
    totals = {}
    for pid, kind in processes.items():
        try:
            totals[kind] = totals.get(kind, 0.0) + cpu_seconds(pid)
        except OSError:
            continue
    return totals


def _command(base, room, body):
    request = urllib.request.Request(f"{base}/api/rooms/{room}/commands", data=json.dumps(body).encode(),
                                     method="POST", headers={"Content-Type": "application/json"})
    with _opener.open(request, timeout=5) as response:
        response.read()


def _moving(driver):
    state = driver.execute_script("return window.stackweb ? window.stackweb.state() : null")
    if not state or not state["connected"] or not state["cards"]:
        return ["not connected"]
    return [card["id"] for card in state["cards"] if card["animating"]]


def _at_rest(driver, style):
    _wait(lambda: driver.execute_script("return window.stackweb && window.stackweb.state().style"),
          lambda shown: shown == style, what=f"the {style} style")
    _wait(lambda: _moving(driver), lambda moving: not moving, what="every card at rest")


def _photos_in(driver):
    """Waits until no photo has arrived for REST_S: a large screen's variants take seconds to
    make, and a photo landing is work the page must do, not work at rest."""
    count = "return performance.getEntriesByType('resource').filter((e) => e.name.includes('/photos/')).length"
    seen, since = driver.execute_script(count), time.monotonic()
    while time.monotonic() - since < REST_S:
        time.sleep(0.1)
        now = driver.execute_script(count)
        if now != seen:
            seen, since = now, time.monotonic()


def measure(driver, chromedriver_pid, base, room, screen):
    """One screen: the page opened, switched, left at rest; CPU and work over WINDOW_S."""
    width, height, dpr = screen
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": dpr, "mobile": False})
    driver.get(f"{base}/?room={room}&kiosk=1&style=frame&debug=1")
    _at_rest(driver, "frame")
    for style in ("pile", "frame"):
        _command(base, room, {"command": "style", "style": style})
        _at_rest(driver, style)
    _photos_in(driver)
    processes = _descendants(chromedriver_pid)
    before = _cpu_by_kind(processes)
    counters = driver.execute_script("return window.stackweb.renderCounters()")
    frames = driver.execute_script("return window.stackweb.drawnFrames")
    time.sleep(WINDOW_S)  # the measurement window itself
    after = _cpu_by_kind(processes)
    counters_after = driver.execute_script("return window.stackweb.renderCounters()")
    frames_after = driver.execute_script("return window.stackweb.drawnFrames")
    coarse = driver.execute_script("return window.stackweb.state().coarse")
    cpu = {kind: round((after[kind] - before.get(kind, 0.0)) / WINDOW_S, 3) for kind in after}
    return {
        "screen": f"{width}x{height}@{dpr}", "cpuShare": cpu,
        "sprites": counters_after["sprites"] - counters["sprites"], "frames": frames_after - frames,
        "coarseAtEnd": coarse,
    }


def run(binary, pages, repeat):
    servers = {name: StackWebServer(binary, resources).start() for name, resources in pages.items()}
    driver = _chromium()
    results = {name: [] for name in pages}
    try:
        chromedriver_pid = driver.service.process.pid
        for round_number in range(repeat):
            for screen in SCREENS:
                for name, server in servers.items():
                    room = f"idle-{round_number}-{screen[0]}-{screen[2]}"
                    log(f"{name}: {screen} round {round_number + 1}")
                    results[name].append(measure(driver, chromedriver_pid, f"http://127.0.0.1:{server.port}", room, screen))
    finally:
        driver.quit()
        for server in servers.values():
            server.stop()
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=".build/release/stackweb")
    parser.add_argument("--resources", default="Resources", help="the page measured")
    parser.add_argument("--before", default="", help="another page's Resources folder, measured alternately")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--json", default="", help="write the results here (else to standard output)")
    args = parser.parse_args()
    pages = ({"before": args.before} if args.before else {}) | {"after": args.resources}
    results = json.dumps(run(args.bin, pages, args.repeat), indent=2)
    if args.json:
        with open(args.json, "w") as out:
            out.write(results)
    else:
        print(results)


if __name__ == "__main__":
    main()
