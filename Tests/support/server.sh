# Sourced by the browser and schema test scripts: starts the real server for a test run.
#   start_switchyard LABEL LOG [serve flags…]
# Unless SWITCHYARD_URL is already set, starts "$BIN serve" on 127.0.0.1 at a free port with the page from Public/
# and a fresh SQLite store in a temporary folder,
# waits (30 s at most) for GET /healthz to answer 200, exports SWITCHYARD_URL, and stops the server when the calling
# script exits. Needs PY (a python3) and BIN (the switchyard binary) set by the caller.

start_switchyard() {
  local label="$1" log="$2"
  shift 2
  [ -n "${SWITCHYARD_URL:-}" ] && return 0
  if [ ! -x "$BIN" ]; then
    echo "$label: server binary $BIN is missing — build it first (swift build --product switchyard)" >&2
    exit 1
  fi
  local port
  port="$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
  # A fresh store for each run (sessions must not leak between runs), removed when the script exits.
  SWITCHYARD_TEST_DATA="$(mktemp -d)"
  "$BIN" serve --host 127.0.0.1 --port "$port" --public Public --data "$SWITCHYARD_TEST_DATA" "$@" >"$log" 2>&1 &
  SWITCHYARD_PID=$!
  trap stop_switchyard EXIT
  trap 'exit 130' INT TERM
  export SWITCHYARD_URL="http://127.0.0.1:$port"
  if ! "$PY" - "$SWITCHYARD_URL/healthz" "$SWITCHYARD_PID" <<'PYEOF'
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
    echo "$label: the server did not start; its log ($log):" >&2
    tail -n 40 "$log" >&2 || true
    exit 1
  fi
}

stop_switchyard() {
  if [ -n "${SWITCHYARD_PID:-}" ]; then
    kill "$SWITCHYARD_PID" 2>/dev/null || true
    wait "$SWITCHYARD_PID" 2>/dev/null || true
  fi
  if [ -n "${SWITCHYARD_TEST_DATA:-}" ]; then rm -rf "$SWITCHYARD_TEST_DATA"; fi
}
