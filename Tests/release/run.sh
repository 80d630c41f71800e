#!/usr/bin/env bash
# A release of an app with stored sessions: the shop's version 1 then version 2 (Examples/Definitions/Releases) on a
# SQLite store (read under load, migrate --apply killed with kill -9 halfway, a pinned version 1) and on two nodes
# sharing a throwaway PostgreSQL (a rolling release under load, and one published through the admin API without a
# restart). About 50 s.
#   bash Tests/release/run.sh [pytest args]
# Logs: test-artifacts/release/ (servers, nodes, migrate runs, PostgreSQL, pytest's output).
set -euo pipefail
cd "$(dirname "$0")/../.."

VENV="${VENV:-.venv}"
PY="$VENV/bin/python"
BIN="${SWITCHYARD_BIN:-.build/debug/switchyard}"

fail() { echo "release tests: $*" >&2; exit 1; }
[ -x "$BIN" ] || fail "server binary $BIN is missing — build it first (swift build --product switchyard)"
"$BIN" migrate --help >/dev/null 2>&1 || fail "$BIN has no migrate command (rebuild it)"
"$BIN" serve --help | grep -- --rollout >/dev/null || fail "$BIN has no --rollout (rebuild it)"
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || fail "PostgreSQL is missing — install the Debian package postgresql"
[ -x "$PY" ] || fail "no Python venv at $VENV (make venv creates it with pytest)"

mkdir -p test-artifacts/release
rm -f test-artifacts/release/*.log # this run's logs only
# Every temporary folder of the run (PostgreSQL clusters, node and server folders) lives in CLUSTER_TMP, swept at
# exit with what pytest left running (Tests/support/cluster-tmp.sh).
# shellcheck source=../support/cluster-tmp.sh
source Tests/support/cluster-tmp.sh
use_cluster_tmp 'switchyard-node-*/node.pid' 'switchyard-release-*/server.pid'
export SWITCHYARD_BIN="$BIN"

"$PY" -m pytest -x -q -p no:cacheprovider Tests/release "$@" 2>&1 | tee test-artifacts/release/pytest.log
