"""Two stateless nodes on one PostgreSQL store: any node serves any session, and no node loses or repeats a change.

Run through Tests/cluster/run.sh (it checks the binary and the packages). The cluster (PostgreSQL, nodes a and b,
and nginx for the kill -9 test) is started once for the module; the tests that stop something put it back. Two
tests add nodes of their own: c and d with a 2 s TTL, e behind a relay that can keep its listener connection out.
Assertions wait generously (seconds) but never depend on how fast something happened.
"""

import sys
import pathlib
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "support")]
from cluster import (BUMP, Balancer, Node, Postgres, PostgresGate, Stream, logged_in_session,  # noqa: E402
                     version_of)
from harness import wait_until  # noqa: E402  (Tests/support/harness.py)

MINIMAL = {"Prefer": "return=minimal"}  # answers without the tree: the tests need only the version


@pytest.fixture(scope="module")
def postgres():
    server = Postgres().start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def nodes(postgres):
    a, b = Node("a", postgres.url).start(), Node("b", postgres.url).start()
    yield a, b
    a.cleanup()
    b.cleanup()


@pytest.fixture(scope="module")
def balancer(nodes):
    nginx = Balancer(list(nodes)).start()
    yield nginx
    nginx.stop()


def bump(node, session, headers=None, body=BUMP):
    return node.request("POST", f"/api/sessions/{session}/transitions", body, {**MINIMAL, **(headers or {})})


def accepted_on_every_node(nodes, session, timeout, when):
    """Bumps `session` on each node in turn until one change is accepted there (503s meanwhile are refusals,
    nothing else is allowed); returns how many changes were applied and the seconds each node took from the start."""
    started = time.monotonic()
    applied, waited = 0, {}
    for node in nodes:
        def accepted():
            nonlocal applied
            answer = bump(node, session)
            assert answer.status in (200, 503), answer
            applied += answer.status == 200
            return answer.status == 200
        wait_until(accepted, timeout, f"{node.name} still refuses changes {when}", interval=0.2)
        waited[node.name] = time.monotonic() - started
    return applied, waited


def history_versions(node, session):
    """Every version the session's history lists, paging through the whole log."""
    versions, after = [], 0
    while True:
        answer = node.request("GET", f"/api/sessions/{session}/history?after={after}&limit=1000")
        assert answer.status == 200, answer
        entries = answer.json()["entries"]
        if not entries:
            return versions
        versions += [entry["version"] for entry in entries]
        after = entries[-1]["version"]


def assert_every_version(stream, first, last):
    """The stream showed versions first…last, each once, in order, each event's document being that version."""
    stream.wait_version(last, timeout=30)
    ids = stream.ids()
    expected = list(range(first, last + 1))
    missing = sorted(set(expected) - set(ids))
    assert ids == expected, f"stream ids are not {first}…{last} once each in order; missing {missing[:20]}, " \
                            f"got {ids[:10]}…{ids[-10:]} ({len(ids)} events)"
    for event_id, event, data in stream.events:
        assert event in ("state", "patch"), f"unexpected event {event!r}: {data!r:.200}"
        assert data is not None, f"the patch of version {event_id} did not apply to the document before"
        assert data["version"] == event_id, f"event id {event_id} carries version {data['version']}"


def listener_pids(postgres):
    return postgres.sql("select pid from pg_stat_activity where application_name = 'switchyard-listener'")


# ---- any node serves any session ----

