#!/usr/bin/env bash
# Runs one step of make test and records how long it took (seconds) in .build/suite-times.txt, which make test
# prints at the end: docs/development.md's durations come from there.
#   bash scripts/timed.sh NAME COMMAND [ARGS...]
set -uo pipefail
name=$1
shift
start=$(date +%s)
"$@"
status=$?
mkdir -p .build
printf '%-16s %5ss%s\n' "$name" "$(($(date +%s) - start))" "$([ "$status" = 0 ] || echo "  (failed: $status)")" \
  >>.build/suite-times.txt
exit "$status"
