#!/usr/bin/env python3
"""Keeps Sources/SwitchyardServer/OpenAPISpec.swift in step with docs/openapi.json (the authored document).

    python3 Tests/schema/sync_spec.py          rewrite the Swift file from docs/openapi.json
    python3 Tests/schema/sync_spec.py --check  exit 1 if the Swift file is out of date (run.sh does this)

The Swift literal is a raw multi-line string holding docs/openapi.json verbatim (without its final newline), so
`GET /api/openapi.json` serves exactly the committed document.
"""
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOURCE = ROOT / "docs" / "openapi.json"
TARGET = ROOT / "Sources" / "SwitchyardServer" / "OpenAPISpec.swift"
INDENT = " " * 8

HEADER = """\
// Generated from docs/openapi.json by Tests/schema/sync_spec.py; edit the JSON and rerun the script.

/// The OpenAPI 3.1 description of the API, served at `GET /api/openapi.json`.
enum OpenAPISpec {
    static let bytes: [UInt8] = Array(text.utf8)

    static let text = #\"\"\"
"""
FOOTER = """\
        \"\"\"#
}
"""


def render() -> str:
    text = SOURCE.read_text(encoding="utf-8").rstrip("\n")
    json.loads(text)  # refuse to embed a document that is not JSON
    if '"""#' in text:
        sys.exit("docs/openapi.json contains the raw string terminator")
    body = "".join((INDENT + line if line else "") + "\n" for line in text.split("\n"))
    return HEADER + body + FOOTER


def main() -> None:
    wanted = render()
    if "--check" in sys.argv[1:]:
        if TARGET.read_text(encoding="utf-8") != wanted:
            sys.exit("OpenAPISpec.swift is out of date with docs/openapi.json: run python3 Tests/schema/sync_spec.py")
        return
    TARGET.write_text(wanted, encoding="utf-8")


if __name__ == "__main__":
    main()