def test_a_session_created_on_a_is_read_on_b_and_each_change_is_read_on_the_other_node(nodes):
    a, b = nodes
    created = a.request("POST", "/api/sessions")
    assert created.status == 201, created
    session = created.json()["session"]
    assert created.headers["location"] == f"/api/sessions/{session}"
    assert created.headers["etag"] == '"0"'
    read = b.request("GET", f"/api/sessions/{session}")
    assert read.status == 200, read
    assert (read.json()["session"], read.json()["version"]) == (session, 0)

    # Read-your-writes: right after an acknowledged change on one node, the other shows it.
    steps = [{"name": "completeOnboarding"}, {"name": "login", "fields": {"username": "ada"}}]
    for index, body in enumerate(steps):
        writer, reader = (a, b) if index % 2 == 0 else (b, a)
        changed = writer.request("POST", f"/api/sessions/{session}/events", body)
        assert changed.status == 200, changed
        seen = reader.request("GET", f"/api/sessions/{session}")
        assert seen.status == 200 and seen.json()["version"] == changed.json()["version"], seen
        assert seen.json()["visible"] == changed.json()["visible"]
    for index in range(20):
        writer, reader = (a, b) if index % 2 == 0 else (b, a)
        changed = bump(writer, session)
        assert changed.status == 200, changed
        version = changed.json()["version"]
        seen = reader.request("GET", f"/api/sessions/{session}")
        assert seen.json()["version"] == version, f"{reader.name} shows v{seen.json()['version']} after v{version}"
        assert seen.headers["etag"] == f'"{version}"'

    unknown = b.request("GET", "/api/sessions/no-such-session-0000")
    assert unknown.status == 404 and unknown.json()["code"] == "unknownSession", unknown


def test_a_stream_on_b_sees_every_change_made_on_a_and_resumes_on_a_with_last_event_id(nodes):
    a, b = nodes
    session = logged_in_session(a.url)
    start = version_of(a.url, session)
    stream = Stream(b.url, session)
    stream.wait_open()
    stream.wait_version(start)  # the first event is the current state
    answered = []
    for _ in range(200):
        changed = bump(a, session)
        assert changed.status == 200, changed
        answered.append(changed.json()["version"])
    assert answered == list(range(start + 1, start + 201))
    assert_every_version(stream, start, start + 200)
    assert stream.events[-1][2] == b.request("GET", f"/api/sessions/{session}").json()
    stream.close()

    # Reconnecting to the other node with Last-Event-ID replays what came after it (as patches from the document it
    # had), then continues live.
    seen = next(data for event_id, _, data in stream.events if event_id == start + 150)
    resumed = Stream(a.url, session, last_event_id=start + 150, document=seen)
    resumed.wait_open()
    resumed.wait_version(start + 200)
    assert bump(b, session).status == 200
    assert_every_version(resumed, start + 151, start + 201)
    assert [event for _, event, _ in resumed.events] == ["patch"] * 51, "the replay and what follows are patches"
    resumed.close()


# ---- concurrent writers ----

def run_writers(count, work):
    """Runs work(index) in count threads started together; returns their results."""
    results = [None] * count
    barrier = threading.Barrier(count)

    def run(index):
        barrier.wait()
        results[index] = work(index)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert all(result is not None for result in results), "a writer did not finish"
    return results


def test_fifty_writers_across_both_nodes_lose_no_update(nodes):
    a, b = nodes
    session = logged_in_session(a.url)
    start = version_of(a.url, session)

    # Without a precondition a writer that lost the compare-and-set is run again by its node on the stored state
    # (a few times; then 503 writeConflict, nothing applied). Every 200 is a version gained, none is lost.
    answers = [r for batch in run_writers(50, lambda i: [bump(nodes[i % 2], session) for _ in range(4)])
               for r in batch]
    accepted = [r for r in answers if r.status == 200]
    for answer in answers:
        if answer.status != 200:
            assert answer.status == 503 and answer.json()["code"] == "writeConflict", answer
            assert answer.headers.get("retry-after", "").isdigit(), answer.headers
    assert accepted, "no writer got through"
    versions = sorted(r.json()["version"] for r in accepted)
    assert versions == list(range(start + 1, start + 1 + len(accepted))), "two answers named the same version"
    before = start + len(accepted)
    for node in nodes:
        assert version_of(node.url, session) == before, "accepted changes and versions gained differ"

    # Naming the same (soon old) version: exactly one wins; every other gets 412 with the state that won.

    def conditional(index):
        if index % 2:
            return bump(nodes[index % 2], session, {"If-Match": f'"{before}"'})
        return bump(nodes[index % 2], session, body={**BUMP, "expectedVersion": before})

    answers = run_writers(50, conditional)
    accepted = [r for r in answers if r.status == 200]
    refused = [r for r in answers if r.status == 412]
    assert len(accepted) + len(refused) == 50, [r for r in answers if r.status not in (200, 412)][:3]
    assert len(accepted) == 1 and accepted[0].json()["version"] == before + 1
    for answer in refused:
        problem = answer.json()
        assert problem["code"] == "staleVersion", problem
        assert problem["currentVersion"] == before + 1, problem["currentVersion"]
        assert problem["state"]["version"] == before + 1 and problem["state"]["session"] == session
    for node in nodes:
        assert version_of(node.url, session) == before + 1


