"""The page drives a real session: every control posts to the API and the page renders what comes back."""
import os
import re
import shutil
from pathlib import Path

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ARTIFACTS, TEXT, find_nodes


def test_root_creates_a_session_and_reload_keeps_it(page):
    sid = page.open_new()
    page.wait_route("welcome")
    assert page.find("[data-testid=session-id]").text == sid
    page.d.refresh()
    page.wait_route("welcome")
    assert page.session_id() == sid


def test_unknown_session_offers_a_new_one(page):
    page.d.get(page.base + "/s/no-such-session-0000")
    # The default store keeps sessions across restarts: a restart is not what the page blames.
    notice = page.find("[data-testid=not-found]").text
    assert "expired or been deleted" in notice, notice
    assert "or the server restarted." not in notice, notice
    page.find("[data-testid=new-session]").click()
    page.wait(lambda d: "/s/no-such-session" not in d.current_url)
    page.wait_route("welcome")


def test_onboarding_and_login_with_empty_name_alert(page):
    page.open_new()
    page.tap("complete_onboarding")
    page.wait_route("login")
    page.tap("login")
    alert = page.find("[data-testid=alert]")
    assert "Username should not be empty" in alert.text
    page.tap("ok")
    page.gone("[data-testid=alert]")
    page.field("username").send_keys("ada")
    page.tap("login")
    tabbar = page.find("[data-testid=tabbar]")
    for route in ("home", "todos", "settings", "profile"):
        assert tabbar.find_element(By.CSS_SELECTOR, f"[data-testid=tab-{route}]")


def test_switch_tabs(page):
    page.log_in()
    page.open_tab("todos", "list")
    assert page.live("tab-todos").get_attribute("aria-current") == "page"
    page.open_tab("settings", "settings")
    assert page.live("tab-settings").get_attribute("aria-current") == "page"
    assert page.live("tab-todos").get_attribute("aria-current") is None


def test_push_and_back_with_the_nav_bar_button(page):
    page.log_in()
    page.open_tab("todos", "list")
    page.live("row-hello-world").click()
    page.wait_route("todo")
    page.live("nav-back").click()
    page.wait_route("list")


def test_push_and_back_with_the_browser_back_button(page):
    page.log_in()
    page.open_tab("todos", "list")
    page.live("row-buy-milk").click()
    page.wait_route("todo")
    page.d.back()
    page.wait_route("list")
    # The server agrees, and the page did not post more than one `back`.
    page.wait(lambda d: page.api("GET", f"/api/sessions/{page.session_id()}")[1]["visible"]["path"][-1] == "list")
    assert page.d.current_url.endswith(f"{page.session_id()}/authenticated/todos/list")


def test_create_todo_in_a_modal_coordinator(page):
    page.log_in()
    page.open_tab("todos", "list")
    page.tap("new_todo")
    page.wait(lambda d: len(page.sheets()) == 1, message="no sheet")
    page.wait_route("form")
    page.field("name").send_keys("Write the report")
    page.tap("create")
    page.wait(lambda d: not page.sheets(), message="create sheet still shown")
    page.wait_route("list")


def test_modal_dismissed_with_escape(page):
    page.log_in()
    page.open_tab("settings", "settings")
    page.tap("present_view")
    page.wait(lambda d: len(page.sheets()) == 1, message="no sheet")
    ActionChains(page.d).send_keys(Keys.ESCAPE).perform()
    page.wait(lambda d: not page.sheets(), message="sheet still shown")
    page.wait_route("settings")


def test_modal_dismissed_with_a_swipe_on_the_grabber(page):
    page.log_in()
    page.open_tab("settings", "settings")
    page.tap("present_view")
    page.wait(lambda d: len(page.sheets()) == 1, message="no sheet")
    grabber = page.live("sheet-grabber")
    ActionChains(page.d).click_and_hold(grabber).move_by_offset(0, 120).move_by_offset(0, 180).release().perform()
    page.wait(lambda d: not page.sheets(), message="sheet still shown")
    page.wait_route("settings")


