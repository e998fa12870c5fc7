"""A group of three instances behind nginx (docs/scale-out.md, with its nginx.conf): two browsers
whose pages are attached to different instances see one room move together."""

import pytest

from support.group import Group, missing_tools
from support.pointer import drag_and_see_it_elsewhere
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