# ---- idempotency ----

def test_idempotency_keys_hold_across_nodes(nodes):
    a, b = nodes
    session = logged_in_session(a.url)
    key = str(uuid.uuid4())
    first = bump(a, session, {"Idempotency-Key": key})
    assert first.status == 200 and "idempotent-replayed" not in first.headers, first
    for node in (b, a):
        again = bump(node, session, {"Idempotency-Key": key})
        assert again.status == 200, again
        assert again.headers.get("idempotent-replayed") == "true", f"{node.name} applied the retry again"
        assert again.json() == first.json()
    for node in nodes:
        assert version_of(node.url, session) == first.json()["version"], "the retry was applied twice"

    # Keyed creation: the retry on the other node answers the same session (all clients here share 127.0.0.1).
    key = str(uuid.uuid4())
    created = a.request("POST", "/api/sessions", headers={"Idempotency-Key": key})
    assert created.status == 201, created
    again = b.request("POST", "/api/sessions", headers={"Idempotency-Key": key})
    assert again.status == 201 and again.headers.get("idempotent-replayed") == "true", again
    assert again.json()["session"] == created.json()["session"]


# ---- deletion and expiry ----

def test_delete_on_a_closes_the_streams_on_b_and_b_answers_404(nodes):
    a, b = nodes
    session = logged_in_session(a.url)
    streams = [Stream(b.url, session), Stream(b.url, session), Stream(a.url, session)]
    for stream in streams:
        stream.wait_open()
        stream.wait_version(version_of(a.url, session))
    deleted = a.request("DELETE", f"/api/sessions/{session}")
    assert deleted.status == 204, deleted
    for stream in streams:
        stream.wait_ended(timeout=5)
    for node in nodes:
        for method, path, body in (("GET", "", None), ("POST", "/transitions", BUMP), ("GET", "/stream", None)):
            answer = node.request(method, f"/api/sessions/{session}{path}", body)
            assert answer.status == 404 and answer.json()["code"] == "unknownSession", (node.name, path, answer)


def test_an_expired_session_is_gone_on_both_nodes(postgres):
    # Nodes of their own with a 2 s TTL (the module's nodes keep the default 30 minutes).
    ttl = ["--session-ttl", "2s", "--unused-session-ttl", "2s"]
    c, d = Node("c", postgres.url, *ttl).start(), Node("d", postgres.url, *ttl).start()
    try:
        session = logged_in_session(c.url)
        assert d.request("GET", f"/api/sessions/{session}").status == 200  # d holds it now too
        # Any request would count as use: wait without touching it (TTL 2 s, sweeps every 1 s).
        time.sleep(6)
        for node in (d, c):
            answer = node.request("GET", f"/api/sessions/{session}")
            assert answer.status == 404 and answer.json()["code"] == "unknownSession", (node.name, answer)
    finally:
        c.cleanup()
        d.cleanup()


# ---- the store's connections fail ----

