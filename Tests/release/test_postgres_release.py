"""A rolling release of the shop on two nodes sharing one PostgreSQL store: version 2 is deployed first without
taking sessions, then made the current version node by node while clients keep using the sessions on both nodes.
No answer is refused (no 410, no 5xx), and each session is migrated once, whichever node reads it first, even when
both read it at the same moment.

Run through Tests/release/run.sh. PostgreSQL and the nodes come from Tests/cluster/cluster.py (logs in
test-artifacts/release/). No assertion depends on how fast anything ran.
"""

import pathlib
import sys
import threading

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from shop import (V1, V1_AND_V2, Load, ShopNode, app_version, call, create, history, migrate,  # noqa: E402
                  migrations_in, migrations_total, push, run_in_threads, state)
from harness import wait_until  # noqa: E402  (Tests/support/harness.py)

SESSIONS = 40
RACED = 10  # sessions no client touches during the restarts: read on both nodes at once afterwards


@pytest.fixture
def nodes(postgres):
    a, b = ShopNode("a", postgres.url, *V1).start(), ShopNode("b", postgres.url, *V1).start()
    yield a, b
    a.cleanup()
    b.cleanup()


def expect_everywhere(nodes, sessions, version):
    """Every session answers 200 on every node, on app `version`; returns {(node, session): document}."""
    documents = {}
    for node in nodes:
        for session in sessions:
            status, document = state(node.url, session)
            assert status == 200, (node.name, session, status, document)
            assert app_version(document) == version, (node.name, session, document["app"])
            documents[node.name, session] = document
    return documents


def test_a_rolling_release_on_two_nodes_migrates_each_session_once_and_refuses_none(postgres, nodes):
    a, b = nodes

    # Phase 1, version 1 everywhere: 40 sessions made on a and b in turn, half of them on a product.
    expected = {}  # session -> (path, screen title) on version 2
    for index in range(SESSIONS):
        node = nodes[index % 2]
        session = create(node.url)["session"]
        if index % 2 == 0:
            status, document = push(node.url, session, "product", f"p{index}")
            assert status == 200, (status, document)
            expected[session] = (["catalogue", "item"], f"Item p{index}")
        else:
            expected[session] = (["catalogue"], "Shop")
    sessions = list(expected)
    expect_everywhere(nodes, sessions, 1)

    # Phase 2, version 2 deployed but not taking sessions (--rollout shop=1), node by node: nothing changes yet.
    for node in (a, b):
        node.restart_with(*V1_AND_V2, "--rollout", "shop=1")
        expect_everywhere(nodes, sessions, 1)
    fresh = create(b.url)
    assert app_version(fresh) == 1, fresh["app"]
    assert call(a.url, "DELETE", f"/api/sessions/{fresh['session']}")[0] == 204  # not one of the 40
    for node in nodes:
        assert migrations_total(node.url) == 0, node.name
    for session in sessions[:4]:
        assert not migrations_in(history(a.url, session))

    # The dry run against the database: all 40 would migrate to version 2, none would be lost.
    dry = migrate("--database-url", postgres.url, *V1_AND_V2, log="migrate-postgres")
    assert dry.code == 0 and dry.report["lost"] == 0, dry
    assert dry.groups() == {(1, "migrates", 2): SESSIONS}, dry

    # Phase 3, version 2 current (no rollout), a then b, while 6 clients use 30 of the sessions on both nodes. A
    # request to the node that is restarting goes to the other one (a transition with the same Idempotency-Key).
    busy, raced = sessions[:-RACED], sessions[-RACED:]
    load = Load([a.url, b.url], busy, threads=6).start()
    try:
        wait_until(lambda: load.completed_rounds() >= 1, 60, "the clients did not go over their sessions")
        for node in (a, b):
            node.restart_with(*V1_AND_V2)
            # Clients reach the restarted node, and go over every session again with both nodes up.
            answered, rounds = load.answered(node.url), load.completed_rounds()
            wait_until(lambda: load.answered(node.url) >= answered + 50 and load.completed_rounds() >= rounds + 2,
                       60, f"the clients did not use node {node.name} again after its restart")
    finally:
        load.stop()
    print(f"\nload across the rolling restarts: {load.summary()}")
    assert not [f for f in load.failures if f[2] == 410], f"410 answers: {load.failures[:5]}"
    assert not load.failures, f"{len(load.failures)} failures, e.g. {load.failures[:5]}"

    # The sessions nobody used since the release: each read by 8 clients at once, 4 on each node. Whichever node
    # stores the migration first, the other reads it back: one migration each.
    for session in raced:
        barrier = threading.Barrier(8)

        def read(node):
            barrier.wait()
            return state(node.url, session)

        for status, document in run_in_threads(read, [a, b] * 4):
            assert status == 200 and app_version(document) == 2, (session, status, document)

    # Every session on version 2 on both nodes, where the migration put it (the clients' baskets popped again),
    # migrated once: one migration entry, and one count in the metrics of the node that stored it.
    for (node_name, session), document in expect_everywhere(nodes, sessions, 2).items():
        path, title = expected[session]
        assert document["visible"]["path"] == path, (node_name, session, document["visible"]["path"])
        assert document["visible"]["screen"]["title"] == title, (node_name, session, document["visible"]["screen"])
    for session in sessions:
        migrations = migrations_in(history(a.url, session))
        assert len(migrations) == 1, f"{session}: {len(migrations)} migration entries in its history"
        assert migrations == migrations_in(history(b.url, session))
    counts = {node.name: migrations_total(node.url) for node in nodes}
    print(f"migrations stored by each node: {counts}")
    assert sum(counts.values()) == dry.groups()[(1, "migrates", 2)] == SESSIONS, counts

    # The dry run agrees: every session is current on version 2.
    after = migrate("--database-url", postgres.url, *V1_AND_V2, log="migrate-postgres")
    assert after.code == 0 and after.groups() == {(2, "current", None): SESSIONS}, after
