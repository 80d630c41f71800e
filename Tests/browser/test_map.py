"""The map of the app: the whole catalog drawn as SVG, the screen shown highlighted live, each route with how often
this session took it, and a route clicked previews it before opening it; for the demo and for an app declared as
data, at desktop and phone size."""
import os
import shutil

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ARTIFACTS, ROOT, SIZES, Page


ON_PATH_JS = """
return [...document.querySelectorAll('#map .map-route.on-path')].map((r) => `${r.dataset.type}/${r.dataset.route}`);
"""



def drawn(page):
    """The map's boxes and routes as drawn: {type: [route, ...]}."""
    page.find("#map [data-testid=app-map]")
    return page.d.execute_script("""
        const boxes = {};
        for (const box of document.querySelectorAll('#map .map-box')) {
          boxes[box.dataset.type] = [...box.querySelectorAll('.map-route')].map((r) => r.dataset.route);
        }
        return boxes;""")


FOCUS_JS = """
const row = document.querySelector(`#map .map-route[data-type="${arguments[0]}"][data-route="${arguments[1]}"]`);
row?.focus();
return !!row && document.activeElement === row;
"""


def on_path(page):
    return page.d.execute_script(ON_PATH_JS)


def route(page, type_name, name):
    return page.find(f"#map .map-route[data-type='{type_name}'][data-route='{name}']")


def click_route(page, type_name, name):
    """Clicks a route of the map; the map redraws as changes come in, so a row found just before may be replaced."""
    for _ in range(5):
        try:
            route(page, type_name, name).click()
            return
        except StaleElementReferenceException:
            continue
    raise AssertionError(f"the route {type_name}/{name} kept being redrawn")


def taken(page, type_name, name):
    return int(route(page, type_name, name).get_attribute("data-taken"))


def enlarged_screenshot(page, name, docs_name=None):
    """The enlarged map as a test artifact; with `make screenshot`, also the docs' picture `docs_name` (on a window
    large enough for the whole map)."""
    updating = docs_name and os.environ.get("SWITCHYARD_UPDATE_SCREENSHOT") == "1"
    if updating:
        page.d.set_window_size(1600, 1100)
    page.d.execute_script("document.getElementById('map-expand').click()")
    page.find("[data-testid=map-dialog] [data-testid=app-map]")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.d.save_screenshot(str(ARTIFACTS / name))
    if updating:
        shutil.copyfile(ARTIFACTS / name, ROOT / "docs" / docs_name)
    page.find("[data-testid=map-dialog-close]").click()
    page.gone("[data-testid=map-dialog]")


@pytest.mark.parametrize("size", SIZES)
def test_the_map_draws_the_whole_catalog_and_follows_the_screen(page, size):
    page.sized(size).log_in()
    sid = page.session_id()
    _, catalog = page.api("GET", f"/api/sessions/{sid}/catalog")
    expected = {c["type"]: [r["name"] for r in c["routes"]] for c in catalog["coordinators"]}
    page.wait(lambda d: drawn(page) == expected, message=f"the map is not the catalog: {drawn(page)}")
    links = page.find("#map [data-testid=map-deeplinks]").text
    assert all(pattern in links for pattern in catalog["deepLinks"]), links
    events = page.find("#map [data-type=AppCoordinator]").text
    assert "completeOnboarding" in events and "login" in events
    assert route(page, "SettingsCoordinator", "admin").find_elements(By.CSS_SELECTOR, "[data-testid=map-guard]"), \
        "a guarded route shows its padlock"
    assert "guarded" in route(page, "SettingsCoordinator", "admin").get_attribute("aria-label")
    page.wait(lambda d: on_path(page) == ["AppCoordinator/authenticated", "AuthenticatedCoordinator/home",
                                          "HomeCoordinator/favourites"], message=f"highlighted: {on_path(page)}")
    # Another client moves the session: the highlight follows, live.
    page.api("POST", f"/api/sessions/{sid}/deeplinks", {"url": "stinsenapp://todo/buy-milk"})
    page.wait_route("todo")
    page.wait(lambda d: on_path(page) == ["AppCoordinator/authenticated", "AuthenticatedCoordinator/todos",
                                          "TodosCoordinator/list", "TodosCoordinator/todo"],
              message=f"highlighted: {on_path(page)}")
    page.settle()
    if size == "desktop":
        enlarged_screenshot(page, "map-demo-desktop.png", "map-demo.png")
    else:
        page.d.execute_script("document.getElementById('map').scrollIntoView()")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.d.save_screenshot(str(ARTIFACTS / "map-demo-phone.png"))


