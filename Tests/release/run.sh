#!/usr/bin/env bash
# A release of an app with stored sessions: the shop's version 1 then version 2 (Examples/Definitions/Releases) on a
# SQLite store (read under load, migrate --apply killed with kill -9 halfway, a pinned version 1) and on two nodes
# sharing a throwaway PostgreSQL (a rolling release under load, and one published through the admin API without a
# restart). About 50 s.
#   bash Tests/release/run.sh [pytest args]
# Logs: test-artifacts/release/ (servers, nodes, migrate runs, PostgreSQL, pytest's output).
set -euo pipefail
cd "$(dirname "$0")/../.."

# shellcheck source=../support/cluster-tmp.sh
source Tests/support/cluster-tmp.sh
cluster_preflight "release tests"
"$BIN" migrate --help >/dev/null 2>&1 || fail "$BIN has no migrate command (rebuild it)"
"$BIN" serve --help | grep -- --rollout >/dev/null || fail "$BIN has no --rollout (rebuild it)"

mkdir -p test-artifacts/release
rm -f test-artifacts/release/*.log # this run's logs only
# Every temporary folder of the run (PostgreSQL clusters, node and server folders) lives in CLUSTER_TMP, swept at
# exit with what pytest left running (Tests/support/cluster-tmp.sh).
use_cluster_tmp 'switchyard-node-*/node.pid' 'switchyard-release-*/server.pid'

"$PY" -m pytest -x -q -p no:cacheprovider Tests/release "$@" 2>&1 | tee test-artifacts/release/pytest.log
