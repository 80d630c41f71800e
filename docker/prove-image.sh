#!/usr/bin/env bash
# Proves the image's runtime stage without a Docker engine (run as root), for the app staged in STAGING by
# docker/stage-app.sh (what the Dockerfile's build stage makes: the demo, or an app of its own like Examples/Hello):
#   1. a Debian bookworm root file system, debootstrap --variant=minbase, with exactly the packages the
#      Dockerfile's runtime stage installs (read from docker/Dockerfile by docker/dockerfile_runtime.py);
#      cached in .build-image/ on this machine, keyed by that list (a fresh clone builds it, ~30 s);
#   2. the staged binary, Public/ and the health check copied in where the Dockerfile's COPY lines put them,
#      the app user 10001 and /data as the Dockerfile makes them;
#   3. the binary needs no library outside the root file system (ldd inside it);
#   4. the image's ENTRYPOINT + CMD run as its USER, in its WORKDIR, with its ENV only (the port is a free one and
#      the host 127.0.0.1, so that the test binds nothing public): /healthz, a session and a change (its app's
#      first deep-link example) kept in the store, the page, the HEALTHCHECK command as the app user, and
#      SIGTERM -> exit 0.
#   bash docker/stage-app.sh . switchyard .build-stage/demo && sudo bash docker/prove-image.sh .build-stage/demo
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "prove-image: $*"; }
fail() { echo "prove-image: FAIL: $*" >&2; exit 1; }
[ "$#" = 1 ] || [ "$#" = 2 ] || fail "usage: prove-image.sh STAGING [APPS] (STAGING: what docker/stage-app.sh filled; APPS: a folder of app definitions to mount at /apps)"
staging=$1
apps=${2:-}
[ -x "$staging/usr/local/bin/switchyard" ] || fail "$staging has no staged app (run docker/stage-app.sh first)"
[ "$(id -u)" = 0 ] || fail "needs root (debootstrap and chroot)"
command -v debootstrap >/dev/null || fail "debootstrap is missing (apt-get install debootstrap)"

facts=$(python3 docker/dockerfile_runtime.py docker/Dockerfile)
fact() { python3 -c 'import json, sys; print(eval(sys.argv[2], {}, json.loads(sys.argv[1])))' "$facts" "$1"; }
packages=$(fact '",".join(packages)')
user=$(fact 'user')
workdir=$(fact 'workdir')
say "runtime packages from docker/Dockerfile: $packages; user $user; workdir $workdir"

# --- 1. the root file system ---------------------------------------------------------------------------------
key=$(printf '%s bookworm minbase' "$packages" | sha256sum | cut -c1-16)
root="$PWD/.build-image/rootfs-$key"
if [ ! -f "$root/.complete" ]; then
    say "debootstrap --variant=minbase bookworm (packages: $packages) into $root"
    rm -rf "$root" "$root.tmp"
    mkdir -p .build-image
    debootstrap --variant=minbase --include="$packages" bookworm "$root.tmp" "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" \
        >.build-image/debootstrap.log 2>&1 || { tail -n 20 .build-image/debootstrap.log >&2; fail "debootstrap failed"; }
    mv "$root.tmp" "$root"
    touch "$root/.complete"
else
    say "reusing $root"
fi

# --- 2. the app, as the Dockerfile installs it ----------------------------------------------------------------
install -m 0755 "$staging/usr/local/bin/switchyard" "$root/usr/local/bin/switchyard"
install -m 0755 "$staging/switchyard-healthcheck" "$root/usr/local/bin/switchyard-healthcheck"
rm -rf "$root/app" "$root/data" "$root/apps"
mkdir -p "$root/app" "$root/apps"
cp -R "$staging/app/Public" "$root/app/Public"
chown -R 0:0 "$root/app/Public"
# `docker run -v APPS:/apps`: the definitions, readable by the app user.
if [ -n "$apps" ]; then
    cp -R "$apps/." "$root/apps/"
    chmod -R u=rwX,go=rX "$root/apps"
    say "mounted at /apps: $(ls "$root/apps" | tr '\n' ' ')"
