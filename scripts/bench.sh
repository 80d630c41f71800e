#!/usr/bin/env bash
# Switchyard benchmark suite (issue #7): engine in-process, memory per session, HTTP under wrk, SSE fan-out.
# Prints a table (each measurement with its target and PASS/MISS) and writes JSON to bench-results/.
#
# Environment (all optional):
#   BENCH_DURATION   seconds per wrk run (default 10)
#   BENCH_ROUNDS     wrk rounds, each running every endpoint once (default 3)
#   BENCH_SESSIONS   sessions the HTTP benchmark spreads requests over (default 1000)
#   BENCH_MEMORY     sessions created for the memory benchmark (default 100000)
#   BENCH_SSE        SSE subscribers (default 1000); BENCH_SSE_TRANSITIONS (default 50)
#   BENCH_QUICK=1    short engine rounds, 2 s wrk runs, 1 round, 10,000 memory sessions (for trying the suite)
#   BENCH_STORED     sessions in the store for the restart measurement (default 100000)
#   BENCH_REPLAY     recorded demo sessions (20 requests each) in the store the replay part fills (default 100000,
#                    quick 10000; about 6 KB each); BENCH_REPLAY_SAMPLE how many it replays (default 10000, quick 1000)
#   BENCH_ANALYTICS  sessions of 20 versions the analytics funnel reads, in SQLite and PostgreSQL (default 100000)
#   BENCH_SKIP       space-separated parts to skip: engine memory explore store replay analytics http peer durable sse
#                    cluster baseline
#   BENCH_BIN        a folder holding release binaries built already (switchyard, switchyard-bench): no build
#   BENCH_BASELINE   the earlier release compared side by side (default 77eb7d1: a turn before issue 45), built
#                    once into .build-baseline/<commit>/ (scripts/bench/baseline.sh); BENCH_SIDE_ROUNDS (default 5)
# The peer: Hummingbird's hello world (scripts/bench/hummingbird-hello, built here in .build-hummingbird, never a
# dependency of the product), measured in the same rounds as our endpoints.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
SCRATCH=.build-bench
BIN=$SCRATCH/release
HERE=scripts/bench

QUICK=${BENCH_QUICK:-0}
if [ "$QUICK" = 1 ]; then
    DURATION=${BENCH_DURATION:-2}; ROUNDS=${BENCH_ROUNDS:-1}; MEMORY=${BENCH_MEMORY:-10000}; ENGINE_FLAGS=--quick
    STORED=${BENCH_STORED:-10000}
    REPLAY=${BENCH_REPLAY:-10000}
    REPLAY_SAMPLE=${BENCH_REPLAY_SAMPLE:-1000}
    ANALYTICS=${BENCH_ANALYTICS:-10000}
else
    DURATION=${BENCH_DURATION:-10}; ROUNDS=${BENCH_ROUNDS:-3}; MEMORY=${BENCH_MEMORY:-100000}; ENGINE_FLAGS=
    STORED=${BENCH_STORED:-100000}
    REPLAY=${BENCH_REPLAY:-100000}
    REPLAY_SAMPLE=${BENCH_REPLAY_SAMPLE:-10000}
    ANALYTICS=${BENCH_ANALYTICS:-100000}
fi
SESSIONS=${BENCH_SESSIONS:-1000}
SSE=${BENCH_SSE:-1000}
SSE_TRANSITIONS=${BENCH_SSE_TRANSITIONS:-50}
SKIP=" ${BENCH_SKIP:-} "

for tool in wrk python3; do
    if ! command -v "$tool" >/dev/null; then
        echo "bench: '$tool' is not installed (make bench installs wrk: apt-get install wrk)" >&2
        exit 1
    fi
done

