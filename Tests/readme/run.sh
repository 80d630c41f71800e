#!/usr/bin/env bash
# The README's curl walk, run against a fresh server (the default store, in a temporary folder) and compared with what the README shows
# (Tests/readme/readme_walk.py). A few seconds.
#   bash Tests/readme/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p test-artifacts
VENV="${VENV:-.venv}"
PY="$VENV/bin/python"
[ -x "$PY" ] || PY=python3
BIN="${SWITCHYARD_BIN:-.build/debug/switchyard}"

# shellcheck source=../support/server.sh
source Tests/support/server.sh
start_switchyard "README walk" test-artifacts/readme-server.log --log-level warning

"$PY" Tests/readme/readme_walk.py README.md "$SWITCHYARD_URL"
