"""Pointer gestures from a real mouse in Chromium, judged by the server's model and a second viewer."""

from support.network import RequestLog
from support.page import StackWebPage
from support.screens import emulate, fresh_tab
from support.pointer import FOLLOW_TOLERANCE, Finger, Mouse, PointerLog, drag_and_see_it_elsewhere, release_speed, steps
from support.stage import is_near
from support.waiting import wait_until

# A flick: five quick 80 px steps to the left, far past ¼ of the card's short side.
FLICK_STEPS, FLICK_STEP_PX, FLICK_STEP_MS = 5, 80, 16
# A slow drag: 30 px in 5 px steps 200 ms apart, then a still pause before the release, so the
# release velocity is about 0 and the distance under ¼ of the short side (60 pt for 320×240).
SLOW_STEPS, SLOW_DISTANCE_PX, SLOW_STEP_MS, SLOW_PAUSE_MS = 6, 30, 200, 300
REST_TOLERANCE = 1.0


def card_by_id(cards, card_id):
    return next((card for card in cards if card["id"] == card_id), None)


def quarter_short_side(card):
    """The distance past which a release is a flick whatever its speed (docs/styles.md, gestures)."""
    return min(card["w"], card["h"]) / 4


def current_and_top(room_state):
    """`current` and the top card's id, from a snapshot or the page's state."""
    return room_state["current"], room_state["cards"][0]["id"]


def test_mouse_flick_sends_top_photo_to_the_back(page, server):
    before = server.snapshot(page.room)
    top, second = before["cards"][0], before["cards"][1]
    mapping = page.mapping()
    start = mapping.to_page(top["x"], top["y"])
    path = steps(start, (-FLICK_STEPS * FLICK_STEP_PX, 0), FLICK_STEPS)
    assert mapping.points(FLICK_STEPS * FLICK_STEP_PX) > quarter_short_side(top)
    log = PointerLog(page.driver)

    # The last step has no duration: only Chromium's own pacing separates it from the release.
    (Mouse(page.driver).move_to(*start).down()
     .move_through(path[:-1], FLICK_STEP_MS).move_to(*path[-1]).up().perform())

    # What Chromium delivered: a press, the whole way left, a release. Its speed is not asserted:
    # each step waits for the page to draw a frame, so on a loaded machine the steps stretch to
    # 50–70 ms and the release can trail the last move by 50 ms; the distance alone is a flick.
    gesture = log.pressed_samples()
    assert [gesture[0]["type"], gesture[-1]["type"]] == ["pointerdown", "pointerup"], gesture
    assert gesture[0]["x"] - gesture[-1]["x"] >= FLICK_STEPS * FLICK_STEP_PX - 2, gesture
    speed = release_speed(gesture)

    after = wait_until(
        lambda: server.snapshot(page.room),
        lambda snap: snap["current"] != before["current"] and snap["cards"][0]["id"] != top["id"],
        message=f"the server to send {top['id']} to the back (released at {speed:.2f} px/ms)")
    assert after["cards"][0]["id"] == second["id"], "the next photo should now be on top"
    flown = card_by_id(after["cards"], top["id"])
    assert flown is None or flown is after["cards"][-1], "the flicked photo should be at the bottom"
    wait_until(lambda: current_and_top(page.state()), lambda seen: seen == (after["current"], second["id"]),
               message=f"the page to show current={after['current']} with {second['id']} on top")


def test_slow_release_springs_back(page, server):
    before = server.snapshot(page.room)
    top = before["cards"][0]
    mapping = page.mapping()
    start = mapping.to_page(top["x"], top["y"])
    assert mapping.points(SLOW_DISTANCE_PX) < 0.8 * quarter_short_side(top), "the card is too small for this drag"
    log = PointerLog(page.driver)

    (Mouse(page.driver).move_to(*start).down()
     .move_through(steps(start, (SLOW_DISTANCE_PX, 0), SLOW_STEPS), SLOW_STEP_MS).perform())
    # While held, the top card follows the pointer: the drag reached the model.
    dragged_x = top["x"] + mapping.points(SLOW_DISTANCE_PX)
    wait_until(lambda: server.snapshot(page.room)["cards"][0],
               lambda card: card["id"] == top["id"] and is_near(card, dragged_x, top["y"], FOLLOW_TOLERANCE),
               message=f"the server to move {top['id']} with the pointer to x≈{dragged_x:.1f}")
    Mouse(page.driver).pause(SLOW_PAUSE_MS).up().perform()

    assert release_speed(log.pressed_samples()) < 0.05, "the release should be (almost) still"

    def at_rest(card):
        return card["id"] == top["id"] and is_near(card, top["x"], top["y"], REST_TOLERANCE)

    wait_until(lambda: server.snapshot(page.room),
               lambda snap: snap["current"] == before["current"] and at_rest(snap["cards"][0])
               and "anim" not in snap["cards"][0],
               message=f"{top['id']} to spring back to ({top['x']}, {top['y']}) and stop")
    wait_until(page.top_card, lambda card: at_rest(card) and not card["animating"],
               message="the page to show the top card back at rest")


