#!/usr/bin/env bash
# Several nodes on one store: two switchyard nodes on a throwaway PostgreSQL (and nginx in front for the kill -9
# test), started by the tests' fixtures (Tests/cluster/cluster.py). About a minute.
#   bash Tests/cluster/run.sh [pytest args]
# Logs: test-artifacts/cluster/ (nodes, nginx, PostgreSQL, pytest's output).
set -euo pipefail
cd "$(dirname "$0")/../.."

VENV="${VENV:-.venv}"
PY="$VENV/bin/python"
BIN="${SWITCHYARD_BIN:-.build/debug/switchyard}"

fail() { echo "cluster tests: $*" >&2; exit 1; }
[ -x "$BIN" ] || fail "server binary $BIN is missing — build it first (swift build --product switchyard)"
"$BIN" serve --help | grep -- --database-url >/dev/null || fail "$BIN has no --database-url (rebuild it)"
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || fail "PostgreSQL is missing — install the Debian package postgresql"
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || fail "nginx is missing — install the Debian package nginx"
[ -x "$PY" ] || fail "no Python venv at $VENV (make venv creates it with pytest)"

mkdir -p test-artifacts/cluster
# This run's logs only (the browser test's page-* files are its own).
rm -f test-artifacts/cluster/node-?.log test-artifacts/cluster/nginx* test-artifacts/cluster/postgres.log
# Every temporary folder of the run (clusters, node folders, nginx prefixes) lives here. The postgres user must
# be able to reach its cluster's folder in it, hence 711. If pytest dies without cleaning up, the sweep below
# stops what it left: the PostgreSQL clusters by their folders, nodes and nginx by the pids they wrote.
export CLUSTER_TMP
CLUSTER_TMP="$(mktemp -d)"
chmod 711 "$CLUSTER_TMP"
export SWITCHYARD_BIN="$BIN"
sweep() {
  local dir pidfile
  for dir in "$CLUSTER_TMP"/switchyard-pg-*; do
    [ -d "$dir" ] && bash scripts/postgres.sh stop "$dir" || true
  done
  for pidfile in "$CLUSTER_TMP"/switchyard-node-*/node.pid "$CLUSTER_TMP"/switchyard-nginx-*/nginx.pid; do
    [ -f "$pidfile" ] && kill -9 "$(cat "$pidfile")" 2>/dev/null || true
  done
  rm -rf "$CLUSTER_TMP"
}
trap sweep EXIT
trap 'exit 130' INT TERM

"$PY" -m pytest -x -q -p no:cacheprovider Tests/cluster "$@" 2>&1 | tee test-artifacts/cluster/pytest.log
