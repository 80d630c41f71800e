"""The shop's two releases (Examples/Definitions/Releases) served by the real binary, and what the release tests do
with them: make sessions, read their state and history, run `switchyard migrate`, read /metrics, put load on them.

Standard library only. PostgreSQL and the nodes come from Tests/cluster/cluster.py (imported, not copied); its logs
go to test-artifacts/release/ here. Every temporary folder lives in CLUSTER_TMP (made and swept by run.sh).

    server = ShopServer("sqlite-x", data, *V1).start()     # log: test-artifacts/release/sqlite-x.log
    session = create(server.url)["session"]
    push(server.url, session, "product", "tea")
    dry = migrate(*V1_AND_V2, "--data", data)              # a dry run: dry.code, dry.report, dry.groups()
"""

import atexit
import contextlib
import json
import os
import pathlib
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(ROOT / "Tests" / "cluster"), str(ROOT / "Tests" / "support")]
import cluster  # noqa: E402  (Tests/cluster/cluster.py)
import harness  # noqa: E402  (Tests/support/harness.py)

# Node and Postgres write their logs to cluster.artifacts(): this suite's folder instead of the cluster suite's.
ARTIFACTS = ROOT / "test-artifacts" / "release"
cluster.ARTIFACTS = ARTIFACTS
BIN = cluster.BIN
TMP = cluster.TMP

# The two releases, as `--app` flags (absolute: nodes run in a temporary working folder).
RELEASES = ROOT / "Examples" / "Definitions" / "Releases"
V1 = ("--app", str(RELEASES / "shop-v1.yaml"))
V2 = ("--app", str(RELEASES / "shop-v2.yaml"))
V1_AND_V2 = (*V1, *V2)

MIGRATED = "a stored session migrated"  # the log line of each stored migration (LiveSessions+Migration.swift)


def artifacts():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


def temporary_folder(label):
    """A new folder in CLUSTER_TMP (run.sh removes them all at the end)."""
    return tempfile.mkdtemp(prefix=f"switchyard-release-{label}-", dir=TMP)


_servers = []  # ShopServers started and not stopped yet: stopped at exit


@atexit.register
def _stop_servers():
    for server in list(_servers):
        server.stop()


class ShopServer(harness.Server):
    """`switchyard serve` on a SQLite store in `data`, with the given app and rollout flags; its log is
    test-artifacts/release/NAME.log (each start appends to it). No limit on session creation (one client address).
    While it runs, its pid is in DATA/server.pid (for run.sh's sweep, should pytest die without stopping it)."""

    def __init__(self, name, data, *flags):
        self.defaults = ["--data", data, "--session-create-rate", "0", "--max-connections-per-ip", "100000"]
        self.pid_file = os.path.join(data, "server.pid")
        super().__init__(BIN, *self.defaults, *flags, public=ROOT / "Public", log=artifacts() / f"{name}.log",
                         label=name)

    def spawn(self):
        super().spawn()
        with open(self.pid_file, "w") as pid:
            pid.write(str(self.process.pid))
        _servers.append(self)
        return self

    def stop(self, timeout=15.0):
        code = super().stop(timeout)
        if self in _servers:
            _servers.remove(self)
            with contextlib.suppress(FileNotFoundError):
                os.remove(self.pid_file)
        return code

    def stop_cleanly(self):
        """SIGTERM; the server must exit 0 within 15 s."""
        code = self.stop()
        assert code == 0, f"{self.label} exited with {code} on SIGTERM:\n{self.log_text()[-2000:]}"

    def restart_with(self, *flags):
        """Stops the server cleanly and starts it again on the same store with `flags` (app and rollout flags)."""
        self.stop_cleanly()
        self.flags = self.defaults + list(flags)
        return self.start()


class ShopNode(cluster.Node):
    """A cluster node (cluster.Node: PostgreSQL store, Public, its own working folder, log node-NAME.log) whose app
    and rollout flags change from one start to the next."""

    def __init__(self, name, database_url, *flags):
        super().__init__(name, database_url)
        self.defaults = list(self.flags)
        self.flags = self.defaults + list(flags)

    def restart_with(self, *flags):
        self.stop()
        assert self.process.returncode == 0, f"node {self.name} did not stop cleanly (code {self.process.returncode})"
        self.flags = self.defaults + list(flags)
        return self.start()


# ---- sessions ----

def call(url, method, path, body=None, headers=None, timeout=15.0):
    """One request (a new connection); (status, parsed JSON body or None). Connection failures raise OSError."""
    status, _, data = harness.request(url, method, path, body, headers, timeout)
    try:
        return status, json.loads(data) if data else None
    except ValueError:
        return status, None


