#!/usr/bin/env python3
"""Restart and fault checks of the real server binary and its store flags.

    python3 Tests/durability/restarts.py BIN

Each check starts BIN with its own temporary data folder. Prints PASS/FAIL per check and `N passed, N failed`;
exits 1 if any failed.
"""

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from harness import Server, ServerError, free_port, request  # noqa: E402  (Tests/support/harness.py)

BIN = sys.argv[1]
results = []


def check(name):
    def register(function):
        folder = tempfile.mkdtemp(prefix="switchyard-restart-")
        os.chmod(folder, 0o755)
        try:
            detail = function(folder)
            results.append((name, detail is None, detail))
        except Exception as error:  # a crash of the check is its failure
            results.append((name, False, f"{type(error).__name__}: {error}"))
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        return function
    return register


class Run(Server):
    """One server process, started at once; `with Run(...) as server:` waits for /healthz and stops it (SIGTERM)
    at the end. Its log goes to a temporary file (`log_text()`)."""

    def __init__(self, *flags, env=None, user=None):
        prefix = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups"] if user is not None else []
        super().__init__(BIN, "--session-create-rate", "0", *flags, env=env, prefix=prefix)
        self.spawn()

    def exit_code(self, timeout=20):
        """For a server expected to refuse to start: its exit code and output."""
        code = self.wait_exit(timeout)
        return (None, "") if code is None else (code, self.log_text())

    def __enter__(self):
        try:
            return self.wait_ready(timeout=20)
        except ServerError:
            raise RuntimeError(f"the server did not start: {self.log_text().strip()[-300:]}") from None

    def __exit__(self, *_):
        running = self.alive()
        if self.stop() is None and running:
            raise RuntimeError("the server did not stop within 15 s of SIGTERM")

    def create(self):
        status, _, body = request(self.port, "POST", "/api/sessions")
        assert status == 201, status
        import json
        return json.loads(body)["session"]

    def event(self, session, body):
        return request(self.port, "POST", f"/api/sessions/{session}/events", body)[0]

    def state(self, session):
        import json
        status, _, body = request(self.port, "GET", f"/api/sessions/{session}")
        return status, (json.loads(body) if status == 200 else None)


def refused_to_start(run, expected):
    code, output = run.exit_code()
    lines = [line for line in output.splitlines() if line.strip() and "critical" in line]
    if code in (None, 0):
        return f"exit code {code}, wanted a failure"
    if len(lines) != 1 or expected not in lines[0]:
        return f"wanted one critical line containing {expected!r}, got: {output.strip()[-400:]!r}"
    return None


@check("the data folder is created on first run and sessions survive a restart")
def survives_restart(folder):
    data = os.path.join(folder, "nested", "data")
    with Run("--data", data) as server:
        session = server.create()
        assert server.event(session, {"name": "completeOnboarding"}) == 200
    if not os.path.exists(os.path.join(data, "switchyard.sqlite")):
        return "no database file in the data folder"
    with Run("--data", data) as server:
        status, state = server.state(session)
        if status != 200 or state["version"] != 1:
            return f"after restart: {status} {state and state['version']}"


@check("SWITCHYARD_DATA names the folder")
def data_from_environment(folder):
    with Run(env={"SWITCHYARD_DATA": folder}) as server:
        server.create()
    return None if os.path.exists(os.path.join(folder, "switchyard.sqlite")) else "no database in SWITCHYARD_DATA"


@check("--durability machine survives kill -9")
def machine_durability(folder):
    server = Run("--data", folder, "--durability", "machine")
    with server:
        session = server.create()
        assert server.event(session, {"name": "completeOnboarding"}) == 200
        server.kill()
    with Run("--data", folder, "--durability", "machine") as server:
        status, state = server.state(session)
        return None if status == 200 and state["version"] == 1 else f"after kill -9: {status}"


