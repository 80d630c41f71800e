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
# Two browsers at once (pytest-xdist), each test with a session of its own: the suite waits on the page far more than
# it computes, so two halve its time on two cores. They create sessions twice as fast as one: the limit per address
# is raised for this server (the limit itself is tested in the Swift suites).
# The admin endpoints on, for the inspector's release panel (test_replay_panel.py) and the map's heat layer
# (test_heat.py): the server reads SWITCHYARD_ADMIN_TOKEN.
export SWITCHYARD_ADMIN_TOKEN="${SWITCHYARD_ADMIN_TOKEN:-browser-admin-token-0123456789}"
export SWITCHYARD_BROWSER_ADMIN_TOKEN="$SWITCHYARD_ADMIN_TOKEN"
start_switchyard "browser tests" test-artifacts/browser-server.log --session-create-rate 1000

echo "browser tests against $SWITCHYARD_URL"
"$PY" -m pytest -q -p no:cacheprovider -n "${BROWSER_WORKERS:-2}" Tests/browser "$@"
