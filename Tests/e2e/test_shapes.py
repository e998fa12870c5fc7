"""Every screen filled: the frame style laid out for each screen's shape. Screenshots at a 16:9 TV,
a 21:9 screen, a portrait phone (touch) and a portrait tablet measure what fraction of the screen
the photo covers (photos of one flat colour, counted on the drawn canvas); a pair of portraits
stands at one height. Pictures go to .build/e2e-screenshots."""

import tempfile
from pathlib import Path

import pytest

from support.page import StackWebPage
from support.pointer import Finger, steps
from support.screens import emulate, fresh_tab, restore, shoot, write_flat_png
from support.server import StackWebServer
from support.waiting import wait_until

# Named so that `--order name` puts them in this order; a flat colour each, far from the others
# and from the kiosk's darkened, blurred wall.
PHOTOS = [
    ("01-wide.png", 1600, 900, (230, 40, 40)),
    ("02-ultrawide.png", 2100, 900, (40, 200, 40)),
    ("03-portrait-3x4.png", 900, 1200, (40, 80, 230)),
    ("04-portrait-2x3.png", 800, 1200, (230, 200, 30)),
    ("05-landscape.png", 1200, 900, (200, 40, 200)),
    ("06-panorama.png", 4000, 1000, (40, 210, 210)),
]
WIDE, ULTRAWIDE, PORTRAIT, TALL_PORTRAIT = (PHOTOS[i][3] for i in range(4))

# The colour's pixels on the canvas: how many, and their bounding box, in device pixels.
_COVERAGE = """
const [r, g, b] = arguments[0];
const canvas = document.getElementById('stage');
const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
let count = 0, left = Infinity, top = Infinity, right = -1, bottom = -1;
for (let i = 0; i < data.length; i += 4) {
  if (Math.abs(data[i] - r) > 6 || Math.abs(data[i + 1] - g) > 6 || Math.abs(data[i + 2] - b) > 6) continue;
  count += 1;
  const p = i / 4, x = p % canvas.width, y = Math.floor(p / canvas.width);
  left = Math.min(left, x); right = Math.max(right, x); top = Math.min(top, y); bottom = Math.max(bottom, y);
}
return {count, width: canvas.width, height: canvas.height, left, top, right, bottom};
"""


@pytest.fixture(scope="module")
def shapes_server():
    with tempfile.TemporaryDirectory(prefix="stackweb-shapes-") as folder:
        for name, width, height, colour in PHOTOS:
            write_flat_png(Path(folder) / name, width, height, colour)
        server = StackWebServer(arguments=["--photos", folder, "--order", "name"]).start()
        # The server answers before it has read the folder.
        wait_until(lambda: server.snapshot("main")["count"], lambda count: count == len(PHOTOS),
                   message="every photo read")
        yield server
        server.close()


@pytest.fixture
def frame_on(browser, shapes_server, room):
    """Opens the room in kiosk frame style on a screen of `width`×`height` (device pixel ratio
    `dpr`), the photo `index` in front, laid out for that screen's shape."""
    home = browser.current_window_handle
    browser.switch_to.new_window("tab")

    def open_frame(index, width, height, dpr=1, touch=False, shape=None):
        shapes_server.command(room, command="style", style="frame")
        shapes_server.command(room, command="goto", index=index)
        page = StackWebPage(browser, shapes_server, room, "&kiosk=1&style=frame").open()
        # Opened at the browser's own size, then made the screen: the page reports its new shape.
        emulate(browser, width, height, dpr, touch=touch)
        wait_until(lambda: page.state()["shape"], lambda seen: seen == shape, message=f"laid out for {shape}")
        wait_until(lambda: page.state()["current"], lambda seen: seen == index, message=f"photo {index + 1}")
        wait_until(lambda: [card["id"] for card in page.state()["cards"] if card["animating"]] + [page.state()["coarse"]],
                   lambda moving: moving == [False], message="no card moving")
        colour = PHOTOS[index][3]
        wait_until(lambda: covered(page, colour)["count"], lambda count: count > 0, message="the photo drawn")
        wait_until(lambda: covered(page, colour)["count"], lambda count: count == covered(page, colour)["count"],
                   message="the photo drawn sharp")
        return page

    yield open_frame
    restore(browser)
    browser.close()
    browser.switch_to.window(home)


def open_screen(driver, server, room, query, window, touch=False, shape=None):
    """`room` opened in `driver` as a screen of `window` (width, height, dpr), laid out for `shape`."""
    page = StackWebPage(driver, server, room, query).open()
    emulate(driver, *window, touch=touch)
    wait_until(lambda: page.state()["shape"], lambda seen: seen == shape, message=f"laid out for {shape}")
    return page


