#!/usr/bin/env python3
"""Runs REDbot on every kind of answer the server gives; fails on any note of level WARN or BAD.

    python3 Tests/headers/redbot_check.py REDBOT URL

Prints each URL with its notes' counts; the HAR output of each run (with every note) goes to
test-artifacts/redbot/.
"""

import json
import os
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
from harness import request  # noqa: E402  (Tests/support/harness.py)


def post(base, path, body=None):
    """The JSON answer of a POST that must succeed."""
    status, _, answer = request(base, "POST", path, body)
    if not 200 <= status < 300:
        sys.exit(f"header checks: POST {path} answered {status}: {answer[:200]!r}")
    return json.loads(answer)


def main():
    redbot, base = sys.argv[1], sys.argv[2].rstrip("/")
    session = post(base, "/api/sessions")["session"]
    post(base, f"/api/sessions/{session}/events", {"name": "completeOnboarding"})
    paths = [
        "/", f"/s/{session}", "/js/app.js", "/css/app.css", "/favicon.svg", "/api/openapi.json", "/metrics",
        "/healthz", "/api/catalog", f"/api/sessions/{session}", f"/api/sessions/{session}/history",
        f"/api/sessions/{session}/versions/0", "/api/sessions/0123456789abcdef0123456789abcdef", "/nothing-here",
    ]
    os.makedirs("test-artifacts/redbot", exist_ok=True)
    failures = 0
    for path in paths:
        result = subprocess.run([redbot, "-o", "har", base + path], capture_output=True, text=True, timeout=120)
        name = path.strip("/").replace("/", "_") or "root"
        with open(f"test-artifacts/redbot/{name[:60]}.har", "w") as file:
            file.write(result.stdout)
        try:
            har = json.loads(result.stdout)
        except ValueError:
            print(f"{path}: redbot failed: {result.stderr.strip()[-300:]}")
            failures += 1
            continue
        notes = [note for entry in har["log"]["entries"] for note in entry.get("_red_messages", [])]
        bad = [note for note in notes if note.get("level") in ("WARN", "BAD")]
        levels = {}
        for note in notes:
            levels[note.get("level")] = levels.get(note.get("level"), 0) + 1
        print(f"{path}: " + ", ".join(f"{count} {level}" for level, count in sorted(levels.items())))
        for note in bad:
            print(f"    {note.get('level')}: {note.get('summary')}")
        failures += len(bad)
    print(f"header checks: {len(paths)} answers, {failures} warnings")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
