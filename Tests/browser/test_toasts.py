"""Toasts never lie over the phone's controls, at desktop and phone size: a refusal's message leaves every button of
the phone free to tap (at phone size one used to intercept the tap on a full-screen cover's close button). A
full-screen cover is not swiped down (Escape), and its own close button closes it."""
import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from conftest import ARTIFACTS, SIZES


COVERED_JS = """
const toasts = [...document.querySelectorAll('[data-testid=toast]')].map((t) => t.getBoundingClientRect());
const controls = [...document.querySelectorAll('#phone button, #phone input, #phone [role=tab], #phone a')]
  .filter((c) => !c.closest('[inert], [data-leaving]') && c.getClientRects().length);
const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
return controls.filter((c) => toasts.some((t) => overlaps(t, c.getBoundingClientRect())))
  .map((c) => c.dataset.testid || c.textContent.trim() || c.tagName);
"""


@pytest.mark.parametrize("size", SIZES)
def test_a_toast_leaves_the_phones_controls_free(page, size):
    page.sized(size)
    page.log_in()
    page.open_tab("settings", "settings")
    page.tap("Present Coordinator Fullscreen")
    page.find("[data-testid=cover]:not([data-leaving])")
    page.settle()
    version = page.version()
    ActionChains(page.d).send_keys(Keys.ESCAPE).perform()  # the swipe-down gesture: refused for a cover
    assert "swiping down does not close it" in page.toast_text()
    assert page.version() == version, "the refused swipe changed nothing"
    page.settle()
    assert page.d.execute_script(COVERED_JS) == [], "a toast lies over the phone's controls"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.d.save_screenshot(str(ARTIFACTS / f"toast-{size}.png"))
    # The cover's own close button answers while the toast is shown: nothing lies over it.
    page.live("sheet-close").click()
    page.wait(lambda d: page.version() == version + 1, message="the cover's close button changed nothing")
    page.gone("[data-testid=cover]:not([data-leaving])")
