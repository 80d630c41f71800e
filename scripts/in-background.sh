#!/usr/bin/env bash
# Lets make test overlap a long build with suites that mostly wait (servers killed and restarted, nodes and
# databases coming up), on the same two cores:
#   bash scripts/in-background.sh start NAME COMMAND [ARGS...]   runs COMMAND in the background; its output goes
#                                                                 to .build/background/NAME.log
#   bash scripts/in-background.sh wait NAME                       waits for it, prints its output, exits with its
#                                                                 status (1 when it was never started)
set -uo pipefail
cd "$(dirname "$0")/.."
dir=.build/background
mkdir -p "$dir"
action=$1
name=$2
shift 2
case "$action" in
start)
    rm -f "$dir/$name.status"
    (
        "$@" >"$dir/$name.log" 2>&1
        echo $? >"$dir/$name.status.tmp"
        mv "$dir/$name.status.tmp" "$dir/$name.status"
    ) &
    echo "$!" >"$dir/$name.pid"
    echo "in-background: $name started (output in $dir/$name.log)"
    ;;
wait)
    [ -f "$dir/$name.pid" ] || { echo "in-background: $name was never started" >&2; exit 1; }
    pid=$(cat "$dir/$name.pid")
    while [ ! -f "$dir/$name.status" ]; do
        if ! kill -0 "$pid" 2>/dev/null; then
            sleep 1  # it may have written its status as it ended
            [ -f "$dir/$name.status" ] || { echo "in-background: $name ended without a status" >&2; exit 1; }
        fi
        sleep 1
    done
    rm -f "$dir/$name.pid"
    cat "$dir/$name.log"
    status=$(cat "$dir/$name.status")
    [ "$status" = 0 ] || echo "in-background: $name failed ($status)" >&2
    exit "$status"
    ;;
*)
    echo "usage: in-background.sh start NAME COMMAND… | wait NAME" >&2
    exit 2
    ;;
esac