fi
uid=${user%%:*}
gid=${user##*:}
chroot "$root" getent group "$gid" >/dev/null || chroot "$root" groupadd --system --gid "$gid" switchyard
chroot "$root" getent passwd "$uid" >/dev/null ||
    chroot "$root" useradd --system --uid "$uid" --gid "$gid" --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin switchyard
install -d -o "$uid" -g "$gid" -m 0750 "$root/data"

# --- 3. libraries ------------------------------------------------------------------------------------------
ldd_out=$(chroot "$root" /usr/bin/ldd /usr/local/bin/switchyard 2>&1) || fail "ldd failed in the image: $ldd_out"
if grep -q "not found" <<<"$ldd_out"; then
    fail "the image lacks libraries: $(grep 'not found' <<<"$ldd_out" | tr -s '\t ' ' ')"
fi
say "ldd in the image: $(grep -c '=>' <<<"$ldd_out") libraries, none missing"

# --- 4. run it as the image would ----------------------------------------------------------------------------
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
mapfile -t env_pairs < <(python3 - "$facts" "$port" <<'PY'
import json, sys
facts, port = json.loads(sys.argv[1]), sys.argv[2]
env = dict(facts["env"], SWITCHYARD_PORT=port, SWITCHYARD_HOST="127.0.0.1")
env.setdefault("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")
for name, value in env.items():
    print(f"{name}={value}")
PY
)
mapfile -t command < <(fact '"\n".join(entrypoint + cmd)')
mkdir -p "$root/proc"
mount -t proc proc "$root/proc"
pid=
cleanup() {
    [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null || true
    umount "$root/proc" 2>/dev/null || true
}
trap cleanup EXIT
mkdir -p test-artifacts
as_app() { chroot --userspec="$user" "$root" /usr/bin/env -i --chdir="$workdir" "${env_pairs[@]}" "$@"; }
# (After /proc is mounted: a Swift program on Linux reads its arguments from /proc/self/cmdline.)
say "the app staged in $staging: $(as_app /usr/local/bin/switchyard --version)"
# Started directly (not through a function, which would run in a subshell): chroot and env exec, so $! is the
# server's own pid and SIGTERM reaches it.
chroot --userspec="$user" "$root" /usr/bin/env -i --chdir="$workdir" "${env_pairs[@]}" "${command[@]}" \
    >test-artifacts/image-server.log 2>&1 &
pid=$!
say "started ${command[*]} as $user in $workdir on 127.0.0.1:$port (pid $pid)"

expected_app=
if [ -n "$apps" ]; then
    # The first definition the server loads is its default app: asked of the staged binary itself, which reads
    # JSON and YAML and orders the files as the server does.
    expected_app=$("$staging/usr/local/bin/switchyard" check "$root/apps" | sed -n "s/^[^ ]*: app '\([^']*\)'.*/\1/p" | head -n 1)
    [ -n "$expected_app" ] || fail "no app definition in $apps"
fi
python3 - "$port" "$pid" "$expected_app" <<'PY' || { tail -n 30 test-artifacts/image-server.log >&2; fail "the server in the image did not serve"; }
import json, os, sys, time, urllib.request
port, pid, expected_app = sys.argv[1], int(sys.argv[2]), sys.argv[3]
base = f"http://127.0.0.1:{port}"
deadline = time.monotonic() + 30
while True:
    try:
        os.kill(pid, 0)
    except OSError:
        sys.exit("the server exited")
    try:
        with urllib.request.urlopen(base + "/healthz", timeout=2) as r:
            if r.status == 200:
                break
    except OSError:
        pass
    if time.monotonic() > deadline:
        sys.exit("no 200 from /healthz within 30 s")
    time.sleep(0.2)
def call(method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"} if data else {})
    with urllib.request.urlopen(request, timeout=10) as r:
        return r.status, r.headers, r.read()
status, _, body = call("POST", "/api/sessions")
session = json.loads(body)["session"]
assert status == 201, status
_, _, body = call("GET", "/api/catalog")  # the default app's, which the session runs
catalog = json.loads(body)
app, link = catalog["app"], catalog["deepLinkExamples"][0]
assert not expected_app or app == expected_app, f"the default app is {app}, not the mounted {expected_app}"
status, _, body = call("POST", f"/api/sessions/{session}/deeplinks", {"url": link})
changed = json.loads(body)
assert status == 200 and changed["version"] == 1, (status, body[:200])
status, _, body = call("GET", f"/api/sessions/{session}")
assert status == 200 and json.loads(body)["version"] == 1, (status, body[:200])
status, headers, body = call("GET", "/")
assert status == 200 and headers["Content-Type"].startswith("text/html") and b"Switchyard" in body, status
print(f"prove-image: /healthz 200, a session of app '{app}' created and changed by {link} (v1), the page served")
PY
mapfile -t healthcheck < <(fact '"\n".join(healthcheck)')
as_app "${healthcheck[@]}" || fail "the HEALTHCHECK command (${healthcheck[*]}) reported unhealthy"
say "HEALTHCHECK ${healthcheck[*]} as $user: healthy"
kill -TERM "$pid"
code=0
for _ in $(seq 100); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
done
kill -0 "$pid" 2>/dev/null && fail "still running 10 s after SIGTERM"
wait "$pid" || code=$?
pid=
[ "$code" = 0 ] || fail "exit code $code after SIGTERM"
say "SIGTERM -> exit 0"
say "OK: the runtime stage (debian bookworm minbase + $packages) runs the image's command"
