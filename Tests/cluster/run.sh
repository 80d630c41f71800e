#!/usr/bin/env bash
# Several nodes on one store: two switchyard nodes on a throwaway PostgreSQL (and nginx in front for the kill -9
# test), started by the tests' fixtures (Tests/cluster/cluster.py). About a minute.
#   bash Tests/cluster/run.sh [pytest args]
# Logs: test-artifacts/cluster/ (nodes, nginx, PostgreSQL, pytest's output).
set -euo pipefail
cd "$(dirname "$0")/../.."

# shellcheck source=../support/cluster-tmp.sh
source Tests/support/cluster-tmp.sh
cluster_preflight "cluster tests"
"$BIN" serve --help | grep -- --database-url >/dev/null || fail "$BIN has no --database-url (rebuild it)"
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || fail "nginx is missing — install the Debian package nginx"

mkdir -p test-artifacts/cluster
# This run's logs only (the browser test's page-* files are its own).
rm -f test-artifacts/cluster/node-?.log test-artifacts/cluster/nginx* test-artifacts/cluster/postgres.log
# Every temporary folder of the run (PostgreSQL clusters, node and server folders) lives in CLUSTER_TMP, swept at
# exit with what pytest left running (Tests/support/cluster-tmp.sh).
use_cluster_tmp 'switchyard-node-*/node.pid' 'switchyard-nginx-*/nginx.pid'

"$PY" -m pytest -x -q -p no:cacheprovider Tests/cluster "$@" 2>&1 | tee test-artifacts/cluster/pytest.log
