#!/usr/bin/env python3
"""Restart time with a full store: starts BIN on FOLDER and times spawn → first 200 for a stored session.

    python3 boot.py BIN FOLDER SESSION_ID     prints {"readyMs": …, "firstAnswerMs": …, "storedSessions": …}
"""
import http.client
import json
import socket
import subprocess
import sys
import time

binary, folder, session = sys.argv[1], sys.argv[2], sys.argv[3]
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
started = time.monotonic()
process = subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--port", str(port), "--data", folder,
                            "--log-level", "warning"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def get(path):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


ready = None
try:
    while time.monotonic() - started < 30:
        try:
            if get("/healthz") == 200:
                ready = time.monotonic()
                break
        except OSError:
            time.sleep(0.002)
    status = get(f"/api/sessions/{session}")
    answered = time.monotonic()
finally:
    process.terminate()
    process.wait(timeout=15)
if ready is None or status != 200:
    sys.exit(f"boot: the server did not serve the stored session (status {status})")
print(json.dumps({"readyMs": (ready - started) * 1000, "firstAnswerMs": (answered - started) * 1000}))
