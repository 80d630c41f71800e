#!/usr/bin/env bash
# Hostile input against the real binary: each definition once made to crash or starve the server (nesting hidden
# from a line scanner, alias bombs, nesting templates, rendering bombs, oversized bodies), sent to the anonymous
# check endpoint, to `switchyard check` and to `serve --app`; then a bounded fuzz of mutated definitions. The
# server must answer every one, stay alive and keep its memory bounded. About 1 minute (FUZZ_SECONDS, default 40).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN="${SWITCHYARD_BIN:-.build/debug/switchyard}"
if [ ! -x "$BIN" ]; then
  echo "hostile tests: server binary $BIN is missing — build it first (swift build --product switchyard)" >&2
  exit 1
fi
mkdir -p test-artifacts
python3 Tests/hostile/hostile.py "$BIN" --fuzz-seconds "${FUZZ_SECONDS:-40}"
