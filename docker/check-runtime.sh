#!/usr/bin/env bash
# Proves, on this Debian 12 machine, what docker/Dockerfile's runtime stage assumes without a Docker
# engine:
#   1. the Swift toolchain has the static stdlib that --static-swift-stdlib needs;
#   2. the release binary built like the image's (scratch path SCRATCH, default .build-static), or the one given
#      in BINARY (make test gives the demo image's own, which Tests/image/suite.py copies out: no build here), needs
#      no shared library outside glibc and the runtime packages the Dockerfile installs (and their Debian
#      dependencies) — the package list is parsed from the Dockerfile's runtime stage;
#   3. the binary starts (as an unprivileged user when run as root), serves GET /healthz 200 and the
#      page, docker/healthcheck.sh (the image's HEALTHCHECK) says healthy, and SIGTERM stops it with
#      exit code 0.
# Usage: bash docker/check-runtime.sh     (SWIFT=... picks the toolchain; default: swift on PATH)
#        BINARY=path/to/switchyard bash docker/check-runtime.sh     (checks that binary, builds nothing)
set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)
SWIFT=${SWIFT:-swift}
scratch=${SCRATCH:-.build-static}
dockerfile=${DOCKERFILE:-docker/Dockerfile}
work=$(mktemp -d)
server_pid=""

cleanup() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill -KILL "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fail() {
    echo "check-runtime: FAIL: $*" >&2
    exit 1
}
say() { echo "check-runtime: $*"; }

for tool in ldd dpkg dpkg-query readelf python3; do
    command -v "$tool" >/dev/null || fail "$tool is not installed (this check needs a Debian host)"
done

# --- 1. the toolchain's static Swift stdlib ------------------------------------------------------
swift_bin=$(command -v "$SWIFT") || fail "$SWIFT not found"
toolchain_lib=$(cd "$(dirname "$(readlink -f "$swift_bin")")/../lib" && pwd)
static_dir=$toolchain_lib/swift_static/linux
for file in static-stdlib-args.lnk libswiftCore.a libFoundation.a libFoundationEssentials.a libdispatch.a; do
    [ -f "$static_dir/$file" ] || fail "missing $static_dir/$file: this toolchain cannot --static-swift-stdlib"
done
say "static stdlib: $static_dir ($("$SWIFT" --version 2>/dev/null | head -n1))"

# --- 2. the runtime package list, from the Dockerfile's last stage ------------------------------
mapfile -t packages < <(python3 "$root/docker/dockerfile_runtime.py" "$dockerfile" |
    python3 -c 'import json, sys; print("\n".join(json.load(sys.stdin)["packages"]))'
) || fail "could not read the runtime packages from $dockerfile"
[ "${#packages[@]}" -gt 0 ] || fail "no runtime packages found in $dockerfile"
say "runtime packages in $dockerfile: ${packages[*]}"
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
        fail "runtime package $package is not installed here, so this check cannot vouch for it"
done

# --- build, like the image's build stage (unless BINARY names one) -------------------------------
if [ -n "${BINARY:-}" ]; then
    binary=$(readlink -f "$BINARY")
    say "the binary given: $binary"
else
    say "building: $SWIFT build -c release --static-swift-stdlib --product switchyard --scratch-path $scratch"
    if ! "$SWIFT" build -c release --static-swift-stdlib --product switchyard --scratch-path "$scratch" \
        >"$work/build.log" 2>&1; then
        tail -n 40 "$work/build.log" >&2
        fail "static release build failed"
    fi
    binary=$("$SWIFT" build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)/switchyard
fi
[ -x "$binary" ] || fail "no binary at $binary"

# --- 3. shared libraries: every one must come from glibc or the runtime packages ----------------
if readelf -d "$binary" | grep -q 'NEEDED.*libswift'; then
    fail "the binary links the Swift runtime dynamically (--static-swift-stdlib did not take)"
fi
ldd "$binary" >"$work/ldd.txt" 2>&1 || fail "ldd failed: $(cat "$work/ldd.txt")"
if grep -q "not found" "$work/ldd.txt"; then
    fail "unresolved libraries: $(grep 'not found' "$work/ldd.txt" | tr -s '\t ' ' ')"
fi

# library path -> Debian package (merged /usr: try the path, its real path and the /usr twin).
: >"$work/libs.txt"
while read -r soname path; do
    package=""
    for candidate in "$path" "$(readlink -f "$path")" "/usr$path" "${path#/usr}"; do
        [ -n "$candidate" ] || continue
        package=$(dpkg -S "$candidate" 2>/dev/null | head -n1 | cut -d: -f1) && [ -n "$package" ] && break
    done
    [ -n "$package" ] || fail "$soname ($path) belongs to no Debian package"
    echo "$soname $path $package" >>"$work/libs.txt"
done < <(awk '$2 == "=>" && $3 ~ /^\// {print $1, $3} $1 ~ /^\// && $2 ~ /^\(/ {n=split($1, p, "/"); print p[n], $1}' "$work/ldd.txt")
needed=$(readelf -d "$binary" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | tr '\n' ' ')

python3 - "$work/libs.txt" "$needed" "${packages[@]}" >"$work/report.txt" <<'PY' || { cat "$work/report.txt"; fail "the runtime stage misses libraries (see above)"; }
import re, subprocess, sys
libs_file, needed, listed = sys.argv[1], set(sys.argv[2].split()), sys.argv[3:]
BASE = "libc6"  # glibc (and through it libgcc-s1): part of every Debian base image

