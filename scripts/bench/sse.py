"""SSE fan-out benchmark: N subscribers on one session, time from a transition to the last subscriber's event.

Usage: sse.py HOST PORT [SUBSCRIBERS] [TRANSITIONS] [UPDATES]
UPDATES is the stream's `updates` choice: patch (the default: changes as JSON Patches) or state (whole documents).
Prints one JSON object, with the bytes each subscriber received per change. Subscribers connect from 127.0.0.2, 127.0.0.3, … (at most PER_IP each) to stay under the
server's per-IP connection limit (64). One process reads all sockets with epoll (selectors).
"""

import http.client
import json
import resource
import selectors
import socket
import statistics
import sys
import time

from sessions import create

PER_IP = 60


class Subscriber:
    """One raw SSE connection: decodes chunked transfer coding and remembers the last event id seen."""

    def __init__(self, host, port, source, session, updates):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind((source, 0))
        self.sock.connect((host, port))
        request = (f"GET /api/sessions/{session}/stream?updates={updates} HTTP/1.1\r\nHost: {host}:{port}\r\n"
                   "Accept: text/event-stream\r\n\r\n")
        self.sock.sendall(request.encode())
        self.sock.setblocking(False)
        self.raw = b""
        self.headers_done = False
        self.chunked = False
        self.text = b""
        self.last_id = -1
        self.closed = False
        self.event_bytes = 0  # bytes of the events received (the SSE text, without the chunked coding)

    def feed(self):
        """Reads what is available; returns False when the connection closed."""
        try:
            data = self.sock.recv(1 << 20)
        except BlockingIOError:
            return True
        if not data:
            self.closed = True
            return False
        self.raw += data
        if not self.headers_done:
            end = self.raw.find(b"\r\n\r\n")
            if end < 0:
                return True
            head = self.raw[:end].decode("latin-1")
            if " 200 " not in head.split("\r\n", 1)[0]:
                raise SystemExit(f"stream answered: {head.splitlines()[0]}")
            self.chunked = "chunked" in head.lower()
            self.raw = self.raw[end + 4:]
            self.headers_done = True
        self._dechunk()
        self._scan()
        return True

    def _dechunk(self):
        if not self.chunked:
            self.event_bytes += len(self.raw)
            self.text += self.raw
            self.raw = b""
            return
        while True:
            line_end = self.raw.find(b"\r\n")
            if line_end < 0:
                return
            size = int(self.raw[:line_end].split(b";")[0], 16)
            if len(self.raw) < line_end + 2 + size + 2:
                return
            self.text += self.raw[line_end + 2:line_end + 2 + size]
            self.event_bytes += size
            self.raw = self.raw[line_end + 2 + size + 2:]

    def _scan(self):
        while True:
            end = self.text.find(b"\n\n")
            if end < 0:
                return
            event, self.text = self.text[:end], self.text[end + 2:]
            for line in event.split(b"\n", 3)[:3]:
                if line.startswith(b"id: "):
                    self.last_id = int(line[4:])


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main():
    host, port = sys.argv[1], int(sys.argv[2])
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    transitions = int(sys.argv[4]) if len(sys.argv) > 4 else 50
    updates = sys.argv[5] if len(sys.argv) > 5 else "patch"
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, count + 256)), hard))

    control = http.client.HTTPConnection(host, port, timeout=30)
    session, node = create(control)
    selector = selectors.DefaultSelector()
    subscribers = []
    for index in range(count):
        source = f"127.0.0.{2 + index // PER_IP}"
        subscriber = Subscriber(host, port, source, session, updates)
        subscribers.append(subscriber)
        selector.register(subscriber.sock, selectors.EVENT_READ, subscriber)

    def wait_for(version, deadline):
        """Reads until every subscriber saw `version`; returns the time the last one did."""
        missing = sum(1 for s in subscribers if s.last_id < version)
        last = time.perf_counter()
        while missing:
            timeout = deadline - time.perf_counter()
            if timeout <= 0:
                raise SystemExit(f"{missing} subscribers did not get version {version} in time")
            for key, _ in selector.select(timeout):
                subscriber = key.data
                before = subscriber.last_id
                if not subscriber.feed():
                    selector.unregister(subscriber.sock)
                    raise SystemExit("a stream closed")
                if before < version <= subscriber.last_id:
                    missing -= 1
                    last = time.perf_counter()
        return last

    # Every subscriber gets the current state at once; the version is the session's current one.
    control.request("GET", f"/api/sessions/{session}")
    state = json.loads(control.getresponse().read())
    wait_for(state["version"], time.perf_counter() + 30)
    received_before = sum(s.event_bytes for s in subscribers)

    from_response, from_request = [], []
    headers = {"Content-Type": "application/json"}
    for index in range(transitions):
        step = {"action": "push", "route": "todo", "input": "hello-world"} if index % 2 == 0 else {"action": "pop"}
        body = json.dumps({"coordinator": node, "steps": [step]})
        sent = time.perf_counter()
        control.request("POST", f"/api/sessions/{session}/transitions", body=body, headers=headers)
        response = control.getresponse()
        payload = response.read()
        answered = time.perf_counter()
        if response.status != 200:
            raise SystemExit(f"transition answered {response.status}: {payload[:200]!r}")
        version = json.loads(payload)["version"]
        last = wait_for(version, answered + 10)
        from_response.append(max(0.0, last - answered) * 1000)
        from_request.append((last - sent) * 1000)
    received = sum(s.event_bytes for s in subscribers) - received_before
    print(json.dumps({
        "subscribers": count, "transitions": transitions, "updates": updates,
        "bytesPerChange": received / (count * transitions),
        "fromResponseMs": {"p50": statistics.median(from_response), "p99": percentile(from_response, 0.99),
                           "max": max(from_response)},
        "fromRequestMs": {"p50": statistics.median(from_request), "p99": percentile(from_request, 0.99),
                          "max": max(from_request)},
        "eventBytes": len(payload),
    }))


if __name__ == "__main__":
    main()
