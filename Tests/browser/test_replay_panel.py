"""The inspector's release panel: with the admin token (Tests/browser/run.sh gives the server one), the served
versions, a replay of a sample of the stored sessions on one, and its report's counts; a wrong token is a message."""
import os

from selenium.webdriver.support.ui import Select

from conftest import ARTIFACTS

TOKEN = os.environ.get("SWITCHYARD_ADMIN_TOKEN", "")


def test_the_panel_replays_the_stored_sessions_on_a_version(page):
    page.log_in()
    panel = page.find("[data-testid=replay-panel]")
    page.d.execute_script("arguments[0].scrollIntoView()", panel)
    page.find("[data-testid=replay-open]").click()
    token = page.find("[data-testid=replay-token]")
    token.send_keys("not-the-admin-token-0123")
    page.find("[data-testid=replay-load]").click()
    assert "401" in page.toast_text() or "token" in page.toast_text().lower()
    token.clear()
    token.send_keys(TOKEN)
    page.find("[data-testid=replay-load]").click()
    versions = Select(page.find("[data-testid=replay-version]"))
    assert "todo@1 · configured · weight 100" in [option.text for option in versions.options]
    versions.select_by_visible_text("todo@1 · configured · weight 100")
    page.find("[data-testid=replay-run]").click()
    summary = page.find("[data-testid=replay-summary]")
    page.wait(lambda d: " replayed: " in summary.text, message=f"no report: {summary.text!r}")
    assert ", 0 diverged" in summary.text and "requests/s" in summary.text
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.d.execute_script("arguments[0].scrollIntoView({block: 'center'})", panel)
    panel.screenshot(str(ARTIFACTS / "replay-panel.png"))
