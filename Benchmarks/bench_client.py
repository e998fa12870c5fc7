"""Item 7 of issue #7: frame times in headless Chromium while dragging, with 100 drawn cards.

Uses the page's debug hook (Resources/web/main.js, `window.stackweb`, on a page opened with
`?debug=1`): `addSyntheticCards(n)` draws n more cards under the server's, `recordFrames({flush:
true})` / `stopRecordingFrames()` record each drawn frame (its time stamp, and the time spent drawing
it including rasterisation). The drag is real pointer input (W3C actions through chromedriver), so the
page's own input, batching, POSTs and SSE round trip run as they do for a person.
"""

import os
import time

from common import StackWebServer, log

CHROMIUM = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver")
VIEWPORT = (1280, 800)


def _chromium():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-proxy-server",
                     f"--window-size={VIEWPORT[0]},{VIEWPORT[1]}"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(30)
    return driver


def _wait(driver, script, timeout=15.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = driver.execute_script(script)
        if value:
            return value
        time.sleep(0.05)
    raise TimeoutError(f"page never satisfied: {script}")


# Drives a drag from inside the page: pointer events dispatched on the canvas, one move per
# animation frame (a 60 Hz mouse; W3C actions and DevTools input both pace themselves at about 30 Hz
# here, which would hide dropped frames). The page's own handlers, batcher, POSTs and the SSE
# round trip all run as for a person. Answers the gaps between moves in ms.
_DRAG_SCRIPT = """
const [x0, y0, frames, done] = [arguments[0], arguments[1], arguments[2], arguments[arguments.length - 1]];
const canvas = document.getElementById('stage');
const fire = (type, x, y, buttons) => canvas.dispatchEvent(new PointerEvent(type, {
  pointerId: 1, pointerType: 'mouse', isPrimary: true, button: type === 'pointermove' ? -1 : 0, buttons,
  clientX: x, clientY: y, bubbles: true, cancelable: true, composed: true}));
fire('pointerdown', x0, y0, 1);
const gaps = [];
let i = 0, last = performance.now();
function step(now) {
  i += 1;
  gaps.push(now - last);
  last = now;
  const angle = 2 * Math.PI * i / 120;
  fire('pointermove', x0 + 140 * Math.sin(angle), y0 + 70 * Math.sin(2 * angle), 1);
  if (i < frames) requestAnimationFrame(step);
  else setTimeout(() => { fire('pointerup', x0, y0, 0); done(gaps); }, 300);
}
requestAnimationFrame(step);
"""


def _drag(driver, start, seconds):
    return driver.execute_async_script(_DRAG_SCRIPT, start[0], start[1], int(seconds * 60))


def _measure(driver, base_url, room, extra_cards, seconds):
    driver.get(f"{base_url}?room={room}&debug=1")
    _wait(driver, "return window.stackweb && window.stackweb.state().connected && "
                  "window.stackweb.state().cards.length > 0")
    # The photos are decoded before recording (the first frames with a photo would decode it).
    _wait(driver, "return new Set(performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)"
                  ".filter((p) => p.startsWith('/photos/'))).size >= 10", 20)
    time.sleep(1.0)
    added = driver.execute_script(f"return window.stackweb.addSyntheticCards({extra_cards})") if extra_cards else 0
    time.sleep(0.5)
    state = driver.execute_script("return window.stackweb.state()")
    rect = driver.execute_script(
        "const r = document.getElementById('stage').getBoundingClientRect();"
        "return {left: r.left, top: r.top, width: r.width, height: r.height};")
    stage = state["stage"]
    scale = min(rect["width"] / stage["w"], rect["height"] / stage["h"])
    top = min(state["cards"], key=lambda card: card["position"])
    start = (rect["left"] + (rect["width"] - stage["w"] * scale) / 2 + top["x"] * scale,
             rect["top"] + (rect["height"] - stage["h"] * scale) / 2 + top["y"] * scale)
    driver.execute_script("window.stackweb.recordFrames({flush: true})")
    gaps = _drag(driver, start, seconds)
    time.sleep(1.0)  # the spring back
    stats = driver.execute_script("return window.stackweb.stopRecordingFrames()")
    from common import summary
    stats["input_interval_ms"] = summary(gaps)
    stats["synthetic_added"] = added
    stats["user_agent"] = driver.execute_script("return navigator.userAgent")
    return stats


def run(binary, out_dir, seconds=6.0):
    try:
        import selenium  # noqa: F401
    except ImportError:
        return {"skipped": "selenium is not installed (make pip-deps installs it)"}
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        return {"skipped": f"{CHROMIUM} or {CHROMEDRIVER} missing (make apt-deps installs them)"}
    results = {"seconds": seconds, "viewport": VIEWPORT}
    with StackWebServer(binary, stderr_path=os.path.join(out_dir, "server-client.log")) as server:
        driver = _chromium()
        try:
            probe = driver.execute_script("return 1")  # noqa: F841
            base = f"http://127.0.0.1:{server.port}/"
            driver.get(base + "?debug=1")
            hook = driver.execute_script("return typeof (window.stackweb && window.stackweb.addSyntheticCards)")
            if hook != "function":
                return {"skipped": "the page has no window.stackweb.addSyntheticCards / recordFrames debug hook"}
            for label, extra in (("server cards", 0), ("100 cards", 90)):
                stats = _measure(driver, base, f"bench-client-{extra}", extra, seconds)
                results[label] = stats
                log(f"client ({label}): {stats['frames']} frames of {stats['cards']} cards: interval p50 "
                    f"{stats['intervalP50']} p99 {stats['intervalP99']} ms, draw p50 {stats['drawP50']} p99 "
                    f"{stats['drawP99']} ms")
        finally:
            driver.quit()
    return results
