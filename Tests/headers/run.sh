#!/usr/bin/env bash
# HTTP header checks with REDbot (PyPI `redbot`): every kind of answer the server gives — the page and its files,
# the OpenAPI document, metrics, health, the catalog, a session, its history and versions, problems — must draw no
# warning (caching, validation, content coding, security headers). About 30 s.
#   bash Tests/headers/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

VENV="${VENV:-.venv}"
PY="$VENV/bin/python"
BIN="${SWITCHYARD_BIN:-.build/debug/switchyard}"
[ -x "$VENV/bin/redbot" ] || { echo "header checks: $VENV/bin/redbot is missing (make venv installs it)" >&2; exit 1; }
mkdir -p test-artifacts

# shellcheck source=../support/server.sh
source Tests/support/server.sh
start_switchyard "header checks" test-artifacts/headers-server.log --log-level warning --session-create-rate 0

"$PY" Tests/headers/redbot_check.py "$VENV/bin/redbot" "$SWITCHYARD_URL"
