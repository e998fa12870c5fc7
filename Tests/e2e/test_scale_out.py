"""A group of three instances behind nginx (docs/scale-out.md, with its nginx.conf): two browsers
whose pages are attached to different instances see one room move together, each laid out for its
own screen's shape."""

import pytest

from support.group import Group, missing_tools
from support.pointer import FOLLOW_TOLERANCE, Mouse, drag_and_see_it_elsewhere, steps
from support.page import StackWebPage
from support.screens import emulate, fresh_tab
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

    drag_and_see_it_elsewhere(browser, page_a, page_b, "the page on the other instance", pause_ms=SLOW_PAUSE_MS)


PHONE = (390, 844, 2)


def test_a_phone_on_another_instance_is_laid_out_for_its_shape_and_follows_a_drag(
        open_page, browser, second_browser, group, room):
    """A desktop window (16:10) and a phone's (9:19.5) at different instances: each is laid out
    for its own shape, and a drag on the desktop moves the phone's card as far in stage points."""
    page_a = open_page(browser, on_server=group)
    wait_until(lambda: [group.viewers_at(instance, room) for instance in group.instances],
               lambda counts: sum(counts) == 1, message="the first page's stream at one instance")
    # A phone's window from the first request, so that one stream is opened, with its shape (touch
    # is left out: before a page with its viewport tag, a mobile screen is 980 px wide).
    with fresh_tab(second_browser):
        emulate(second_browser, *PHONE)
        page_b = StackWebPage(second_browser, group, room).open()
        wait_until(lambda: page_b.state()["shape"], lambda shape: shape == "9x19.5",
                   message="the phone laid out for 9x19.5")
        counts = wait_until(lambda: [group.viewers_at(instance, room) for instance in group.instances],
                            lambda counts: sum(counts) == 2, message="both pages' streams held")
        assert max(counts) == 1, f"both streams on one instance: {counts}"
        assert page_a.state()["shape"] == "16x10"
        for page, aspect in ((page_a, 16 / 10), (page_b, 9 / 19.5)):
            stage = page.state()["stage"]
            assert abs(stage["w"] / stage["h"] - aspect) < 1e-6, f"a stage of {stage} for {aspect:.3f}"

        # Both screens at rest before the drag: a snapshot for the phone's class, new to the group,
        # may still be arriving and moving cards as it lands.
        top = wait_until(page_a.top_card, lambda card: not card["animating"], message="the desktop's top card at rest")
        seen = wait_until(lambda: page_b.card(top["id"]), lambda card: card and not card["animating"],
                          message="the phone's copy of that card at rest")
        mapping = page_a.mapping()
        start = mapping.to_page(top["x"], top["y"])
        Mouse(browser).move_to(*start).down().move_through(steps(start, (100, 0), 5), 30).perform()
        try:
            # The desktop's own card first: a drag that missed it would say so here.
            wait_until(lambda: page_a.card(top["id"]),
                       lambda card: is_near(card, top["x"] + mapping.points(100), top["y"], FOLLOW_TOLERANCE),
                       message=f"the desktop's {top['id']} to follow the drag")
            expected_x = seen["x"] + mapping.points(100)
            wait_until(lambda: page_b.card(top["id"]),
                       lambda card: is_near(card, expected_x, seen["y"], FOLLOW_TOLERANCE),
                       message=f"the phone to see {top['id']} at x≈{expected_x:.1f} while held")
        finally:
            Mouse(browser).pause(SLOW_PAUSE_MS).up().perform()
