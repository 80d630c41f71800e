"""A release of the shop on one node's SQLite store: version 1's stored sessions move to version 2 (read under load,
or by `switchyard migrate --apply`, even when that is killed halfway), and a pinned version 1 keeps its sessions.

Run through Tests/release/run.sh. Each test has a store of its own (a temporary folder) and stops its servers.
The releases are Examples/Definitions/Releases/shop-v1.yaml and shop-v2.yaml: version 2 renames `product` to `item`
and removes `giftWrap` (its sessions land on the item beneath it). No assertion depends on how fast anything ran.
"""

import pathlib
import signal
import subprocess
import sys
import time

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from shop import (BIN, V1, V1_AND_V2, V2, Load, ShopServer, app_version, artifacts, create, history,  # noqa: E402
                  migrate, migrate_command, migrated_ids, migrations_in, migrations_total, push, remove, replay,
                  run_in_threads, state, temporary_folder)
from harness import free_port, wait_healthy, wait_until  # noqa: E402,F401  (Tests/support/harness.py, on the path through shop)


@pytest.fixture
def data():
    """A store folder of the test's own."""
    folder = temporary_folder("sqlite")
    yield folder
    remove(folder)


@pytest.fixture
def servers():
    """Makes ShopServers (`servers(name, data, *flags)`, not started) and stops those still running at the end."""
    made = []

    def make(name, folder, *flags):
        made.append(ShopServer(name, folder, *flags))
        return made[-1]

    yield make
    for server in made:
        server.stop()


def assert_on_version_2(url, session, path, title):
    """The session is on the shop's version 2, showing `path` (and the screen `title`), with one migration in its
    history: from version 1 to version 2."""
    status, document = state(url, session)
    assert status == 200, (session, status, document)
    assert app_version(document) == 2, (session, document["app"])
    assert document["visible"]["path"] == path, (session, document["visible"]["path"])
    assert document["visible"]["screen"]["title"] == title, (session, document["visible"]["screen"])
    migrations = migrations_in(history(url, session))
    assert len(migrations) == 1, f"{session}: {len(migrations)} migration entries in its history"
    assert migrations[0]["request"]["migration"] == {"from": {"name": "shop", "version": 1},
                                                     "to": {"name": "shop", "version": 2}}, migrations[0]


# ---- a release read under load ----

def test_version_1_sessions_migrate_when_read_under_load_and_none_is_refused(data, servers):
    # Version 1 only: 60 sessions, 20 on a product, 20 on the gift wrap above a product, 20 on the catalogue.
    v1 = servers("sqlite-load", data, *V1).start()
    expected = {}  # session -> (path, title) once on version 2
    wrapped = set()  # the sessions that opened the gift wrap
    for index in range(60):
        session = create(v1.url)["session"]
        if index < 40:
            name = f"p{index}" if index < 20 else f"g{index}"
            status, document = push(v1.url, session, "product", name)
            assert status == 200 and document["visible"]["path"] == ["catalogue", "product"], (status, document)
            if index >= 20:
                status, document = push(v1.url, session, "giftWrap")
                assert status == 200 and document["visible"]["path"] == ["catalogue", "product", "giftWrap"], \
                    (status, document)
                wrapped.add(session)
            expected[session] = (["catalogue", "item"], f"Item {name}")
        else:
            expected[session] = (["catalogue"], "Shop")
        assert app_version(state(v1.url, session)[1]) == 1
    v1.stop_cleanly()

    # The replay, which only reads the store: on version 1 every session replays clean (determinism); on version 2
    # the 20 that opened the gift wrap diverge, named with it, and the 40 others replay clean through the renames.
    same = replay(*V1, "--data", data)
    assert same.code == 0, same
    assert same.report["replayed"] == 60 and same.report["diverged"] == 0 and same.report["requests"] == 60, same
    release = replay(*V2, "--data", data)
    assert release.code == 1, release
    assert release.report["clean"] == 40 and release.report["diverged"] == 20, release
    assert [(g["reason"], g["sessions"]) for g in release.report["groups"]] == [
        ("route 'giftWrap' was removed; the request refused with unknownRoute, recorded as committed", 20)], release
    assert {s["session"] for s in release.report["sessions"] if s["diverged"]} == wrapped, release

    # The dry run: all 60 migrate from 1 to 2, none is lost.
    dry = migrate(*V1_AND_V2, "--data", data)
    assert dry.code == 0, dry
    assert dry.report["lost"] == 0 and dry.groups() == {(1, "migrates", 2): 60}, dry

    # Versions 1 and 2 on the same store: 6 clients read every session, and push the basket and pop it, over and
    # over for a few seconds (and at least two passes over every session each). Every read migrates first, so no
    # answer may show version 1, and none may be refused.
    server = v1.restart_with(*V1_AND_V2)
    load = Load([server.url], expected, threads=6, expect_version=2).start()
    started = time.monotonic()
    try:
        wait_until(lambda: load.completed_rounds() >= 2 and time.monotonic() - started >= 3, 60,
                   "the clients did not go over every session twice")
    finally:
        load.stop()
    print(f"\nload on versions 1 and 2: {load.summary()}")
    assert load.connection_errors == 0, load.summary()
    assert load.statuses.get(410, 0) == 0, f"410 answers: {[f for f in load.failures if f[2] == 410][:5]}"
    assert not load.failures, f"{len(load.failures)} failures, e.g. {load.failures[:5]}"

    # Each session is on version 2 where the migration put it (the basket pushed and popped again), migrated once.
    for session, (path, title) in expected.items():
        assert_on_version_2(server.url, session, path, title)
    assert migrations_total(server.url) == dry.groups()[(1, "migrates", 2)] == 60

    # A new session gets version 2, and version 2's routes.
    session = create(server.url)
    assert app_version(session) == 2, session["app"]
    status, document = push(server.url, session["session"], "item", "tea")
    assert status == 200 and document["visible"]["path"] == ["catalogue", "item"], (status, document)


