"""An app declared as data (Examples/Definitions/mail.json) in the real page: a server of its own serves it with
`--app`, and the page renders and drives it like any app: a text field and an event with a requirement, the tab bar
with a badge counted from the data, a list bound to the data with icons from templates, a pushed screen."""
from selenium.webdriver.common.by import By

from conftest import Page


def test_the_page_renders_and_drives_a_defined_app(driver, mail_url):
    page = Page(driver, mail_url)
    page.open_new()  # the first definition served is the default app
    page.wait_route("login")
    assert page.find("#phone").text.count("Log in") >= 1
    page.tap("Log in")  # an empty name: the requirement refuses it, and the page says why
    assert "Type a name" in page.toast_text()
    page.field("user").send_keys("ada")
    page.tap("Log in")
    page.find("[data-testid=tabbar]")
    page.wait_route("list")
    tabbar = page.find("[data-testid=tabbar]").text
    assert "Inbox" in tabbar and "2" in tabbar, tabbar
    phone = page.find("#phone")
    assert "Inbox of ada" in phone.text and "Hello" in phone.text and "Lunch?" in phone.text
    page.live("row-m1").click()
    page.wait_route("message")
    assert "Message m1" in page.find("#phone").text
    page.open_tab("settings", "settings")
    page.tap("Read the lunch message")  # a deepLink action: the page posts it to .../deeplinks
    page.wait_route("message")
    assert "Message m2" in page.find("#phone").text


def test_a_session_of_another_app_shows_its_own_deep_link_examples(driver, mail_url):
    """The server's default app is mail; a session of the demo (todo) shows the demo's examples, not mail's."""
    page = Page(driver, mail_url)
    _, created = page.api("POST", "/api/sessions", {"app": "todo"})
    _, catalog = page.api("GET", f"/api/sessions/{created['session']}/catalog")
    assert "jumper://io.idevs/home" in catalog["deepLinkExamples"]
    driver.get(f"{mail_url}/s/{created['session']}")
    page.wait_route("welcome")
    page.wait(lambda d: [chip.text for chip in d.find_elements(By.CSS_SELECTOR, "[data-testid=deeplink-example]")]
              == catalog["deepLinkExamples"], message="the chips are not the demo's examples")
