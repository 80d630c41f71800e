#!/usr/bin/env bash
# Lets make test overlap a long build with suites that mostly wait (servers killed and restarted, nodes and
# databases coming up), on the same two cores:
#   bash scripts/in-background.sh start NAME COMMAND [ARGS...]   runs COMMAND in a process group of its own (a
#                          run of NAME still going from an earlier, interrupted make is stopped first); its output
#                          goes to .build/background/NAME.log
#   bash scripts/in-background.sh running NAME                    exits 0 when a run of NAME started by this make is
#                          going or ended unwaited for (its pid file is there and its process alive, or its status
#                          written), 1 when none is (a pid file left by an interrupted make is removed)
#   bash scripts/in-background.sh wait NAME                       waits for that run (at most WAIT_SECONDS, default
#                          1800), prints its output and exits with its status; 1 when it was never started
#   bash scripts/in-background.sh wait-for NAME FILE...           waits (as long) until the run of NAME has made every
#                          FILE (each newer than the run's start): exits 0 then, leaving the run going and its own
#                          wait to come; 1, with its output, when the run ended without them (waited for, then) or
#                          was never started
set -uo pipefail
cd "$(dirname "$0")/.."
dir=.build/background
mkdir -p "$dir"
action=$1
name=$2
shift 2
pidfile=$dir/$name.pid
status=$dir/$name.status
case "$action" in
start)
    if [ -f "$pidfile" ]; then
        read -r old _ <"$pidfile"
        kill -TERM -- "-$old" 2>/dev/null && echo "in-background: stopped an earlier run of $name"
    fi
    rm -f "$status" "$pidfile"
    token="$$-$(date +%s%N)"
    # setsid: its own process group, so that the whole build can be stopped at once.
    setsid bash -c '"$@" >"$0.log" 2>&1; echo "'"$token"' $?" >"$0.status.tmp"; mv "$0.status.tmp" "$0.status"' \
        "$dir/$name" "$@" </dev/null &
    echo "$! $token" >"$pidfile"
    echo "in-background: $name started (output in $dir/$name.log)"
    ;;
running)
    [ -f "$pidfile" ] || exit 1
    read -r pid token <"$pidfile"
    if kill -0 "$pid" 2>/dev/null || { [ -f "$status" ] && [ "$(cut -d' ' -f1 "$status")" = "$token" ]; }; then
        exit 0
    fi
    rm -f "$pidfile"
    exit 1
    ;;
wait)
    [ -f "$pidfile" ] || { echo "in-background: $name was never started" >&2; exit 1; }
    read -r pid token <"$pidfile"
    rm -f "$pidfile"
    deadline=$(($(date +%s) + ${WAIT_SECONDS:-1800}))
    until [ -f "$status" ] && [ "$(cut -d' ' -f1 "$status")" = "$token" ]; do
        if ! kill -0 "$pid" 2>/dev/null && ! { [ -f "$status" ] && [ "$(cut -d' ' -f1 "$status")" = "$token" ]; }; then
            sleep 1
            [ -f "$status" ] && [ "$(cut -d' ' -f1 "$status")" = "$token" ] && break
            echo "in-background: $name ended without a status" >&2
            exit 1
        fi
        if [ "$(date +%s)" -ge "$deadline" ]; then
            kill -TERM -- "-$pid" 2>/dev/null
            echo "in-background: $name took longer than ${WAIT_SECONDS:-1800} s; stopped" >&2
            exit 1
        fi
        sleep 1
    done
    cat "$dir/$name.log"
    code=$(cut -d' ' -f2 "$status")
    [ "$code" = 0 ] || echo "in-background: $name failed ($code)" >&2
    exit "$code"
    ;;
wait-for)
    [ -f "$pidfile" ] || { echo "in-background: $name was never started" >&2; exit 1; }
    read -r pid token <"$pidfile"
    made() { # every FILE is there and newer than the pid file (written when the run started)
        for file in "$@"; do [ "$file" -nt "$pidfile" ] || return 1; done
    }
    deadline=$(($(date +%s) + ${WAIT_SECONDS:-1800}))
    until made "$@"; do
        if ! kill -0 "$pid" 2>/dev/null || { [ -f "$status" ] && [ "$(cut -d' ' -f1 "$status")" = "$token" ]; }; then
            made "$@" && break
            rm -f "$pidfile" # its outcome is known: the next make starts afresh
            cat "$dir/$name.log"
            echo "in-background: $name ended without making $*" >&2
            exit 1
        fi
        if [ "$(date +%s)" -ge "$deadline" ]; then
            echo "in-background: $name did not make $* within ${WAIT_SECONDS:-1800} s" >&2
            exit 1
        fi
        sleep 1
    done
    echo "in-background: $name made $*"
    ;;
*)
    echo "usage: in-background.sh start NAME COMMAND… | running NAME | wait NAME | wait-for NAME FILE…" >&2
    exit 2
    ;;
esac
