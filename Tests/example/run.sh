#!/usr/bin/env bash
# The embedding example: Examples/Hello (its own coordinators and deep links, served by NavigationServer) builds
# against this package by path, starts on a free port, and answers a session, a transition and a deep link.
set -euo pipefail
cd "$(dirname "$0")/../.."
SWIFT="${SWIFT:-swift}"
echo "example: building Examples/Hello"
"$SWIFT" build --package-path Examples/Hello
exec python3 Tests/example/check.py Examples/Hello/.build/debug/Hello