@check("--history-retention keeps the last N versions per session (a segment of 16 at a time), across a restart")
def history_retention(folder):
    # Versions are stored as deltas with a whole document every 16: history goes a segment at a time, so that
    # every kept version can still be rebuilt. At version 25 with a retention of 2, versions 1 to 15 are gone.
    with Run("--data", folder, "--history-retention", "2") as server:
        session = server.create()
        assert server.event(session, {"name": "completeOnboarding"}) == 200
        for turn in range(12):
            assert server.event(session, {"name": "login", "fields": {"username": f"user{turn}"}}) == 200
            assert server.event(session, {"name": "logout"}) == 200
    with Run("--data", folder, "--history-retention", "2") as server:
        kept = {v: request(server.port, "GET", f"/api/sessions/{session}/versions/{v}")[0] for v in range(0, 26)}
    wanted = {v: 200 if v == 0 or v >= 16 else 404 for v in range(0, 26)}
    if kept != wanted:
        return f"versions read back: {kept}"


@check("--store memory keeps today's behaviour: sessions end with the process, no file is written")
def memory_store(folder):
    with Run("--store", "memory", "--data", folder) as server:
        session = server.create()
    with Run("--store", "memory", "--data", folder) as server:
        status, _ = server.state(session)
    if os.listdir(folder):
        return f"files written: {os.listdir(folder)}"
    return None if status == 404 else f"after restart: {status}, wanted 404"


@check("a corrupt store: one readable line, non-zero exit")
def corrupt_file(folder):
    with open(os.path.join(folder, "switchyard.sqlite"), "wb") as file:
        file.write(b"not a database " * 4096)
    return refused_to_start(Run("--data", folder), "cannot be read")


@check("a store of a newer schema: one readable line, non-zero exit")
def newer_schema(folder):
    with Run("--data", folder) as server:
        server.create()
    connection = sqlite3.connect(os.path.join(folder, "switchyard.sqlite"))
    connection.execute("PRAGMA user_version = 99")
    connection.close()
    return refused_to_start(Run("--data", folder), "newer Switchyard")


@check("an unwritable data folder: one readable line, non-zero exit")
def unwritable_folder(folder):
    data = os.path.join(folder, "data")
    os.mkdir(data)
    if os.getuid() == 0:
        if shutil.which("setpriv") is None:
            return None  # cannot drop privileges here; the Swift test covers non-root runs
        os.chmod(data, 0o755)  # owned by root: nobody cannot write it
        return refused_to_start(Run("--data", data, user=65534), "is not writable by this process (uid 65534")
    os.chmod(data, 0o500)
    try:
        return refused_to_start(Run("--data", data), f"is not writable by this process (uid {os.getuid()}")
    finally:
        os.chmod(data, 0o700)


@check("bad store flags are refused before anything starts")
def bad_flags(folder):
    for flags, expected in [(["--store", "disk"], "sqlite, postgres or memory"),
                            (["--durability", "fast"], "process or machine"),
                            (["--data-max-size", "1K"], "at least 1M"), (["--history-retention", "none"], "or all"),
                            (["--max-renderings", "lots"], "must be a size such as 512K"),
                            (["--max-memory-history", "1K"], "at least 1M"),
                            (["--store", "postgres"], "needs --database-url"),
                            (["--database-url", "mysql://db/app"], "must be a postgresql:// URL"),
                            (["--store", "memory", "--database-url", "postgresql://db/app"], "choose one store"),
                            (["--database-connections", "0"], "from 1 to 1000"),
                            (["--admin-token", "short"], "at least 16 characters"),
                            (["--rollout", "todo=x"], "is not VERSION or VERSION:WEIGHT"),
                            (["--rollout", "todo=2"], "names version 2 of 'todo', which is not served")]:
        code, output = Run("--data", folder, *flags).exit_code()
        if code in (None, 0) or expected not in output:
            return f"{flags}: exit {code}, output {output.strip()[-200:]!r}"


@check("a database that cannot be reached stops the server with a readable line, its password hidden")
def unreachable_database(folder):
    port = free_port()  # a port nobody listens on
    code, output = Run("--database-url", f"postgresql://app:secret@127.0.0.1:{port}/app").exit_code()
    if code in (None, 0) or "cannot open the database postgresql://app:***@127.0.0.1" not in output:
        return f"exit {code}, output {output.strip()[-300:]!r}"
    if "secret" in output:
        return "the password was logged"


