#!/usr/bin/env bash
# Durability tests of the real binary: restart and fault checks of the store flags, then the kill -9 loop
# (20 rounds: nothing acknowledged may be lost; then every stored session replays clean). About 1 minute.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN="${SWITCHYARD_BIN:-.build/debug/switchyard}"
if [ ! -x "$BIN" ]; then
  echo "durability tests: server binary $BIN is missing — build it first (swift build --product switchyard)" >&2
  exit 1
fi
mkdir -p test-artifacts
python3 Tests/durability/restarts.py "$BIN"
python3 Tests/durability/kill_loop.py "$BIN" --rounds "${KILL_ROUNDS:-20}"
