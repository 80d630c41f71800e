#!/usr/bin/env bash
# Browser tests: start the real server on a free port, run the Selenium suite against it, always stop it.
#   bash Tests/browser/run.sh [pytest args]
# With SWITCHYARD_URL already set, no server is started and the suite runs against that URL.
set -euo pipefail
cd "$(dirname "$0")/../.."

VENV="${VENV:-.venv}"
PY="$VENV/bin/python"
BIN="${SWITCHYARD_BIN:-.build/debug/switchyard}"

if [ ! -x "$PY" ]; then
  echo "browser tests: no Python venv at $VENV (make venv creates it with selenium and pytest)" >&2
  exit 1
fi
mkdir -p test-artifacts

if [ -z "${SWITCHYARD_URL:-}" ]; then
  if [ ! -x "$BIN" ]; then
    echo "browser tests: server binary $BIN is missing — build it first (swift build --product switchyard)" >&2
    exit 1
  fi
  PORT="$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
  LOG="test-artifacts/browser-server.log"
  "$BIN" serve --host 127.0.0.1 --port "$PORT" --public Public >"$LOG" 2>&1 &
  SERVER_PID=$!
  cleanup() {
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  }
  trap cleanup EXIT
  trap 'exit 130' INT TERM

  export SWITCHYARD_URL="http://127.0.0.1:$PORT"
  if ! "$PY" - "$SWITCHYARD_URL/healthz" "$SERVER_PID" <<'PYEOF'
import os, sys, time, urllib.request
url, pid = sys.argv[1], int(sys.argv[2])
deadline = time.monotonic() + 30
while time.monotonic() < deadline:
    try:
        os.kill(pid, 0)
    except OSError:
        sys.exit("server exited before answering /healthz")
    try:
        with urllib.request.urlopen(url, timeout=2) as r:
            if r.status == 200:
                sys.exit(0)
    except OSError:
        pass
    time.sleep(0.25)
sys.exit("server did not answer 200 on /healthz within 30 s")
PYEOF
  then
    echo "browser tests: the server did not start; its log ($LOG):" >&2
    tail -n 40 "$LOG" >&2 || true
    exit 1
  fi
fi

echo "browser tests against $SWITCHYARD_URL"
"$PY" -m pytest -q -p no:cacheprovider Tests/browser "$@"
