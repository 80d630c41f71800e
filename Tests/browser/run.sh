#!/usr/bin/env bash
# Browser tests: start the real server on a free port, run the Selenium suite against it, always stop it.
#   bash Tests/browser/run.sh [pytest args]
# With SWITCHYARD_URL already set, no server is started and the suite runs against that URL.
set -euo pipefail
cd "$(dirname "$0")/../.."

VENV="${VENV:-.venv}"
PY="$VENV/bin/python"
BIN="${SWITCHYARD_BIN:-.build/debug/switchyard}"

if [ ! -x "$PY" ]; then
  echo "browser tests: no Python venv at $VENV (make venv creates it with selenium and pytest)" >&2
  exit 1
fi
mkdir -p test-artifacts

# shellcheck source=../support/server.sh
source Tests/support/server.sh
start_switchyard "browser tests" test-artifacts/browser-server.log

echo "browser tests against $SWITCHYARD_URL"
"$PY" -m pytest -q -p no:cacheprovider Tests/browser "$@"
