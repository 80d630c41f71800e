"""Results back to the caller and route guards, as a user meets them on the page: Home's "Pick a favourite" sheet
gives a todo id back to Home, and the Settings testbed's admin screen waits for the admin switch on Profile."""


def home_rows(doc):
    home = doc["tree"]["root"]["coordinator"]["tabs"][0]["coordinator"]["root"]["screen"]
    lists = [item for item in home["content"] if item["type"] == "list"]
    return lists[0]["rows"] if lists else []


def test_a_picked_todo_comes_back_to_home_which_marks_it(page):
    page.log_in()
    page.wait_route("favourites")
    assert page.d.find_elements("css selector", "[data-testid=row-buy-milk]") == []
    page.tap("Pick a favourite")
    page.wait_route("pickFavourite")
    version = page.version()
    page.live("row-buy-milk").click()
    # One change: the sheet closes and Home shows the todo among its favourites.
    page.wait(lambda d: not page.sheets(), message="the pick sheet is still shown")
    page.wait_route("favourites")
    page.live("row-buy-milk")
    assert page.version() == version + 1
    assert [row["id"] for row in home_rows(page.api("GET", f"/api/sessions/{page.session_id()}")[1])] == [
        "hello-world", "buy-milk"]


def test_cancelling_the_pick_marks_nothing(page):
    page.log_in()
    page.wait_route("favourites")
    page.tap("Pick a favourite")
    page.wait_route("pickFavourite")
    page.tap("Cancel")
    page.wait(lambda d: not page.sheets(), message="the pick sheet is still shown")
    page.wait_route("favourites")
    assert [row["id"] for row in home_rows(page.api("GET", f"/api/sessions/{page.session_id()}")[1])] == [
        "hello-world"]


def test_the_admin_screen_waits_for_the_switch_on_profile(page):
    page.log_in()
    page.open_tab("settings", "settings")
    page.tap("Open Admin")
    # The guard sends the user to Profile and says why; the admin screen is kept for later.
    page.wait_route("profile")
    assert "guarded" in page.toast_text()
    # It reads as a move, not a refusal: its own title and tone, where it went and what waits.
    assert page.find("[data-testid=toast-title]").text == "Redirected by a route guard"
    assert "toast-info" in page.find("[data-testid=toast]").get_attribute("class")
    assert "authenticated/profile" in page.toast_text() and "opens once its guard allows it" in page.toast_text()
    assert page.live("tab-profile").get_attribute("aria-current") == "page"
    status, doc = page.api("GET", f"/api/sessions/{page.session_id()}")
    assert doc["pendingRoute"]["route"] == "admin"
    page.wait(lambda d: "Waiting for its guard: admin" in page.find("[data-testid=pending-link]").text,
              message="the inspector does not show the waiting route")
    page.find("[data-testid=toast] button").click()
    page.live("toggle-adminMode").click()
    # Switching it on opens the admin screen in the Settings tab, in a change of its own.
    page.wait_route("admin")
    assert page.live("tab-settings").get_attribute("aria-current") == "page"
    status, doc = page.api("GET", f"/api/sessions/{page.session_id()}")
    assert "pendingRoute" not in doc
    page.gone("[data-testid=pending-link]")
    status, history = page.api("GET", f"/api/sessions/{page.session_id()}/history")
    assert history["entries"][-1]["source"] == "guard"
