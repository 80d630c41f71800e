"""The map's heat layer (Public/js/heat.js): with the admin token, the stored sessions' traffic drawn on the map
(GET /api/admin/coverage): edges opened by changes thick, the others dimmed, route rows tinted by the sessions on
them; a wrong token is said so. Other tests' sessions share the store: counts are checked as at least this test's."""
import os

import pytest
from selenium.webdriver.common.by import By

TOKEN = os.environ.get("SWITCHYARD_BROWSER_ADMIN_TOKEN")

HEAT_JS = """
const edges = {};
for (const p of document.querySelectorAll('#map .map-edge')) edges[p.dataset.taken === undefined ? '?' : p.dataset.taken] = 1;
return {
  on: document.getElementById('map').classList.contains('has-heat'),
  cold: document.querySelectorAll('#map .map-edge.heat-cold').length,
  hot: [...document.querySelectorAll('#map .map-edge:not(.heat-cold)')].map((p) => [Number(p.dataset.taken), parseFloat(p.style.strokeWidth)]),
  login: Number(document.querySelector('#map .map-route[data-type="UnauthenticatedCoordinator"][data-route="login"]')?.dataset.sessions || 0),
};
"""


def show_heat(page, token):
    if page.d.find_element(By.CSS_SELECTOR, "[data-testid=map-heat]").get_attribute("open") is None:
        page.find("[data-testid=map-heat] summary").click()
    field = page.find("[data-testid=heat-token]")
    field.clear()
    field.send_keys(token)
    page.find("[data-testid=heat-show]").click()


@pytest.mark.skipif(not TOKEN, reason="the server under test has no admin token (Tests/browser/run.sh gives one)")
def test_the_heat_layer_draws_the_stored_traffic_on_the_map(page):
    page.log_in()
    page.find("#map [data-testid=app-map]")
    show_heat(page, "not-the-token-0123456789")
    page.wait(lambda d: "wrong" in page.find("[data-testid=heat-status]").text, message="a wrong token is said so")
    show_heat(page, TOKEN)
    # The first request explores the demo's graph (seconds on a debug build): the layer retries until it is done.
    page.wait(lambda d: d.execute_script(HEAT_JS)["on"], timeout=120, message="no heat on the map")
    heat = page.d.execute_script(HEAT_JS)
    assert heat["hot"] and all(taken >= 1 and width > 1 for taken, width in heat["hot"]), heat
    assert heat["cold"] >= 1, "edges no change opened are dimmed"
    assert heat["login"] >= 1, "this test's session showed the login screen"
    status = page.find("[data-testid=heat-status]").text
    assert "explored transitions taken" in status, status
    page.find("[data-testid=heat-clear]").click()
    page.wait(lambda d: not d.execute_script(HEAT_JS)["on"], message="Clear removes the layer")
    assert not page.d.find_elements(By.CSS_SELECTOR, "#map .map-edge.heat-cold")
