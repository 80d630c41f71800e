"""The page's banners and toasts cover nothing a user reads (issue 46, point 9), at desktop and phone size: the
time-travel banner, the map's preview banner and a refusal's toast leave the phone's status bar and navigation title
and the inspector's curl box free, wherever the page and the inspector are scrolled, and the phone whole on screen
(they take room of their own, the phone gives it up); and the enlarged map opens with the root coordinator in view (it
once opened scrolled right, the root cut off)."""
import pytest

from conftest import ARTIFACTS, SIZES
from test_map import click_route
from test_time_travel import view_version


# In one go (a toast's timer cannot fire in between), at each of a few scroll positions (the page at its top; the
# curl box scrolled to the bottom of the window and to its middle): the banner and the toasts shown, and the parts they
# must leave free, as boxes in the window's coordinates; only what is on screen at that position. With the page at its
# top, also where the phone ends (what comes above it must not push its foot off screen).
SNAPSHOT_JS = """
const onScreen = (e) => {
  if (!e || e.hidden || e.closest('[data-leaving]') || !e.getClientRects().length) return null;
  const r = e.getBoundingClientRect();
  if (r.width < 1 || r.height < 1 || r.bottom <= 0 || r.right <= 0 || r.top >= innerHeight || r.left >= innerWidth) {
    return null;
  }
  return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
};
const named = (name, elements) => [...elements].map((e) => ({ name, box: onScreen(e) })).filter((p) => p.box);
const measure = (where) => ({
  where,
  covers: [...named('banner', document.querySelectorAll('[data-testid=viewing]')),
           ...named('toast', document.querySelectorAll('[data-testid=toast]'))],
  parts: [...named('status bar', document.querySelectorAll('#phone .statusbar')),
          ...named('navigation title', document.querySelectorAll('#phone .navbar-title')),
          ...named('curl box', document.querySelectorAll('[data-testid=curl]'))],
});
const curl = document.querySelector('[data-testid=curl]');
const inspector = document.getElementById('inspector');
window.scrollTo(0, 0);
inspector.scrollTop = 0;
const phone = document.getElementById('phone').getBoundingClientRect();
const shots = [{ ...measure('the page at its top'), phone: { bottom: phone.bottom, window: innerHeight } }];
curl.scrollIntoView({ block: 'end' });
shots.push(measure('the curl box at the bottom of the window'));
curl.scrollIntoView({ block: 'center' });
shots.push(measure('the curl box in the middle of the window'));
window.scrollTo(0, 0);
inspector.scrollTop = 0;
return shots;
"""


def overlaps(a, b):
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


def assert_covers_nothing(page, cover, size, name):
    """`cover` ('banner' or 'toast') is on screen with the page at its top, and at no scroll position does it lie over
    the status bar, a navigation title or the curl box."""
    page.settle()
    shots = page.d.execute_script(SNAPSHOT_JS)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.d.save_screenshot(str(ARTIFACTS / f"overlaps-{name}-{size}.png"))
    top = shots[0]
    assert any(c["name"] == cover for c in top["covers"]), f"no {cover} on screen: {top}"
    shown = {p["name"] for p in top["parts"]}
    assert {"status bar", "navigation title"} <= shown, f"the phone's top is not on screen: {top}"
    assert top["phone"]["bottom"] <= top["phone"]["window"] + 1, f"the {cover} pushed the phone's foot away: {top}"
    found = [f"the {c['name']} {c['box']} lies over the {p['name']} {p['box']} ({shot['where']})"
             for shot in shots for c in shot["covers"] for p in shot["parts"] if overlaps(c["box"], p["box"])]
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("size", SIZES)
def test_the_time_travel_banner_covers_nothing(page, size):
    page.sized(size).log_in()
    page.open_tab("settings", "settings")
    page.tap("push_green")
    page.wait_route("green")
    view_version(page, 2)  # the login's version: the home tab
    page.find("[data-testid=viewing]")
    page.wait_route("favourites")
    assert_covers_nothing(page, "banner", size, "time-travel")


@pytest.mark.parametrize("size", SIZES)
def test_the_map_preview_banner_covers_nothing(page, size):
    page.sized(size).log_in()
    page.open_tab("settings", "settings")
    click_route(page, "SettingsCoordinator", "green")
    assert "Preview of green" in page.find("[data-testid=viewing]").text
    page.wait_route("green")
    assert_covers_nothing(page, "banner", size, "map-preview")


@pytest.mark.parametrize("size", SIZES)
def test_a_toast_covers_nothing(page, size):
    page.sized(size).log_in()
    page.open_tab("settings", "settings")
    page.tap("pop")  # nothing to pop at the root: the server refuses (409), a toast says so
    page.find("[data-testid=toast]")
    assert_covers_nothing(page, "toast", size, "toast")


# The enlarged map's scroll box (its visible part) and the root coordinator's box, in the window's coordinates.
ENLARGED_JS = """
const scroller = document.getElementById('map-large');
const frame = scroller.querySelector(`.map-box[data-type="${arguments[0]}"] .map-box-frame`);
const outer = scroller.getBoundingClientRect();
const left = outer.left + scroller.clientLeft, top = outer.top + scroller.clientTop;
const r = frame.getBoundingClientRect();
return {
  view: { left, top, right: left + scroller.clientWidth, bottom: top + scroller.clientHeight },
  root: { left: r.left, top: r.top, right: r.right, bottom: r.bottom },
  window: { right: innerWidth, bottom: innerHeight },
  scroll: { left: scroller.scrollLeft, top: scroller.scrollTop, width: scroller.scrollWidth },
};
"""


@pytest.mark.parametrize("size", SIZES)
def test_the_enlarged_map_opens_on_the_root(page, size):
    page.sized(size).log_in()
    sid = page.session_id()
    # Deep in the app: the screen on view is far from the root on the map.
    page.api("POST", f"/api/sessions/{sid}/deeplinks", {"url": "stinsenapp://todo/buy-milk"})
    page.wait_route("todo")
    page.wait(lambda d: d.execute_script("return document.querySelectorAll('#map .map-route.on-path').length") == 4,
              message="the map does not highlight the screen on view")
    _, doc = page.api("GET", f"/api/sessions/{sid}")
    root = doc["tree"]["type"]
    page.d.execute_script("document.getElementById('map-expand').click()")
    page.find("[data-testid=map-dialog] [data-testid=app-map]")
    seen = page.d.execute_script(ENLARGED_JS, root)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.d.save_screenshot(str(ARTIFACTS / f"overlaps-enlarged-map-{size}.png"))
    view, box = seen["view"], seen["root"]
    if size == "phone":
        assert seen["scroll"]["width"] > view["right"] - view["left"], f"the map fits its box here: {seen}"
    assert view["left"] >= 0 and view["top"] >= 0 and view["right"] <= seen["window"]["right"] + 1, \
        f"the map's box is not on screen: {seen}"
    assert (view["left"] - 1 <= box["left"] and box["right"] <= view["right"] + 1
            and view["top"] - 1 <= box["top"] and box["bottom"] <= view["bottom"] + 1), \
        f"the root coordinator {root} is not in the map's visible area: {seen}"
    page.find("[data-testid=map-dialog-close]").click()
    page.gone("[data-testid=map-dialog]")
