#!/usr/bin/env bash
# The embedding example: Examples/Hello (its own coordinators and deep links, behind the one-call command line) as a
# user's image serves it. make test-example gives the binary of the image built beside a checkout (Tests/image:
# Examples/Hello's sources as MyServer, depending on this package by path; docker/stage-app.sh's static release
# binary, stripped), copied out to .build-image/bin/hello; check.py drives it: its flows, SQLite by default, kill -9,
# PostgreSQL, and a misdeclared app that is refused; and Examples/Hello's own Package.swift loads against this package.
#   bash Tests/example/run.sh HELLO_BINARY
set -euo pipefail
if [ "$#" != 1 ]; then
    echo "usage: Tests/example/run.sh HELLO_BINARY (make test-example: .build-image/bin/hello)" >&2
    exit 2
fi
hello=$(readlink -f "$1")
cd "$(dirname "$0")/../.."
SWIFT="${SWIFT:-swift}"
[ -x "$hello" ] || { echo "example: no binary at $1" >&2; exit 1; }
# With make test's flags (build-tests built it already): other flags would rebuild every module it needs.
"$SWIFT" build --product MisdeclaredApp -Xswiftc -warnings-as-errors
exec python3 Tests/example/check.py "$hello" \
  "$("$SWIFT" build -Xswiftc -warnings-as-errors --show-bin-path)/MisdeclaredApp"
