"""Real mouse input through W3C actions, and a record of what the page received.

Chromium turns these actions into genuine pointer events (with coalesced samples and timestamps),
so the page's own input code runs exactly as it does for a person.
"""

from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.mouse_button import MouseButton
from selenium.webdriver.common.actions.pointer_input import PointerInput

# How far (stage points) a dragged card may be from "under the pointer": integer pointer pixels,
# and a recogniser that holds the card still until the pointer leaves its tap slop.
FOLLOW_TOLERANCE = 12.0

# The same input source id in every perform: its button state then lasts from one perform to the
# next, so a test can press now, look at another window, and release later.
MOUSE_ID = "e2e-mouse"
FINGER_ID = "e2e-finger"


class Pointer:
    """Queues pointer actions in viewport CSS pixels; `perform()` sends them in one round trip, so
    that only Chromium's own pacing (about a frame per step) stretches their timing."""

    def __init__(self, driver, kind, source_id):
        self._driver = driver
        self._kind = kind
        self._source_id = source_id
        self._reset()

    def _reset(self):
        self._builder = ActionBuilder(self._driver, mouse=PointerInput(self._kind, self._source_id))
        self._input = self._builder.pointer_inputs[0]

    def move_to(self, x, y, duration_ms=0):
        # WebDriver wants integer coordinates; a pixel is far below what any gesture can tell apart.
        self._input.create_pointer_move(duration=int(duration_ms), x=round(x), y=round(y), origin="viewport")
        return self

    def move_through(self, points, step_ms):
        for x, y in points:
            self.move_to(x, y, step_ms)
        return self

    def down(self):
        self._input.create_pointer_down(button=MouseButton.LEFT)
        return self

    def up(self):
        self._input.create_pointer_up(MouseButton.LEFT)
        return self

    def pause(self, ms):
        self._input.create_pause(ms / 1000)
        return self

    def perform(self):
        self._builder.perform()
        self._reset()


class Mouse(Pointer):
    """The mouse: Chromium sends pointer events of type `mouse`."""

    def __init__(self, driver):
        super().__init__(driver, interaction.POINTER_MOUSE, MOUSE_ID)


class Finger(Pointer):
    """One finger on a touch screen: Chromium sends real touch input, pointer events of type `touch`."""

    def __init__(self, driver):
        super().__init__(driver, interaction.POINTER_TOUCH, FINGER_ID)


def release_all_input(driver):
    """Lets go of every pressed button and key, so a failed test does not leave one held down."""
    ActionBuilder(driver).clear_actions()


def steps(start, delta, count):
    """`count` evenly spaced points from `start` (excluded) to `start + delta` (included)."""
    (x, y), (dx, dy) = start, delta
    return [(x + dx * i / count, y + dy * i / count) for i in range(1, count + 1)]


# Records every pointer sample the canvas gets (coalesced ones included, as the page sends them),
# in a capture listener on the window so it sees them before the page does and changes nothing.
_INSTALL_RECORDER = """
if (!window.__e2ePointerLog) {
  window.__e2ePointerLog = [];
  for (const type of ['pointerdown', 'pointermove', 'pointerup', 'pointercancel']) {
    window.addEventListener(type, (event) => {
      const samples = type === 'pointermove' && event.getCoalescedEvents?.().length
        ? event.getCoalescedEvents() : [event];
      for (const s of samples) {
        window.__e2ePointerLog.push({type, x: s.clientX, y: s.clientY, t: s.timeStamp, buttons: event.buttons,
                                     pointerType: event.pointerType});
      }
    }, {capture: true});
  }
}
window.__e2ePointerLog.length = 0;
"""


class PointerLog:
    """What the browser actually delivered, to tell a harness problem from a server problem."""

    def __init__(self, driver):
        self._driver = driver
        driver.execute_script(_INSTALL_RECORDER)

    def samples(self):
        return self._driver.execute_script("return window.__e2ePointerLog.slice()")

    def pressed_samples(self):
        """From the last press to its release (hover moves dropped)."""
        samples = self.samples()
        downs = [i for i, s in enumerate(samples) if s["type"] == "pointerdown"]
        if not downs:
            return []
        gesture = samples[downs[-1]:]
        ups = [i for i, s in enumerate(gesture) if s["type"] in ("pointerup", "pointercancel")]
        return gesture[: ups[0] + 1] if ups else gesture


def release_speed(samples, window_ms=100.0):
    """Speed (CSS px per ms) at the last sample: a least-squares line through the samples of the
    last `window_ms`, as the server's recogniser does (docs/styles.md). 0 when fewer than two samples fall in it."""
    if not samples:
        return 0.0
    end = samples[-1]["t"]
    recent = [s for s in samples if end - s["t"] <= window_ms]
    if len(recent) < 2:
        return 0.0

    def slope(key):
        ts = [s["t"] for s in recent]
        vs = [s[key] for s in recent]
        mean_t, mean_v = sum(ts) / len(ts), sum(vs) / len(vs)
        spread = sum((t - mean_t) ** 2 for t in ts)
        if spread == 0:
            return 0.0
        return sum((t - mean_t) * (v - mean_v) for t, v in zip(ts, vs)) / spread

    return (slope("x") ** 2 + slope("y") ** 2) ** 0.5


def drag_and_see_it_elsewhere(browser, page_a, page_b, where, drag_px=100, pause_ms=300):
    """Drags page A's top card `drag_px` to the right with the mouse and holds it: page B must show
    the card following (within FOLLOW_TOLERANCE) while it is held. `where` names page B in the failure."""
    from .stage import is_near
    from .waiting import wait_until

    top = page_a.top_card()
    mapping = page_a.mapping()
    start = mapping.to_page(top["x"], top["y"])
    Mouse(browser).move_to(*start).down().move_through(steps(start, (drag_px, 0), 5), 30).perform()
    try:
        expected_x = top["x"] + mapping.points(drag_px)
        wait_until(lambda: page_b.card(top["id"]), lambda card: is_near(card, expected_x, top["y"], FOLLOW_TOLERANCE),
                   message=f"{where} to see {top['id']} at x≈{expected_x:.1f} while held")
    finally:
        Mouse(browser).pause(pause_ms).up().perform()
