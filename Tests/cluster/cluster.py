"""A small test topology for several Switchyard nodes: a throwaway PostgreSQL, nodes, an nginx balancer, SSE clients,
and a relay in front of PostgreSQL that can keep a node's listener connection out (PostgresGate).

Standard library only. Every process started here is stopped when the test process exits (atexit, also on SIGTERM),
whether the tests passed or not; Tests/cluster/run.sh also sweeps CLUSTER_TMP when pytest itself is killed.
Logs go to test-artifacts/cluster/ (nodes, nginx, and the PostgreSQL server log copied there when it is removed).

    postgres = Postgres(); postgres.start()
    a, b = Node("a", postgres.url), Node("b", postgres.url); a.start(); b.start()
    balancer = Balancer([a, b]); balancer.start()
    stream = Stream(b.url, session); stream.wait_version(5)
"""

import atexit
import contextlib
import glob
import http.client
import json
import os
import pathlib
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "support"))
import harness  # noqa: E402  (Tests/support/harness.py)
import jsonpatch  # noqa: E402  (Tests/support/jsonpatch.py)
from harness import free_port  # noqa: E402

ARTIFACTS = ROOT / "test-artifacts" / "cluster"
# Absolute: nodes run in their own temporary working folder.
BIN = os.path.abspath(os.environ.get("SWITCHYARD_BIN") or ROOT / ".build" / "debug" / "switchyard")
POSTGRES_SCRIPT = ROOT / "scripts" / "postgres.sh"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
# run.sh makes this folder (traversable by the postgres user) and sweeps it afterwards.
TMP = os.environ.get("CLUSTER_TMP") or tempfile.gettempdir()

# A change the demo always accepts and that always makes a new version (a push and a pop in one transition),
# whatever other writers do: logged-in sessions only (see `logged_in_session`).
BUMP = {"coordinator": "SettingsCoordinator", "steps": [{"action": "push", "route": "green"}, {"action": "pop"}]}

_running = []  # what to stop at exit, in start order


def _stop_everything():
    for thing in reversed(list(_running)):
        try:
            thing.cleanup()
        except Exception as error:  # keep stopping the rest
            print(f"cluster cleanup: {thing!r}: {error}")


def _exit_on_signal(signum, _frame):
    raise SystemExit(128 + signum)


atexit.register(_stop_everything)
if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
    # The default SIGTERM ends Python without running atexit: make it an exit that stops what we started.
    signal.signal(signal.SIGTERM, _exit_on_signal)


def artifacts():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


# ---- HTTP ----

class Response:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    def json(self):
        return json.loads(self.body)

    def __repr__(self):
        return f"<{self.status} {self.body[:200]!r}>"


def request(url, method, path, body=None, headers=None, timeout=15.0):
    """One request on a fresh connection (harness.request) as a Response; the answer's header names are lower case."""
    return Response(*harness.request(url, method, path, body, headers, timeout))


def logged_in_session(url):
    """A new demo session, logged in (so that BUMP applies); returns its id."""
    created = request(url, "POST", "/api/sessions")
    assert created.status == 201, created
    session = created.json()["session"]
    for body in ({"name": "completeOnboarding"}, {"name": "login", "fields": {"username": "ada"}}):
        answer = request(url, "POST", f"/api/sessions/{session}/events", body)
        assert answer.status == 200, answer
    return session


def version_of(url, session):
    answer = request(url, "GET", f"/api/sessions/{session}")
    assert answer.status == 200, answer
    return answer.json()["version"]


# ---- processes ----

def _tail(path, lines=30):
    try:
        return "".join(open(path, errors="replace").readlines()[-lines:])
    except OSError:
        return ""


def _pg_bin():
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]))
    return os.environ.get("PGBIN") or (found[-1] if found else "")


