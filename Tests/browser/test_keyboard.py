"""The phone from the keyboard: Tab reaches its controls, Enter and Space activate them, focus moves into a sheet
and back to the control that opened it, Escape dismisses what a swipe may dismiss, and each new screen's title is
announced to screen readers."""
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys


def focused(page):
    """The focused element's tag, text and test id, read in one go (the phone may redraw between two reads)."""
    return page.d.execute_script(
        "const e = document.activeElement;"
        "return e ? [e.tagName, (e.textContent || '').trim(), e.getAttribute('data-testid') || '',"
        " !!e.closest('[data-testid=sheet]')] : ['', '', '', false]")


def tab_to(page, text):
    """Presses Tab until the phone's button with this text has the focus; returns its test id. Tab goes round the
    page (the inspector's controls too), so it may take as many presses as the page has tab stops, and no more."""
    stops = page.d.execute_script(
        "return document.querySelectorAll('a[href], button, input, select, textarea, summary,"
        " [tabindex]:not([tabindex=\"-1\"])').length")
    for _ in range(stops + 5):
        ActionChains(page.d).send_keys(Keys.TAB).perform()
        tag, label, testid, _ = focused(page)
        if tag == "BUTTON" and label == text:
            return testid
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
    page.wait(lambda d: focused(page)[2] == "nav-title" and focused(page)[3],
              message="focus did not move into the sheet")
    title = focused(page)[1]
    assert title and announced(page) == title

    ActionChains(page.d).send_keys(Keys.ESCAPE).perform()
    page.wait(lambda d: not page.sheets(), message="Escape did not dismiss the sheet")
    page.wait(lambda d: focused(page)[1] == "Present View", message="focus did not return to the opener")
    assert focused(page)[2] == opener
