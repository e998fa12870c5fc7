"""Frame times of every animation in headless Chromium without a GPU, at 1920×1080 (issue "Look and
feel on real screens"): what a Raspberry Pi or an old tablet gets when GPU raster is off.

Chromium runs `--headless=new --disable-gpu --force-device-scale-factor=1` with a 1920×1080 viewport,
against the release server on the bundled demo photos (12 photos, 10 drawn). For each animation the
page (opened with `?debug=1`) records every frame it draws (`window.stackweb.recordFrames({flush:
true})`: the time spent drawing includes rasterising, the page reads a pixel back), and a ticker in
the page records every requestAnimationFrame delta meanwhile: a frame that took 80 ms to draw shows
as an 80 ms delta there, whatever the cause (drawing, decoding, the event stream, garbage).

Gestures are pointer events dispatched on the canvas, one per animation frame (a 60 Hz mouse), so the
page's own input code, batcher, POSTs and the SSE round trip run as for a person. Commands are POSTed
to the server, as the buttons do.

  python3 Benchmarks/bench.py --only frames       # through make bench's runner (bench-out/partial/: its results and report)
  python3 Benchmarks/bench_frames.py [--bin .build/release/stackweb] [--repeat 3]   # alone, prints JSON
  python3 Benchmarks/bench_frames.py --repeat 5 --before /tmp/before/Resources --before-json before.json --json after.json
                                                  # two pages in the same minutes, alternating
"""

import contextlib
import json
import os
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from common import StackWebServer, log, summary, wait_for as _wait  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver")
VIEWPORT = (1920, 1080)
# The budget the issue sets for every animation (ms per frame).
BUDGET = {"p50": 16.7, "p99": 33.0, "max": 50.0}
# Rooms one server is given (it keeps at most 64, and each run takes a fresh one; a retry too).
ROOMS_PER_SERVER = 54

_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _chromium():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-proxy-server",
                     "--force-device-scale-factor=1", f"--window-size={VIEWPORT[0]},{VIEWPORT[1]}"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(60)
    # Headless windows keep room for browser chrome: grow the window until the viewport is exact.
    driver.get("about:blank")
    extra_w, extra_h = driver.execute_script("return [outerWidth - innerWidth, outerHeight - innerHeight]")
    driver.set_window_size(VIEWPORT[0] + extra_w, VIEWPORT[1] + extra_h)
    inner = driver.execute_script("return [innerWidth, innerHeight, devicePixelRatio]")
    if inner != [VIEWPORT[0], VIEWPORT[1], 1]:
        raise RuntimeError(f"viewport is {inner}, wanted {list(VIEWPORT)} at DPR 1")
    return driver


def _post(base, room, body):
    request = urllib.request.Request(f"{base}api/rooms/{room}/commands", data=json.dumps(body).encode(),
                                     method="POST", headers={"Content-Type": "application/json"})
    with _opener.open(request, timeout=5) as response:
        return json.load(response)


def _state(driver):
    return driver.execute_script("return window.stackweb ? window.stackweb.state() : null")


def _settled(driver):
    """Waits until no card moves, the page draws no more frames (photos decoded and drawn) and its
    idle work is done (sprites and layer copies made at rest, counted by renderCounters): a person
    looking at the stack for a moment before touching it."""
    _wait(lambda: _state(driver), lambda s: s and s["connected"] and s["cards"]
          and not any(c["animating"] for c in s["cards"]) and not s.get("coarse"), what="cards at rest, sharp")
    last, since = None, time.monotonic()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        frames = driver.execute_script(
            "const s = window.stackweb; const c = s.renderCounters ? s.renderCounters() : {};"
            "return [s.drawnFrames, c.sprites, c.layers];")
        if frames != last:
            last, since = frames, time.monotonic()
        elif time.monotonic() - since > 1.0:
            return
        time.sleep(0.05)


# Every requestAnimationFrame delta while it runs: the page's frame cadence, whatever made it slow.
_TICKER_START = """
const ticker = {deltas: [], on: true, last: null};
window.__benchTicker = ticker;
const tick = (now) => {
  if (!ticker.on) return;
  if (ticker.last !== null) ticker.deltas.push(now - ticker.last);
  ticker.last = now;
  requestAnimationFrame(tick);
};
requestAnimationFrame(tick);
"""
_TICKER_STOP = "window.__benchTicker.on = false; return window.__benchTicker.deltas;"

# Answers true once no card moves (looked at every 100 ms from `firstMs` on) and `afterMs` more
# have passed (the last frame drawn), false past `timeoutMs`.
_MOTION_END_SCRIPT = """
const [firstMs, afterMs, timeoutMs, done] = arguments;
const started = performance.now();
const look = () => {
  if (!window.stackweb.state().cards.some((card) => card.animating)) {
    setTimeout(() => done(true), afterMs);
  } else if (performance.now() - started > timeoutMs) {
    done(false);
  } else {
    setTimeout(look, 100);
  }
};
setTimeout(look, firstMs);
"""

