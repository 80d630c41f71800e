#!/usr/bin/env python3
"""The kill -9 loop: nothing acknowledged is lost when the server dies mid-load.

    python3 Tests/durability/kill_loop.py BIN [--rounds 20] [--durability process]

Starts BIN (the switchyard binary) on a free loopback port with a fresh SQLite store. Each round, concurrent
clients drive their sessions (keyed and unkeyed transitions, events that change coordinator data such as new todos
and favourites, deep links left pending while logged out and completed by the login) while SSE clients record every
state they are shown; the server is killed with SIGKILL at a random moment and restarted on the same data. Then:

- every acknowledged version is there (GET /versions/N) with a byte-identical state document (this round's all,
  earlier rounds' a sample of 300, so that a later crash cannot take back an earlier commit unnoticed),
- the history lists every acknowledged version,
- every acknowledged keyed request, retried with its key, is replayed (Idempotent-Replayed) with the same body,
- every state an SSE client was shown is there, byte for byte (no stream showed a version that was then lost).

After the last round, `switchyard replay` re-runs every stored session's requests on the same app: none may diverge.

Prints one line per round and `N passed, N failed`; exits 1 if any round failed.
"""

import argparse
import http.client
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import jsonpatch  # noqa: E402  (Tests/support/jsonpatch.py)
from harness import Server, ServerError, free_port, request  # noqa: E402  (Tests/support/harness.py)


KEYS_CHECKED = 10


def without_result(body):
    """The state document of a change's answer: the answer is the document plus a trailing `result` member."""
    document = json.loads(body)
    document.pop("result", None)
    return document


class Ledger:
    """What the server acknowledged, per session, across rounds."""

    def __init__(self):
        self.lock = threading.Lock()
        self.versions = {}   # (session, version) -> state document (dict) from a 2xx answer
        self.keyed = []      # (session, path, body, key, status, answer bytes)
        self.streamed = {}   # (session, version) -> state document (dict) shown on a stream
        self.broken = []     # stream patches that did not apply to the document before them

    def acknowledge(self, session, body):
        document = without_result(body)
        with self.lock:
            self.versions[(session, document["version"])] = document

    def stream(self, session, document):
        with self.lock:
            self.streamed[(session, document["version"])] = document


class Client(threading.Thread):
    """Drives one session like a person would, until the server dies or the round ends."""

    def __init__(self, port, session, ledger, rng, stop):
        super().__init__(daemon=True)
        self.port, self.session, self.ledger, self.rng, self.stop = port, session, ledger, rng, stop
        self.path = []
        self.changes = 0

    def change(self, kind, body):
        headers = {}
        key = None
        if self.rng.random() < 0.5:
            key = str(uuid.uuid4())
            headers["Idempotency-Key"] = key
        path = f"/api/sessions/{self.session}/{kind}"
        status, _, answer = request(self.port, "POST", path, body, headers)
        if 200 <= status < 300:
            self.ledger.acknowledge(self.session, answer)
            self.path = json.loads(answer)["visible"]["path"]
            self.changes += 1
            if key:
                with self.ledger.lock:
                    self.ledger.keyed.append((self.session, path, body, key, status, answer))
        return status

    def step(self):
        rng = self.rng
        if not self.path or self.path[0] == "onboarding":
            return self.change("events", {"name": "completeOnboarding"})
        if self.path[0] == "unauthenticated":
            if rng.random() < 0.4:
                self.change("deeplinks", {"url": rng.choice(["stinsenapp://todo/buy-milk",
                                                              "jumper://io.idevs/settings"])})
            return self.change("events", {"name": "login", "fields": {"username": rng.choice(["ada", "grace"])}})
        choice = rng.random()
        if choice < 0.25:
            self.change("transitions", {"coordinator": "TodosCoordinator",
                                        "steps": [{"action": "route", "route": "create"}]})
            if self.path[-1] == "form":
                return self.change("events", {"name": "create", "fields": {"name": f"todo {rng.randrange(10**6)}"}})
        elif choice < 0.45:
            todo = rng.choice(["buy-milk", "hello-world", "write-docs"])
            self.change("deeplinks", {"url": f"stinsenapp://todo/{todo}"})
            return self.change("events", {"name": "toggleFavourite", "payload": {"id": todo},
                                          "fields": {"favourite": rng.choice(["true", "false"])}})
        elif choice < 0.65:
            return self.change("transitions", {"steps": [{"action": "selectTab",
                                                          "route": rng.choice(["home", "todos", "settings"])}]})
        elif choice < 0.8:
            return self.change("transitions", {"coordinator": "SettingsCoordinator",
                                               "steps": [{"action": "push", "route": rng.choice(["green", "yellow"])}]})
        elif choice < 0.95:
            return self.change("transitions", {"action": "back"})
        return self.change("events", {"name": "logout"})

    def run(self):
        while not self.stop.is_set():
            try:
                self.step()
            except (OSError, http.client.HTTPException, ValueError, KeyError):
                return  # the server died: what was not answered was not acknowledged


