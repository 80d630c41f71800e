#!/usr/bin/env bash
# The embedding example: Examples/Hello (its own coordinators and deep links, behind the one-call command line) builds
# against this package by path, as its image's build stage builds it (docker/stage-app.sh: a static release binary,
# stripped, the page, the health check, staged in .build-stage/hello); check.py drives that binary: its
# flows, SQLite by default, kill -9, PostgreSQL, and a misdeclared app that is refused.
set -euo pipefail
cd "$(dirname "$0")/../.."
SWIFT="${SWIFT:-swift}"
# Built already when make test built it in the background (EXAMPLE_BUILT=1).
[ "${EXAMPLE_BUILT:-}" = 1 ] || bash Tests/example/build.sh
# With make test's flags (build-tests built it already): other flags would rebuild every module it needs.
"$SWIFT" build --product MisdeclaredApp -Xswiftc -warnings-as-errors
exec python3 Tests/example/check.py .build-stage/hello/usr/local/bin/switchyard \
  "$("$SWIFT" build -Xswiftc -warnings-as-errors --show-bin-path)/MisdeclaredApp"
