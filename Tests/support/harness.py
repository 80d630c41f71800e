"""What every Python test harness here needs: a free port, one HTTP request, a server process, waiting.

Standard library only: the durability and load suites run on the system python3, the others on the venv's.

    free_port()                                  a loopback port nobody listens on
    request(port_or_url, method, path, body=None, headers=None, timeout=10)
                                                 -> (status, headers, body bytes), whatever the status
    Server(binary, *flags, log=...)              `binary serve` on 127.0.0.1, log to a file, /healthz, SIGTERM
    wait_healthy(port_or_url, timeout)           polls GET /healthz until it answers 200
    wait_until(predicate, timeout, message)      polls predicate() until it is truthy

A suite imports it by its path (the suites are scripts, not a package):

    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
    import harness  # noqa: E402  (Tests/support/harness.py)

Shell scripts use its two commands (Tests/support/server.sh):

    python3 Tests/support/harness.py free-port
    python3 Tests/support/harness.py wait-healthy URL PID [SECONDS]
"""

import http.client
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse

HOST = "127.0.0.1"


def free_port():
    """A TCP port on 127.0.0.1 that nobody listens on now (the kernel picks it)."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


# ---- HTTP ----

class Headers(dict):
    """An answer's headers. Names are case-insensitive (`headers["etag"]`, `"Retry-After" in headers`) and kept in
    lower case (iteration, repr); a header sent twice keeps its last value."""

    def __init__(self, pairs=()):
        super().__init__((name.lower(), value) for name, value in pairs)

    def __getitem__(self, name):
        return super().__getitem__(name.lower())

    def __contains__(self, name):
        return isinstance(name, str) and super().__contains__(name.lower())

    def get(self, name, default=None):
        return super().get(name.lower(), default)


def request(target, method, path, body=None, headers=None, timeout=10.0):
    """One request on a new connection; returns (status, headers, body bytes) for any status (no exception for a
    4xx or 5xx, no redirect followed).

    target: a port on 127.0.0.1, or a base URL such as "http://127.0.0.1:8080" (a path in it prefixes `path`).
    body: None for no body, else a JSON value, sent as JSON with `Content-Type: application/json`.
    headers: more request headers. The answer's `headers` is a `Headers` (case-insensitive names).
    A connection that fails or times out raises OSError, a malformed answer http.client.HTTPException: a test that
    kills the server catches them.
    """
    if isinstance(target, int):
        host, port, prefix = HOST, target, ""
    else:
        parts = urllib.parse.urlsplit(target)
        host, port, prefix = parts.hostname, parts.port or 80, parts.path.rstrip("/")
    connection = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        all_headers = dict(headers or {})
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            all_headers["Content-Type"] = "application/json"
        connection.request(method, prefix + path, body=payload, headers=all_headers)
        response = connection.getresponse()
        return response.status, Headers(response.getheaders()), response.read()
    finally:
        connection.close()


# ---- waiting ----

def wait_until(predicate, timeout, message, interval=0.05, error=AssertionError):
    """Calls predicate() until it returns something truthy, and returns that; raises error(message) once timeout
    seconds have passed (an exception raised by predicate goes through)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise error(f"{message} (waited {timeout:g} s)")
        time.sleep(interval)


class ServerError(RuntimeError):
    """A server that did not come up: it exited, or /healthz did not answer 200 in time."""


def wait_healthy(target, timeout=30.0, alive=None, label="the server"):
    """Waits until GET /healthz on target (a port or a URL, as for `request`) answers 200, each try with a 2 s limit.
    Raises ServerError once alive() (if given) is false, or after timeout seconds."""

    def healthy():
        if alive is not None and not alive():
            raise ServerError(f"{label} exited before answering /healthz")
        try:
            return request(target, "GET", "/healthz", timeout=2.0)[0] == 200
        except (OSError, http.client.HTTPException):
            return False

    wait_until(healthy, timeout, f"{label} did not answer 200 on /healthz", error=ServerError)


# ---- the server process ----

