"""The inspector's history as a timeline: each version with its source, request, the coordinators it started and
finished, a guard's redirect, and (opened) the JSON Patch it made, read from the store; filters by source, and the
session's recent refusals, which are not versions. At desktop and phone size."""
import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from conftest import ARTIFACTS, SIZES




def entry(page, version):
    return page.find(f"[data-testid=history] [data-version='{version}']")


def text_of(page, version, testid):
    """The text of a part of a history entry, read in one go (the list is redrawn as changes come in)."""
    return page.d.execute_script(
        "const e = document.querySelector(`[data-testid=history] [data-version='${arguments[0]}'] "
        "[data-testid=${arguments[1]}]`); return e ? e.textContent : null;", version, testid)


@pytest.mark.parametrize("size", SIZES)
def test_each_version_shows_its_request_coordinators_and_patch(page, size):
    page.sized(size).log_in()
    sid = page.session_id()
    page.wait(lambda d: text_of(page, 2, "history-lifecycle"), message="no lifecycle on the login's entry")
    lifecycle = text_of(page, 2, "history-lifecycle")
    assert "started AuthenticatedCoordinator" in lifecycle and "finished UnauthenticatedCoordinator" in lifecycle
    details = entry(page, 2).find_element(By.CSS_SELECTOR, "[data-testid=history-details]")
    page.d.execute_script("arguments[0].scrollIntoView({block: 'center'})", details)
    details.find_element(By.TAG_NAME, "summary").click()
    _, expected = page.api("GET", f"/api/sessions/{sid}/versions/2/patch")
    page.wait(lambda d: (text_of(page, 2, "history-patch") or "").count("\n") + 1 == len(expected["patch"]),
              message=f"the patch shown is not the {len(expected['patch'])} operations of version 2")
    patch = text_of(page, 2, "history-patch")
    assert "replace /visible/path" in patch or "/visible" in patch, patch
    assert '"login"' in entry(page, 2).text
    # It stays open while later changes redraw the list.
    page.open_tab("todos", "list")
    page.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-testid=history] [data-version='3']"))
    assert page.d.execute_script(
        "return document.querySelector(\"[data-testid=history] [data-version='2'] details\").open")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.d.save_screenshot(str(ARTIFACTS / f"timeline-{size}.png"))


def test_a_guards_redirect_reads_as_one_in_the_history(page):
    page.log_in()
    page.open_tab("settings", "settings")
    page.tap("Open Admin")
    page.wait_route("profile")
    version = page.version()
    page.wait(lambda d: text_of(page, version, "history-redirect"), message="the redirect's entry does not say so")
    assert text_of(page, version, "history-redirect") == "⤷ redirected: admin of SettingsCoordinator waits for its guard"


def test_the_history_filters_by_source_and_lists_refusals(page):
    page.log_in()
    page.open_tab("settings", "settings")
    page.tap("Present Coordinator Fullscreen")
    page.find("[data-testid=cover]:not([data-leaving])")
    page.settle()
    ActionChains(page.d).send_keys(Keys.ESCAPE).perform()  # refused: a cover is not swiped down
    assert "swiping down" in page.toast_text()
    select = Select(page.find("[data-testid=history-filter]"))
    select.select_by_value("event")
    page.wait(lambda d: [e.get_attribute("data-version") for e in
                         d.find_elements(By.CSS_SELECTOR, "[data-testid=history] .hentry")] == ["2", "1"],
              message="the event filter does not show just the two events")
    select.select_by_value("refusals")
    page.gone("[data-testid=history]")
    refusal = page.find("[data-testid=refusals] [data-testid=refusal]")
    assert "409" in refusal.text and "notSwipeDismissible" in refusal.text and "dismissModal" in refusal.text
    select.select_by_value("all")
    page.find("[data-testid=history] [data-version='4']")
