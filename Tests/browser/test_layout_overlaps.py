"""The page's banners and toasts cover nothing a user reads (issue 46, point 9), at desktop and phone size: the
time-travel banner, the map's preview banner and a refusal's toast leave the phone's status bar and navigation title
and the inspector's curl box free, wherever the page and the inspector are scrolled, and the phone whole on screen
(they take room of their own, the phone gives it up)."""
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