OUT=$(mktemp -d)
SERVER_PID=
PEER_PID=
DURABLE_PIDS=()
CLUSTER_PIDS=()
PGDIR=
cleanup() {
    for pid in $SERVER_PID $PEER_PID "${DURABLE_PIDS[@]}" "${CLUSTER_PIDS[@]}"; do
        kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true
    done
    [ -n "$PGDIR" ] && bash scripts/postgres.sh stop "$PGDIR" >/dev/null 2>&1
    rm -rf "$OUT"
}
trap cleanup EXIT

if [ -n "${BENCH_BIN:-}" ]; then
    BIN=$BENCH_BIN  # release binaries built already (switchyard and switchyard-bench)
else
    echo "bench: building release binaries into $SCRATCH" >&2
    swift build -c release --scratch-path "$SCRATCH" --product switchyard-bench >&2
    swift build -c release --scratch-path "$SCRATCH" --product switchyard >&2
fi
PEER_DIR=scripts/bench/hummingbird-hello
PEER_SCRATCH=.build-hummingbird
if [[ $SKIP != *" http "* && $SKIP != *" peer "* ]]; then
    echo "bench: building the peer (Hummingbird hello world) into $PEER_SCRATCH" >&2
    swift build -c release --package-path "$PEER_DIR" --scratch-path "$PEER_SCRATCH" >&2
fi

BASELINE_COMMIT=${BENCH_BASELINE:-77eb7d1}
BASELINE_DIR=
if [[ $SKIP != *" baseline "* ]]; then
    # Without the baseline (no git history, no network for its dependencies) the rest is measured all the same.
    BASELINE_DIR=$(bash "$HERE/baseline.sh" "$BASELINE_COMMIT") \
        || { echo "bench: the baseline $BASELINE_COMMIT could not be built; its rows are left out" >&2; BASELINE_DIR=; }
fi

echo "bench: machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
uptime > "$OUT/load-before.txt"

if [[ $SKIP != *" engine "* ]]; then
    echo "bench: engine (in-process)" >&2
    "$BIN/switchyard-bench" engine $ENGINE_FLAGS > "$OUT/engine.json"
fi

if [[ $SKIP != *" memory "* ]]; then
    for mode in api engine; do
        echo "bench: memory, $MEMORY $mode sessions" >&2
        "$BIN/switchyard-bench" memory --mode "$mode" --sessions "$MEMORY" > "$OUT/memory-$mode.json"
        if [ -n "$BASELINE_DIR" ]; then
            echo "bench: memory, $MEMORY $mode sessions, the baseline $BASELINE_COMMIT" >&2
            "$BASELINE_DIR/switchyard-bench" memory --mode "$mode" --sessions "$MEMORY" > "$OUT/memory-$mode-baseline.json"
        fi
    done
fi

if [[ $SKIP != *" store "* ]]; then
    echo "bench: store, filling $STORED sessions, then a restart" >&2
    "$BIN/switchyard-bench" store --data "$OUT/store" --sessions "$STORED" > "$OUT/store.json"
    sample=$(python3 -c "import json; print(json.load(open('$OUT/store.json'))['sampleSession'])")
    python3 "$HERE/boot.py" "$BIN/switchyard" "$OUT/store" "$sample" > "$OUT/boot.json"
    rm -rf "$OUT/store"
fi

# switchyard replay (issue 48): recorded demo histories replayed on the same app, one session per core at a time.
if [[ $SKIP != *" replay "* ]]; then
    echo "bench: replay, $REPLAY_SAMPLE of $REPLAY stored sessions of 20 requests" >&2
    "$BIN/switchyard-bench" replay --data "$OUT/replay" --sessions "$REPLAY" --sample "$REPLAY_SAMPLE" \
        > "$OUT/replay.json"
    rm -rf "$OUT/replay"
fi

