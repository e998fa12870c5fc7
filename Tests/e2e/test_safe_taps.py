"""Nothing destructive by accident (docs/styles.md): a grid tile opens, a removal is offered back on the
screen that made it, and faded controls are inert."""

from selenium.webdriver.common.by import By

from support.network import RequestLog
from support.pointer import Finger, Mouse
from support.waiting import wait_until

CONTROLS_FADE_TIMEOUT = 6.0  # the page fades them after 3 s without input


def in_style(open_page, server, style, **kwargs):
    """The test's room shown in `style`, settled."""
    page = open_page(query=f"&style={style}", **kwargs)
    wait_until(lambda: server.snapshot(page.room)["style"], lambda seen: seen == style,
               message=f"the room in the {style} style")
    wait_until(lambda: page.state()["style"], lambda seen: seen == style, message=f"the page in the {style} style")
    page.wait_until_settled()
    return page


def tap(page, card, finger=False):
    x, y = page.mapping().to_page(card["x"], card["y"])
    (Finger if finger else Mouse)(page.driver).move_to(x, y).down().pause(40).up().perform()


def offer_shown(page):
    return page.driver.execute_script("return !document.getElementById('undo-offer').hidden")


def test_a_tapped_grid_tile_opens_full_stage(open_page, server):
    page = in_style(open_page, server, "grid")
    before = server.snapshot(page.room)
    tile = before["cards"][2]
    tap(page, tile)
    opened = wait_until(lambda: server.snapshot(page.room),
                        lambda snap: snap["cards"][0]["id"] == tile["id"],
                        message=f"{tile['id']} at the front after the tap")
    assert opened["count"] == before["count"], "a tap deletes nothing"
    wait_until(lambda: page.card(tile["id"]), lambda card: card and not card["animating"],
               message="the opened photo at rest")
    shown = page.card(tile["id"])
    assert shown["w"] > 3 * tile["w"] and shown["h"] > 3 * tile["h"], f"full-stage: {shown} (tile {tile})"
    assert not offer_shown(page), "nothing was removed"
    # A tap anywhere shows the grid again.
    tap(page, {"x": 20, "y": 20})
    wait_until(lambda: page.card(tile["id"]), lambda card: card and abs(card["w"] - tile["w"]) < 1,
               message="the grid again")
    assert server.snapshot(page.room)["count"] == before["count"]


def test_a_removal_offers_undo_there_only_and_undo_brings_it_back(open_page, server, second_browser):
    page = in_style(open_page, server, "angles")
    other = open_page(driver=second_browser)
    before = server.snapshot(page.room)
    top = before["cards"][0]
    tap(page, top)
    wait_until(lambda: server.snapshot(page.room)["count"], lambda count: count == before["count"] - 1,
               message="the tapped photo removed")
    wait_until(lambda: offer_shown(page), lambda shown: shown, message="'Photo removed · Undo' on the tapping screen")
    offer = page.driver.find_element(By.ID, "undo-offer")
    assert "Photo removed" in offer.text and "Undo" in offer.text, offer.text
    assert not offer_shown(other), "the other screen did not remove it: no offer there"
    requests = RequestLog(page.driver)
    offer.find_element(By.CSS_SELECTOR, "[data-undo]").click()
    assert requests.wait_for_commands(1)[0]["body"] == {"command": "undo"}
    back = wait_until(lambda: server.snapshot(page.room), lambda snap: snap["count"] == before["count"],
                      message="the photo back after Undo")
    assert back["cards"][0]["id"] == top["id"], "the same card, at the front again"
    assert not offer_shown(page), "the offer goes once used"


def test_a_blank_tap_in_angles_adds_no_duplicate(open_page, server):
    page = in_style(open_page, server, "angles")
    before = server.snapshot(page.room)
    tap(page, {"x": 40, "y": 40})
    page.wait_until_settled()
    after = server.snapshot(page.room)
    photos = [card["photo"] for card in after["cards"]]
    assert after["count"] == before["count"] and len(set(photos)) == len(photos), photos


def test_faded_controls_do_not_fire(page):
    driver = page.driver
    button = driver.find_element(By.CSS_SELECTOR, '#controls [data-action="next"]')
    rect = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]",
                                 button)
    wait_until(lambda: driver.execute_script("return document.documentElement.classList.contains('controls-idle')"),
               lambda idle: idle, timeout=CONTROLS_FADE_TIMEOUT, message="the controls faded")
    requests = RequestLog(driver)
    before = page.state()["current"]
    Finger(driver).move_to(*rect).down().pause(40).up().perform()
    wait_until(lambda: driver.execute_script("return document.documentElement.classList.contains('controls-idle')"),
               lambda idle: not idle, message="the controls shown by the touch")
    # Nothing reached the room: no command, and no pointer sample for the photo beneath.
    page.wait_until_settled()
    assert requests.commands() == [] and requests.pointer_events() == [], requests.posts("")
    assert page.state()["current"] == before
    # Shown, the same touch works.
    Finger(driver).move_to(*rect).down().pause(40).up().perform()
    assert requests.wait_for_commands(1)[0]["body"] == {"command": "next"}