def test_terms_refuse_to_be_dismissed_until_agreed(page):
    page.log_in()
    page.open_tab("settings", "settings")
    page.tap("present_terms")
    page.wait_route("terms")
    assert not page.d.find_elements(By.CSS_SELECTOR, "[data-testid=sheet]:not([data-leaving]) [data-testid=sheet-close]")
    ActionChains(page.d).send_keys(Keys.ESCAPE).perform()
    assert page.toast_text().strip()
    page.wait_route("terms")
    assert len(page.sheets()) == 1
    page.tap("i_agree")
    page.wait(lambda d: not page.sheets(), message="terms still shown")
    page.wait_route("settings")


def test_answer_an_alert(page):
    page.log_in()
    page.open_tab("settings", "settings")
    page.tap("show_alert")
    alert = page.find("[data-testid=alert]")
    alert.find_elements(By.CSS_SELECTOR, "button")[-1].click()
    page.gone("[data-testid=alert]")
    page.wait_route("settings")


def test_deep_link_from_the_inspector(page):
    page.log_in()
    box = page.find("[data-testid=deeplink-input]")
    box.send_keys("jumper://io.idevs/todo/buy-milk")
    page.find("[data-testid=deeplink-open]").click()
    page.wait_route("todo")
    assert "deeplinks" in page.find("[data-testid=curl]").text
    box.clear()
    box.send_keys("jumper://io.idevs/todo/no-such-todo")
    page.find("[data-testid=deeplink-open]").click()
    assert page.toast_text().strip()


def test_transition_from_another_client_appears_without_reload(page):
    page.log_in()
    page.wait_route("favourites")
    page.d.execute_script("window.__noReload = 'still here'")
    status, doc = page.api("GET", f"/api/sessions/{page.session_id()}")
    assert status == 200
    tabs = find_nodes(doc["tree"], "tab")
    body = {"coordinator": tabs[0]["id"], "steps": [{"action": "selectTab", "route": "settings"}]}
    status, _ = page.api("POST", f"/api/sessions/{page.session_id()}/transitions", body)
    assert status == 200
    page.wait_route("settings")
    assert page.d.execute_script("return window.__noReload") == "still here"


def test_two_tabs_stay_in_step(page):
    page.log_in()
    url = page.d.current_url
    first = page.d.current_window_handle
    page.d.switch_to.new_window("tab")
    page.d.get(url)
    page.wait_route("favourites")
    second = page.d.current_window_handle
    page.d.switch_to.window(first)
    page.open_tab("todos", "list")
    page.d.switch_to.window(second)
    page.wait_route("list")


def test_refused_step_shows_a_readable_message(page):
    page.log_in()
    page.open_tab("settings", "settings")
    page.tap("pop")  # nothing to pop at the root: the server refuses (409)
    toast = page.find("[data-testid=toast]")
    assert page.find("[data-testid=toast-title]").text.strip()
    assert "[object" not in toast.text
    page.wait_route("settings")


def test_readable_at_360_px(page):
    page.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 360, "height": 760, "deviceScaleFactor": 1, "mobile": True})
    page.log_in()
    page.open_tab("todos", "list")
    width = page.d.execute_script("return document.documentElement.clientWidth")
    scroll = page.d.execute_script("return document.documentElement.scrollWidth")
    assert scroll <= width + 1
    assert page.live("tab-settings").is_displayed()


def test_deep_state_screenshot(page):
    page.d.set_window_size(1400, 1100)
    page.log_in()
    page.open_tab("todos", "list")
    page.live("row-buy-milk").click()
    page.wait_route("todo")
    page.find("[data-testid=tree] .visible-item")
    page.settle()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    assert page.d.save_screenshot(str(ARTIFACTS / "page-deep-state.png"))
    if os.environ.get("SWITCHYARD_UPDATE_SCREENSHOT") == "1":
        # `make screenshot`: the README's picture is this one, taken by this test.
        shutil.copyfile(ARTIFACTS / "page-deep-state.png", Path(__file__).parents[2] / "docs" / "screenshot.png")


def test_every_icon_the_demo_shows_is_drawn(page):
    """The demo's symbols (sparkles on the welcome screen, person.circle on the login) have real glyphs, not the
    dashed placeholder for names the page does not know."""
    page.open_new()
    page.wait_route("welcome")
    shown = {icon.get_attribute("data-icon") for icon in page.d.find_elements(By.CSS_SELECTOR, "[data-icon]")}
    page.tap("complete_onboarding")
    page.wait_route("login")
    shown |= {icon.get_attribute("data-icon") for icon in page.d.find_elements(By.CSS_SELECTOR, "[data-icon]")}
    assert shown, "no icon rendered"
    assert "unknown" not in shown, shown