class Watcher(threading.Thread):
    """Follows a session's stream and records every state it is shown (a patch is applied to the document before,
    as a client does: a patch that does not apply is recorded as a broken document, which the check reports)."""

    def __init__(self, port, session, ledger):
        super().__init__(daemon=True)
        self.port, self.session, self.ledger = port, session, ledger
        self.events = 0

    def run(self):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            connection.request("GET", f"/api/sessions/{self.session}/stream",
                               headers={"Accept": "text/event-stream"})
            response = connection.getresponse()
            data, event, document = [], "message", None
            while True:
                line = response.readline()  # decodes the chunked transfer (fp would not)
                if not line:
                    return
                line = line.decode().rstrip("\r\n")
                if line.startswith("data:"):
                    data.append(line[5:].lstrip(" "))
                elif line.startswith("event:"):
                    event = line[6:].strip()
                elif line == "" and data:
                    payload = json.loads("\n".join(data))
                    try:
                        document = payload if event == "state" else jsonpatch.apply(document, payload)
                    except jsonpatch.PatchError as error:
                        with self.ledger.lock:
                            self.ledger.broken.append(f"stream {self.session[:6]}: a patch did not apply: {error}")
                        return
                    self.ledger.stream(self.session, document)
                    self.events += 1
                    data, event = [], "message"
        except (OSError, http.client.HTTPException, ValueError):
            return


def history_versions(port, session):
    """Every version the session's history lists, paging through the whole log."""
    versions, after = set(), 0
    while True:
        status, _, body = request(port, "GET", f"/api/sessions/{session}/history?after={after}&limit=1000")
        entries = json.loads(body)["entries"] if status == 200 else []
        if not entries:
            return versions
        versions.update(e["version"] for e in entries)
        after = entries[-1]["version"]


OLDER_CHECKED = 300


def verify(port, ledger, checked, rng):
    """Every acknowledged and every streamed state of this round is there, byte for byte, and a sample of earlier
    rounds' (a later crash must not take back an earlier commit); keyed retries of this round replay."""
    problems = []
    cache = {}

    def stored(session, version):
        if (session, version) not in cache:
            status, _, body = request(port, "GET", f"/api/sessions/{session}/versions/{version}")
            cache[(session, version)] = json.loads(body) if status == 200 else status
        return cache[(session, version)]

    with ledger.lock:
        fresh = {key for key in list(ledger.versions) + list(ledger.streamed) if key not in checked}
        older = sorted(checked)
        sample = set(rng.sample(older, min(OLDER_CHECKED, len(older))))
        versions = {k: v for k, v in ledger.versions.items() if k in fresh or k in sample}
        streamed = {k: v for k, v in ledger.streamed.items() if k in fresh or k in sample}
        checked.update(fresh)
        # The keys of this round, the last few per session: well inside the idempotency window (256 keys and
        # 512 KiB of answers per session), so each must replay; older ones may be forgotten by design.
        keyed = []
        for session in {entry[0] for entry in ledger.keyed}:
            keyed += [entry for entry in ledger.keyed if entry[0] == session][-KEYS_CHECKED:]
        ledger.keyed.clear()
    with ledger.lock:
        problems += ledger.broken
        ledger.broken.clear()
    for (session, version), document in versions.items():
        found = stored(session, version)
        if found != document:
            problems.append(f"acknowledged {session[:6]} v{version}: "
                            + (f"status {found}" if isinstance(found, int) else "a different document"))
    for (session, version), document in streamed.items():
        found = stored(session, version)
        if found != document:
            problems.append(f"streamed {session[:6]} v{version}: "
                            + (f"status {found}" if isinstance(found, int) else "a different document"))
    histories = {}
    for session, version in versions:
        if session not in histories:
            histories[session] = history_versions(port, session)
        if version > 0 and version not in histories[session]:
            problems.append(f"history of {session[:6]} lacks acknowledged v{version}")
    for session, path, body, key, status, answer in keyed:
        again_status, headers, again = request(port, "POST", path, body, {"Idempotency-Key": key})
        if again_status != status or again != answer or headers.get("Idempotent-Replayed") != "true":
            problems.append(f"keyed retry {key[:8]} on {session[:6]}: {again_status}, "
                            f"replayed={headers.get('Idempotent-Replayed')}, same body={again == answer}")
    return problems


