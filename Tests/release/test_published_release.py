"""A release through the admin API on two nodes sharing one PostgreSQL store, with no restart: version 1 of the shop
is published on one node and served by both; version 2 is published on the other and takes no session until the
rollout names it; the rollout is changed on one node while clients use the sessions on both; version 1 is retired
once no session runs on it. Every node serves what one node published within its poll (a second), no answer is
refused, each session is migrated once and lands where the migration says; the published versions outlive a restart.

Run through Tests/release/run.sh. No assertion depends on how fast anything ran (waits are bounded polls).
"""

import http.client
import json
import pathlib
import sys
import time

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from shop import (RELEASES, Load, ShopNode, app_version, call, history, migrations_in, push,  # noqa: E402
                  state)
from harness import wait_until  # noqa: E402

TOKEN = "release-admin-token-0123456789"
ADMIN = {"Authorization": f"Bearer {TOKEN}"}
SESSIONS = 24


@pytest.fixture
def nodes(postgres):
    flags = ("--admin-token", TOKEN)
    a, b = ShopNode("pub-a", postgres.url, *flags).start(), ShopNode("pub-b", postgres.url, *flags).start()
    yield a, b
    a.cleanup()
    b.cleanup()


def publish(node, version):
    """PUT the shop's definition of `version` (YAML, as released) on `node`; (status, document)."""
    text = (RELEASES / f"shop-v{version}.yaml").read_bytes()
    connection = http.client.HTTPConnection("127.0.0.1", node.port, timeout=30)
    try:
        connection.request("PUT", f"/api/admin/apps/shop/versions/{version}", body=text,
                           headers={**ADMIN, "Content-Type": "application/yaml"})
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        connection.close()


def overview(node):
    status, document = call(node.url, "GET", "/api/admin/apps", headers=ADMIN)
    assert status == 200, (status, document)
    return {app["name"]: app for app in document["apps"]}


def rollout(node):
    shop = overview(node).get("shop")
    return shop and [(share["version"], share["weight"]) for share in shop["rollout"]]


def create_shop(node):
    status, document = call(node.url, "POST", "/api/sessions", {"app": "shop"})
    assert status == 201, (node.name, status, document)
    return document


def test_a_release_through_the_admin_api_reaches_every_node_without_a_restart(nodes):
    a, b = nodes
    assert call(b.url, "POST", "/api/sessions", {"app": "shop"})[0] == 400, "the shop is not served yet"

    # Version 1, published on a: b serves it after its next look at the store.
    status, document = publish(a, 1)
    assert status == 201, (status, document)
    wait_until(lambda: rollout(b) == [(1, 100)], 10, "node b did not serve the published version 1")
    expected = {}  # session -> (path, title) on version 2
    for index in range(SESSIONS):
        node = nodes[index % 2]
        session = create_shop(node)["session"]
        if index % 3 == 0:
            assert push(node.url, session, "product", f"p{index}")[0] == 200
            expected[session] = (["catalogue", "item"], f"Item p{index}")
        else:
            expected[session] = (["catalogue"], "Shop")
    sessions = list(expected)

    # Version 2, published on b: both serve it, and nothing changes for anyone until the rollout names it.
    assert publish(b, 2)[0] == 201
    assert publish(b, 2)[0] == 200, "publishing the same definition again changes nothing"
    wait_until(lambda: len(overview(a)["shop"]["versions"]) == 2, 10, "node a did not see version 2")
    assert rollout(a) == [(1, 100)], "publishing does not move new sessions"
    assert app_version(create_shop(a)) == 1
    for session in sessions[:4]:
        assert app_version(state(b.url, session)[1]) == 1

    # The dry run on either node, through the store: with version 2 current, every session would migrate.
    status, dry = call(a.url, "GET", "/api/admin/migrations", headers=ADMIN)
    assert status == 200 and dry["lost"] == 0, dry

    # Version 2 current, set on a while clients use the sessions on both nodes.
    load = Load([a.url, b.url], sessions, threads=4).start()
    try:
        wait_until(lambda: load.completed_rounds() >= 1, 60, "the clients did not go over their sessions")
        status, document = call(a.url, "PUT", "/api/admin/apps/shop/rollout",
                                {"shares": [{"version": 2, "weight": 1}]}, headers=ADMIN)
        assert status == 200, (status, document)
        wait_until(lambda: rollout(b) == [(2, 1)], 10, "node b did not take the new rollout")
        rounds = load.completed_rounds()
        wait_until(lambda: load.completed_rounds() >= rounds + 2, 60, "the clients stopped going over the sessions")
    finally:
        load.stop()
    print(f"\nload across the published release: {load.summary()}")
    assert not load.failures, f"{len(load.failures)} failures, e.g. {load.failures[:5]}"
    assert app_version(create_shop(b)) == 2

    for node in nodes:
        for session in sessions:
            status, document = state(node.url, session)
            assert status == 200 and app_version(document) == 2, (node.name, session, status, document)
            path, title = expected[session]
            assert document["visible"]["path"] == path, (node.name, session, document["visible"])
            assert document["visible"]["screen"]["title"] == title, (node.name, session, document["visible"])
    for session in sessions:
        assert len(migrations_in(history(a.url, session))) == 1, session

    # Version 1 retired on b: no session runs on it any more, so nothing would be lost. Until every node has had
    # time to follow the rollout (a few polls after it changed), retiring is refused with Retry-After.
    for _ in range(20):
        status, retired = call(b.url, "DELETE", "/api/admin/apps/shop/versions/1", headers=ADMIN)
        if status != 409 or retired["code"] != "rolloutSettling":
            break
        time.sleep(1)
    assert status == 200, (status, retired)
    assert retired["sessions"]["lost"] == 0, retired
    wait_until(lambda: [r["version"] for r in overview(a)["shop"]["retired"]] == [1], 10,
               "node a did not see version 1 retired")
    assert [v["version"] for v in overview(a)["shop"]["versions"]] == [2]
    assert publish(a, 1)[0] == 409, "a retired version number is not used again"

    # A restart keeps what was published: b serves version 2 from the store at once.
    b.restart_with("--admin-token", TOKEN)
    assert rollout(b) == [(2, 1)]
    for session in sessions[:4]:
        assert app_version(state(b.url, session)[1]) == 2
