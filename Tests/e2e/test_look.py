"""Look and feel on real screens: controls that leave the photo alone, the true position in words,
the slideshow button, the swipe style's stacked mode, a photo frame's wall, and flights that leave
the window whatever its shape.

Some of these need the server side of the same issue (marked in each docstring):
- MODEL: the model branch (off-screen flight targets for any aspect 9:21…21:9, `stacked` on the
  `style` command and in snapshots).
- LEAD: the lead's server branch (`play` starts a slideshow at 10 s when the server has no
  `--interval`).
"""

import json

import pytest
from selenium.webdriver.common.by import By

from support.network import RequestLog, logged_from_load
from support.pointer import Mouse, steps
from support.waiting import wait_until, wait_until_steady
from test_keyboard import REFUSED_COMMAND

CONTROLS_FADE_TIMEOUT = 6.0  # the page fades them after 3 s without input
WIDE, TALL = (1260, 540), (540, 1260)  # 21:9 and 9:21 windows

_OPACITY = "return getComputedStyle(document.querySelector(arguments[0])).opacity"
_HIT = """
const rect = document.querySelector(arguments[0]).getBoundingClientRect();
const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
return hit && hit.id;
"""


def opacity(page, selector):
    return float(page.driver.execute_script(_OPACITY, selector))


def test_controls_fade_without_input_and_come_back(page, server):
    """Full stage (F): after 3 s without input nothing lies over the photo; a move brings the bar back."""
    server.command(page.room, command="fullscreen")
    wait_until(lambda: opacity(page, "#controls"), lambda value: value == 0, timeout=CONTROLS_FADE_TIMEOUT,
               message="the controls to fade out")
    assert opacity(page, "#status") == 0, "the status line fades with them"
    # Faded, the bar takes no clicks: what is under it is the photo's.
    assert page.driver.execute_script(_HIT, "#controls") == "stage"
    Mouse(page.driver).move_to(200, 200).move_to(220, 210, 50).perform()
    wait_until(lambda: opacity(page, "#controls"), lambda value: value == 1, message="the controls back on a move")
    assert page.driver.execute_script(_HIT, "#controls") != "stage"