# Analytics (issue 49): a store of sessions with 20 versions each, a four-step funnel over all of them, in SQLite
# and in PostgreSQL (a throwaway cluster, stopped after: the cluster part below starts its own).
if [[ $SKIP != *" analytics "* ]]; then
    echo "bench: analytics, a funnel over $ANALYTICS stored sessions of 20 versions (SQLite)" >&2
    "$BIN/switchyard-bench" analytics --data "$OUT/analytics" --sessions "$ANALYTICS" > "$OUT/analytics-sqlite.json"
    rm -rf "$OUT/analytics"
    echo "bench: analytics, the same in PostgreSQL" >&2
    PGDIR=$(mktemp -d /tmp/switchyard-bench-pg.XXXXXX); rmdir "$PGDIR"
    ANALYTICS_URL=$(bash scripts/postgres.sh start "$PGDIR")
    "$BIN/switchyard-bench" analytics --database-url "$ANALYTICS_URL" --sessions "$ANALYTICS" \
        > "$OUT/analytics-postgres.json"
    bash scripts/postgres.sh stop "$PGDIR" >/dev/null 2>&1 || true
    PGDIR=
fi

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_port() {
    for _ in $(seq 100); do
        python3 -c "import socket; socket.create_connection(('127.0.0.1', $1), 0.2)" 2>/dev/null && return
        sleep 0.1
    done
}

if [[ $SKIP != *" http "* || $SKIP != *" sse "* ]]; then
    PORT=${BENCH_PORT:-$(free_port)}
    ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
    # Access logging off (warning level): the bench measures the engine and the transport, not stderr.
    # No per-address creation limit: every bench session comes from 127.0.0.1. Sessions in memory: the
    # durable store has rows of its own below.
    "$BIN/switchyard" serve --host 127.0.0.1 --port "$PORT" --public Public --log-level warning --session-create-rate 0 \
        --store memory > "$OUT/server.log" 2>&1 &
    SERVER_PID=$!
    wait_port "$PORT"
fi

PEER_PID=
if [[ $SKIP != *" http "* && $SKIP != *" peer "* ]]; then
    PEER_PORT=$(free_port)
    "$PEER_SCRATCH/release/HummingbirdHello" "$PEER_PORT" > "$OUT/peer.log" 2>&1 &
    PEER_PID=$!
    wait_port "$PEER_PORT"
fi

# The same transitions against the SQLite store, each durability on its own server (default threads for a store).
declare -A DURABLE_PORT
if [[ $SKIP != *" http "* && $SKIP != *" durable "* ]]; then
    for durability in process machine; do
        port=$(free_port)
        "$BIN/switchyard" serve --host 127.0.0.1 --port "$port" --log-level warning --session-create-rate 0 \
            --data "$OUT/data-$durability" --durability "$durability" > "$OUT/server-$durability.log" 2>&1 &
        DURABLE_PIDS+=($!)
        DURABLE_PORT[$durability]=$port
        wait_port "$port"
        python3 "$HERE/sessions.py" 127.0.0.1 "$port" "$SESSIONS" > "$OUT/sessions-$durability.txt"
    done
fi