def covered(page, colour):
    return page.driver.execute_script(_COVERAGE, list(colour))


@pytest.mark.parametrize("index, screen, touch, shape, colour, name", [
    (0, (1920, 1080, 1), False, "16x9", WIDE, "frame-tv-16x9.png"),
    (1, (2560, 1080, 1), False, "21x9", ULTRAWIDE, "frame-ultrawide-21x9.png"),
])
def test_a_photo_of_the_screens_shape_fills_it(frame_on, index, screen, touch, shape, colour, name):
    page = frame_on(index, *screen[:2], dpr=screen[2], touch=touch, shape=shape)
    seen = covered(page, colour)
    fraction = seen["count"] / (seen["width"] * seen["height"])
    shoot(page.driver, name)
    floor = 0.95 if shape == "16x9" else 0.90
    print(f"{shape}: the photo covers {fraction:.4f} of the screen")
    assert fraction >= floor, f"{shape}: the photo covers {fraction:.3f} of the screen ({seen})"


@pytest.mark.parametrize("screen, touch, shape, name", [
    ((390, 844, 3), True, "9x19.5", "frame-phone-portrait.png"),
    ((1080, 1920, 1), False, "9x16", "frame-tablet-portrait.png"),
])
def test_a_portrait_fills_a_portrait_screens_width_alone(frame_on, screen, touch, shape, name):
    page = frame_on(2, *screen[:2], dpr=screen[2], touch=touch, shape=shape)
    seen = covered(page, PORTRAIT)
    width = (seen["right"] - seen["left"] + 1) / seen["width"]
    shoot(page.driver, name)
    print(f"{shape}: the portrait spans {width:.4f} of the width")
    assert width >= 0.90, f"{shape}: the portrait spans {width:.3f} of the width ({seen})"
    assert covered(page, TALL_PORTRAIT)["count"] == 0, "a portrait screen shows no pair"
    status = page.driver.find_element("id", "status").get_attribute("textContent")
    assert status.startswith(f"Photo 3 of {len(PHOTOS)}"), status


def test_a_pair_of_portraits_stands_at_one_height(frame_on):
    page = frame_on(2, 1920, 1080, shape="16x9")
    first, second = covered(page, PORTRAIT), covered(page, TALL_PORTRAIT)
    shoot(page.driver, "frame-tv-pair.png")
    assert first["count"] > 0 and second["count"] > 0, "both portraits drawn"
    assert abs(first["top"] - second["top"]) <= 1 and abs(first["bottom"] - second["bottom"]) <= 1, (first, second)
    assert first["right"] < second["left"], "side by side, the 3:4 first"
    height = (first["bottom"] - first["top"] + 1) / first["height"]
    assert height >= 0.95, f"as tall as the screen: {height:.3f}"
    status = page.driver.find_element("id", "status").get_attribute("textContent")
    assert status.startswith(f"Photos 3–4 of {len(PHOTOS)}"), status
    assert "portrait-3x4" in status and "portrait-2x3" in status, status


def test_a_phone_drives_a_tv_each_seeing_its_own_shape(browser, second_browser, shapes_server, room):
    """A phone used as a remote: its swipe on its own portrait layout changes the TV's photo, and both
    show the same photo, each laid out for its screen."""
    shapes_server.command(room, command="style", style="frame")
    shapes_server.command(room, command="goto", index=len(PHOTOS) - 1)
    tabs = {}
    for driver in (browser, second_browser):
        tabs[driver] = driver.current_window_handle
        driver.switch_to.new_window("tab")
    try:
        tv = open_screen(second_browser, shapes_server, room, "&kiosk=1&style=frame", (1920, 1080, 1), shape="16x9")
        phone = open_screen(browser, shapes_server, room, "&style=frame", (390, 844, 3), touch=True, shape="9x19.5")
        # A swipe to the left across the phone's stage: the next photo (the first, the 16:9 one).
        start = (330, 420)
        (Finger(browser).move_to(*start).down().move_through(steps(start, (-260, 0), 8), 16).up().perform())
        for page in (tv, phone):
            wait_until(lambda: page.state()["current"], lambda seen: seen == 0, message="the next photo")
            wait_until(lambda: [c["id"] for c in page.state()["cards"] if c["animating"]], lambda moving: not moving,
                       message="at rest")
        assert tv.state()["cards"][0]["id"] == phone.state()["cards"][0]["id"], "the same photo"
        wait_until(lambda: covered(tv, WIDE)["count"] / (1920 * 1080), lambda share: share >= 0.95,
                   message="the 16:9 photo filling the TV")
        wait_until(lambda: covered(phone, WIDE), lambda seen: seen["right"] - seen["left"] + 1 >= 0.9 * seen["width"],
                   message="the same photo across the phone's width")
        shoot(browser, "remote-phone.png")
        shoot(second_browser, "remote-tv.png")
    finally:
        for driver, home in tabs.items():
            restore(driver)
            driver.close()
            driver.switch_to.window(home)