# ---- migrate --apply killed halfway ----

SESSIONS = 1500  # enough that migrate --apply is still at work when killed after its first 50 migrations
KILL_AFTER = 50


def test_migrate_apply_killed_with_sigkill_halfway_loses_nothing_and_a_second_pass_finishes(data, servers):
    # 1500 sessions of version 1, each on a product (created by 8 clients at once).
    v1 = servers("sqlite-kill", data, *V1).start()

    def make(index):
        session = create(v1.url)["session"]
        status, document = push(v1.url, session, "product", f"p{index}")
        assert status == 200, (status, document)
        return session

    sessions = dict(zip(run_in_threads(make, range(SESSIONS)), range(SESSIONS)))
    assert len(sessions) == SESSIONS
    v1.stop_cleanly()

    # migrate --apply, killed with SIGKILL once it has logged 50 migrations.
    command = migrate_command(*V1_AND_V2, "--data", data, apply=True)
    logged = []
    with open(artifacts() / "migrate-killed.log", "w") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.PIPE, text=True)
        for line in process.stderr:
            log.write(line)
            logged.append(line)
            if len(migrated_ids(logged)) >= KILL_AFTER:
                process.send_signal(signal.SIGKILL)
                break
        process.wait()
        logged += process.stderr.readlines()  # what it wrote before it died
        process.stderr.close()
    assert process.returncode == -signal.SIGKILL, \
        f"migrate --apply ended by itself (exit {process.returncode}) before it could be killed: raise SESSIONS"
    before_kill = set(migrated_ids(logged))

    # Every session is either migrated or as it was; those it logged as migrated are stored as migrated.
    dry = migrate(*V1_AND_V2, "--data", data)
    assert dry.code == 0 and dry.report["lost"] == 0, dry
    groups = dry.groups()
    assert set(groups) <= {(2, "current", None), (1, "migrates", 2)}, groups
    migrated_at_kill = groups.get((2, "current", None), 0)
    assert migrated_at_kill + groups.get((1, "migrates", 2), 0) == SESSIONS, groups
    assert len(before_kill) <= migrated_at_kill, f"logged {len(before_kill)} migrations, {migrated_at_kill} stored"
    assert 0 < migrated_at_kill < SESSIONS, f"not killed halfway: {migrated_at_kill} of {SESSIONS} migrated"
    print(f"\nmigrate --apply killed after {migrated_at_kill} of {SESSIONS} migrations")

    # The second pass migrates exactly the others (and finds the first pass's already current).
    second = migrate(*V1_AND_V2, "--data", data, apply=True)
    assert second.code == 0, second
    assert second.groups() == {(1, "migrates", 2): SESSIONS - migrated_at_kill,
                               (2, "current", None): migrated_at_kill}, second
    again = second.migrated_ids()
    assert len(again) == len(set(again)) == SESSIONS - migrated_at_kill, "a session was migrated twice in a pass"
    assert not before_kill & set(again), "the second pass migrated a session the first had migrated"
    final = migrate(*V1_AND_V2, "--data", data)
    assert final.code == 0 and final.groups() == {(2, "current", None): SESSIONS} and final.report["lost"] == 0, final

    # Version 2 alone now: every session answers, on its item, migrated once.
    v2 = servers("sqlite-kill-v2", data, *V2).start()
    run_in_threads(lambda pair: assert_on_version_2(v2.url, pair[0], ["catalogue", "item"], f"Item p{pair[1]}"),
                   sessions.items())
    assert migrations_total(v2.url) == 0, "sessions were migrated again when read"