# A gesture from inside the page: pointer events dispatched on the canvas, one move per animation
# frame. `path` is a list of [dx, dy] offsets from (x0, y0), one per frame; `hold_ms` waits before
# the release (0: release on the frame after the last move, a flick).
_GESTURE_SCRIPT = """
const [x0, y0, path, holdMs, done] = arguments;
const canvas = document.getElementById('stage');
const fire = (type, x, y, buttons) => canvas.dispatchEvent(new PointerEvent(type, {
  pointerId: 1, pointerType: 'mouse', isPrimary: true, button: type === 'pointermove' ? -1 : 0, buttons,
  clientX: x, clientY: y, bubbles: true, cancelable: true, composed: true}));
fire('pointerdown', x0, y0, 1);
let i = 0;
let last = [x0, y0];
function step() {
  if (i < path.length) {
    last = [x0 + path[i][0], y0 + path[i][1]];
    fire('pointermove', last[0], last[1], 1);
    i += 1;
    requestAnimationFrame(step);
  } else {
    setTimeout(() => { fire('pointerup', last[0], last[1], 0); done(true); }, holdMs);
  }
}
requestAnimationFrame(step);
"""


def _top_on_page(driver):
    state = _state(driver)
    rect = driver.execute_script(
        "const r = document.getElementById('stage').getBoundingClientRect();"
        "return {left: r.left, top: r.top, width: r.width, height: r.height};")
    stage = state["stage"]
    scale = min(rect["width"] / stage["w"], rect["height"] / stage["h"])
    top = min(state["cards"], key=lambda card: card["position"])
    x = rect["left"] + (rect["width"] - stage["w"] * scale) / 2 + top["x"] * scale
    y = rect["top"] + (rect["height"] - stage["h"] * scale) / 2 + top["y"] * scale
    return x, y, scale


def _figure_eight(frames, ax, ay):
    """A drag that wanders and comes back: `frames` offsets on a figure eight of ±ax, ±ay px."""
    import math
    return [[ax * math.sin(2 * math.pi * i / frames), ay * math.sin(4 * math.pi * i / frames)]
            for i in range(1, frames + 1)]


def _straight(frames, dx, dy=0.0):
    return [[dx * i / frames, dy * i / frames] for i in range(1, frames + 1)]


def _gesture(driver, path, hold_ms):
    x, y, _ = _top_on_page(driver)
    driver.execute_async_script(_GESTURE_SCRIPT, x, y, path, hold_ms)


# name -> (style, what to do). Each runs in a fresh room that shows `style`, at rest.
def _scenarios(base):
    return {
        "pile drag": ("pile", lambda d, room: _gesture(d, _figure_eight(150, 160, 60), 250)),
        "pile flick": ("pile", lambda d, room: _gesture(d, _straight(6, -420), 0)),
        "deck drag": ("deck", lambda d, room: _gesture(d, _figure_eight(150, 70, 30), 250)),
        "deck fly-out": ("deck", lambda d, room: _gesture(d, _straight(24, 520), 0)),
        "deck flip": ("deck", lambda d, room: _post(base, room, {"command": "flip"})),
        "swipe": ("swipe", lambda d, room: _gesture(d, _straight(6, -420), 0)),
        "style switch (pile→grid)": ("pile", lambda d, room: _post(base, room, {"command": "style", "style": "grid"})),
        "style switch (grid→pile)": ("grid", lambda d, room: _post(base, room, {"command": "style", "style": "pile"})),
        "style switch (pile→deck)": ("pile", lambda d, room: _post(base, room, {"command": "style", "style": "deck"})),
        "style switch (deck→swipe)": ("deck", lambda d, room: _post(base, room, {"command": "style", "style": "swipe"})),
        "style switch (pile→frame)": ("pile", lambda d, room: _post(base, room, {"command": "style", "style": "frame"})),
        "slideshow step (next)": ("pile", lambda d, room: _post(base, room, {"command": "next"})),
        "frame step (next)": ("frame", lambda d, room: _post(base, room, {"command": "next"})),
    }


def _open(driver, url, attempts=3):
    # On a loaded machine Chromium sometimes misses chromedriver's load deadline: ask again.
    from selenium.common.exceptions import TimeoutException
    for attempt in range(attempts):
        try:
            driver.get(url)
            return
        except TimeoutException:
            if attempt == attempts - 1:
                raise
            log(f"frames: {url} did not load in time, again")