def test_a_killed_listener_connection_is_replaced_and_changes_made_meanwhile_reach_b(postgres, nodes):
    a, b = nodes
    # Node e reaches PostgreSQL through a relay that can keep its listener connection out for a while: the
    # changes a makes meanwhile are certainly notified while e is not listening.
    gate = PostgresGate(postgres)
    e = Node("e", gate.url).start()
    try:
        wait_until(lambda: len(listener_pids(postgres)) == 3, 10, "not one listener connection per node")
        session = logged_in_session(a.url)
        assert postgres.sql("select count(*) from pg_stat_activity where application_name = 'switchyard'") != ["0"]
        start = version_of(a.url, session)
        streams = {node.name: Stream(node.url, session) for node in (b, e)}
        for stream in streams.values():
            stream.wait_open()
            stream.wait_version(start)

        gate.refused.add("switchyard-listener")
        killed = postgres.sql("select count(pg_terminate_backend(pid)) from pg_stat_activity "
                              "where application_name = 'switchyard-listener'")
        assert killed == ["3"], killed
        for _ in range(5):
            assert bump(a, session).status == 200
        wait_until(lambda: "switchyard-listener" in gate.counts["refused"], 10, "e did not try to listen again")
        gate.refused.clear()

        for stream in streams.values():
            assert_every_version(stream, start, start + 5)
        wait_until(lambda: len(listener_pids(postgres)) == 3, 10, "the nodes did not reconnect their listeners")
        assert bump(a, session).status == 200
        for stream in streams.values():
            stream.wait_version(start + 6, timeout=5)
            stream.close()
    finally:
        e.cleanup()
        gate.stop()


def test_while_postgres_is_down_changes_answer_503_and_every_node_recovers_by_itself(postgres, nodes):
    a, b = nodes
    session = logged_in_session(a.url)
    start = version_of(a.url, session)
    key = str(uuid.uuid4())
    postgres.halt()
    try:
        for node in nodes:
            for answer in (bump(node, session), bump(node, session, {"Idempotency-Key": key}),
                           node.request("POST", "/api/sessions")):
                assert answer.status == 503, f"{node.name} answered {answer} while PostgreSQL was down"
                assert answer.headers.get("retry-after", "").isdigit(), answer.headers
                assert answer.json()["code"] in ("storeUnavailable", "sessionReloading"), answer
            read = node.request("GET", f"/api/sessions/{session}")
            assert read.status in (200, 503), read
            if read.status == 503:
                assert read.headers.get("retry-after", "").isdigit(), read.headers
    finally:
        postgres.start()

    # No restart: each node finds the store again by itself.
    applied, _ = accepted_on_every_node(nodes, session, 30, "after PostgreSQL came back")
    retried = bump(b, session, {"Idempotency-Key": key})  # refused before, so applied now, not replayed
    assert retried.status == 200 and "idempotent-replayed" not in retried.headers, retried
    applied += 1
    for node in nodes:
        assert version_of(node.url, session) == start + applied, "a change refused with 503 was applied"

    # The listeners are back: a new stream on b follows changes made on a.
    stream = Stream(b.url, session)
    stream.wait_open()
    stream.wait_version(start + applied)
    assert bump(a, session).status == 200
    stream.wait_version(start + applied + 1, timeout=10)
    stream.close()


# ---- a node dies ----

class Client(threading.Thread):
    """Changes one session through the balancer until stopped; a change that failed (connection error, 502, 503,
    504) is retried with the same Idempotency-Key until it is acknowledged."""

    def __init__(self, balancer, session, stop):
        super().__init__(daemon=True)
        self.balancer, self.session, self.stop = balancer, session, stop
        self.acknowledged = []  # (version, key, time)
        self.failure = None

    def run(self):
        while not self.stop.is_set() and self.failure is None:
            key = str(uuid.uuid4())
            deadline = time.monotonic() + 30
            while True:
                try:
                    answer = bump(self.balancer, self.session, {"Idempotency-Key": key})
                    if answer.status == 200:
                        self.acknowledged.append((answer.json()["version"], key, time.monotonic()))
                        break
                    if answer.status not in (502, 503, 504):
                        self.failure = f"answer {answer}"
                        return
                except OSError:
                    pass
                if time.monotonic() > deadline:
                    self.failure = f"change {key} not acknowledged within 30 s"
                    return
                time.sleep(0.1)