if [[ $SKIP != *" http "* ]]; then
    echo "bench: HTTP, creating $SESSIONS sessions" >&2
    python3 "$HERE/sessions.py" 127.0.0.1 "$PORT" "$SESSIONS" > "$OUT/sessions.txt"
    for round in $(seq "$ROUNDS"); do
        for mode in healthz state transition transitionMinimal deeplink; do
            echo "bench: HTTP round $round/$ROUNDS, $mode, ${DURATION}s" >&2
            line=$(wrk -t2 -c64 -d"${DURATION}s" -s "$HERE/wrk.lua" "http://127.0.0.1:$PORT" \
                -- "$mode" "$OUT/sessions.txt" 2 | grep '^BENCH_JSON ' | cut -d' ' -f2-)
            echo "{\"round\": $round, \"mode\": \"$mode\", \"result\": $line}" >> "$OUT/http.jsonl"
        done
        if [ -n "$PEER_PID" ]; then
            echo "bench: HTTP round $round/$ROUNDS, the peer's hello world, ${DURATION}s" >&2
            line=$(wrk -t2 -c64 -d"${DURATION}s" -s "$HERE/wrk.lua" "http://127.0.0.1:$PEER_PORT" \
                -- hello "$OUT/sessions.txt" 2 | grep '^BENCH_JSON ' | cut -d' ' -f2-)
            echo "{\"round\": $round, \"mode\": \"peer\", \"result\": $line}" >> "$OUT/http.jsonl"
        fi
        for durability in "${!DURABLE_PORT[@]}"; do
            echo "bench: HTTP round $round/$ROUNDS, transition, durable $durability, ${DURATION}s" >&2
            line=$(wrk -t2 -c64 -d"${DURATION}s" -s "$HERE/wrk.lua" "http://127.0.0.1:${DURABLE_PORT[$durability]}" \
                -- transition "$OUT/sessions-$durability.txt" 2 | grep '^BENCH_JSON ' | cut -d' ' -f2-)
            echo "{\"round\": $round, \"mode\": \"durable-$durability\", \"result\": $line}" >> "$OUT/http.jsonl"
        done
        if [ -n "${DURABLE_PORT[process]:-}" ]; then
            # One busy session on the default store: 64 connections changing the same session.
            echo "bench: HTTP round $round/$ROUNDS, one busy session, durable process, ${DURATION}s" >&2
            line=$(wrk -t2 -c64 -d"${DURATION}s" -s "$HERE/wrk.lua" "http://127.0.0.1:${DURABLE_PORT[process]}" \
                -- busy "$OUT/sessions-process.txt" 2 | grep '^BENCH_JSON ' | cut -d' ' -f2-)
            echo "{\"round\": $round, \"mode\": \"durable-busy\", \"result\": $line}" >> "$OUT/http.jsonl"
        fi
        if [ -n "${DURABLE_PORT[machine]:-}" ]; then
            # The same with an fsync per commit: what a session's changes sharing commits (early lock release) saves.
            echo "bench: HTTP round $round/$ROUNDS, one busy session, durable machine, ${DURATION}s" >&2
            line=$(wrk -t2 -c64 -d"${DURATION}s" -s "$HERE/wrk.lua" "http://127.0.0.1:${DURABLE_PORT[machine]}" \
                -- busy "$OUT/sessions-machine.txt" 2 | grep '^BENCH_JSON ' | cut -d' ' -f2-)
            echo "{\"round\": $round, \"mode\": \"durable-busy-machine\", \"result\": $line}" >> "$OUT/http.jsonl"
        fi
    done
fi

if [[ $SKIP != *" sse "* ]]; then
    for updates in state patch; do
        echo "bench: SSE, $SSE subscribers, $SSE_TRANSITIONS transitions, updates=$updates" >&2
        "$BIN/switchyard-bench" fanout --port "$PORT" --subscribers "$SSE" --transitions "$SSE_TRANSITIONS" \
            --updates "$updates" > "$OUT/sse-$updates.json"
    done
fi

# The earlier release and this one side by side: alternated rounds of the same load, 200 sessions, 5 s each.
if [ -n "$BASELINE_DIR" ]; then
    # The servers above stop first: the rounds have the machine to themselves.
    for server in $SERVER_PID $PEER_PID "${DURABLE_PIDS[@]}"; do kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; done
    SERVER_PID=; PEER_PID=; DURABLE_PIDS=()
    [ "$QUICK" = 1 ] && side_rounds=${BENCH_SIDE_ROUNDS:-1} || side_rounds=${BENCH_SIDE_ROUNDS:-5}
    python3 "$HERE/side_by_side.py" "$BASELINE_DIR/switchyard" "$BIN/switchyard" "$side_rounds" 5 200 \
        | python3 -c "import json,sys; d=json.load(sys.stdin); d['baselineCommit']='$BASELINE_COMMIT'; print(json.dumps(d))" \
        > "$OUT/side-by-side.json" || { echo "bench: the side-by-side rounds failed; their rows are left out" >&2; rm -f "$OUT/side-by-side.json"; }
fi

