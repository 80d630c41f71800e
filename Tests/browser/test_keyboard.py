"""The phone from the keyboard: Tab reaches its controls, Enter and Space activate them, focus moves into a sheet
and back to the control that opened it, Escape dismisses what a swipe may dismiss, and each new screen's title is
announced to screen readers."""
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys


def active(page):
    return page.d.switch_to.active_element


def tab_to(page, text, limit=60):
    """Presses Tab until the focused element is the phone's button with this text."""
    for _ in range(limit):
        ActionChains(page.d).send_keys(Keys.TAB).perform()
        element = active(page)
        if element.tag_name == "button" and element.text.strip() == text:
            return element
    raise AssertionError(f"Tab never reached the button {text!r}")


def announced(page):
    return page.d.find_element(By.CSS_SELECTOR, "[data-testid=announcer]").get_attribute("textContent")


def test_the_phone_works_from_the_keyboard_and_announces_each_screen(page):
    page.open_new()
    page.wait_route("welcome")
    page.settle()
    page.wait(lambda d: announced(page) == "Welcome", message="the first screen's title is announced")
    tab_to(page, "Complete onboarding")
    ActionChains(page.d).send_keys(Keys.ENTER).perform()
    page.wait_route("login")
    page.wait(lambda d: announced(page) == "Login", message=f"announced {announced(page)!r}")

    page.log_in()
    page.open_tab("settings", "settings")
    page.settle()
    opener = tab_to(page, "Present View")
    ActionChains(page.d).send_keys(Keys.SPACE).perform()
    page.wait(lambda d: len(page.sheets()) == 1, message="no sheet")
    page.settle()
    page.wait(lambda d: active(page).get_attribute("data-testid") == "nav-title"
              and d.execute_script("return !!arguments[0].closest('[data-testid=sheet]')", active(page)),
              message="focus did not move into the sheet")
    title = active(page).text
    assert title and announced(page) == title

    ActionChains(page.d).send_keys(Keys.ESCAPE).perform()
    page.wait(lambda d: not page.sheets(), message="Escape did not dismiss the sheet")
    page.wait(lambda d: active(page).text.strip() == "Present View", message="focus did not return to the opener")
    assert active(page).get_attribute("data-testid") == opener.get_attribute("data-testid")