def depends(package):
    out = subprocess.run(["dpkg-query", "-W", "-f=${Pre-Depends}, ${Depends}", package],
                         capture_output=True, text=True)
    if out.returncode != 0:
        return []
    names = []
    for clause in out.stdout.split(","):
        for alternative in clause.split("|"):
            name = re.sub(r"\(.*?\)|:any|:[a-z0-9]+$", "", alternative).strip()
            if name:
                names.append(name)
    return names

def installed(package):
    out = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True)
    return out.returncode == 0 and "install ok installed" in out.stdout

# Who brings each package into the image: breadth-first over Pre-Depends/Depends.
via = {p: "listed in Dockerfile" for p in listed}
via.setdefault(BASE, "base image (glibc)")
queue = list(via)
while queue:
    package = queue.pop(0)
    for dependency in depends(package):
        if dependency not in via and installed(dependency):
            root = via[package]
            via[dependency] = ("dependency of " + package) if root.startswith(("listed", "base")) \
                else root
            queue.append(dependency)

bad = 0
rows = []
for line in open(libs_file):
    soname, path, package = line.split()
    why = via.get(package)
    if why is None:
        why = "MISSING: add " + package + " to the runtime stage"
        bad += 1
    rows.append((soname, "direct" if soname in needed else "indirect", package, why))
width = max(len(r[0]) for r in rows)
for soname, kind, package, why in rows:
    print(f"  {soname:<{width}}  {kind:<8}  {package:<16}  {why}")
unused = [p for p in listed if p not in {r[2] for r in rows}]
for package in unused:
    print(f"  note: {package} is listed but provides no library the binary loads")
sys.exit(1 if bad else 0)
PY

# --- 4. run it: /healthz, the page, the HEALTHCHECK script, SIGTERM -> exit 0 ------------------
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
runner=()
run_as="$(id -un)"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
    setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$binary" -a -r Public/index.html 2>/dev/null; then
    runner=(setpriv --reuid=65534 --regid=65534 --clear-groups)  # like the image's non-root user
    run_as="uid 65534 (nobody)"
fi
# The store's folder, as the image's volume: created by the server on first run, writable by its user.
mkdir -p "$work/data"
[ ${#runner[@]} -gt 0 ] && chown 65534:65534 "$work/data"
chmod 0755 "$work"
"${runner[@]}" "$binary" serve --host 127.0.0.1 --port "$port" --public Public --data "$work/data/store" \
    >"$work/server.log" 2>&1 &
server_pid=$!

fetch() { # fetch PATH OUTFILE -> prints the HTTP status
    python3 - "http://127.0.0.1:$port$1" "$2" <<'PY'
import sys, urllib.request, urllib.error
try:
    with urllib.request.urlopen(sys.argv[1], timeout=5) as r:
        body, status = r.read(), r.status
except urllib.error.HTTPError as e:
    body, status = e.read(), e.code
except Exception:
    print(0); sys.exit()
open(sys.argv[2], "wb").write(body)
print(status)
PY
}

status=0
for _ in $(seq 1 100); do
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; fail "the server exited at start"; }
    status=$(fetch /healthz "$work/healthz.json")
    [ "$status" = 200 ] && break
    sleep 0.2
done
[ "$status" = 200 ] || { cat "$work/server.log" >&2; fail "GET /healthz answered $status, not 200"; }
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$work/healthz.json" ||
    fail "/healthz did not answer JSON: $(head -c 200 "$work/healthz.json")"
page=$(fetch / "$work/index.html")
[ "$page" = 200 ] || fail "GET / (the page from Public/) answered $page, not 200"

SWITCHYARD_HOST=127.0.0.1 SWITCHYARD_PORT=$port bash docker/healthcheck.sh ||
    fail "docker/healthcheck.sh reported unhealthy against a healthy server"
SWITCHYARD_HOST=0.0.0.0 SWITCHYARD_PORT=$port bash docker/healthcheck.sh ||
    fail "docker/healthcheck.sh with SWITCHYARD_HOST=0.0.0.0 (as in the image) failed"

kill -TERM "$server_pid"
code=0
for _ in $(seq 1 100); do
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
done
kill -0 "$server_pid" 2>/dev/null && fail "the server did not stop within 10 s of SIGTERM"
wait "$server_pid" || code=$?
server_pid=""
[ "$code" = 0 ] || { cat "$work/server.log" >&2; fail "exit code $code after SIGTERM, not 0"; }

if SWITCHYARD_HOST=127.0.0.1 SWITCHYARD_PORT=$port bash docker/healthcheck.sh 2>/dev/null; then
    fail "docker/healthcheck.sh said healthy with no server listening"
fi

# --- summary ----------------------------------------------------------------------------------
size=$(stat -c %s "$binary")
summary_size=$(python3 -c 'import sys; print(f"{int(sys.argv[1]) / 1048576:.1f} MiB")' "$size")
if command -v strip >/dev/null && strip -o "$work/stripped" "$binary" 2>/dev/null; then
    summary_size+=" ($(python3 -c 'import sys; print(f"{int(sys.argv[1]) / 1048576:.1f} MiB")' \
        "$(stat -c %s "$work/stripped")") stripped)"
fi
say "binary: $binary, $summary_size, $("$binary" --version)"
say "shared libraries (ldd) and the Debian package that provides each:"
cat "$work/report.txt"
say "GET /healthz -> 200 $(head -c 120 "$work/healthz.json"); GET / -> 200; HEALTHCHECK script: healthy, then unhealthy once stopped"
say "ran as $run_as on 127.0.0.1:$port; SIGTERM -> exit code 0"
say "OK: the runtime stage (debian:bookworm-slim + ${packages[*]}) covers the binary"
