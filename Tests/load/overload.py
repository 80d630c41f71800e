#!/usr/bin/env python3
"""Load test: one busy session must not freeze the server, and SIGTERM must still stop it in time.

    python3 Tests/load/overload.py BIN [--seconds 15]

Starts BIN (the switchyard binary) on a free loopback port, makes one session with a deep stack (large state
documents), then for --seconds runs at once:
  - 50 writers on that session, each pushing and going back as fast as the server answers;
  - a fast SSE reader (reads everything; event ids must only grow, and it must keep its stream: a reader that
    falls behind gets the latest state, not a backlog), a slow one (a small receive buffer, 4 KB read every
    100 ms) and a stalled one (never reads);
  - a probe that asks GET /healthz every 100 ms on a new connection, each with a 1 s limit.
Then it sends SIGTERM and waits for the process to exit. Checks: every probe answered within 1 s, the writers'
requests all succeeded, the fast reader saw increasing versions and kept its stream, and the server exited 0
within its shutdown grace (5 s). Standard library only; bounded in time; loopback only.
Ends with the plain line `N passed, N failed`.
"""
import argparse
import http.client
import json
import os
import pathlib
import socket
import shutil
import sys
import tempfile
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
from harness import Server, ServerError, request  # noqa: E402  (Tests/support/harness.py)

GRACE_SECONDS = 5.0
LOG = "test-artifacts/overload-server.log"


def stream_socket(port, path, receive_buffer=None):
    sock = socket.socket()
    if receive_buffer:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.settimeout(5)
    sock.connect(("127.0.0.1", port))
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
    return sock


