#!/usr/bin/env bash
# Schema tests: the OpenAPI document is valid, is what the server serves, and the real server conforms to it; the
# app definition format's JSON Schema is valid and served (Tests/schema/definitions.py).
#   bash Tests/schema/run.sh [extra schemathesis run args]
# Steps: (1) openapi-spec-validator accepts docs/openapi.json (compiled into the server as a resource),
# (2) start the server on a free port (SWITCHYARD_BIN, default .build/debug/switchyard), (3) it serves the
# document byte for byte and its event stream opens with a valid state document, (4) schemathesis 4 runs every
# phase (examples, coverage, fuzzing, stateful via the document's links) with `--checks all`, then (5) once
# more without the stateful phase against one live session (Tests/schema/live-session.toml).
# With SWITCHYARD_URL already set, no server is started. SCHEMATHESIS_EXAMPLES / SCHEMATHESIS_SEED tune the run.
set -euo pipefail
cd "$(dirname "$0")/../.."

VENV="${VENV:-.venv}"
PY="$VENV/bin/python"
BIN="${SWITCHYARD_BIN:-.build/debug/switchyard}"
EXAMPLES="${SCHEMATHESIS_EXAMPLES:-50}"
SEED="${SCHEMATHESIS_SEED:-20261122}"

for tool in "$PY" "$VENV/bin/schemathesis" "$VENV/bin/openapi-spec-validator"; do
  if [ ! -x "$tool" ]; then
    echo "schema tests: $tool is missing (make venv installs the Makefile's PY_TOOLS)" >&2
    exit 1
  fi
done
mkdir -p test-artifacts

echo "schema tests: openapi-spec-validator"
"$VENV/bin/openapi-spec-validator" docs/openapi.json

# shellcheck source=../support/server.sh
source Tests/support/server.sh
# The admin endpoints are on (their token from the environment, as an operator would set it) and every request of
# the main run carries it; schemathesis's ignored_auth check sends them without it too (401).
ADMIN_TOKEN="schema-tests-admin-token-$RANDOM$RANDOM"
SWITCHYARD_ADMIN_TOKEN="$ADMIN_TOKEN" start_switchyard "schema tests" test-artifacts/schema-server.log --log-level warning \
  --session-create-rate 0

echo "schema tests: served document and event stream ($SWITCHYARD_URL)"
"$PY" Tests/schema/smoke.py "$SWITCHYARD_URL"
"$PY" Tests/schema/definitions.py "$SWITCHYARD_URL"

echo "schema tests: schemathesis (max $EXAMPLES examples per operation, seed $SEED)"
COMMON=(--checks all --max-examples "$EXAMPLES" --seed "$SEED" --workers 1 --request-timeout 3 --no-color)
status=0
# Every operation, every phase; live sessions come from the document's links (stateful phase). The config
# file holds the per-operation status expectations (see the comments there).
"$VENV/bin/schemathesis" --config-file Tests/schema/schemathesis.toml run "$SWITCHYARD_URL/api/openapi.json" \
  "${COMMON[@]}" --header "Authorization: Bearer $ADMIN_TOKEN" \
  --report junit --report-junit-path test-artifacts/schemathesis-junit.xml \
  "$@" || status=1

echo "schema tests: schemathesis against one live session"
SWITCHYARD_SESSION="$("$PY" - "$SWITCHYARD_URL" <<'PYEOF'
import json, sys, urllib.request
request = urllib.request.Request(sys.argv[1] + "/api/sessions", method="POST")
with urllib.request.urlopen(request, timeout=10) as response:
    print(json.load(response)["session"])
PYEOF
)"
export SWITCHYARD_SESSION
"$VENV/bin/schemathesis" --config-file Tests/schema/live-session.toml run "$SWITCHYARD_URL/api/openapi.json" \
  "${COMMON[@]}" \
  --phases examples,coverage,fuzzing \
  --include-operation-id postTransitions --include-operation-id postEvent --include-operation-id openDeepLink \
  --include-operation-id getSession --include-operation-id getHistory \
  --include-operation-id restoreVersion --include-operation-id previewTransitions \
  --include-operation-id previewEvent --include-operation-id previewDeepLink --include-operation-id previewRestore \
  --report junit --report-junit-path test-artifacts/schemathesis-live-junit.xml \
  "$@" || status=1
exit $status
