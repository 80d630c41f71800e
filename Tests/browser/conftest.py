"""Selenium fixtures and a small page helper for the Switchyard page (Public/)."""
import json
import os
import pathlib
import sys

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "support"))
import harness  # noqa: E402  (Tests/support/harness.py)

ARTIFACTS = ROOT / "test-artifacts"

# The sizes the page is tested at: a laptop window, and a phone (emulated as a mobile device).
SIZES = {"desktop": (1280, 900), "phone": (390, 844)}
TIMEOUT = 10

# Visible texts of the demo app, in one place so that a rename is a one-line change.
TEXT = {
    "complete_onboarding": "Complete onboarding",
    "login": "Login",
    "ok": "OK",
    "new_todo": "New todo",
    "create": "Create",
    "push_green": "Push Green",
    "present_view": "Present View",
    "present_terms": "Present Terms",
    "i_agree": "I agree",
    "show_alert": "Show Alert",
    "pop": "Pop",
}

# The route shown on top: the last live page of the highest live layer.
TOP_ROUTE_JS = """
const layers = [...document.querySelectorAll('#layers > .layer:not([data-leaving])')]
  .sort((a, b) => Number(a.style.zIndex) - Number(b.style.zIndex));
const top = layers[layers.length - 1];
const page = top && top.querySelector('.page:not([data-leaving])');
return page ? page.dataset.route : null;
"""

SETTLED_JS = "return !document.querySelector('#phone .enter-rise, #phone .enter-push, #phone .enter-pop, #phone [data-leaving]')"

LIVE = "not(ancestor-or-self::*[@inert]) and not(ancestor-or-self::*[@data-leaving])"


@pytest.fixture(scope="session")
def base_url():
    url = os.environ.get("SWITCHYARD_URL")
    if not url:
        pytest.fail("SWITCHYARD_URL is not set (run the suite through Tests/browser/run.sh)")
    return url.rstrip("/")


@pytest.fixture(scope="session")
def browser():
    """One Chromium per test process (starting one costs about a second); each test gets it reset (`driver`)."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--window-size=1280,900", "--disable-dev-shm-usage"):
        options.add_argument(arg)
    drv = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    yield drv
    drv.quit()


@pytest.fixture
def driver(browser, base_url):
    """The browser as a new one would be: one blank tab at the default size, no emulated device, and nothing the
    page stored for the server's origin (local storage, cookies, caches)."""
    yield browser
    origins = {base_url}
    for handle in browser.window_handles:
        browser.switch_to.window(handle)
        origin = browser.execute_script("return window.location.origin")
        if origin and origin.startswith("http"):
            origins.add(origin)
    # A new tab (its session storage and history start empty), then the others closed.
    old = browser.window_handles
    browser.switch_to.new_window("tab")
    fresh = browser.current_window_handle
    for handle in old:
        browser.switch_to.window(handle)
        browser.close()
    browser.switch_to.window(fresh)
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    for origin in origins:
        browser.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
    browser.execute_cdp_cmd("Network.clearBrowserCookies", {})
    browser.set_window_size(1280, 900)


@pytest.fixture(scope="session")
def mail_url():
    """A server of its own serving the apps declared as data in Examples/Definitions (mail is its default)."""
    binary = os.environ.get("SWITCHYARD_BIN", str(ROOT / ".build/debug/switchyard"))
    server = harness.Server(binary, "--store", "memory", "--app", str(ROOT / "Examples/Definitions"),
                            public=ROOT / "Public", log=str(ROOT / "test-artifacts/browser-defined-app.log"),
                            label="the defined-app server").start()
    yield server.url
    server.stop()


@pytest.fixture
def page(driver, base_url):
    return Page(driver, base_url)


class Page:
    def __init__(self, driver, base_url):
        self.d = driver
        self.base = base_url

    # ---- waiting ----
    def wait(self, condition, timeout=TIMEOUT, message=""):
        return WebDriverWait(self.d, timeout, ignored_exceptions=(StaleElementReferenceException,)).until(
            condition, message)

    def find(self, css):
        return self.wait(EC.visibility_of_element_located((By.CSS_SELECTOR, css)), message=f"no visible {css}")

    def gone(self, css):
        self.wait(lambda d: not [e for e in d.find_elements(By.CSS_SELECTOR, css) if e.is_displayed()],
                  message=f"{css} still visible")

    def sized(self, size):
        """The page at one of SIZES: a window of that size, or (phone) an emulated mobile device."""
        width, height = SIZES[size]
        if size == "phone":
            self.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                   {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
        else:
            self.d.set_window_size(width, height)
        return self

    # ---- the phone ----
    def open_new(self):
        self.d.get(self.base + "/")
        self.wait(lambda d: "/s/" in d.current_url, message="URL did not become /s/<id>")
        self.wait(lambda d: self.top_route() is not None, message="nothing rendered")
        return self.session_id()

    def session_id(self):
        return self.d.current_url.split("/s/")[1].split("?")[0].split("/")[0]

    def top_route(self):
        return self.d.execute_script(TOP_ROUTE_JS)

    def wait_route(self, route):
        self.wait(lambda d: self.top_route() == route, message=f"top route is {self.top_route()!r}, not {route!r}")

    def settle(self):
        """Waits until no push/pop/rise animation is running in the phone (elements are where they stay)."""
        self.wait(lambda d: d.execute_script(SETTLED_JS), message="phone still animating")

    def button(self, text):
        """A clickable, live (not covered, not leaving) button in the phone with this visible text."""
        self.settle()
        xpath = f"//*[@data-testid='phone']//button[{LIVE}][normalize-space()={json.dumps(text)}]"
        return self.wait(EC.element_to_be_clickable((By.XPATH, xpath)), message=f"no button {text!r}")

    def tap(self, key_or_text):
        self.button(TEXT.get(key_or_text, key_or_text)).click()

    def live(self, testid):
        self.settle()
        xpath = f"//*[@data-testid='phone']//*[@data-testid={json.dumps(testid)}][{LIVE}]"
        return self.wait(EC.element_to_be_clickable((By.XPATH, xpath)), message=f"no live {testid}")

    def field(self, field_id):
        return self.live(f"field-{field_id}")

    def sheets(self):
        return [e for e in self.d.find_elements(By.CSS_SELECTOR, "[data-testid=sheet]:not([data-leaving])")]

    def version(self):
        return int(self.d.find_element(By.ID, "phone").get_attribute("data-version") or 0)

    def toast_text(self):
        toast = self.find("[data-testid=toast]")
        return toast.text

    # ---- flows ----
    def log_in(self, name="ada"):
        self.open_new()
        self.tap("complete_onboarding")
        self.wait_route("login")
        self.field("username").send_keys(name)
        self.tap("login")
        self.find("[data-testid=tabbar]")

    def open_tab(self, route, top_route):
        self.live(f"tab-{route}").click()
        self.wait_route(top_route)

    # ---- the API, as another client would use it ----
    def api(self, method, path, body=None):
        """(status, the answer's JSON or None) for any status."""
        status, _, answer = harness.request(self.base, method, path, body)
        return status, json.loads(answer or b"null")


def find_nodes(node, kind):
    """Every coordinator node of this kind in a state document's tree."""
    found = [node] if node.get("kind") == kind else []
    entries = ([node["root"]] if node.get("root") else []) + node.get("tabs", []) + node.get("stack", [])
    for entry in entries:
        if entry.get("coordinator"):
            found += find_nodes(entry["coordinator"], kind)
    return found
