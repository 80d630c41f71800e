# Sourced by the browser, schema and header test scripts: starts the real server for a test run.
#   start_switchyard LABEL LOG [serve flags…]
# Unless SWITCHYARD_URL is already set, starts "$BIN serve" on 127.0.0.1 at a free port with the page from Public/
# and a fresh SQLite store in a temporary folder,
# waits (30 s at most) for GET /healthz to answer 200, exports SWITCHYARD_URL, and stops the server when the calling
# script exits. Needs PY (a python3) and BIN (the switchyard binary) set by the caller; the port and the wait come
# from Tests/support/harness.py.

start_switchyard() {
  local label="$1" log="$2"
  shift 2
  [ -n "${SWITCHYARD_URL:-}" ] && return 0
  if [ ! -x "$BIN" ]; then
    echo "$label: server binary $BIN is missing — build it first (swift build --product switchyard)" >&2
    exit 1
  fi
  local port
  port="$("$PY" Tests/support/harness.py free-port)"
  # A fresh store for each run (sessions must not leak between runs), removed when the script exits.
  SWITCHYARD_TEST_DATA="$(mktemp -d)"
  "$BIN" serve --host 127.0.0.1 --port "$port" --public Public --data "$SWITCHYARD_TEST_DATA" "$@" >"$log" 2>&1 &
  SWITCHYARD_PID=$!
  trap stop_switchyard EXIT
  trap 'exit 130' INT TERM
  export SWITCHYARD_URL="http://127.0.0.1:$port"
  if ! "$PY" Tests/support/harness.py wait-healthy "$SWITCHYARD_URL" "$SWITCHYARD_PID" 30; then
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
