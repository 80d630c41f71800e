"""The browser's history is the navigation's: each screen has its own address (the app's deep link where one shows
it), reload and a shared address open that screen, and Back goes back as iOS would, at desktop and phone size."""
from urllib.parse import unquote

import pytest

from conftest import ARTIFACTS, SIZES




def address(page):
    """The page's address after the host, with the link's query decoded."""
    return unquote(page.d.current_url[len(page.base):])


def wait_address(page, ending):
    page.wait(lambda d: address(page).endswith(ending), message=f"address {address(page)!r} does not end {ending!r}")


@pytest.mark.parametrize("size", SIZES)
def test_each_screen_has_its_own_address_and_reload_opens_it(page, size):
    page.sized(size).log_in()
    sid = page.session_id()
    wait_address(page, f"/s/{sid}/authenticated/home/favourites?link=jumper://io.idevs/home")
    page.open_tab("todos", "list")
    wait_address(page, f"/s/{sid}/authenticated/todos/list")
    page.live("row-buy-milk").click()
    page.wait_route("todo")
    wait_address(page, f"/s/{sid}/authenticated/todos/list/todo?link=stinsenapp://todo/buy-milk")
    page.d.refresh()
    page.wait_route("todo")
    wait_address(page, "/todo?link=stinsenapp://todo/buy-milk")
    page.settle()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.d.save_screenshot(str(ARTIFACTS / f"address-{size}.png"))
    # Back from the reloaded page still pops the todo, and the address follows.
    page.d.back()
    page.wait_route("list")
    wait_address(page, f"/s/{sid}/authenticated/todos/list")


def a_sheet_over_a_pushed_screen(page):
    """Logged in, Settings › Green pushed, a sheet over it; the version then."""
    page.log_in()
    page.open_tab("settings", "settings")
    page.tap("push_green")
    page.wait_route("green")
    page.tap("present_view")
    page.wait(lambda d: len(page.sheets()) == 1, message="no sheet")
    return page.version()


@pytest.mark.parametrize("size", SIZES)
def test_back_closes_a_sheet_first_then_pops_then_leaves(page, size):
    version = a_sheet_over_a_pushed_screen(page.sized(size))
    page.d.back()
    page.wait(lambda d: not page.sheets(), message="Back left the sheet open")
    page.wait_route("green")
    assert page.version() == version + 1, "one change: the sheet closed"
    page.d.back()
    page.wait_route("settings")
    # Forward cannot redo a push (as on iOS): the page stays where it is.
    page.d.forward()
    page.wait(lambda d: "/s/" in d.current_url)
    page.settle()
    assert page.top_route() == "settings"
    # At the tab's root nothing is left to go back to in the app: Back leaves the page.
    page.d.back()
    page.wait(lambda d: "/s/" not in d.current_url, message="Back at the tab's root stayed on the page")


def test_two_steps_back_at_once_close_the_sheet_then_pop(page):
    version = a_sheet_over_a_pushed_screen(page)
    page.d.execute_script("history.go(-2)")  # as a long press on Back picks an entry two back
    page.wait_route("settings")
    page.wait(lambda d: not page.sheets(), message="the sheet is still shown")
    page.wait(lambda d: page.version() == version + 2, message="not exactly two changes")
    page.settle()
    assert page.version() == version + 2
    page.d.back()
    page.wait(lambda d: "/s/" not in d.current_url, message="Back at the tab's root stayed on the page")


def test_back_closes_a_full_screen_cover_with_its_close_button(page):
    page.log_in()
    page.open_tab("settings", "settings")
    page.tap("Present Coordinator Fullscreen")
    page.find("[data-testid=cover]:not([data-leaving])")
    page.settle()
    page.d.back()
    page.gone("[data-testid=cover]:not([data-leaving])")
    page.wait_route("settings")
    assert "/s/" in page.d.current_url


def test_a_shared_address_opens_its_screen_in_that_session(page):
    page.log_in()
    sid = page.session_id()
    page.d.get(f"{page.base}/s/{sid}/authenticated/todos/list/todo?link=jumper://io.idevs/todo/write-docs")
    page.wait_route("todo")
    status, doc = page.api("GET", f"/api/sessions/{sid}")
    assert doc["visible"]["path"] == ["authenticated", "todos", "list", "todo"]
    wait_address(page, "?link=jumper://io.idevs/todo/write-docs")


def test_a_shared_address_whose_session_is_gone_opens_in_a_new_one(page):
    page.d.get(f"{page.base}/s/gone-0000/authenticated/todos/list/todo?link=jumper://io.idevs/todo/buy-milk")
    page.wait(lambda d: "gone-0000" not in d.current_url, message="no new session")
    page.wait_route("welcome")
    # Logged out, the app keeps the link and opens it once logged in.
    page.find("[data-testid=pending-link]")
    page.tap("complete_onboarding")
    page.wait_route("login")
    page.field("username").send_keys("ada")
    page.tap("login")
    page.wait_route("todo")
    wait_address(page, "?link=jumper://io.idevs/todo/buy-milk")


def test_an_address_the_session_moved_on_from_says_so(page):
    page.log_in()
    sid = page.session_id()
    page.d.get(f"{page.base}/s/{sid}/authenticated/settings/settings/green")
    page.wait_route("favourites")
    assert "moved on" in page.toast_text()
    wait_address(page, f"/s/{sid}/authenticated/home/favourites?link=jumper://io.idevs/home")
