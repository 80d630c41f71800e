#!/bin/bash
# Container health check: GET /healthz on the local server, healthy only on HTTP 200.
# Uses bash's /dev/tcp, so the image needs no curl or wget (bash, coreutils and grep are part of
# every Debian base image). It follows SWITCHYARD_PORT and SWITCHYARD_HOST; when the port is changed
# with the --port flag instead, set SWITCHYARD_PORT too (or override HEALTHCHECK).
set -euo pipefail

host="${SWITCHYARD_HOST:-127.0.0.1}"
case "$host" in
0.0.0.0 | "" | "*") host=127.0.0.1 ;;
:: | "[::]") host=::1 ;;
esac
host="${host#[}"
host="${host%]}"
port="${SWITCHYARD_PORT:-8080}"

exec 3<>"/dev/tcp/${host}/${port}"
printf 'GET /healthz HTTP/1.0\r\nHost: localhost\r\nUser-Agent: switchyard-healthcheck\r\n\r\n' >&3
IFS= read -r -t 4 status <&3
exec 3<&-
case "$status" in
"HTTP/1."[01]" 200"[[:space:]]*) exit 0 ;;
*)
    echo "unhealthy: ${status%$'\r'}" >&2
    exit 1
    ;;
esac