def create(url):
    """A new session of the default app (the shop); its state document."""
    status, document = call(url, "POST", "/api/sessions")
    assert status == 201, (status, document)
    return document


def transition(url, session, *steps, headers=None):
    return call(url, "POST", f"/api/sessions/{session}/transitions", {"steps": list(steps)}, headers)


def push(url, session, route, input=None, headers=None):
    step = {"action": "push", "route": route}
    if input is not None:
        step["input"] = input
    return transition(url, session, step, headers=headers)


def state(url, session):
    """GET /api/sessions/{id}: (status, document)."""
    return call(url, "GET", f"/api/sessions/{session}")


def app_version(document):
    return document["app"]["version"]


def history(url, session):
    """Every entry of the session's history, paging through it."""
    entries, after = [], 0
    while True:
        status, page = call(url, "GET", f"/api/sessions/{session}/history?after={after}&limit=1000")
        assert status == 200, (session, status, page)
        if not page["entries"]:
            return entries
        entries += page["entries"]
        after = page["entries"][-1]["version"]


def migrations_in(entries):
    """The history entries that are migrations."""
    return [entry for entry in entries if entry["source"] == "migration"]


def migrations_total(url, outcome="migrated", version="1"):
    """switchyard_session_migrations_total of the shop's `version` with `outcome` on this node (0 if not listed)."""
    status, _, body = harness.request(url, "GET", "/metrics")
    assert status == 200, status
    pattern = (r'^switchyard_session_migrations_total\{app="shop",version="%s",outcome="%s"\} (\d+)$'
               % (re.escape(version), re.escape(outcome)))
    found = re.search(pattern, body.decode(), re.MULTILINE)
    return int(found.group(1)) if found else 0


# ---- switchyard migrate ----

class Migrate:
    """What one `switchyard migrate` (or `replay`) run gave: exit code, its JSON report (None if it printed none), its
    log."""

    def __init__(self, code, stdout, stderr):
        self.code, self.stderr = code, stderr
        self.report = json.loads(stdout) if stdout.strip() else None

    def groups(self):
        """{(version, outcome, to): sessions} of the shop."""
        return {(g["version"], g["outcome"], g.get("to")): g["sessions"] for g in self.report["groups"]
                if g["app"] == "shop"}

    def migrated_ids(self):
        """The sessions its log says were migrated (--apply)."""
        return migrated_ids(self.stderr.splitlines())

    def __repr__(self):
        return f"<migrate exit {self.code}: {self.report}; log: {self.stderr[-1500:]}>"


def migrate_command(*options, apply=False):
    return [BIN, "migrate", "--json", *(["--apply"] if apply else []), *options]


def migrate(*options, apply=False, log="migrate"):
    """Runs `switchyard migrate --json [--apply] OPTIONS` to its end; its log is appended to
    test-artifacts/release/LOG.log."""
    command = migrate_command(*options, apply=apply)
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=TMP)
    with open(artifacts() / f"{log}.log", "a") as out:
        out.write(f"---- {' '.join(command)} (exit {done.returncode})\n{done.stderr}{done.stdout}")
    return Migrate(done.returncode, done.stdout, done.stderr)


def replay(*options, log="replay"):
    """Runs `switchyard replay --json OPTIONS` to its end (it only reads the store); its log is appended to
    test-artifacts/release/LOG.log. Its `report` is the replay's JSON report."""
    command = [BIN, "replay", "--json", *options]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=TMP)
    with open(artifacts() / f"{log}.log", "a") as out:
        out.write(f"---- {' '.join(command)} (exit {done.returncode})\n{done.stderr}{done.stdout}")
    return Migrate(done.returncode, done.stdout, done.stderr)


def migrated_ids(lines):
    """The session ids of the `a stored session migrated` lines among `lines`."""
    return [re.search(r"session=(\S+)", line).group(1) for line in lines if MIGRATED in line]


# ---- load ----

PUSH_BASKET = {"steps": [{"action": "push", "route": "basket"}]}
POP = {"steps": [{"action": "pop"}]}


