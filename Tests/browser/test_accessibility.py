"""axe-core (axe-selenium-python) finds no accessibility violation in any state the page shows."""
import time

from axe_selenium_python import Axe
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException


def violations(page):
    page.settle()
    time.sleep(0.4)  # alerts and sheets fade in: their colours are only final then
    axe = Axe(page.d)
    axe.inject()
    result = axe.run()
    return [(v["id"], v["impact"], [node["target"] for node in v["nodes"]][:3],
             v["nodes"][0].get("failureSummary", "")[:200]) for v in result["violations"]]


def click_history_entry(page, version):
    """Clicks a history entry once the list shows the live version (it is redrawn after every change)."""
    live = page.find("[data-testid=version]").text
    page.wait(lambda d: d.find_elements(By.CSS_SELECTOR, f"[data-testid=history] [data-version='{live}']"))

    def attempt(d):
        try:
            entry = d.find_element(By.CSS_SELECTOR, f"[data-testid=history] [data-version='{version}'] "
                                                    "[data-testid=history-view]")
            d.execute_script("arguments[0].scrollIntoView({block: 'center'})", entry)
            entry.click()
            return True
        except (StaleElementReferenceException, NoSuchElementException):
            return False
    page.wait(attempt, message=f"history entry {version} not clickable")


def test_no_axe_violation_in_any_state(page):
    found = {}
    page.open_new()
    page.wait_route("welcome")
    found["welcome (with the hint)"] = violations(page)
    page.tap("complete_onboarding")
    page.wait_route("login")
    found["login"] = violations(page)
    page.tap("login")
    page.find("[data-testid=alert]")
    found["alert"] = violations(page)
    page.tap("ok")
    page.gone("[data-testid=alert]")
    page.field("username").send_keys("ada")
    page.tap("login")
    page.find("[data-testid=tabbar]")
    found["tabs"] = violations(page)
    page.open_tab("todos", "list")
    page.live("row-buy-milk").click()
    page.wait_route("todo")
    found["pushed screen"] = violations(page)
    # A favourite puts a badge on the Home tab.
    page.live("toggle-favourite").click()
    page.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-testid=tab-home] .tab-badge"), message="no badge")
    found["tabs with a badge"] = violations(page)
    page.open_tab("settings", "settings")
    page.tap("present_view")
    page.wait(lambda d: len(page.sheets()) == 1, message="no sheet")
    found["modal sheet"] = violations(page)
    ActionChains(page.d).send_keys(Keys.ESCAPE).perform()
    page.wait(lambda d: not page.sheets(), message="sheet still shown")
    page.tap("present_terms")
    page.wait_route("terms")
    found["non-dismissible sheet"] = violations(page)
    page.tap("i_agree")
    page.wait(lambda d: not page.sheets(), message="terms still shown")
    click_history_entry(page, 1)
    page.find("[data-testid=viewing]")
    found["inspector: an earlier version"] = violations(page)
    page.find("[data-testid=viewing-close]").click()
    page.tap("Present Coordinator Fullscreen")
    page.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-presentation=fullScreen], .cover, [data-testid=cover]")
              or True)
    found["full-screen cover"] = violations(page)
    page.live("sheet-close").click()
    page.gone("[data-testid=cover]:not([data-leaving])")
    page.d.execute_script("document.getElementById('map-expand').click()")
    page.find("[data-testid=map-dialog] [data-testid=app-map]")
    found["the map, enlarged"] = violations(page)
    page.find("[data-testid=map-dialog-close]").click()
    page.gone("[data-testid=map-dialog]")
    page.d.execute_script("document.querySelector('#map .map-route[data-route=todo]')"
                           ".dispatchEvent(new MouseEvent('click', {bubbles: true}))")
    page.find("[data-testid=map-input-value]")
    found["the map asking for a route's input"] = violations(page)
    assert_none(found)


def test_no_axe_violation_at_phone_size(page):
    page.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    found = {}
    page.log_in()
    found["phone: tabs"] = violations(page)
    page.open_tab("settings", "settings")
    page.tap("present_view")
    page.wait(lambda d: len(page.sheets()) == 1, message="no sheet")
    found["phone: sheet"] = violations(page)
    page.d.execute_script("document.getElementById('map-expand').click()")
    page.find("[data-testid=map-dialog] [data-testid=app-map]")
    found["phone: the map, enlarged"] = violations(page)
    assert_none(found)


def assert_none(found):
    bad = {state: issues for state, issues in found.items() if issues}
    for state, issues in bad.items():
        print(state)
        for issue in issues:
            print("   ", issue)
    assert not bad, bad