# The exploration of the demo's whole graph (issue 47): time, states per second, peak RSS (GNU time).
if [[ $SKIP != *" explore "* ]]; then
    echo "bench: explore the demo" >&2
    /usr/bin/time -f "%M" -o "$OUT/explore-rss.txt" "$BIN/switchyard" explore --json > "$OUT/explore-raw.json" || true
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["peakRSSKiB"] = int(open(sys.argv[2]).read().split()[-1]); json.dump(d, open(sys.argv[3], "w"))' \
        "$OUT/explore-raw.json" "$OUT/explore-rss.txt" "$OUT/explore.json"
fi

# Two nodes on one PostgreSQL (a throwaway cluster, default settings, fsync on), every process on this machine:
# each round runs the load on node A alone, then on both nodes, which change the same sessions (round robin without
# stickiness: a node's copy is often behind), then on both with each session kept on one node (affinity), and a
# stream on node B follows a session node A changes while the round-robin load runs.
if [[ $SKIP != *" cluster "* ]]; then
    for server in $SERVER_PID "${DURABLE_PIDS[@]}"; do kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; done
    SERVER_PID=; DURABLE_PIDS=()
    PGDIR=$(mktemp -d /tmp/switchyard-bench-pg.XXXXXX); rmdir "$PGDIR"
    DATABASE_URL=$(bash scripts/postgres.sh start "$PGDIR")
    # On one machine the nodes reach PostgreSQL over its Unix socket (TCP over loopback costs both sides ~10 %).
    PGPORT=$(sed -n 's|.*:\([0-9]*\)/.*|\1|p' <<<"$DATABASE_URL")
    DATABASE_URL="postgresql://postgres@/postgres?host=$PGDIR&port=$PGPORT"
    CLUSTER_PORTS=()
    for node in a b; do
        port=$(free_port)
        "$BIN/switchyard" serve --host 127.0.0.1 --port "$port" --log-level warning --session-create-rate 0 \
            --database-url "$DATABASE_URL" > "$OUT/node-$node.log" 2>&1 &
        CLUSTER_PIDS+=($!)
        CLUSTER_PORTS+=("$port")
        wait_port "$port"
    done
    echo "bench: cluster, creating $SESSIONS sessions" >&2
    python3 "$HERE/sessions.py" 127.0.0.1 "${CLUSTER_PORTS[0]}" "$SESSIONS" > "$OUT/sessions-cluster-0.txt"
    # Node B walks the same sessions from the middle of the list: each session is changed on both nodes (a node's
    # copy is behind half the time), but not by both at the same instant (one user, one request at a time).
    half=$((SESSIONS / 2))
    { tail -n +"$((half + 1))" "$OUT/sessions-cluster-0.txt"; head -n "$half" "$OUT/sessions-cluster-0.txt"; } \
        > "$OUT/sessions-cluster-1.txt"
    head -n "$half" "$OUT/sessions-cluster-0.txt" > "$OUT/sessions-sticky-0.txt"
    tail -n +"$((half + 1))" "$OUT/sessions-cluster-0.txt" > "$OUT/sessions-sticky-1.txt"
    echo "bench: cluster, a stream on B following changes on A" >&2
    (cd "$HERE" && python3 cluster_sse.py 127.0.0.1 "${CLUSTER_PORTS[0]}" "${CLUSTER_PORTS[1]}" 200) > "$OUT/cluster-sse-idle.json"
    # CPU seconds of the nodes and of PostgreSQL, and the nodes' round trips, so far (one JSON object).
    cluster_cost() {
        python3 "$HERE/cluster_cost.py" "$PGDIR/data" "${CLUSTER_PIDS[0]}:${CLUSTER_PORTS[0]}" "${CLUSTER_PIDS[1]}:${CLUSTER_PORTS[1]}"
    }
    # Starts push/pop on both nodes (32 connections each): node N changes the sessions of LIST-N.txt and writes
    # its results to RESULT-N.json; their pids in WRK_PIDS.
    both_nodes_load() {
        WRK_PIDS=()
        for index in 0 1; do
            wrk -t1 -c32 -d"${DURATION}s" -s "$HERE/wrk.lua" "http://127.0.0.1:${CLUSTER_PORTS[$index]}" \
                -- transition "$1-$index.txt" 2 | grep '^BENCH_JSON ' | cut -d' ' -f2- > "$2-$index.json" &
            WRK_PIDS+=($!)
        done
    }
    # A warm-up of each load, not counted: the first round's node A alone ran on a cold database and cold caches
    # (1,665/s against 3,312/s in the next round), which made the pair look 1.4× one node.
    echo "bench: cluster warm-up, 2 s of each of the three loads" >&2
    wrk -t1 -c64 -d2s -s "$HERE/wrk.lua" "http://127.0.0.1:${CLUSTER_PORTS[0]}" \
        -- transition "$OUT/sessions-cluster-0.txt" 2 > /dev/null
    DURATION_SAVED=$DURATION; DURATION=2
    both_nodes_load "$OUT/sessions-cluster" "$OUT/cluster-warm-up"
    wait "${WRK_PIDS[@]}"
    both_nodes_load "$OUT/sessions-sticky" "$OUT/cluster-warm-up"
    wait "${WRK_PIDS[@]}"
    DURATION=$DURATION_SAVED
    for round in $(seq "$ROUNDS"); do
        # The same load on node A alone first (64 connections, the sessions the pair changes: a wrk thread takes
        # every other line of the list, as each node's below): what a second node adds is measured against it.
        echo "bench: cluster round $round/$ROUNDS, transitions on node A alone, ${DURATION}s" >&2
        cost_before=$(cluster_cost)
        wrk -t1 -c64 -d"${DURATION}s" -s "$HERE/wrk.lua" "http://127.0.0.1:${CLUSTER_PORTS[0]}" \
            -- transition "$OUT/sessions-cluster-0.txt" 2 | grep '^BENCH_JSON ' | cut -d' ' -f2- > "$OUT/cluster-one.json"
        cost_one=$(cluster_cost)
        echo "bench: cluster round $round/$ROUNDS, transitions on both nodes, ${DURATION}s" >&2
        both_nodes_load "$OUT/sessions-cluster" "$OUT/cluster"
        if [ "$round" = 1 ]; then
            (cd "$HERE" && python3 cluster_sse.py 127.0.0.1 "${CLUSTER_PORTS[0]}" "${CLUSTER_PORTS[1]}" 200) > "$OUT/cluster-sse.json"
        fi
        wait "${WRK_PIDS[@]}"
        cost_two=$(cluster_cost)
        # The same sessions with affinity (a load balancer that keeps a session on one node): node A changes the
        # first half, node B the second, so each change is on the node that made the session's last one.
        echo "bench: cluster round $round/$ROUNDS, transitions on both nodes, each session on one node, ${DURATION}s" >&2
        both_nodes_load "$OUT/sessions-sticky" "$OUT/cluster-sticky"
        wait "${WRK_PIDS[@]}"
        cost_sticky=$(cluster_cost)
        echo "{\"round\": $round, \"one\": $(cat "$OUT/cluster-one.json"), \"a\": $(cat "$OUT/cluster-0.json"), \"b\": $(cat "$OUT/cluster-1.json"), \"stickyA\": $(cat "$OUT/cluster-sticky-0.json"), \"stickyB\": $(cat "$OUT/cluster-sticky-1.json"), \"cost\": {\"before\": $cost_before, \"one\": $cost_one, \"two\": $cost_two, \"sticky\": $cost_sticky}}" >> "$OUT/cluster.jsonl"
    done
fi

uptime > "$OUT/load-after.txt"
mkdir -p bench-results
python3 "$HERE/report.py" "$OUT" "$ROOT/bench-results" "duration=${DURATION}s rounds=$ROUNDS"
