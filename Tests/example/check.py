#!/usr/bin/env python3
"""Starts the Hello example on a free port and drives it over HTTP; ends with `N passed, N failed`."""
import json
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
from harness import request  # noqa: E402  (Tests/support/harness.py)

binary = sys.argv[1]
process = subprocess.Popen([binary, "0", "Public"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
try:
    line = process.stdout.readline()  # "Hello is serving on http://127.0.0.1:PORT"
    base = line.strip().rsplit(" ", 1)[-1]
    if not base.startswith("http://"):
        sys.exit(f"example: unexpected first line {line!r}")

    def call(method, path, body=None):
        status, _, answer = request(base, method, path, body)
        return status, json.loads(answer)

    status, created = call("POST", "/api/sessions")
    session = created["session"]
    _, pushed = call("POST", f"/api/sessions/{session}/transitions",
                     {"action": "push", "route": "greeting", "input": "Ada"})
    _, linked = call("POST", f"/api/sessions/{session}/deeplinks", {"url": "hello://greet/Grace"})
    status_page, _, page = request(base, "GET", "/")
    page_ok = status_page == 200 and b"<html" in page.lower()
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