def test_kill_9_of_a_node_under_load_loses_nothing_acknowledged(nodes, balancer):
    a, b = nodes
    sessions = [logged_in_session(balancer.url) for _ in range(6)]
    starts = {s: version_of(balancer.url, s) for s in sessions}
    stop = threading.Event()
    clients = [Client(balancer, s, stop) for s in sessions]
    for client in clients:
        client.start()
    try:
        time.sleep(1)
        a.kill9()
        killed = time.monotonic()
        time.sleep(2)
        restarted = time.monotonic()
        a.start()
        time.sleep(1)
    finally:
        stop.set()
        for client in clients:
            client.join(timeout=40)
    assert not [c.failure for c in clients if c.failure], [c.failure for c in clients if c.failure]
    during = sum(1 for c in clients for _, _, t in c.acknowledged if killed < t < restarted)
    assert during > 0, "no change was acknowledged through the balancer while a was down"

    for client in clients:
        session, start = client.session, starts[client.session]
        versions = sorted(v for v, _, _ in client.acknowledged)
        # Every change was acknowledged once (retries replayed), so the versions are exactly the ones gained.
        assert versions == list(range(start + 1, start + 1 + len(versions))), f"{session}: {versions[-10:]}"
        for node in nodes:
            assert version_of(node.url, session) == start + len(versions), f"{node.name} lost or repeated changes"
        missing = set(versions) - set(history_versions(a, session))
        assert not missing, f"history of {session} lacks acknowledged versions {sorted(missing)[:10]}"
        for version, key, _ in client.acknowledged[-5:]:
            again = bump(a, session, {"Idempotency-Key": key})
            assert again.status == 200 and again.headers.get("idempotent-replayed") == "true", again
            assert again.json()["version"] == version


# ---- the store hangs ----

STORE_TIMEOUT = 5  # PostgresSessionArchive's default: the longest a database round trip may keep a request


def timed(call):
    """(what call() returned or the OSError it raised, seconds it took)."""
    started = time.monotonic()
    try:
        return call(), time.monotonic() - started
    except OSError as error:  # the client gave up (socket timeout)
        return error, time.monotonic() - started


