# Sourced by Tests/cluster/run.sh and Tests/release/run.sh, whose tests start PostgreSQL clusters and servers through
# Tests/cluster/cluster.py. `cluster_preflight NAME` checks what both need (the server binary, PostgreSQL, the
# venv) and sets VENV, PY and BIN (exported as SWITCHYARD_BIN); `fail` stops the run with NAME's message. Every
# temporary folder of the run lives in CLUSTER_TMP; the postgres user must be able to
# reach its cluster's folder in it, hence 711. If pytest dies without cleaning up, the sweep at exit stops what it
# left: the PostgreSQL clusters by their folders, and processes by the pid files matching the patterns given
# (relative to CLUSTER_TMP), then removes the folder.
#   cluster_preflight "cluster tests"
#   use_cluster_tmp 'switchyard-node-*/node.pid' 'switchyard-nginx-*/nginx.pid'

fail() { echo "$CLUSTER_SUITE: $*" >&2; exit 1; }

cluster_preflight() {
  CLUSTER_SUITE="$1"
  VENV="${VENV:-.venv}"
  PY="$VENV/bin/python"
  BIN="${SWITCHYARD_BIN:-.build/debug/switchyard}"
  export SWITCHYARD_BIN="$BIN"
  [ -x "$BIN" ] || fail "server binary $BIN is missing — build it first (swift build --product switchyard)"
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 ||
    fail "PostgreSQL is missing — install the Debian package postgresql"
  [ -x "$PY" ] || fail "no Python venv at $VENV (make venv creates it with pytest)"
}

use_cluster_tmp() {
  CLUSTER_PID_PATTERNS=("$@")
  export CLUSTER_TMP
  CLUSTER_TMP="$(mktemp -d)"
  chmod 711 "$CLUSTER_TMP"
  trap sweep_cluster_tmp EXIT
  trap 'exit 130' INT TERM
}

sweep_cluster_tmp() {
  local dir pattern pidfile
  for dir in "$CLUSTER_TMP"/switchyard-pg-*; do
    [ -d "$dir" ] && bash scripts/postgres.sh stop "$dir" || true
  done
  for pattern in "${CLUSTER_PID_PATTERNS[@]}"; do
    for pidfile in "$CLUSTER_TMP"/$pattern; do
      [ -f "$pidfile" ] && kill -9 "$(cat "$pidfile")" 2>/dev/null || true
    done
  done
  rm -rf "$CLUSTER_TMP"
}