def test_each_route_counts_how_often_the_session_took_it(page):
    page.log_in()
    page.open_tab("settings", "settings")
    for _ in range(2):
        page.tap("push_green")
        page.wait_route("green")
        page.live("nav-back").click()
        page.wait_route("settings")
    page.wait(lambda d: taken(page, "SettingsCoordinator", "green") == 2, message="green was taken twice")
    assert taken(page, "SettingsCoordinator", "yellow") == 0
    assert taken(page, "AuthenticatedCoordinator", "settings") == 1
    assert "×2" in route(page, "SettingsCoordinator", "green").text
    # A reload counts the whole history again, to the same numbers.
    page.d.refresh()
    page.wait(lambda d: taken(page, "SettingsCoordinator", "green") == 2, message="the counts did not survive a reload")


def test_a_route_clicked_on_the_map_is_previewed_then_opened(page):
    page.log_in()
    page.open_tab("settings", "settings")
    version = page.version()
    click_route(page, "SettingsCoordinator", "green")
    banner = page.find("[data-testid=viewing]")
    assert "Preview of green" in banner.text
    page.wait_route("green")  # the phone shows the preview ...
    status, doc = page.api("GET", f"/api/sessions/{page.session_id()}")
    assert doc["version"] == version, "... and the session did not change"
    page.find("[data-testid=viewing-apply]").click()
    page.wait(lambda d: page.version() == version + 1, message="Open it did not open the route")
    page.wait_route("green")
    # A route that takes an input asks for it first.
    click_route(page, "TodosCoordinator", "todo")
    field = page.find("[data-testid=map-input-value]")
    field.send_keys("buy-milk")
    page.find("[data-testid=map-input] button[type=submit]").click()
    assert "Preview of todo" in page.find("[data-testid=viewing]").text
    page.find("[data-testid=viewing-apply]").click()
    page.wait(lambda d: page.version() == version + 2, message="the todo did not open")
    _, doc = page.api("GET", f"/api/sessions/{page.session_id()}")
    assert doc["visible"]["path"][-1] == "todo"


def test_a_route_can_be_previewed_with_the_keyboard(page):
    page.log_in()
    route(page, "HomeCoordinator", "pickFavourite")
    page.wait(lambda d: d.execute_script(FOCUS_JS, "HomeCoordinator", "pickFavourite"))
    # The map redraws as the history comes in; the focused route keeps the focus, and Enter goes to it.
    ActionChains(page.d).send_keys(Keys.ENTER).perform()
    assert "Preview of pickFavourite" in page.find("[data-testid=viewing]").text


def test_the_map_of_an_app_declared_as_data(driver, mail_url):
    page = Page(driver, mail_url)
    page.open_new()
    page.wait_route("login")
    _, catalog = page.api("GET", f"/api/sessions/{page.session_id()}/catalog")
    expected = {c["type"]: [r["name"] for r in c["routes"]] for c in catalog["coordinators"]}
    page.wait(lambda d: drawn(page) == expected, message=f"the map is not the mail app's catalog: {drawn(page)}")
    assert on_path(page), "the login screen is highlighted"
    page.field("user").send_keys("ada")
    page.tap("Log in")
    page.wait_route("list")
    page.live("row-m1").click()
    page.wait_route("message")
    page.wait(lambda d: len(on_path(page)) >= 3, message=f"highlighted: {on_path(page)}")
    enlarged_screenshot(page, "map-mail-desktop.png", "map-mail.png")