def test_second_tab_sees_the_drag_live(open_page, browser, second_browser):
    page_a = open_page(browser)
    page_b = open_page(second_browser)
    drag_and_see_it_elsewhere(browser, page_a, page_b, "the second viewer", pause_ms=SLOW_PAUSE_MS)


def test_touch_swipe_sends_top_photo_to_the_back(page, server):
    """A finger swipe: W3C touch actions, which Chromium delivers as touch input (pointerType touch)."""
    before = server.snapshot(page.room)
    top, second = before["cards"][0], before["cards"][1]
    mapping = page.mapping()
    start = mapping.to_page(top["x"], top["y"])
    path = steps(start, (-FLICK_STEPS * FLICK_STEP_PX, 0), FLICK_STEPS)
    log = PointerLog(page.driver)

    (Finger(page.driver).move_to(*start).down()
     .move_through(path[:-1], FLICK_STEP_MS).move_to(*path[-1]).up().perform())

    gesture = log.pressed_samples()
    assert {sample["pointerType"] for sample in gesture} == {"touch"}, gesture
    assert [gesture[0]["type"], gesture[-1]["type"]] == ["pointerdown", "pointerup"], gesture
    wait_until(lambda: server.snapshot(page.room),
               lambda snap: snap["current"] != before["current"] and snap["cards"][0]["id"] == second["id"],
               message=f"the server to send {top['id']} to the back after the swipe")
    wait_until(lambda: page.top_card()["id"], lambda seen: seen == second["id"],
               message=f"the page to show {second['id']} on top")


def test_pointer_posts_carry_per_pointer_sequence_numbers(page):
    top = page.top_card()
    mapping = page.mapping()
    start = mapping.to_page(top["x"], top["y"])
    requests = RequestLog(page.driver)

    for _ in range(2):
        (Mouse(page.driver).move_to(*start).down().move_through(steps(start, (40, 10), 8), 20)
         .move_to(*start, 200).pause(300).up().perform())

    def both_gestures_posted():
        events = requests.pointer_events()
        return events if [e["type"] for e in events].count("up") == 2 else None

    events = wait_until(both_gestures_posted, message="two whole gestures posted")
    pointers = {event["pointer"] for event in events}
    assert len(pointers) == 1, f"one mouse, one pointer id: {pointers}"
    assert [event["seq"] for event in events] == list(range(events[0]["seq"], events[0]["seq"] + len(events))), \
        "seq counts every sample of the pointer, across gestures, with no gap"
    assert events[0]["type"] == "down" and events[-1]["type"] == "up"
    # (Batching is not asserted here: WebDriver paces its moves at about one per frame, so each
    # frame's POST holds one move. Tests/web/batcher.test.mjs checks the batching itself.)
    assert all(set(event) == {"type", "pointer", "x", "y", "t", "seq"} for event in events), events[0]


def test_a_slow_fifty_pixel_drag_held_still_springs_back_on_a_phone(browser, server, room):
    """Gestures in screen units: on a 390×844 phone 50 px are 131 stage points, past a quarter of the
    room's pile card (84 points); the page tells the server its pixels per point, and the photo
    springs back as on a laptop. Then a long drag to the left still sends it away."""
    for style in ("pile", "swipe"):
        server.command(room, command="style", style=style)
        with fresh_tab(browser):
            page = StackWebPage(browser, server, room).open()
            emulate(browser, 390, 844, 3, touch=True)
            wait_until(lambda: page.state()["shape"], lambda shape: shape == "9x19.5", message="laid out for the phone")
            before = server.snapshot(page.room)["current"]
            top = page.top_card()
            mapping = page.mapping()
            start = mapping.to_page(top["x"], top["y"])
            (Finger(browser).move_to(*start).down().move_through(steps(start, (-50, 0), 10), 40)
             .pause(600).up().perform())
            wait_until(lambda: page.state()["cards"][0], lambda card: not card["animating"] and card["id"] == top["id"],
                       message=f"{style}: the photo back at rest")
            assert server.snapshot(page.room)["current"] == before, f"{style}: the slow drag sprang back"
            (Finger(browser).move_to(*start).down().move_through(steps(start, (-180, 0), 5), 16).up().perform())
            wait_until(lambda: server.snapshot(page.room)["current"], lambda current: current != before,
                       message=f"{style}: the long drag sent it away")
