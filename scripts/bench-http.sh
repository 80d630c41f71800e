#!/usr/bin/env bash
# Benchmark of the HTTP transport alone (MicroHTTP on libmicrohttpd): builds MicroHTTPHello in
# release, serves its trivial JSON endpoint on a free loopback port, runs wrk a few rounds and
# prints requests/s and p99 latency per round. Not a test: numbers depend on the machine.
#
#   scripts/bench-http.sh                 # 3 rounds of wrk -t2 -c64 -d5s --latency
#   ROUNDS=5 DURATION=10s CONNECTIONS=128 THREADS=2 scripts/bench-http.sh
#   BUILD_PATH=.build-http scripts/bench-http.sh   # use another SwiftPM scratch folder
#   SERVER_THREADS=2 LOG_LEVEL=info scripts/bench-http.sh   # server pool size, access log on
set -euo pipefail

cd "$(dirname "$0")/.."
ROUNDS="${ROUNDS:-3}"
DURATION="${DURATION:-5s}"
CONNECTIONS="${CONNECTIONS:-64}"
THREADS="${THREADS:-2}"
BUILD_PATH="${BUILD_PATH:-.build}"
SERVER_THREADS="${SERVER_THREADS:-}"
LOG_LEVEL="${LOG_LEVEL:-notice}"

command -v wrk >/dev/null || { echo "bench-http: wrk is missing (apt-get install wrk)" >&2; exit 1; }

echo "building MicroHTTPHello (release, $BUILD_PATH)..."
swift build -c release --scratch-path "$BUILD_PATH" --product MicroHTTPHello >/dev/null
binary="$(swift build -c release --scratch-path "$BUILD_PATH" --show-bin-path)/MicroHTTPHello"

workdir="$(mktemp -d)"
server_pid=""
cleanup() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -TERM "$server_pid" 2>/dev/null || true; fi
    rm -rf "$workdir"
}
trap cleanup EXIT

args=(--host 127.0.0.1 --port 0 --log-level "$LOG_LEVEL")
[ -n "$SERVER_THREADS" ] && args+=(--threads "$SERVER_THREADS")
: >"$workdir/out"
"$binary" "${args[@]}" >>"$workdir/out" 2>"$workdir/err" &
server_pid=$!

port=""
for _ in $(seq 1 100); do
    port="$(sed -n 's/^listening on port \([0-9]*\)$/\1/p' "$workdir/out")"
    [ -n "$port" ] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$workdir/err" >&2; exit 1; }
    sleep 0.1
done
[ -n "$port" ] || { echo "bench-http: server did not report its port" >&2; exit 1; }
url="http://127.0.0.1:$port/"
curl -fsS "$url" >/dev/null 2>&1 || true

echo "wrk -t$THREADS -c$CONNECTIONS -d$DURATION --latency $url  ($ROUNDS rounds)"
printf '%-7s %14s %12s %12s\n' round "requests/s" "p50" "p99"
results=()
for round in $(seq 1 "$ROUNDS"); do
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency "$url" >"$workdir/wrk" 2>&1
    rps="$(awk '/^Requests\/sec:/ {print $2}' "$workdir/wrk")"
    p50="$(awk '$1 == "50%" {print $2}' "$workdir/wrk")"
    p99="$(awk '$1 == "99%" {print $2}' "$workdir/wrk")"
    errors="$(grep -E 'Non-2xx|Socket errors' "$workdir/wrk" || true)"
    printf '%-7s %14s %12s %12s\n' "$round" "$rps" "$p50" "$p99"
    [ -n "$errors" ] && echo "        $errors"
    results+=("$rps")
done
printf '%s\n' "${results[@]}" | sort -n | awk '{a[NR]=$1} END {printf "best %.0f req/s, median %.0f req/s over %d rounds\n", a[NR], a[int((NR+1)/2)], NR}'

kill -TERM "$server_pid"
if wait "$server_pid"; then
    echo "server stopped cleanly (exit 0)"
else
    echo "bench-http: server exited with status $?" >&2
    exit 1
fi
server_pid=""
