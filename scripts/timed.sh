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
# CPU seconds of the step's processes (user + system of the children waited for; `times`' second line), to see
# which steps fill both cores and which mostly wait.
accounting=$(mktemp)
times >"$accounting" # in this shell (a $(…) subshell would count its own children, none)
cpu=$(awk 'NR == 2 { split($1, u, /m|s/); split($2, s, /m|s/); printf "%d", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' \
  "$accounting")
rm -f "$accounting"
printf '%-16s %5ss  cpu %4ss%s\n' "$name" "$(($(date +%s) - start))" "$cpu" \
  "$([ "$status" = 0 ] || echo "  (failed: $status)")" >>.build/suite-times.txt
exit "$status"
