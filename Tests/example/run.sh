#!/usr/bin/env bash
# The embedding example: Examples/Hello (its own coordinators and deep links, behind the one-call command line) builds
# against this package by path; check.py drives it: its flows, SQLite by default, kill -9, PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/../.."
SWIFT="${SWIFT:-swift}"
echo "example: building Examples/Hello"
"$SWIFT" build --package-path Examples/Hello
exec python3 Tests/example/check.py Examples/Hello/.build/debug/Hello
