#!/usr/bin/env bash
# Load test (Tests/load/overload.py): 50 writers on one session with fast, slow and stalled SSE readers; the
# server keeps answering /healthz within 1 s and exits 0 on SIGTERM within its grace period. About 20 s.
#   bash Tests/load/run.sh [--seconds N]
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN="${SWITCHYARD_BIN:-.build/debug/switchyard}"
if [ ! -x "$BIN" ]; then
  echo "load test: server binary $BIN is missing — build it first (swift build --product switchyard)" >&2
  exit 1
fi
exec python3 Tests/load/overload.py "$BIN" "$@"