class Postgres:
    """A throwaway cluster made by scripts/postgres.sh (fsync on, 127.0.0.1, a free port)."""

    def __init__(self, name="postgres"):
        self.name = name
        self.dir = tempfile.mkdtemp(prefix="switchyard-pg-", dir=TMP)
        self.url = None
        self.frozen = []  # pids stopped by freeze()
        _running.append(self)

    def _script(self, command):
        done = subprocess.run(["bash", str(POSTGRES_SCRIPT), command, self.dir], capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"postgres.sh {command} failed: {done.stderr.strip()}")
        return done.stdout.strip()

    def start(self):
        self.url = self._script("start")
        return self

    def halt(self):
        """Stops the server (-m fast: clients are disconnected), keeping the data."""
        self._script("halt")

    def restart(self):
        self.halt()
        self.start()

    def pids(self):
        """The server's processes: the postmaster (its pid is the first line of postmaster.pid) and its children."""
        with open(os.path.join(self.dir, "data", "postmaster.pid")) as file:
            main = int(file.readline())
        children = []
        for stat in glob.glob("/proc/[0-9]*/stat"):
            try:
                # pid (comm) state ppid …: the name may hold spaces, so read after its closing parenthesis.
                fields = open(stat).read().rsplit(")", 1)[1].split()
            except OSError:
                continue  # ended meanwhile
            if int(fields[1]) == main:
                children.append(int(stat.split("/")[2]))
        return [main, *children]

    def freeze(self):
        """Stops every process of the server (SIGSTOP): connections stay open and nothing answers, as with a hung
        server. thaw() (also run at exit) lets it go on."""
        self.frozen = self.pids()
        for pid in self.frozen:
            os.kill(pid, signal.SIGSTOP)

    def thaw(self):
        for pid in self.frozen:
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
        self.frozen = []

    def sql(self, text):
        """Runs text with psql; returns the rows, one string per row (columns separated by |)."""
        done = subprocess.run(
            [os.path.join(_pg_bin(), "psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", self.url,
             "-c", text], capture_output=True, text=True, timeout=30)
        if done.returncode != 0:
            raise RuntimeError(f"psql failed: {done.stderr.strip()}")
        return [line for line in done.stdout.splitlines() if line]

    def cleanup(self):
        self.thaw()  # a stopped server would not stop
        if os.path.exists(os.path.join(self.dir, "server.log")):
            shutil.copyfile(os.path.join(self.dir, "server.log"), artifacts() / f"{self.name}.log")
        if os.path.exists(self.dir):
            self._script("stop")
        if self in _running:
            _running.remove(self)

    stop = cleanup


class Node(harness.Server):
    """One `switchyard serve` process on the shared store. Its port stays the same across restarts (the balancer's
    configuration names it). `flags` are appended to the defaults below (a later flag wins)."""

    def __init__(self, name, database_url, *flags):
        self.name, self.database_url = name, database_url
        self.dir = tempfile.mkdtemp(prefix=f"switchyard-node-{name}-", dir=TMP)
        # Every test client (and nginx) has the address 127.0.0.1: no per-address limits. The working folder is a
        # private temporary one: a node must not write anything next to the tests.
        super().__init__(BIN, "--database-url", database_url, "--session-create-rate", "0",
                         "--max-connections-per-ip", "100000", *flags, public=ROOT / "Public",
                         log=artifacts() / f"node-{name}.log", cwd=self.dir, label=f"node {name}")
        _running.append(self)

    def request(self, method, path, body=None, headers=None, timeout=15.0):
        return request(self.url, method, path, body, headers, timeout)

    def start(self):
        self.spawn()
        with open(self._pid_file, "w") as pid:  # for run.sh's sweep; removed once the process is gone
            pid.write(str(self.process.pid))
        return self.wait_ready(timeout=30)

    @property
    def _pid_file(self):
        return os.path.join(self.dir, "node.pid")

    def _ended(self):
        if os.path.exists(self._pid_file):
            os.remove(self._pid_file)

    def kill9(self):
        self.kill()
        self._ended()

    def stop(self):
        super().stop(timeout=15)
        self._ended()

    def restart(self):
        self.stop()
        return self.start()

    def cleanup(self):
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
        if self in _running:
            _running.remove(self)


NGINX_CONF = """\
# Generated by Tests/cluster/cluster.py: nginx in its own prefix, in the foreground, no system files.
daemon off;
worker_processes 1;
{user}
pid {prefix}/nginx.pid;
error_log {error_log} notice;
events {{ worker_connections 1024; }}
http {{
    access_log {access_log};
    client_body_temp_path {prefix}/client_body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    upstream switchyard {{
        # Round robin; a node that refused a connection is skipped for 2 s, so a restarted node is used again soon.
        {servers}
        keepalive 16;
        keepalive_timeout 5s;  # shorter than the nodes' --idle-timeout (10 s): nginx closes first, never reuses a dead one
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://switchyard;
            proxy_http_version 1.1;           # keep-alive to the nodes, and chunked SSE
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_buffering off;              # SSE: pass each event on at once
            proxy_read_timeout 1h;            # SSE: a quiet stream is not a dead one
            proxy_connect_timeout 2s;
            # A request that could not reach a node goes to the other one. nginx never resends a POST that a node
            # may have received (non_idempotent is not set): clients retry those with their Idempotency-Key.
            proxy_next_upstream error timeout;
            proxy_next_upstream_tries 2;
        }}
    }}
}}
"""


class Balancer:
    """Debian's nginx, round robin over the nodes, run in the foreground in its own temporary prefix."""

    def __init__(self, nodes, name="nginx"):
        self.nodes, self.name = nodes, name
        self.port = free_port()
        self.prefix = tempfile.mkdtemp(prefix="switchyard-nginx-", dir=TMP)
        self.process = None
        _running.append(self)

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def request(self, method, path, body=None, headers=None, timeout=15.0):
        return request(self.url, method, path, body, headers, timeout)

    def start(self):
        if not os.path.exists(NGINX):
            raise RuntimeError("nginx is missing: install the Debian package nginx")
        error_log = artifacts() / f"{self.name}-error.log"
        conf = os.path.join(self.prefix, "nginx.conf")
        with open(conf, "w") as out:
            out.write(NGINX_CONF.format(
                # As root the workers would run as nobody, who cannot use the private temporary prefix.
                user="user root;" if os.geteuid() == 0 else "",
                prefix=self.prefix, port=self.port, error_log=error_log,
                access_log=artifacts() / f"{self.name}-access.log",
                servers="\n        ".join(f"server 127.0.0.1:{n.port} max_fails=1 fail_timeout=2s;"
                                          for n in self.nodes)))
        with open(artifacts() / f"{self.name}.out", "ab") as out:
            self.process = subprocess.Popen([NGINX, "-p", self.prefix, "-c", conf, "-e", str(error_log)],
                                            stdout=out, stderr=subprocess.STDOUT)
        try:
            harness.wait_healthy(self.url, 15, alive=lambda: self.process.poll() is None, label="nginx")
        except harness.ServerError as error:
            raise RuntimeError(f"{error}:\n{_tail(error_log)}") from None
        return self

    def cleanup(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # fast shutdown: SSE connections would hold a graceful one
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        shutil.rmtree(self.prefix, ignore_errors=True)
        if self in _running:
            _running.remove(self)

    stop = cleanup


@contextlib.contextmanager
def two_nodes_behind_nginx(prefix, *flags):
    """A throwaway PostgreSQL, nodes PREFIX-a and PREFIX-b on it (with `flags`) and nginx PREFIX-nginx in front:
    yields (nodes, balancer), and stops them all afterwards."""
    postgres = Postgres(f"{prefix}-postgres").start()
    nodes = [Node(f"{prefix}-{name}", postgres.url, *flags).start() for name in ("a", "b")]
    balancer = Balancer(nodes, name=f"{prefix}-nginx").start()
    try:
        yield nodes, balancer
    finally:
        balancer.stop()
        for node in nodes:
            node.cleanup()
        postgres.stop()


class PostgresGate:
    """A relay in front of PostgreSQL that can keep out new connections by their application_name (read from the
    start-up message), so that a test can hold a node's listener connection down while its other connections work.
    `url` is the database URL through the relay."""

    def __init__(self, postgres):
        self.upstream = urllib.parse.urlsplit(postgres.url)
        self.refused = set()  # application names kept out
        self.counts = {"accepted": [], "refused": []}  # application names, in order
        self._lock = threading.Lock()
        self._sockets = []
        self._server = socket.create_server(("127.0.0.1", 0))
        self.url = self.upstream._replace(netloc=f"postgres@127.0.0.1:{self._server.getsockname()[1]}").geturl()
        threading.Thread(target=self._accept, daemon=True).start()
        _running.append(self)

    def _accept(self):
        while True:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            threading.Thread(target=self._relay, args=(client,), daemon=True).start()

    def _relay(self, client):
        try:
            while True:
                head = _receive(client, 8)
                length, code = struct.unpack("!ii", head)
                if code in (80877103, 80877104):  # SSLRequest, GSSENCRequest: "not supported", go on in the clear
                    client.sendall(b"N")
                    continue
                body = _receive(client, length - 8)
                fields = body.split(b"\0")
                name = dict(zip(fields[0::2], fields[1::2])).get(b"application_name", b"").decode()
                with self._lock:
                    kept_out = name in self.refused
                    self.counts["refused" if kept_out else "accepted"].append(name)
                if kept_out:
                    client.close()
                    return
                upstream = socket.create_connection((self.upstream.hostname, self.upstream.port))
                with self._lock:
                    self._sockets += [client, upstream]
                upstream.sendall(head + body)
                threading.Thread(target=_pump, args=(upstream, client), daemon=True).start()
                _pump(client, upstream)
                upstream.close()
                client.close()
                return
        except (OSError, struct.error):
            client.close()

    def cleanup(self):
        self._server.close()
        with self._lock:
            for connection in self._sockets:
                connection.close()
        if self in _running:
            _running.remove(self)

    stop = cleanup


def _receive(connection, count):
    data = b""
    while len(data) < count:
        chunk = connection.recv(count - len(data))
        if not chunk:
            raise OSError("connection closed")
        data += chunk
    return data


def _pump(source, target):
    try:
        while data := source.recv(65536):
            target.sendall(data)
    except OSError:
        pass
    finally:
        for connection in (source, target):
            try:
                connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


# ---- SSE ----

class Stream(threading.Thread):
    """Follows GET /api/sessions/{id}/stream in a thread and records every event as (id, event, data); data is the
    parsed JSON (or the raw text), and for a `patch` event the document the patch makes of the one before (as a
    client rebuilds it; None when it does not apply). `ended` is set when the server closes the stream or the
    connection fails."""

    def __init__(self, url, session, last_event_id=None, document=None):
        """`document`: the state of version `last_event_id`, which a resuming client has (patches apply to it)."""
        super().__init__(daemon=True)
        self.url, self.session, self.last_event_id = url, session, last_event_id
        self.events = []
        self.document = document
        self.status = None
        self.error = None
        self.changed = threading.Condition()
        self.ended = threading.Event()
        self._socket = None
        _running.append(self)
        self.start()

    def run(self):
        parts = urllib.parse.urlsplit(self.url)
        try:
            connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=300)
            headers = {"Accept": "text/event-stream"}
            if self.last_event_id is not None:
                headers["Last-Event-ID"] = str(self.last_event_id)
            connection.request("GET", f"/api/sessions/{self.session}/stream", headers=headers)
            self._socket = connection.sock  # the response takes it over; kept to unblock a read in close()
            response = connection.getresponse()
            with self.changed:
                self.status = response.status
                self.changed.notify_all()
            if response.status != 200:
                response.read()
                return
            event_id, event, data = None, "message", []
            while True:
                line = response.readline()  # not response.fp: that would skip the chunked decoding
                if not line:
                    return
                line = line.decode().rstrip("\r\n")
                if line == "":
                    if data:
                        self._record(event_id, event, "\n".join(data))
                    event, data = "message", []
                elif line.startswith(":"):
                    continue  # a comment (keep-alive)
                else:
                    name, _, value = line.partition(":")
                    value = value[1:] if value.startswith(" ") else value
                    if name == "id":
                        event_id = int(value) if value.isdigit() else value
                    elif name == "event":
                        event = value
                    elif name == "data":
                        data.append(value)
        except (OSError, http.client.HTTPException, ValueError) as error:
            self.error = error
        finally:
            with self.changed:
                self.ended.set()
                self.changed.notify_all()

    def _record(self, event_id, event, text):
        try:
            data = json.loads(text)
        except ValueError:
            data = text
        if event == "state":
            self.document = data
        elif event == "patch":
            try:
                self.document = data = jsonpatch.apply(self.document, data)
            except jsonpatch.PatchError:
                self.document = data = None
        with self.changed:
            self.events.append((event_id, event, data))
            self.changed.notify_all()

    def ids(self, events=("state", "patch")):
        """The ids of the state documents shown (whole or patched)."""
        with self.changed:
            return [i for i, e, _ in self.events if e in events]

    def wait_for(self, predicate, timeout, message):
        """Waits until predicate(stream) holds; fails with message (and what was seen) after timeout seconds."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while not predicate(self):
                left = deadline - time.monotonic()
                if left <= 0:
                    seen = [i for i, _, _ in self.events]
                    raise AssertionError(f"{message} (waited {timeout} s; status {self.status}, "
                                         f"ended {self.ended.is_set()}, ids seen {seen[:10]}…{seen[-10:]})")
                self.changed.wait(left)

    def wait_open(self, timeout=10):
        self.wait_for(lambda s: s.status is not None or s.ended.is_set(), timeout, "the stream did not answer")
        assert self.status == 200, f"stream answered {self.status} ({self.error})"

    def wait_version(self, version, timeout=10):
        self.wait_for(lambda s: any(i == version for i, e, _ in s.events if e in ("state", "patch")) or s.ended.is_set(),
                      timeout, f"version {version} did not arrive")
        assert version in self.ids(), f"the stream ended before version {version}: {self.ids()[-10:]}"

    def wait_ended(self, timeout=10):
        self.wait_for(lambda s: s.ended.is_set(), timeout, "the stream is still open")

    def close(self):
        if self._socket is not None:
            try:
                self._socket.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self.join(timeout=5)
        if self in _running:
            _running.remove(self)

    cleanup = close