def test_a_panorama_pans_across_a_phone_at_its_full_height(browser, shapes_server, room):
    """A 4:1 panorama would be a strip across a portrait phone (12 % of it): it is shown at the
    phone's full height instead, and pans."""
    panorama = len(PHOTOS) - 1
    shapes_server.command(room, command="style", style="frame")
    home = browser.current_window_handle
    browser.switch_to.new_window("tab")
    try:
        phone = open_screen(browser, shapes_server, room, "&kiosk=1&style=frame", (390, 844, 3), touch=True,
                            shape="9x19.5")
        shapes_server.command(room, command="goto", index=panorama)
        wait_until(lambda: phone.top_card(), lambda card: card["id"] == f"c{panorama}" and card["animating"],
                   message="the panorama in front, moving")
        card = phone.top_card()
        stage = phone.state()["stage"]
        assert card["h"] == stage["h"] and card["w"] == 4 * stage["h"], f"at the phone's full height: {card}"
        first = card["x"]
        wait_until(lambda: phone.top_card()["x"], lambda x: x < first - 20, message="the panorama panning")
        shoot(browser, "frame-phone-panorama.png")
    finally:
        restore(browser)
        browser.close()
        browser.switch_to.window(home)


# The seven screens the page is tried on, and the other orientation of the phone and the tablet.
SEVEN_SCREENS = [(390, 844, 3), (844, 390, 3), (820, 1180, 2), (1180, 820, 2), (1366, 768, 1), (1920, 1080, 1),
                 (3840, 2160, 1), (2560, 1080, 1), (1080, 1920, 1)]


def _screen_colour(index):
    return (30 + 20 * index, 220 - 20 * index, 60 + 15 * index)


@pytest.fixture(scope="module")
def screens_server():
    """One flat photo of each screen's own shape, in SEVEN_SCREENS' order."""
    with tempfile.TemporaryDirectory(prefix="stackweb-screens-") as folder:
        # As many pixels as the screen has device pixels: a photo is never drawn larger than that.
        for index, (width, height, dpr) in enumerate(SEVEN_SCREENS):
            write_flat_png(Path(folder) / f"{index:02d}-{width}x{height}.png", width * dpr, height * dpr,
                           _screen_colour(index))
        server = StackWebServer(arguments=["--photos", folder, "--order", "name"]).start()
        wait_until(lambda: server.snapshot("main")["count"], lambda count: count == len(SEVEN_SCREENS),
                   message="every photo read")
        yield server
        server.close()


@pytest.mark.parametrize("index", range(len(SEVEN_SCREENS)),
                         ids=[f"{w}x{h}" for w, h, _ in SEVEN_SCREENS])
def test_a_photo_of_the_screens_own_shape_leaves_no_band(browser, screens_server, room, index):
    """Frame without bands: on each screen, a photo of its shape covers at least 95 % of it (the
    classes of old left 82 % on a 820×1180 tablet, 69 % on 1180×820, 71 % on a phone turned)."""
    width, height, dpr = SEVEN_SCREENS[index]
    shape = screens_server.snapshot("main", window=(width, height))["shape"]["name"]
    screens_server.command(room, command="style", style="frame")
    screens_server.command(room, command="goto", index=index)
    with fresh_tab(browser):
        page = open_screen(browser, screens_server, room, "&kiosk=1&style=frame", (width, height, dpr),
                           touch=width < 900, shape=shape)
        colour = _screen_colour(index)
        wait_until(lambda: page.state()["current"], lambda seen: seen == index, message=f"photo {index + 1}")
        wait_until(lambda: [c["id"] for c in page.state()["cards"] if c["animating"]] + [page.state()["coarse"]],
                   lambda moving: moving == [False], message="no card moving")
        seen = wait_until(lambda: covered(page, colour), lambda seen: seen["count"] > 0, message="the photo drawn")
        fraction = seen["count"] / (seen["width"] * seen["height"])
        if index in (2, 3):
            shoot(browser, f"frame-tablet-{width}x{height}.png")
        print(f"{width}×{height} ({shape}): the photo covers {fraction:.4f} of the screen")
        assert fraction >= 0.95, f"{width}×{height} ({shape}): {fraction:.3f} covered ({seen})"
