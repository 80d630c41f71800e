"""The page through nginx over two nodes on one PostgreSQL store stays live and correct while a node dies.

Starts its own topology (Tests/cluster/cluster.py: a throwaway PostgreSQL, nodes page-a and page-b, nginx), not the
single server Tests/browser/run.sh starts; logs go to test-artifacts/cluster/page-*.
"""
import pathlib
import subprocess
import sys
import time
import uuid

import pytest

from conftest import Page

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "cluster"))
import cluster  # noqa: E402

OUTAGE_TIMEOUT = 30  # the page may wait for its event stream to reconnect (the client backs off up to 5 s)


@pytest.fixture(scope="module")
def topology():
    if b"--database-url" not in subprocess.run([cluster.BIN, "serve", "--help"], capture_output=True).stdout:
        pytest.fail(f"{cluster.BIN} has no --database-url: the cluster page test needs the PostgreSQL store")
    with cluster.two_nodes_behind_nginx("page") as topology:
        yield topology


def change(balancer, session, body):
    """Another client's transition through the balancer, retried with its Idempotency-Key while a request to the
    dead node fails (nginx answers 502 for a POST it may have sent there)."""
    key = str(uuid.uuid4())
    deadline = time.monotonic() + 20
    while True:
        try:
            answer = balancer.request("POST", f"/api/sessions/{session}/transitions", body, {"Idempotency-Key": key})
            if answer.status == 200:
                return answer.json()
            assert answer.status in (502, 503, 504), answer
        except OSError:
            pass
        assert time.monotonic() < deadline, "the change was not acknowledged within 20 s"
        time.sleep(0.2)


def test_the_page_follows_changes_made_while_a_node_is_down(driver, topology):
    nodes, balancer = topology
    page = Page(driver, balancer.url)
    page.log_in()
    page.wait_route("favourites")
    session = page.session_id()
    driver.execute_script("window.__noReload = 'still here'")

    # Each node dies once, so the page's stream was on a dead node at least once, whichever node it started on.
    for victim, tab, route in ((nodes[0], "settings", "settings"), (nodes[1], "todos", "list")):
        victim.kill9()
        answered = change(balancer, session, {"steps": [{"action": "selectTab", "route": tab}]})
        page.wait(lambda d: page.top_route() == route, timeout=OUTAGE_TIMEOUT,
                  message=f"the page did not show {route!r} while {victim.name} was down")
        page.wait(lambda d: page.version() == answered["version"], timeout=OUTAGE_TIMEOUT,
                  message=f"the page shows version {page.version()}, not {answered['version']}")
        victim.start()

    # Both nodes back: the page's own controls still work, and the server agrees with what it shows.
    page.open_tab("home", "favourites")
    shown = page.version()
    state = balancer.request("GET", f"/api/sessions/{session}").json()
    assert state["visible"]["path"][-1] == "favourites"
    assert state["version"] == shown
    assert driver.execute_script("return window.__noReload") == "still here", "the page reloaded"
