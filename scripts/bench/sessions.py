"""Creates demo sessions logged in and on the todos tab; prints "<session id> <todos node id>" per line.

Usage: sessions.py HOST PORT COUNT
"""

import http.client
import json
import sys

LOGIN = json.dumps({"steps": [
    {"action": "root", "route": "authenticated", "input": "bench"},
    {"action": "focus", "route": "todos"},
]})


def call(connection, method, path, body=None):
    headers = {"Content-Type": "application/json"} if body is not None else {}
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    payload = response.read()
    if response.status >= 300:
        raise SystemExit(f"{method} {path} answered {response.status}: {payload[:300]!r}")
    return json.loads(payload)


def create(connection):
    """One logged-in session on the todos tab: (session id, todos coordinator node id)."""
    session = call(connection, "POST", "/api/sessions")["session"]
    state = call(connection, "POST", f"/api/sessions/{session}/transitions", LOGIN)
    return session, state["result"]["coordinator"]


def main():
    host, port, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    connection = http.client.HTTPConnection(host, port, timeout=30)
    for _ in range(count):
        session, node = create(connection)
        print(session, node)


if __name__ == "__main__":
    main()
