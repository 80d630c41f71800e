#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests and local multi-node runs (never the system cluster or port 5432).
#
#   scripts/postgres.sh start DIR   create (first time) and start a cluster in DIR on a free 127.0.0.1 port;
#                                   prints postgresql://postgres@127.0.0.1:PORT/postgres on stdout.
#                                   On an existing DIR it starts the cluster again on the same port.
#   scripts/postgres.sh halt DIR    stop it (-m fast) and keep DIR (start DIR brings it back with its data)
#   scripts/postgres.sh stop DIR    stop it (-m fast) and remove DIR
#
# Trust authentication is acceptable only because the cluster listens on 127.0.0.1 and on a socket in DIR.
# `fsync` stays on: these clusters are used to test durability. `initdb --no-sync` only skips syncing the
# freshly created template files, which a crash during set-up would make us redo anyway.
# As root the server runs as the `postgres` user (PostgreSQL refuses root); DIR is given to that user.
# PGBIN overrides where initdb and pg_ctl are found. The server log is DIR/server.log.
set -euo pipefail

die() { echo "postgres.sh: $*" >&2; exit 1; }

[ $# -eq 2 ] || die "usage: $0 start|halt|stop DIR"
command="$1"
dir="$2"
case "$dir" in /*) ;; *) dir="$PWD/$dir" ;; esac

PGBIN="${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)}"
if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/initdb" ] || [ ! -x "$PGBIN/pg_ctl" ]; then
  die "the PostgreSQL server binaries (initdb, pg_ctl) are missing — install the Debian package postgresql (apt-get install postgresql)"
fi

# Runs a PostgreSQL program as the user that may own the cluster.
as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

port_of() { sed -n 's/^port = \([0-9]*\).*/\1/p' "$dir/data/postgresql.conf" | tail -n1; }

pg_start() {
  if ! as_owner "$PGBIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 start >/dev/null; then
    echo "postgres.sh: the server did not start; last lines of $dir/server.log:" >&2
    tail -n 20 "$dir/server.log" >&2 || true
    return 1
  fi
}

start() {
  if [ ! -d "$dir/data" ]; then
    mkdir -p "$dir"
    chmod 700 "$dir" # the socket in it accepts anyone who reaches it (trust)
    if [ "$(id -u)" = 0 ]; then
      id postgres >/dev/null 2>&1 || die "running as root needs the postgres user (created by the postgresql package)"
      chown postgres: "$dir"
      runuser -u postgres -- test -w "$dir" \
        || die "the postgres user cannot reach $dir (a parent folder is private?): use a folder under /tmp"
    fi
    as_owner "$PGBIN/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-locale --no-sync >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; die "initdb failed"; }
    # Settings in the cluster's own file, so that `start DIR` after `halt DIR` comes back on the same port.
    {
      echo "# scripts/postgres.sh: loopback only, a private socket folder, room for many test nodes"
      echo "listen_addresses = '127.0.0.1'"
      echo "unix_socket_directories = '$dir'"
      echo "max_connections = 200"
    } >>"$dir/data/postgresql.conf"
    # The port is free when chosen but another process may take it before the server binds: try a few.
    local attempt
    for attempt in 1 2 3; do
      echo "port = $(free_port)" >>"$dir/data/postgresql.conf"
      pg_start 2>"$dir/start-error.log" && break
      [ "$attempt" = 3 ] && { cat "$dir/start-error.log" >&2; die "could not start a cluster in $dir"; }
    done
  else
    as_owner "$PGBIN/pg_ctl" -D "$dir/data" status >/dev/null 2>&1 || pg_start
  fi
  echo "postgresql://postgres@127.0.0.1:$(port_of)/postgres"
}

halt() {
  [ -d "$dir/data" ] || die "no cluster in $dir"
  if as_owner "$PGBIN/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
    as_owner "$PGBIN/pg_ctl" -D "$dir/data" -m fast -w -t 30 stop >/dev/null
  fi
}

case "$command" in
start) start ;;
halt) halt ;;
stop)
  # Only a folder this script made (initdb.log is its mark) is removed: a typo must not delete anything else.
  if [ -f "$dir/initdb.log" ]; then
    [ -f "$dir/data/PG_VERSION" ] && halt
    rm -rf "$dir"
  elif [ -e "$dir" ]; then
    die "$dir does not hold a cluster made by this script; not removing it"
  fi
  ;;
*) die "usage: $0 start|halt|stop DIR" ;;
esac
