#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL cluster (scripts/postgres.sh) for the Swift tests' store suites:
#   scripts/with-postgres.sh swift test --skip-build
# exports SWITCHYARD_TEST_DATABASE_URL (each test makes its own database in it) and SWITCHYARD_REQUIRE_POSTGRES=1
# (a test that needs PostgreSQL fails instead of skipping), and stops and removes the cluster when the command ends.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="$(mktemp -d /tmp/switchyard-pg.XXXXXX)"
rmdir "$dir" # postgres.sh makes it, owned by the user the server runs as
cleanup() { bash scripts/postgres.sh stop "$dir" >/dev/null 2>&1 || true; }
trap cleanup EXIT
trap 'exit 130' INT TERM
SWITCHYARD_TEST_DATABASE_URL="$(bash scripts/postgres.sh start "$dir")"
export SWITCHYARD_TEST_DATABASE_URL SWITCHYARD_REQUIRE_POSTGRES=1
"$@"
