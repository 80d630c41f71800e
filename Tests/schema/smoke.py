#!/usr/bin/env python3
"""What schemathesis cannot check, against a running server (argument: its base URL).

- `GET /api/openapi.json` serves docs/openapi.json byte for byte.
- `GET /api/sessions/{id}/stream` (held open forever, so schemathesis only sees its 404s) opens with an
  `event: state` whose `id` is the version and whose `data` is a state document valid against the document's
  StateDocument schema; a change is pushed as the next event (a small one as a JSON Patch, valid against the
  JSONPatch schema, that makes a valid state document of the one before); deleting the session ends the stream.
"""
import json
import pathlib
import sys
import urllib.request

import jsonschema

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
import harness  # noqa: E402  (Tests/support/harness.py)
import jsonpatch  # noqa: E402  (Tests/support/jsonpatch.py)

BASE = sys.argv[1].rstrip("/")
ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCUMENT = (ROOT / "docs" / "openapi.json").read_text(encoding="utf-8")


def fail(message: str) -> None:
    sys.exit(f"smoke: {message}")


def request(method: str, path: str, body: dict | None = None):
    """(status, headers, body bytes) of one request to the server under test."""
    return harness.request(BASE, method, path, body)


def validator(name: str) -> jsonschema.Draft202012Validator:
    schema = json.loads(DOCUMENT)
    schema["$ref"] = f"#/components/schemas/{name}"
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)


def read_event(stream) -> dict:
    """The next event of a text/event-stream (comments skipped); {} at the end of the stream."""
    event: dict = {}
    while True:
        line = stream.readline()
        if not line:
            return {}
        line = line.decode().rstrip("\r\n")
        if line == "":
            if event:
                return event
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        event[name] = event.get(name, "") + value.removeprefix(" ")


status, _, body = request("GET", "/api/openapi.json")
if status != 200 or body.decode("utf-8") != DOCUMENT:
    fail("GET /api/openapi.json does not serve docs/openapi.json (rebuild: the document is compiled in)")

status, headers, body = request("GET", "/api/sessions/00000000000000000000000000000000/stream")
if status != 404 or not headers.get("Content-Type", "").startswith("application/problem+json"):
    fail(f"stream of an unknown session answered {status}, not a 404 problem")

status, _, body = request("POST", "/api/sessions")
if status != 201:
    fail(f"POST /api/sessions answered {status}")
created = json.loads(body)
session = created["session"]
state = validator("StateDocument")
change = validator("ChangeDocument")

stream = urllib.request.urlopen(BASE + f"/api/sessions/{session}/stream", timeout=10)
if stream.status != 200 or not stream.headers.get("Content-Type", "").startswith("text/event-stream"):
    fail(f"stream answered {stream.status} {stream.headers.get('Content-Type')}")
if stream.headers.get("X-Session") != session:
    fail("stream has no X-Session header naming the session")
first = read_event(stream)
if first.get("event") != "state" or first.get("id") != str(created["version"]):
    fail(f"the stream's first event is not the current state: {first}")
state.validate(json.loads(first["data"]))

visible = created["visible"]
action = next(e["action"] for e in visible["screen"]["content"] if e.get("type") == "button")
status, _, body = request("POST", f"/api/sessions/{session}/events",
                          {"from": action["from"], "name": action["name"], "payload": action["payload"]})
if status != 200:
    fail(f"the welcome screen's button event answered {status}: {body[:300]!r}")
change.validate(json.loads(body))
pushed = read_event(stream)
if pushed.get("event") not in ("state", "patch") or int(pushed.get("id", "-1")) <= created["version"]:
    fail(f"the change was not pushed on the stream: {pushed}")
if pushed["event"] == "patch":
    validator("JSONPatch").validate(json.loads(pushed["data"]))
    document = jsonpatch.apply(json.loads(first["data"]), json.loads(pushed["data"]))
else:
    document = json.loads(pushed["data"])
state.validate(document)

# A small change (a push) comes as a JSON Patch from that version, whose first operation tests it.
status, _, body = request("POST", f"/api/sessions/{session}/transitions",
                          {"coordinator": "UnauthenticatedCoordinator",
                           "steps": [{"action": "push", "route": "forgotPassword"}]})
if status != 200:
    fail(f"a push answered {status}: {body[:300]!r}")
patched = read_event(stream)
if patched.get("event") != "patch" or patched.get("id") != str(json.loads(body)["version"]):
    fail(f"the push was not streamed as a patch: {patched}")
patch = json.loads(patched["data"])
validator("JSONPatch").validate(patch)
if patch[0] != {"op": "test", "path": "/version", "value": document["version"]}:
    fail(f"the patch does not start by testing the version it applies to: {patch[0]}")
state.validate(jsonpatch.apply(document, patch))

status, _, _ = request("DELETE", f"/api/sessions/{session}")
if status != 204:
    fail(f"DELETE answered {status}")
while read_event(stream):
    pass  # the stream must end once the session ends (a read timeout fails the test)
stream.close()
print("smoke: served document, stream events and stream end OK")