def test_a_newcomer_gets_a_hint_that_stays_dismissed(page):
    page.d.get(page.base + "/")
    page.d.execute_script("localStorage.clear()")
    page.d.refresh()
    page.wait_route("welcome")
    hint = page.find("[data-testid=hint]")
    assert hint.is_displayed()
    assert "Tap around in the phone" in hint.text
    page.d.save_screenshot(str(ARTIFACTS / "hint.png"))
    page.find("[data-testid=hint-dismiss]").click()
    page.wait(lambda d: not d.find_element(By.CSS_SELECTOR, "[data-testid=hint]").is_displayed())
    page.d.refresh()
    page.wait_route("welcome")
    assert not page.d.find_element(By.CSS_SELECTOR, "[data-testid=hint]").is_displayed()


def test_deep_link_examples_are_the_apps_own(page):
    page.open_new()
    page.wait_route("welcome")
    _, catalog = page.api("GET", "/api/catalog")
    assert catalog["deepLinkExamples"], "the demo declares examples"
    page.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, "[data-testid=deeplink-example]"))
              == len(catalog["deepLinkExamples"]))
    chips = page.d.find_elements(By.CSS_SELECTOR, "[data-testid=deeplink-example]")
    assert [chip.text for chip in chips] == catalog["deepLinkExamples"]
    chips[-1].click()
    assert page.find("[data-testid=deeplink-input]").get_attribute("value") == catalog["deepLinkExamples"][-1]


def test_the_curl_box_shows_a_change_made_elsewhere(page):
    sid = page.open_new()
    page.wait_route("welcome")
    status, _ = page.api("POST", f"/api/sessions/{sid}/events", {"name": "completeOnboarding"})
    assert status == 200
    page.wait_route("login")
    page.wait(lambda d: "/events" in d.find_element(By.CSS_SELECTOR, "[data-testid=curl]").text)
    curl = page.find("[data-testid=curl]").text
    assert "completeOnboarding" in curl and sid in curl


def test_the_history_is_above_the_fold_on_a_900_pixel_high_window(page):
    page.d.set_window_size(1280, 900)
    page.open_new()
    page.wait_route("welcome")
    top = page.d.execute_script("return document.getElementById('history-h').getBoundingClientRect().top")
    height = page.d.execute_script("return window.innerHeight")
    assert top < height - 150, f"the history starts at {top} px of {height}"


def test_an_icon_the_page_cannot_draw_shows_its_name(page):
    """Any name a screen or tab gives is readable: a known symbol is drawn, an unknown one is its name in a small
    label (never an empty or placeholder box)."""
    page.open_new()
    page.wait_route("welcome")
    drawn = page.d.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('/js/icons.js').then(({ icon, ICON_NAMES }) => {
          const known = icon('tray'), unknown = icon('no.such.symbol', { label: 'Mystery' });
          document.body.append(known, unknown);
          const box = unknown.getBoundingClientRect();
          done({ known: known.dataset.icon, svg: known.tagName.toLowerCase(), names: ICON_NAMES.length,
                 text: unknown.textContent, icon: unknown.dataset.icon, label: unknown.getAttribute('aria-label'),
                 width: box.width, height: box.height });
        });
    """)
    assert drawn["known"] == "tray" and drawn["svg"] == "svg"
    assert drawn["names"] >= 40, drawn
    assert drawn["text"] == "no.such.symbol" and drawn["icon"] == "unknown" and drawn["label"] == "Mystery"
    assert drawn["width"] > 8 and drawn["height"] > 8, drawn


def test_the_documented_icon_names_are_the_ones_drawn(page):
    page.open_new()
    names = page.d.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('/js/icons.js').then(({ ICON_NAMES }) => done([...ICON_NAMES]));
    """)
    doc = (Path(__file__).parents[2] / "docs" / "state-document.md").read_text()
    section = doc.split("### Icons", 1)[1].split("###", 1)[0]
    documented = set(re.findall(r"`([a-z0-9.]+)`", section.split("A tab's", 1)[0]))
    documented -= {"icon", "systemName"}
    assert documented == set(names), (documented ^ set(names))
