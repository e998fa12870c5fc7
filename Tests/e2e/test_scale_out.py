"""A group of three instances behind nginx (docs/scale-out.md, with its nginx.conf): two browsers
whose pages are attached to different instances see one room move together."""

import pytest

from support.group import Group, missing_tools
from support.pointer import FOLLOW_TOLERANCE, Mouse, steps
from support.stage import is_near
from support.waiting import wait_until

SLOW_PAUSE_MS = 300


@pytest.fixture(scope="module")
def group():
    missing = missing_tools()
    if missing:
        pytest.skip(f"needs {', '.join(missing)}")
    instance = Group(size=3).start()
    yield instance
    instance.close()


def test_a_drag_through_one_instance_moves_the_stack_on_another(open_page, browser, second_browser, group, room):
    page_a = open_page(browser, on_server=group)
    holders = wait_until(lambda: [group.viewers_at(instance, room) for instance in group.instances],
                         lambda counts: sum(counts) == 1, message="the first page's stream at one instance")
    page_b = open_page(second_browser, on_server=group)
    counts = wait_until(lambda: [group.viewers_at(instance, room) for instance in group.instances],
                        lambda counts: sum(counts) == 2, message="both pages' streams held")
    # nginx spread the two streams (least_conn): each page is attached to an instance of its own.
    assert max(counts) == 1, f"both streams on one instance: {counts}"
    assert counts != holders

    top = page_a.top_card()
    mapping = page_a.mapping()
    start = mapping.to_page(top["x"], top["y"])
    drag_px = 100
    Mouse(browser).move_to(*start).down().move_through(steps(start, (drag_px, 0), 5), 30).perform()
    try:
        expected_x = top["x"] + mapping.points(drag_px)
        wait_until(lambda: page_b.card(top["id"]), lambda card: is_near(card, expected_x, top["y"], FOLLOW_TOLERANCE),
                   message=f"the page on the other instance to see {top['id']} at x≈{expected_x:.1f} while held")
    finally:
        Mouse(browser).pause(SLOW_PAUSE_MS).up().perform()