# ---- a pinned version 1 ----

def test_a_pinned_version_1_keeps_its_sessions_while_version_2_takes_the_new_ones(data, servers):
    v1 = servers("sqlite-pinned", data, *V1).start()
    old = [create(v1.url)["session"] for _ in range(4)]
    for session in old[:2]:
        assert push(v1.url, session, "product", "tea")[0] == 200
    v1.stop_cleanly()

    # The dry run with the rollout: version 1's sessions stay on it (the rollout lists it: "current" today, or
    # "pinned"): none migrates, none is lost.
    rollout = ("--rollout", "shop=1:0,2:1")
    dry = migrate(*V1_AND_V2, *rollout, "--data", data)
    assert dry.code == 0 and dry.report["lost"] == 0, dry
    assert sum(dry.groups().values()) == 4, dry
    assert all(version == 1 and outcome in ("current", "pinned") for version, outcome, _ in dry.groups()), dry

    server = v1.restart_with(*V1_AND_V2, *rollout)
    # The old sessions stay on version 1 and take version 1's routes (and not version 2's).
    for session in old:
        status, document = state(server.url, session)
        assert status == 200 and app_version(document) == 1, (status, document)
        status, document = push(server.url, session, "product", "coffee")
        assert status == 200, (status, document)
        assert app_version(document) == 1 and document["visible"]["path"][-1] == "product", document
        assert document["visible"]["screen"]["title"] == "Product coffee"
        assert push(server.url, session, "item", "tea")[0] == 400, "version 1 has no route item"
        assert not migrations_in(history(server.url, session))
    # New sessions get version 2 and take its routes.
    for _ in range(4):
        session = create(server.url)
        assert app_version(session) == 2, session["app"]
        status, document = push(server.url, session["session"], "item", "tea")
        assert status == 200 and app_version(document) == 2, (status, document)
        assert document["visible"]["path"] == ["catalogue", "item"], document
        assert push(server.url, session["session"], "product", "tea")[0] == 400, "version 2 has no product"
    assert migrations_total(server.url) == 0
    # Still version 1 after a restart with the same rollout.
    server.restart_with(*V1_AND_V2, *rollout)
    for session in old:
        assert app_version(state(server.url, session)[1]) == 1


# ---- the start line ----

def test_the_start_line_names_every_app_served_and_the_default(data, servers):
    """The definitions given come first and the first is the default (a session created without `app` gets it):
    the start line says which, beside every other app@version served (the built-in demo among them)."""
    server = servers("sqlite-start-line", data, *V1).start()
    assert create(server.url)["app"]["name"] == "shop"
    line = start_line(server)
    assert line is not None, server.log_text()[-2000:]
    assert "serving shop@1 (default), todo@1 on http://" in line, line
    server.stop_cleanly()


def start_line(server):
    return next((line for line in server.log_text().splitlines() if " serving " in line and " on http://" in line),
                None)


def test_the_default_app_is_chosen_and_the_demo_can_be_left_out(data, servers):
    """`--default-app` picks the app a session created without `app` gets; `--demo off` serves only the
    definitions; a default app that is not served stops the start."""
    todo_first = servers("sqlite-default-app", data, *V1, "--default-app", "todo").start()
    assert create(todo_first.url)["app"]["name"] == "todo"
    assert "serving todo@1 (default), shop@1 on http://" in start_line(todo_first)
    todo_first.stop_cleanly()

    alone = servers("sqlite-no-demo", data, *V1, "--demo", "off").start()
    assert "serving shop@1 (default) on http://" in start_line(alone)
    alone.stop_cleanly()

    refused = subprocess.run([BIN, "serve", "--data", data, *V1, "--demo", "off", "--default-app", "todo"],
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode == 1, refused
    assert "--default-app 'todo' is not served (served: shop)" in refused.stderr, refused.stderr


def test_sigterm_stops_a_server_whose_parent_blocked_it(data):
    """A process inherits its parent's blocked signals: a server spawned by a supervisor (or a test runner) whose
    thread blocks SIGTERM still stops on SIGTERM, cleanly."""
    port = free_port()
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})
    try:
        server = subprocess.Popen([BIN, "serve", "--data", data, "--host", "127.0.0.1", "--port", str(port)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", alive=lambda: server.poll() is None)
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=15) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