def _measure(driver, base, room, style, action):
    # A tab of its own, closed after: a page merely navigated away from can live on in the
    # back/forward cache with its event stream open, and five of those take all six of Chromium's
    # connections to the server (the sixth page's pointer POSTs and photos then never go out).
    home = driver.current_window_handle
    driver.switch_to.new_window("tab")
    try:
        return _measure_in_tab(driver, base, room, style, action)
    finally:
        driver.close()
        driver.switch_to.window(home)


def _measure_in_tab(driver, base, room, style, action):
    _open(driver, f"{base}?room={room}&debug=1")
    _wait(lambda: _state(driver), lambda s: s and s["connected"] and s["cards"], what="the room's cards")
    if _state(driver)["style"] != style:
        _post(base, room, {"command": "style", "style": style})
        _wait(lambda: _state(driver)["style"], lambda shown: shown == style, what=f"style {style}")
    _settled(driver)
    drawn_before = len(_state(driver)["cards"])
    before = driver.execute_script("return window.stackweb.renderCounters ? window.stackweb.renderCounters() : null")
    driver.execute_script("window.stackweb.recordFrames({flush: true});" + _TICKER_START)
    started = time.monotonic()
    action(driver, room)
    # Until the motion has ended and the last frame is drawn, watched from inside the page: polling
    # through the driver would put its work on the cores the page draws with.
    if not driver.execute_async_script(_MOTION_END_SCRIPT, 150, 250, 20000):
        raise TimeoutError("timed out waiting for the animation's end")
    deltas = driver.execute_script(_TICKER_STOP)
    counters = driver.execute_script("return window.stackweb.renderCounters ? window.stackweb.renderCounters() : null")
    frames = driver.execute_script("return window.stackweb.recordedFrames()")
    driver.execute_script("window.stackweb.stopRecordingFrames()")
    draws = [frame["drawMs"] for frame in frames]
    # The slowest frames, with what the renderer made in them: where a spike comes from.
    slow = []
    for previous, frame in zip([{"counters": before} if before else None] + frames, frames):
        made = None
        if "inFrame" in frame:
            # What the frame itself made (pages that say so; the running counts also grow between
            # frames there).
            made = {**frame["inFrame"], "recordMs": round(frame["counters"]["recordMs"], 1)}
        elif previous and "counters" in frame and "counters" in previous:
            # Running counts are differenced; recordMs is the frame's own.
            made = {key: round(value if key == "recordMs" else value - previous["counters"].get(key, 0), 1)
                    for key, value in frame["counters"].items()}
        slow.append({"drawMs": round(frame["drawMs"], 1), "made": made})
    # Sprites and layers drawn inside frames, over the whole animation: the work a frame could
    # have been spared (made ahead, between frames or in idle time).
    in_frames = {}
    for item in slow:
        for key in ("sprites", "spriteMs", "layers", "layerMs"):
            in_frames[key] = round(in_frames.get(key, 0) + ((item["made"] or {}).get(key) or 0), 1)
    for index, item in enumerate(slow):
        item["frame"] = index
    slow = sorted(slow, key=lambda item: -item["drawMs"])[:3]
    intervals = [b["timestamp"] - a["timestamp"] for a, b in zip(frames, frames[1:])]
    return {
        "seconds": round(time.monotonic() - started, 2),
        "cards": drawn_before,
        "raf": _round(summary(deltas)),
        "draw": _round(summary(draws)),
        "interval": _round(summary(intervals)),
        "slowest": slow,
        "made_in_frames": in_frames,
        # Sprites and layers the page made during the animation (pages that count them).
        "made": ({key: round(counters[key] - before[key], 1) for key in counters} if counters and before else None),
    }


def _round(stats):
    return {key: (round(value, 2) if isinstance(value, float) else value) for key, value in stats.items()}


def within_budget(stats):
    """Whether an animation's frames (rAF deltas) meet the budget."""
    raf = stats["raf"]
    return raf["n"] > 0 and raf["p50"] <= BUDGET["p50"] and raf["p99"] <= BUDGET["p99"] and raf["max"] <= BUDGET["max"]


def run(binary, out_dir, repeat=1, resources="Resources", only=None):
    return run_pages(binary, out_dir, {"page": resources}, repeat, only)["page"]