def replayed_clean(binary, data, sessions):
    """Determinism: every session the rounds stored, with the crashes between, replays on the same app to the same
    outcomes and paths (`switchyard replay`, which only reads the store)."""
    done = subprocess.run([binary, "replay", "--json", "--data", data, "--max-requests", "1000000"],
                          capture_output=True, text=True, timeout=300)
    report = json.loads(done.stdout) if done.stdout.strip() else {}
    if done.returncode != 0 or report.get("replayed") != sessions or report.get("cut"):
        print(f"kill loop: replay: FAIL (exit {done.returncode}): {done.stderr[-500:]}")
        for group in report.get("groups", [])[:10]:
            print(f"  {group['sessions']} {group['reason']} (e.g. {group['example']})")
        return False
    print(f"kill loop: replay: {report['replayed']} sessions, {report['requests']} requests, none diverged")
    return True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--sessions", type=int, default=6)
    parser.add_argument("--durability", default="process")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    os.makedirs("test-artifacts", exist_ok=True)
    data = tempfile.mkdtemp(prefix="switchyard-kill-")
    # Every acknowledged version is read back at the end, so the store keeps them all: the default per-session
    # budgets (1000 versions, 1 MiB) drop the oldest of a session this busy, as they should in production.
    server = Server(args.binary, "--log-level", "warning", "--session-create-rate", "0", "--data", data,
                    "--durability", args.durability, "--history-retention", "all", "--max-history", "1G",
                    log="test-artifacts/kill-loop-server.log")

    def start():
        server.port = free_port()  # a new port for each start
        try:
            server.start()
        except ServerError as error:
            sys.exit(f"kill loop: {error}")

    ledger = Ledger()
    passed = failed = 0
    checked = set()
    print(f"kill loop: {args.rounds} rounds, {args.sessions} sessions, durability {args.durability}, seed {seed}")
    try:
        start()
        sessions = []
        for _ in range(args.sessions):
            status, _, body = request(server.port, "POST", "/api/sessions")
            assert status == 201, status
            ledger.acknowledge(json.loads(body)["session"], body)
            sessions.append(json.loads(body)["session"])
        for round_number in range(1, args.rounds + 1):
            stop = threading.Event()
            clients = [Client(server.port, s, ledger, random.Random(rng.random()), stop) for s in sessions]
            watchers = [Watcher(server.port, s, ledger) for s in sessions[: len(sessions) // 2]]
            for thread in watchers + clients:
                thread.start()
            time.sleep(rng.uniform(0.2, 0.8))
            server.kill()
            stop.set()
            for thread in clients + watchers:
                thread.join(timeout=15)
            start()
            problems = verify(server.port, ledger, checked, rng)
            changes = sum(c.changes for c in clients)
            shown = sum(w.events for w in watchers)
            if problems:
                failed += 1
                print(f"kill loop: round {round_number}: FAIL after {changes} acknowledged changes:")
                for problem in problems[:10]:
                    print(f"  {problem}")
            else:
                passed += 1
                print(f"kill loop: round {round_number}: ok, {changes} acknowledged changes, {shown} streamed states, "
                      f"{len(checked)} versions checked in all")
        server.stop()
        if not replayed_clean(args.binary, data, len(sessions)):
            failed += 1
    finally:
        server.stop()
        shutil.rmtree(data, ignore_errors=True)
    print(f"kill loop: {passed} passed, {failed} failed")
    sys.exit(0 if failed == 0 else 1)


if __name__ == "__main__":
    main()