@check("a full store (--data-max-size) answers 503 and recovers once room is made")
def full_store(folder):
    with Run("--data", folder, "--data-max-size", "1M") as server:
        created, refused = [], None
        for _ in range(20000):
            status, headers, body = request(server.port, "POST", "/api/sessions")
            if status != 201:
                refused = (status, headers, body)
                break
            import json
            created.append(json.loads(body)["session"])
        if refused is None:
            return "the cap was never reached"
        if refused[0] != 503 or b"storeUnavailable" not in refused[2] or "Retry-After" not in refused[1]:
            return f"when full: {refused[0]} {refused[2][:120]!r}"
        # The cap counts the write-ahead log and the reserve too.
        used = sum(os.path.getsize(os.path.join(folder, name)) for name in os.listdir(folder))
        if used > 1.25 * (1 << 20):
            return f"the store takes {used} bytes on disk under a 1M cap"
        for session in created[: len(created) // 2]:
            status = request(server.port, "DELETE", f"/api/sessions/{session}")[0]
            if status != 204:
                return f"delete when full: {status}"
        status = request(server.port, "POST", "/api/sessions")[0]
        return None if status == 201 else f"after making room: {status}"


def fill(path):
    """Writes zeros to `path` until the disk is full."""
    chunk = b"\0" * (256 * 1024)
    with open(path, "wb", buffering=0) as file:
        while True:
            try:
                file.write(chunk)
            except OSError:
                break
        while True:  # the last blocks, a page at a time
            try:
                file.write(b"\0" * 4096)
            except OSError:
                return


@check("a full disk: changes refused with 503, a DELETE that succeeds, reads after a restart, recovery with room")
def full_disk(folder):
    if os.getuid() != 0:
        return None  # mounting a small filesystem needs root (CI runs as root)
    disk = os.path.join(folder, "disk")
    os.mkdir(disk)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=24m", "tmpfs", disk]).returncode != 0:
        return "cannot mount a 24 MiB tmpfs"
    try:
        filler = os.path.join(disk, "filler")
        with Run("--data", disk) as server:
            sessions = [server.create() for _ in range(4)]
            for session in sessions:
                server.event(session, {"name": "completeOnboarding"})
                server.event(session, {"name": "login", "fields": {"username": "ada"}})
            fill(filler)
            refused = None
            for index in range(3000):
                tab = "settings" if index % 2 == 0 else "todos"
                status, _, body = request(server.port, "POST", f"/api/sessions/{sessions[0]}/transitions",
                                          {"action": "selectTab", "route": tab})
                if status != 200:
                    refused = (status, body)
                    break
            if refused is None or refused[0] != 503 or b"storeUnavailable" not in refused[1]:
                return f"changes on a full disk: {refused}"
            status, _, body = request(server.port, "GET", "/readyz")
            if status != 503 or b"readOnly" not in body:
                return f"readiness on a full disk: {status} {body[:200]!r}"
            if request(server.port, "POST", "/api/sessions")[0] != 503:
                return "a creation on a full disk was not refused"
            status = request(server.port, "DELETE", f"/api/sessions/{sessions[3]}")[0]
            if status != 204:
                return f"DELETE on a full disk: {status}"
            if server.state(sessions[1])[0] != 200:
                return "a read on a full disk failed"
        # The disk is still full: the server starts and serves reads.
        with Run("--data", disk) as server:
            status, document = server.state(sessions[2])
            if status != 200 or document["version"] != 2:
                return f"read after a restart on a full disk: {status}"
            if server.state(sessions[3])[0] != 404:
                return "the session deleted on the full disk came back"
            status = request(server.port, "POST", f"/api/sessions/{sessions[1]}/transitions",
                             {"action": "selectTab", "route": "settings"})[0]
            if status != 503:
                return f"a change after a restart on a full disk: {status}"
            os.remove(filler)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                status = request(server.port, "POST", f"/api/sessions/{sessions[1]}/transitions",
                                 {"action": "selectTab", "route": "settings"})[0]
                if status == 200:
                    break
                time.sleep(0.2)
            if status != 200:
                return f"no recovery once the disk had room: {status}"
            if request(server.port, "GET", "/readyz")[0] != 200:
                return "readiness did not recover"
    finally:
        subprocess.run(["umount", "-l", disk])


passed = sum(1 for _, ok, _ in results if ok)
for name, ok, detail in results:
    print(f"restarts: {'PASS' if ok else 'FAIL'} {name}" + ("" if ok else f": {detail}"))
print(f"restarts: {passed} passed, {len(results) - passed} failed")
sys.exit(0 if passed == len(results) else 1)