class ChunkedEvents:
    """Reads a chunked `text/event-stream` response from a raw socket and yields each event's `id:`."""

    def __init__(self, sock):
        self.sock = sock
        self.raw = b""
        self.text = b""
        self.head_done = False

    def ids(self):
        """The ids of the events completed by the next read; None once the connection ended."""
        chunk = self.sock.recv(65536)
        if not chunk:
            return None
        self.raw += chunk
        if not self.head_done:
            if b"\r\n\r\n" not in self.raw:
                return []
            self.raw = self.raw.split(b"\r\n\r\n", 1)[1]
            self.head_done = True
        while True:  # de-chunk: "<hex size>\r\n<data>\r\n"
            line_end = self.raw.find(b"\r\n")
            if line_end < 0:
                break
            size = int(self.raw[:line_end].split(b";")[0], 16)
            if len(self.raw) < line_end + 2 + size + 2:
                break
            self.text += self.raw[line_end + 2:line_end + 2 + size]
            self.raw = self.raw[line_end + 2 + size + 2:]
        ids = []
        while b"\n\n" in self.text:
            block, self.text = self.text.split(b"\n\n", 1)
            ids += [int(line[4:]) for line in block.split(b"\n") if line.startswith(b"id: ")]
        return ids


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--seconds", type=float, default=15)
    args = parser.parse_args()
    os.makedirs("test-artifacts", exist_ok=True)
    pathlib.Path(LOG).unlink(missing_ok=True)  # this run's log only
    data = tempfile.mkdtemp(prefix="switchyard-overload-")
    server = Server(args.binary, "--log-level", "warning", "--data", data, log=LOG)
    try:
        server.start()
    except ServerError as error:
        sys.exit(f"overload: {error}")

    status, _, body = request(server.port, "POST", "/api/sessions", timeout=5.0)
    session = json.loads(body)["session"]
    base = f"/api/sessions/{session}"
    setup = [
        ("events", {"name": "completeOnboarding"}),
        ("events", {"name": "login", "fields": {"username": "ada"}}),
        ("transitions", {"coordinator": "AuthenticatedCoordinator", "steps": [{"action": "focus", "route": "todos"}]}),
        ("transitions", {"coordinator": "TodosCoordinator",
                         "steps": [{"action": "push", "route": "todo", "input": "buy-milk"}] * 40}),
    ]
    for endpoint, payload in setup:
        status, _, body = request(server.port, "POST", f"{base}/{endpoint}", payload, timeout=5.0)
        if status != 200:
            server.kill()
            sys.exit(f"overload: setup {endpoint} failed: {status} {body[:200]!r}")
    document_size = len(request(server.port, "GET", base, timeout=5.0)[2])

    stop = threading.Event()
    lock = threading.Lock()
    counts = {"writes": 0, "write_errors": 0, "probes": 0, "slow_probes": 0, "fast_events": 0,
              "out_of_order": 0, "slow_bytes": 0}
    worst_probe = [0.0]
    first_errors = []

    def writer():
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        push = json.dumps({"coordinator": "TodosCoordinator",
                           "steps": [{"action": "push", "route": "todo", "input": "buy-milk"}]})
        back = json.dumps({"action": "back"})
        while not stop.is_set():
            for payload in (push, back):
                try:
                    connection.request("POST", f"{base}/transitions", body=payload,
                                       headers={"Content-Type": "application/json"})
                    response = connection.getresponse()
                    text = response.read()
                    ok = response.status == 200
                except (OSError, http.client.HTTPException) as error:
                    ok, text = False, repr(error).encode()
                    connection.close()
                    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
                with lock:
                    counts["writes" if ok else "write_errors"] += 1
                    if not ok and len(first_errors) < 3:
                        first_errors.append(text[:200])
        connection.close()

    def fast_reader():
        sock = stream_socket(server.port, f"{base}/stream")
        events = ChunkedEvents(sock)
        last = -1
        while not stop.is_set():
            try:
                ids = events.ids()
            except OSError:
                break
            if ids is None:
                break
            for version in ids:
                with lock:
                    counts["fast_events"] += 1
                    if version <= last:
                        counts["out_of_order"] += 1
                last = version
        sock.close()
        with lock:
            counts["fast_end"] = "stopped" if stop.is_set() else "disconnected"

    def slow_reader():
        sock = stream_socket(server.port, f"{base}/stream", receive_buffer=8192)
        while not stop.is_set():
            try:
                chunk = sock.recv(4096)
            except OSError:
                break
            if not chunk:
                break
            with lock:
                counts["slow_bytes"] += len(chunk)
            time.sleep(0.1)
        sock.close()

    stalled = stream_socket(server.port, f"{base}/stream", receive_buffer=4096)

    def probe():
        while not stop.is_set():
            started = time.monotonic()
            try:
                ok = request(server.port, "GET", "/healthz", timeout=1.0)[0] == 200
            except OSError:
                ok = False
            elapsed = time.monotonic() - started
            with lock:
                counts["probes"] += 1
                if not ok or elapsed > 1.0:
                    counts["slow_probes"] += 1
                worst_probe[0] = max(worst_probe[0], elapsed)
            time.sleep(max(0.0, 0.1 - elapsed))

    threads = [threading.Thread(target=writer, daemon=True) for _ in range(50)]
    threads += [threading.Thread(target=target, daemon=True) for target in (fast_reader, slow_reader, probe)]
    for thread in threads:
        thread.start()
    time.sleep(args.seconds)
    stop.set()
    for thread in threads:
        thread.join(timeout=15)

    rss_kib = 0
    with open(f"/proc/{server.process.pid}/status") as status_file:
        for line in status_file:
            if line.startswith("VmRSS:"):
                rss_kib = int(line.split()[1])
    stalled.close()

    started = time.monotonic()
    code = server.stop(timeout=GRACE_SECONDS + 10)  # None: killed after that
    exit_seconds = time.monotonic() - started
    shutil.rmtree(data, ignore_errors=True)

    print(f"overload: {args.seconds:.0f} s, state document {document_size} bytes, "
          f"{counts['writes']} transitions ({counts['write_errors']} failed), "
          f"{counts['fast_events']} events to the fast reader, {counts['slow_bytes']} bytes to the slow one, "
          f"{counts['probes']} health probes (worst {worst_probe[0] * 1000:.0f} ms), "
          f"server RSS {rss_kib // 1024} MiB, SIGTERM to exit {exit_seconds:.2f} s (code {code})")
    if first_errors:
        print("overload: first failed writes:", first_errors)
    checks = [
        ("every /healthz probe answered within 1 s", counts["slow_probes"] == 0 and counts["probes"] > 0),
        ("the writers' transitions all succeeded", counts["write_errors"] == 0 and counts["writes"] > 0),
        ("the fast reader saw only increasing versions", counts["out_of_order"] == 0 and counts["fast_events"] > 0),
        ("the fast reader kept its stream (it gets the latest state, not a backlog)",
         counts.get("fast_end", "").startswith("stopped")),
        ("SIGTERM: exit 0 within the grace period", code == 0 and exit_seconds <= GRACE_SECONDS),
    ]
    failed = 0
    for name, ok in checks:
        print(f"overload: {'PASS' if ok else 'FAIL'} {name}")
        failed += 0 if ok else 1
    print(f"{len(checks) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