def run_pages(binary, out_dir, pages, repeat=1, only=None):
    """`run` for several pages at once (name -> the Resources folder serving it): one Chromium and a
    server per page, each animation measured on every page in turn, `repeat` times in alternating
    order, so that a busy machine weighs on them alike. Answers {name: results}."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return {name: {"skipped": "selenium is not installed (make pip-deps installs it)"} for name in pages}
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        return {name: {"skipped": f"{CHROMIUM} or {CHROMEDRIVER} missing (make apt-deps installs them)"}
                for name in pages}
    results = {name: {"viewport": list(VIEWPORT), "dpr": 1, "budget": BUDGET, "animations": {}, "repeat": repeat,
                      "resources": resources, "loadavg_start": os.getloadavg()[0]}
               for name, resources in pages.items()}
    names = list(pages)
    stamp = int(time.time()) % 100000
    animations = [(index, animation) for index, animation in enumerate(_scenarios("http://127.0.0.1/"))
                  if not only or any(word in animation for word in only)]
    # Each run takes a fresh room, and a server keeps at most 64: fresh servers every few animations.
    per_servers = max(1, ROOMS_PER_SERVER // max(1, repeat))
    driver = _chromium()
    try:
        for name in names:
            results[name]["user_agent"] = driver.execute_script("return navigator.userAgent")
        for first in range(0, len(animations), per_servers):
            with contextlib.ExitStack() as servers_open:
                servers = {
                    name: servers_open.enter_context(StackWebServer(
                        binary, resources=resources,
                        stderr_path=os.path.join(out_dir, "server-frames.log" if len(pages) == 1
                                                 else f"server-frames-{name}.log")))
                    for name, resources in pages.items()}
                for index, animation in animations[first:first + per_servers]:
                    _measure_animation(driver, servers, results, names, stamp, index, animation, repeat)
    finally:
        driver.quit()
    for name in names:
        results[name]["loadavg_end"] = os.getloadavg()[0]
    return results


def _measure_animation(driver, servers, results, names, stamp, index, animation, repeat):
    """One animation on every page, `repeat` times in alternating order; its row in `results`."""
    runs = {name: [] for name in names}
    for attempt in range(repeat):
        for name in (names if attempt % 2 == 0 else names[::-1]):
            base = f"http://127.0.0.1:{servers[name].port}/"
            style, action = _scenarios(base)[animation]
            for retry in range(3):
                room = f"bench-frames-{stamp}-{index}-{attempt}-{name}-{retry}"
                stats = _measure(driver, base, room, style, action)
                # A gesture the server did not take (it happens on a loaded machine) moved
                # nothing: measured again in a fresh room rather than reported as smooth.
                if stats["draw"]["n"] > 0:
                    break
                log(f"frames ({animation}): nothing moved, again")
            stats["retries"] = retry
            stats["loadavg"] = round(os.getloadavg()[0], 2)
            runs[name].append(stats)
    for name in names:
        # The run with the median p99 frame: one noisy neighbour should not decide a row.
        measured = sorted(runs[name], key=lambda stats: stats["raf"]["p99"])
        stats = measured[len(measured) // 2]
        stats["runs"] = len(measured)
        stats["within_budget"] = within_budget(stats)
        # How steady the verdict is: one frame shown twice decides a 60-frame run's p99.
        stats["runs_within_budget"] = sum(within_budget(run) for run in measured)
        results[name]["animations"][animation] = stats
        label = animation if len(names) == 1 else f"{animation}, {name}"
        log(f"frames ({label}): {stats['runs_within_budget']} of {len(measured)} runs within budget; "
            f"median run {stats['raf']['n']} rAF, p50 {stats['raf']['p50']} p99 "
            f"{stats['raf']['p99']} max {stats['raf']['max']} ms; draw p50 {stats['draw']['p50']} "
            f"p99 {stats['draw']['p99']} max {stats['draw']['max']} ms over {stats['draw']['n']} frames; "
            f"made in frames {stats['made_in_frames']}; slowest {stats['slowest']}")


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=".build/release/stackweb")
    parser.add_argument("--out", default="bench-out")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--only", default="", help="comma-separated words: the animations whose name has one")
    parser.add_argument("--json", default="", help="write the results here (else to standard output)")
    parser.add_argument("--resources", default="Resources",
                        help="the page to measure (e.g. a checkout of an older commit's Resources)")
    parser.add_argument("--before", default="",
                        help="another page to measure in the same minutes, alternating (e.g. an older commit's Resources)")
    parser.add_argument("--before-json", default="", help="with --before: write its results here")
    args = parser.parse_args()
    os.chdir(os.path.dirname(HERE))
    os.makedirs(args.out, exist_ok=True)
    only = [word for word in args.only.split(",") if word]
    if args.before:
        both = run_pages(args.bin, args.out, {"before": args.before, "after": args.resources}, args.repeat, only)
        outputs = [(both["after"], args.json), (both["before"], args.before_json)]
    else:
        outputs = [(run(args.bin, args.out, args.repeat, args.resources, only), args.json)]
    for results, path in outputs:
        text = json.dumps(results, indent=1)
        if path:
            with open(path, "w") as out:
                out.write(text)
        else:
            print(text)
