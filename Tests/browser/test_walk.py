"""The new user's walk that found issue 30's problems, repeated at 1280×900 and 390×844: none of them is left.

Each step checks what broke the spell: history rows that ran together, toasts over the phone's controls, a guard's
redirect shown as a refusal (toast and history), Back leaving the app with a sheet open, an address that never
changed, an inspector without diffs, and no picture of the app. The suites beside it test each part in depth."""
import pytest
from axe_selenium_python import Axe
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from urllib.parse import unquote

from conftest import ARTIFACTS, SIZES
from test_toasts import COVERED_JS


ROW_LAYOUT_JS = """
const row = document.querySelector('[data-testid=history] li:first-child .hline');
const parts = ['.hver', '.hsource', 'time'].map((css) => row.querySelector(css).getBoundingClientRect());
return getComputedStyle(row).display === 'flex' && parts[1].left > parts[0].right && parts[2].left > parts[1].right
  && parts[0].top === parts[1].top && parts[1].top === parts[2].top;
"""

ON_PATH_JS = """
return [...document.querySelectorAll('#map .map-route.on-path')].map((r) => r.dataset.route);
"""


def address(page):
    return unquote(page.d.current_url[len(page.base):])


@pytest.mark.parametrize("size", SIZES)
def test_the_new_users_walk_finds_none_of_the_problems(page, size):
    page.sized(size)
    shots = []

    def shot(name):
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"walk-{size}-{len(shots) + 1:02d}-{name}.png"
        page.d.save_screenshot(str(path))
        shots.append(path)

    def controls_free():
        page.settle()
        assert page.d.execute_script(COVERED_JS) == [], "a toast lies over the phone's controls"

    page.log_in()
    sid = page.session_id()
    # An address per screen, with the app's own link where one shows it.
    page.wait(lambda d: address(page).endswith("/authenticated/home/favourites?link=jumper://io.idevs/home"),
              message=f"address {address(page)}")
    # History rows keep version, source and time apart.
    page.wait(lambda d: d.execute_script(ROW_LAYOUT_JS), message="a history row runs together")
    shot("home")

    # A guard's redirect reads as a move: its own toast, and its history entry says what waits.
    page.open_tab("settings", "settings")
    page.tap("Open Admin")
    page.wait_route("profile")
    assert page.find("[data-testid=toast-title]").text == "Redirected by a route guard"
    controls_free()
    shot("redirect")
    version = page.version()
    redirect = f"[data-testid=history] [data-version='{version}'] [data-testid=history-redirect]"
    page.wait(lambda d: d.find_elements(By.CSS_SELECTOR, redirect), message="the redirect's entry does not say so")

    # Back closes a sheet first, then pops; the address follows.
    page.open_tab("settings", "settings")
    page.tap("push_green")
    page.wait_route("green")
    page.tap("present_view")
    page.wait(lambda d: len(page.sheets()) == 1, message="no sheet")
    shot("sheet")
    page.d.back()
    page.wait(lambda d: not page.sheets(), message="Back left the sheet open")
    page.wait_route("green")
    assert f"/s/{sid}/" in page.d.current_url, "Back left the app"
    page.d.back()
    page.wait_route("settings")
    page.wait(lambda d: address(page).endswith("/authenticated/settings/settings?link=jumper://io.idevs/settings"),
              message=f"address {address(page)}")

    # A refusal's toast leaves every control free: the cover's close button answers at once.
    page.tap("Present Coordinator Fullscreen")
    page.find("[data-testid=cover]:not([data-leaving])")
    page.settle()
    ActionChains(page.d).send_keys(Keys.ESCAPE).perform()
    page.wait(lambda d: "swiping down" in d.find_elements(By.CSS_SELECTOR, "[data-testid=toast]")[-1].text,
              message="no toast for the refused swipe")
    controls_free()
    shot("refusal")
    page.live("sheet-close").click()
    page.gone("[data-testid=cover]:not([data-leaving])")

    # The inspector shows the JSON Patch a version made.
    latest = page.version()
    summary = page.find(f"[data-testid=history] [data-version='{latest}'] [data-testid=history-details] summary")
    page.d.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].click()", summary)
    page.wait(lambda d: d.execute_script(
        f"const p = document.querySelector(\"[data-testid=history] [data-version='{latest}'] "
        "[data-testid=history-patch]\"); return p && p.textContent.includes('/visible');"),
        message="no patch shown")
    shot("timeline")

    # A picture of the app: the map, with the screen on view highlighted.
    page.wait(lambda d: d.execute_script(ON_PATH_JS) == ["authenticated", "settings", "settings"],
              message="the map does not highlight the screen on view")
    page.d.execute_script("document.getElementById('map-expand').click()")
    page.find("[data-testid=map-dialog] [data-testid=app-map]")
    shot("map")
    axe = Axe(page.d)
    axe.inject()
    violations = [v["id"] for v in axe.run()["violations"]]
    assert violations == [], violations
    page.find("[data-testid=map-dialog-close]").click()
    assert all(path.stat().st_size > 0 for path in shots)