def test_a_frozen_postgres_costs_a_change_the_timeout_at_most_and_every_node_recovers(postgres, nodes):
    a, b = nodes
    # Clients change a session on each node throughout, retrying a refused change with its key until acknowledged.
    sessions = [logged_in_session(node.url) for node in nodes]
    starts = {s: version_of(a.url, s) for s in sessions}
    session = logged_in_session(a.url)
    # Requests for one session queue for it (each waiting up to the timeout): the flood below uses a session each.
    flooded = [logged_in_session(a.url) for _ in range(12)]
    # Changes at once on every node, so that each holds several open connections when the store freezes: a request
    # then takes one that is open (a new connection would give up after connect_timeout anyway).
    with ThreadPoolExecutor(8) as pool:
        for answer in pool.map(lambda pair: bump(*pair), [(node, s) for node in nodes for s in flooded] * 2):
            assert answer.status == 200, answer
    stop = threading.Event()
    clients = [Client(node, s, stop) for node, s in zip(nodes, sessions)]
    for client in clients:
        client.start()
    time.sleep(0.5)
    measured = {}
    postgres.freeze()  # a hung server: connections stay open, nothing answers
    try:
        # A change on each node: refused (503) once the store did not answer within its timeout, not held forever.
        with ThreadPoolExecutor(len(nodes)) as pool:
            changes = list(pool.map(lambda node: timed(lambda: node.request(
                "POST", f"/api/sessions/{session}/transitions", BUMP, MINIMAL, timeout=STORE_TIMEOUT + 15)), nodes))
        for node, (answer, elapsed) in zip(nodes, changes):
            measured[f"change on {node.name}"] = elapsed
            assert not isinstance(answer, OSError), f"{node.name}: no answer after {elapsed:.1f} s ({answer})"
            assert answer.status == 503 and answer.json()["code"] in ("storeUnavailable", "sessionReloading"), answer
            assert answer.headers.get("retry-after", "").isdigit(), answer.headers
            assert elapsed < STORE_TIMEOUT + 2, f"{node.name} answered {answer.status} after {elapsed:.1f} s"
        # /healthz does not touch the store: answered at once while no request holds every worker.
        for node in nodes:
            answer, elapsed = timed(lambda: node.request("GET", "/healthz", timeout=STORE_TIMEOUT + 15))
            measured[f"/healthz on {node.name}"] = elapsed
            assert not isinstance(answer, OSError) and answer.status == 200, answer
            assert elapsed < 1, f"/healthz on {node.name} took {elapsed:.1f} s"
        # More changes than a has worker threads (8), then /healthz. The store is known not to answer (a change ran
        # out of time above): one change at a time waits for it (the breaker's probe), the others answer 503 at
        # once, so the workers stay free and /healthz answers within a second (without the breaker it waited
        # several timeouts: 15-25 s).
        patience = 12 * STORE_TIMEOUT + 15
        with ThreadPoolExecutor(13) as pool:
            flood = [pool.submit(timed, lambda s=s: a.request(
                "POST", f"/api/sessions/{s}/transitions", BUMP, MINIMAL, timeout=patience)) for s in flooded]
            time.sleep(0.3)
            answer, elapsed = timed(lambda: a.request("GET", "/healthz", timeout=patience))
            measured["/healthz on a, 12 changes in flight"] = elapsed
            outcomes = [done.result() for done in flood]
            measured["slowest of 12 changes on a"] = max(seconds for _, seconds in outcomes)
        assert not isinstance(answer, OSError) and answer.status == 200, answer
        assert elapsed < 1, f"/healthz with 12 changes in flight took {elapsed:.1f} s"
        for change, seconds in outcomes:
            assert not isinstance(change, OSError) and change.status == 503, change
    finally:
        postgres.thaw()
        print("\nwhile PostgreSQL was frozen: " + ", ".join(f"{k} {v:.2f} s" for k, v in measured.items()))

    # Every node takes changes again by itself, within a few seconds.
    applied, waited = accepted_on_every_node(nodes, session, STORE_TIMEOUT + 5, "after PostgreSQL went on")
    for node in nodes:
        measured[f"first change accepted on {node.name} after the thaw"] = waited[node.name]
    print("after the thaw: " + ", ".join(f"{k} {v:.2f} s" for k, v in measured.items() if "thaw" in k))
    stop.set()
    for client in clients:
        client.join(timeout=40)
    assert not [c.failure for c in clients if c.failure], [c.failure for c in clients if c.failure]

    # Nothing acknowledged was lost, nothing applied twice.
    for client in clients:
        versions = sorted(v for v, _, _ in client.acknowledged)
        start = starts[client.session]
        assert versions == list(range(start + 1, start + 1 + len(versions))), f"{client.session}: {versions[-10:]}"
        for node in nodes:
            assert version_of(node.url, client.session) == start + len(versions), f"{node.name} lost a change"
        missing = set(versions) - set(history_versions(a, client.session))
        assert not missing, f"history lacks acknowledged versions {sorted(missing)[:10]}"
    # The listeners follow again: a stream on b shows a change made on a.
    wait_until(lambda: len(listener_pids(postgres)) == 2, 2 * STORE_TIMEOUT + 5, "a listener did not reconnect")
    stream = Stream(b.url, session)
    stream.wait_open()
    latest = bump(a, session)
    assert latest.status == 200, latest
    stream.wait_version(latest.json()["version"], timeout=10)
    stream.close()
