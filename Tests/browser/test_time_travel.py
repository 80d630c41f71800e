"""The inspector's time travel: see an earlier version, restore it, and preview a deep link before opening it."""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys


def view_version(page, version):
    """Clicks a history entry once the list shows the live version (the list is redrawn, newest first, after each
    change: clicking while it is redrawn could land on the entry that moved into the place)."""
    live = page.version()
    page.find(f"[data-testid=history] li:first-child[data-version='{live}']")
    css = f"[data-testid=history] [data-version='{version}'] [data-testid=history-view]"
    page.wait(lambda d: page.find(css).click() is None, message=f"no history entry for version {version}")


def test_see_an_earlier_version_and_restore_it(page):
    page.log_in()
    page.open_tab("settings", "settings")
    page.tap("push_green")
    page.wait_route("green")
    live = page.version()
    # The login's version (the home tab), from the history.
    view_version(page, 2)
    banner = page.find("[data-testid=viewing]")
    assert "Version 2" in page.find("[data-testid=viewing-text]").text
    page.wait_route("favourites")
    assert page.d.find_element(By.ID, "phone").get_attribute("inert") is not None, "read-only while viewing"
    assert page.version() == live, "the live state did not change"
    # Back to live: the phone shows the live state again.
    page.find("[data-testid=viewing-close]").click()
    page.gone("[data-testid=viewing]")
    page.wait_route("green")
    # Again, and restore it: a new version that shows the home tab.
    view_version(page, 2)
    page.find("[data-testid=viewing-apply]").click()
    page.wait(lambda d: page.version() == live + 1, message="the restore did not make a new version")
    page.wait_route("favourites")
    assert banner.is_displayed() is False
    page.wait(lambda d: "restore to v2" in page.find("[data-testid=history]").text,
              message="the history does not show the restore")


def test_escape_leaves_an_earlier_version(page):
    page.log_in()
    view_version(page, 1)
    page.wait_route("login")
    page.d.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    page.gone("[data-testid=viewing]")
    page.wait_route("favourites")


def test_preview_a_deep_link_then_open_it(page):
    page.log_in()
    version = page.version()
    box = page.find("[data-testid=deeplink-input]")
    box.send_keys("stinsenapp://todo/buy-milk")
    page.find("[data-testid=deeplink-preview]").click()
    text = page.find("[data-testid=viewing-text]").text
    assert "Preview of stinsenapp://todo/buy-milk" in text and "it would open" in text
    page.wait_route("todo")
    assert "preview/deeplinks" in page.find("[data-testid=curl]").text
    status, doc = page.api("GET", f"/api/sessions/{page.session_id()}")
    assert status == 200 and doc["version"] == version, "a preview commits nothing"
    page.find("[data-testid=viewing-apply]").click()
    page.wait(lambda d: page.version() == version + 1, message="opening the link made no version")
    page.wait_route("todo")
    # A link that would be refused shows the same problem as opening it.
    box.clear()
    box.send_keys("jumper://io.idevs/todo/no-such-todo")
    page.find("[data-testid=deeplink-preview]").click()
    assert "no-such-todo" in page.toast_text()
    assert not page.d.find_element(By.CSS_SELECTOR, "[data-testid=viewing]").is_displayed()


def test_a_history_row_keeps_its_version_source_and_time_apart(page):
    """Each row's first line lays out version, source and time side by side with space between (a rule for the
    row's spans once ran them together: "v4event6:00:47 PM")."""
    page.log_in()
    live = page.version()
    page.find(f"[data-testid=history] li:first-child[data-version='{live}']")
    # Read at once (the list is redrawn after each change).
    layout = page.d.execute_script("""
        const row = document.querySelector('[data-testid=history] li:first-child .hline');
        const box = (css) => row.querySelector(css).getBoundingClientRect();
        return { display: getComputedStyle(row).display, parts: ['.hver', '.hsource', 'time'].map((css) => {
          const b = box(css); return { left: b.left, right: b.right, top: b.top }; }) };
    """)
    assert layout["display"] == "flex"
    version, source, time = layout["parts"]
    assert version["top"] == source["top"] == time["top"], f"one line: {layout}"
    assert source["left"] > version["right"], f"space after the version: {layout}"
    assert time["left"] > source["right"], f"space before the time: {layout}"