class Load:
    """Client threads that, until stopped, go over `sessions` again and again (each thread in its own random order):
    GET the session, then push `basket` and pop it again (two transitions: the path ends where it started).
    Every answer is checked.

    `nodes`: the base URLs to use, in turn. A request that could not reach a node (connection refused or reset: the
    node is restarting) is sent to the next node, with the same Idempotency-Key for a transition, so that a change
    the first node may have applied is not applied twice. Any answer that is not 2xx is a failure (`failures`);
    so is an answer showing an app version other than `expect_version`, if given.

    A session's app version never goes back: a request sent after some answer showed version N of the app for that
    session must not show an older one (on any node), else it is a failure too.

    Each thread owns the sessions it writes (thread i writes the sessions i, i + threads, …, and only reads the
    others): two clients never write one session at once, so their own changes never conflict with each other.
    """

    def __init__(self, nodes, sessions, threads=6, expect_version=None):
        self.nodes, self.sessions, self.expect_version = list(nodes), list(sessions), expect_version
        self.stop_event = threading.Event()
        self.lock = threading.Lock()
        self.failures = []  # (what, node, status, body)
        self.statuses = {}  # status -> count
        self.rounds = [0] * threads  # passes over every session, per thread
        self.reached = {}  # node URL -> answers received from it
        self.connection_errors = 0
        self.newest = {}  # session -> the newest app version an answer showed
        self.threads = [threading.Thread(target=self._run, args=(i, threads), daemon=True) for i in range(threads)]

    def start(self):
        for thread in self.threads:
            thread.start()
        return self

    def stop(self):
        self.stop_event.set()
        for thread in self.threads:
            thread.join(timeout=60)
        assert not any(thread.is_alive() for thread in self.threads), "a load thread did not finish"

    def answered(self, url=None):
        with self.lock:
            return sum(self.reached.values()) if url is None else self.reached.get(url, 0)

    def completed_rounds(self):
        """The passes over every session that each thread has completed (the fewest)."""
        with self.lock:
            return min(self.rounds)

    def _record(self, what, url, status, body):
        with self.lock:
            self.statuses[status] = self.statuses.get(status, 0) + 1
            self.reached[url] = self.reached.get(url, 0) + 1
            if not 200 <= status < 300:
                self.failures.append((what, url, status, body))

    def _check_version(self, what, session, url, version, seen):
        with self.lock:
            if self.expect_version is not None and version != self.expect_version:
                self.failures.append((f"{what} shows app version {version}", url, 200, session))
            if version < seen:
                self.failures.append((f"{what} shows app version {version} after {seen}", url, 200, session))
            self.newest[session] = max(version, self.newest.get(session, 0))

    def _send(self, start, what, method, path, body=None, headers=None):
        """Sends the request to the nodes in turn, from node `start`, until one answers; (url, status, document)."""
        for attempt in range(200):
            url = self.nodes[(start + attempt) % len(self.nodes)]
            try:
                status, document = call(url, method, path, body, headers, timeout=30)
            except OSError:  # the node is not listening (restarting), or went away mid-request
                with self.lock:
                    self.connection_errors += 1
                if attempt % len(self.nodes) == len(self.nodes) - 1:
                    time.sleep(0.05)  # every node refused: one is restarting and the other not ready yet
                continue
            self._record(what, url, status, document)
            return url, status, document
        raise AssertionError(f"{what}: no node answered in 200 tries")

    def _run(self, index, count):
        try:
            self._go_over(index, count)
        except Exception as error:  # a failure of the client itself: reported, not lost with the thread
            with self.lock:
                self.failures.append(("client", None, None, f"{type(error).__name__}: {error}"))

    def _go_over(self, index, count):
        order = list(self.sessions)
        owned = set(self.sessions[index::count])
        random.Random(index).shuffle(order)
        turn = index  # which node comes first, advanced at each request
        while not self.stop_event.is_set():
            for session in order:
                if self.stop_event.is_set():
                    return  # between sessions: a push is always followed by its pop
                path = f"/api/sessions/{session}"
                requests = [("GET", "GET", path, None)]
                if session in owned:
                    requests += [("push basket", "POST", path + "/transitions", PUSH_BASKET),
                                 ("pop", "POST", path + "/transitions", POP)]
                for what, method, target, body in requests:
                    turn += 1
                    # A transition keeps its key when it is sent again to another node.
                    headers = {"Idempotency-Key": str(uuid.uuid4())} if method == "POST" else None
                    with self.lock:
                        seen = self.newest.get(session, 0)  # shown before this request is sent
                    url, status, document = self._send(turn, what, method, target, body, headers)
                    if status == 200:
                        self._check_version(what, session, url, app_version(document), seen)
            with self.lock:
                self.rounds[index] += 1

    def summary(self):
        with self.lock:
            return (f"{sum(self.statuses.values())} answers {dict(sorted(self.statuses.items()))}, "
                    f"{self.connection_errors} connection errors, rounds {self.rounds}")


def remove(folder):
    shutil.rmtree(folder, ignore_errors=True)


def run_in_threads(work, items, threads=8):
    """work(item) for every item in `threads` threads; the results in order (an exception goes through)."""
    with ThreadPoolExecutor(threads) as pool:
        return list(pool.map(work, items))
