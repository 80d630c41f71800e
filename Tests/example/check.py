#!/usr/bin/env python3
"""Starts the Hello example on a free port and drives it over HTTP; ends with `N passed, N failed`."""
import json
import subprocess
import sys
import urllib.request

binary = sys.argv[1]
process = subprocess.Popen([binary, "0", "Public"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
try:
    line = process.stdout.readline()  # "Hello is serving on http://127.0.0.1:PORT"
    base = line.strip().rsplit(" ", 1)[-1]
    if not base.startswith("http://"):
        sys.exit(f"example: unexpected first line {line!r}")

    def call(method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"} if data else {})
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.load(response)

    status, created = call("POST", "/api/sessions")
    session = created["session"]
    _, pushed = call("POST", f"/api/sessions/{session}/transitions",
                     {"action": "push", "route": "greeting", "input": "Ada"})
    _, linked = call("POST", f"/api/sessions/{session}/deeplinks", {"url": "hello://greet/Grace"})
    with urllib.request.urlopen(base + "/", timeout=10) as page:
        page_ok = page.status == 200 and b"<html" in page.read().lower()
    checks = [
        ("a session starts on the example's own root", status == 201 and created["visible"]["path"] == ["names"]),
        ("a transition by name pushes its screen",
         pushed["visible"]["path"] == ["names", "greeting"]
         and pushed["visible"]["screen"]["title"] == "Hello, Ada!"),
        ("its own deep link opens", linked["result"]["deepLink"] == "opened"
         and linked["visible"]["screen"]["title"] == "Hello, Grace!"),
        ("the page is served", page_ok),
    ]
finally:
    process.terminate()
    code = process.wait(timeout=15)
checks.append(("SIGTERM stops it cleanly", code == 0))
failed = 0
for name, ok in checks:
    print(f"example: {'PASS' if ok else 'FAIL'} {name}")
    failed += 0 if ok else 1
print(f"{len(checks) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