class Server:
    """One `BINARY serve --host 127.0.0.1 --port PORT --public PUBLIC FLAGS…` process.

        server = Server(BIN, "--data", folder, log="test-artifacts/my-server.log").start()
        status, headers, body = request(server.port, "POST", "/api/sessions")
        code = server.stop()

    or `with Server(…) as server:` (started, or waited for if already spawned; stopped at the end).

    log: a file path (appended to: each start writes a `---- start: COMMAND` line, then the process's output), or
    None for a temporary file. Output never goes to a pipe: one that nobody reads fills up and stops the server.
    port: kept across restarts (default: a free one; set `server.port` before `start()` to move it).
    env: variables added to this process's environment. cwd: its working folder. prefix: words put before the
    command (e.g. setpriv …). label: how error messages name it.
    """

    def __init__(self, binary, *flags, log=None, port=None, public="Public", env=None, cwd=None, prefix=(),
                 label="the server"):
        self.binary, self.flags, self.public = binary, list(flags), public
        self.port = port or free_port()
        self.log_path, self.env, self.cwd, self.prefix, self.label = log, env, cwd, list(prefix), label
        self.process = None
        self._log = None  # the temporary log file, when log is None
        self._log_start = 0  # where this start's output begins in the log file

    @property
    def url(self):
        return f"http://{HOST}:{self.port}"

    @property
    def command(self):
        return [*self.prefix, str(self.binary), "serve", "--host", HOST, "--port", str(self.port),
                "--public", str(self.public), *self.flags]

    def spawn(self):
        """Starts the process without waiting for it (for a server expected to refuse to start); returns self."""
        command = self.command
        environment = {**os.environ, **self.env} if self.env else None
        if self.log_path is None:
            self._log = tempfile.TemporaryFile()
            log = self._log
        else:
            log = open(self.log_path, "ab")
            log.write(f"---- start: {shlex.join(command)}\n".encode())
            log.flush()
            self._log_start = log.tell()
        try:
            self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                            env=environment, cwd=self.cwd)
        finally:
            if log is not self._log:
                log.close()  # the process has its own copy
        return self

    def wait_ready(self, timeout=30.0):
        """Waits for /healthz to answer 200. If the process exits first, or the time runs out (it is then killed),
        raises ServerError with the end of its log."""
        try:
            wait_healthy(self.port, timeout, alive=self.alive, label=self.label)
        except ServerError as error:
            if self.alive():
                self.kill()
                reason = str(error)
            else:
                reason = f"{self.label} exited at start (code {self.process.returncode})"
            tail = "\n".join(self.log_text().rstrip().splitlines()[-30:])
            raise ServerError(f"{reason}; the end of its log:\n{tail}" if tail else reason) from None
        return self

    def start(self, timeout=30.0):
        """spawn(), then wait_ready(timeout); returns self."""
        return self.spawn().wait_ready(timeout)

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def log_text(self):
        """What the process of the last start wrote (stdout and stderr)."""
        if self.log_path is None:
            if self._log is None:
                return ""
            self._log.seek(0)
            return self._log.read().decode(errors="replace")
        try:
            with open(self.log_path, "rb") as log:
                log.seek(self._log_start)
                return log.read().decode(errors="replace")
        except OSError:
            return ""

    def stop(self, timeout=15.0):
        """SIGTERM, then waits up to timeout seconds; a process still running then is killed (SIGKILL).
        Returns its exit code; None if this call had to kill it, or it was never started."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                return self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.kill()
                return None
        return self.process.returncode

    def kill(self):
        """SIGKILL (as a crash would), and waits for the process to be gone."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def wait_exit(self, timeout=20.0):
        """For a server expected to exit by itself: its exit code, or None (and it is killed) after timeout s."""
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            return None

    def __enter__(self):
        if self.process is None:
            self.spawn()
        return self.wait_ready()

    def __exit__(self, *_):
        self.stop()


# ---- for shell scripts ----

def _main(arguments):
    usage = "usage: harness.py free-port | wait-healthy URL PID [SECONDS]"
    if arguments == ["free-port"]:
        print(free_port())
        return 0
    if arguments[:1] == ["wait-healthy"] and len(arguments) in (3, 4):
        url, pid = arguments[1], int(arguments[2])
        seconds = float(arguments[3]) if len(arguments) == 4 else 30.0

        def alive():  # a child of the calling shell that exited stays a zombie until the shell waits for it
            try:
                with open(f"/proc/{pid}/stat") as stat:
                    return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
            except OSError:
                return False

        try:
            wait_healthy(url, seconds, alive=alive)
        except ServerError as error:
            sys.exit(str(error))
        return 0
    sys.exit(usage)


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
