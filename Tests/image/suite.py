#!/usr/bin/env python3
"""docker/Dockerfile built and run by a real container engine: Debian's podman (with runc), the command lines of
docker/README.md with `podman` in place of `docker`. Phases (make test-image runs each, timed):

    python3 Tests/image/suite.py bases        the two base images (stand-ins made here when they cannot be pulled)
    python3 Tests/image/suite.py build NAME   demo | url | both: the demo, and an app of its own (Examples/Hello's
                                              sources as `MyServer`) depending on Switchyard by URL, and in a folder
                                              holding both packages; the demo's binary and the one beside a checkout
                                              are copied out to .build-image/bin/ (switchyard, hello) for the host's
                                              suites (make image-binaries)
    python3 Tests/image/suite.py run          the images run: the page, a session, /healthz, /readyz, the health
                                              status, /data kept across containers, host folders, `stop` and `kill`,
                                              a read-only root, /apps, PID 1's signals and orphans; ends with
                                              `N passed, N failed`

What stands in for what this machine lacks (docker/README.md, "How the image is tested"):
  - no registry: `debian:bookworm-slim` is debootstrap's minbase Debian 12 (slimmed as the official image is), and
    `swift:<version>-bookworm` is that plus the official image's packages (Tests/image/swift-stand-in.Containerfile),
    with this machine's toolchain (the same version, checked) bind-mounted at /opt/swift during builds. A base image
    present and not made here (pulled) is used as it is. Stand-ins are kept between runs (labelled, keyed by recipe).
  - no network for git: the system gitconfig's rewrites to local mirrors (/opt/swift-packages here) are mounted into
    the builds, and the "published" Switchyard of the URL layout is a git repository made here from the working tree
    (https://git.example.com/switchyard.git, one commit whose id depends only on the files).
  - podman, not Docker: runc (crun fails on this machine's cgroups), ulimits within the machine's hard limits
    (.build-image/containers.conf), the Docker image format (HEALTHCHECK is kept), `--read-only-tmpfs=false` with
    `--read-only` (Docker mounts no tmpfs by itself), and `podman healthcheck run` where no systemd schedules it.
"""
import hashlib
import http.client
import json
import os
import pathlib
import re
import resource
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "support"))
from harness import free_port, request  # noqa: E402  (Tests/support/harness.py)

STATE = ROOT / ".build-image"
ARTIFACTS = ROOT / "test-artifacts"
DOCKERFILE = ROOT / "docker" / "Dockerfile"
ENGINE = os.environ.get("ENGINE", "podman")
STAND_IN = "org.switchyard.stand-in"
TEST = "org.switchyard.test"
GIT_HOST = "https://git.example.com/"
# Per working tree, so that two checkouts testing at once do not test each other's images.
TREE = hashlib.sha256(str(ROOT).encode()).hexdigest()[:8]
IMAGES = {name: f"localhost/switchyard-test-{name}:{TREE}" for name in ("demo", "url", "both")}
# podman's own complaints where no systemd runs (it schedules health checks with systemd timers): not the image's.
NOISE = re.compile(r"unable to get systemd connection|healthcheck: unable to|Removing timer for container")


class Failure(Exception):
    pass


def say(text):
    print(f"image: {text}", flush=True)


def digest(*parts):
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]


def write_if_changed(path, text, mode=None):
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
    if mode is not None:
        path.chmod(mode)


def quiet(text):
    return "\n".join(line for line in text.splitlines() if not NOISE.search(line))


# ---- the engine ----------------------------------------------------------------------------------------------

def engine_environment():
    def limit(kind, most):
        hard = resource.getrlimit(kind)[1]
        return most if hard == resource.RLIM_INFINITY else min(hard, most)

    conf = STATE / "containers.conf"
    write_if_changed(conf, (
        "# Written by Tests/image/suite.py: podman's default limits exceed this machine's hard limits, and crun\n"
        "# fails on its cgroups (hybrid mode), runc does not.\n"
        "[containers]\n"
        f'default_ulimits = ["nofile={limit(resource.RLIMIT_NOFILE, 20000)}:{limit(resource.RLIMIT_NOFILE, 20000)}", '
        f'"nproc={limit(resource.RLIMIT_NPROC, 4096)}:{limit(resource.RLIMIT_NPROC, 4096)}"]\n'
        "[engine]\n"
        'runtime = "runc"\n'))
    return {**os.environ, "CONTAINERS_CONF": str(conf), "BUILDAH_FORMAT": "docker"}


ENV = None


def engine(*args, check=True, timeout=120, stdin=None, cwd=None, log=None, append=False):
    """podman ARGS…: the completed process (stdout and stderr as text; into the file `log` instead when given)."""
    command = [ENGINE, *map(str, args)]
    try:
        if log is not None:
            with open(log, "a" if append else "w") as out:
                out.write(f"$ {shlex.join(command)}\n")
                out.flush()
                result = subprocess.run(command, env=ENV, stdout=out, stderr=subprocess.STDOUT, stdin=stdin,
                                        text=True, timeout=timeout, cwd=cwd)
        else:
            result = subprocess.run(command, env=ENV, capture_output=True, stdin=stdin, text=True, timeout=timeout,
                                    cwd=cwd)
    except subprocess.TimeoutExpired:
        raise Failure(f"`{shlex.join(command)}` took more than {timeout} s") from None
    if check and result.returncode != 0:
        detail = pathlib.Path(log).read_text()[-3000:] if log else quiet(result.stderr)[-3000:]
        raise Failure(f"`{shlex.join(command)}` exited {result.returncode}:\n{detail}")
    return result


def docker(*args, **options):
    """A command of docker/README.md (`docker build …`, `docker run …`), run with podman. What differs is only what
    this machine needs: the stand-ins' mounts and a label (for clearing superseded layers) for a build, and for
    `run --read-only` no tmpfs of podman's own."""
    args = list(args)
    if args[0] == "build":
        args[1:1] = [*build_mounts(), "--label", f"{TEST}=build"]
    if args[0] == "run" and "--read-only" in args:
        args.insert(args.index("--read-only") + 1, "--read-only-tmpfs=false")
    return engine(*args, **options)


def image_exists(ref):
    return engine("image", "exists", ref, check=False).returncode == 0


def image_id(ref):
    result = engine("image", "inspect", "--format", "{{.Id}}", ref, check=False)
    return result.stdout.strip() if result.returncode == 0 else None


def stand_in_key(ref):
    """None: no such image; "": an image not made here (pulled); else the recipe key of the stand-in."""
    if not image_exists(ref):
        return None
    labels = json.loads(engine("image", "inspect", "--format", "{{json .Labels}}", ref).stdout or "null") or {}
    return labels.get(STAND_IN, "")


# ---- phase 1: base images -------------------------------------------------------------------------------------

# What the official slim images leave out (their dpkg path excludes), so the stand-in weighs about what they do.
SLIM = """path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/locale/*
"""


def base_images():
    froms = [qualified(name) for name in re.findall(r"(?im)^FROM\s+(\S+)", DOCKERFILE.read_text())]
    swift = next((f for f in froms if "/swift:" in f), None)
    debian = next((f for f in froms if "/debian:" in f), None)
    if swift is None or debian != "docker.io/library/debian:bookworm-slim":
        raise Failure(f"docker/Dockerfile's base images changed ({froms}): the stand-ins here are made for "
                      "swift:<version>-bookworm and debian:bookworm-slim")
    return swift, debian


def qualified(name):
    return name if "/" in name else f"docker.io/library/{name}"


def debian_stand_in(ref):
    key = digest("debootstrap --variant=minbase bookworm", SLIM)
    found = stand_in_key(ref)
    if found == "":
        return say(f"{ref}: present and not a stand-in (pulled): used as it is")
    if found == key:
        return say(f"{ref}: the stand-in made earlier (debootstrap minbase, kept between runs)")
    if shutil.which("debootstrap") is None:
        raise Failure("debootstrap is missing (apt-get install debootstrap; make deps-test installs it)")
    root = STATE / "debootstrap"
    shutil.rmtree(root, ignore_errors=True)
    say(f"{ref}: making a stand-in (debootstrap --variant=minbase bookworm, about a minute)")
    log = ARTIFACTS / "image-debootstrap.log"
    with open(log, "w") as out:
        made = subprocess.run(["debootstrap", "--variant=minbase", "bookworm", str(root),
                               os.environ.get("DEBIAN_MIRROR", "http://deb.debian.org/debian")],
                              stdout=out, stderr=subprocess.STDOUT)
    if made.returncode != 0:
        raise Failure(f"debootstrap failed: {log.read_text()[-2000:]}")
    (root / "etc/dpkg/dpkg.cfg.d").mkdir(parents=True, exist_ok=True)
    (root / "etc/dpkg/dpkg.cfg.d/docker").write_text(SLIM)
    for folder in ("usr/share/man", "usr/share/groff", "usr/share/info", "usr/share/lintian", "usr/share/linda",
                   "usr/share/locale", "var/lib/apt/lists", "var/cache/apt/archives"):
        for entry in (root / folder).glob("*"):
            if entry.name == "partial":
                continue
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
    for doc in (root / "usr/share/doc").glob("*"):
        for entry in doc.rglob("*"):
            if (entry.is_file() or entry.is_symlink()) and entry.name != "copyright":
                entry.unlink()
    for cache in (root / "var/cache/apt").glob("*.bin"):
        cache.unlink()
    tar = subprocess.Popen(["tar", "-C", str(root), "-c", "."], stdout=subprocess.PIPE)
    engine("import", "--change", f"LABEL={STAND_IN}={key}",
           "--change", "ENV=PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
           "--change", 'CMD=["bash"]', "-", ref, stdin=tar.stdout, timeout=600)
    tar.wait()
    shutil.rmtree(root)


def toolchain():
    """The folder of this machine's Swift toolchain (its usr/bin/swift) and its version line."""
    swift = shutil.which(os.environ.get("SWIFT", "swift"))
    if swift is None:
        raise Failure("no swift on PATH")
    folder = pathlib.Path(swift).resolve().parent.parent.parent
    version = subprocess.run([swift, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    return folder, version


def swift_stand_in(ref, debian):
    version = re.search(r":([0-9.]+)-bookworm$", ref)
    folder, line = toolchain()
    containerfile = ROOT / "Tests/image/swift-stand-in.Containerfile"
    key = digest(containerfile.read_text(), line, image_id(debian) or "")
    found = stand_in_key(ref)
    if found == "":
        return say(f"{ref}: present and not a stand-in (pulled): used as it is")
    if version is None or f"Swift version {version.group(1)} " not in line + " ":
        raise Failure(f"the build stage's {ref} cannot be stood in for by this machine's toolchain ({line}): "
                      "pull that image, or install that toolchain")
    if found == key:
        return say(f"{ref}: the stand-in made earlier ({line} from {folder}, mounted at build time)")
    say(f"{ref}: making a stand-in (the official image's packages on the stand-in Debian; {line} from {folder})")
    engine("build", "--label", f"{STAND_IN}={key}", "-f", containerfile, "-t", ref, containerfile.parent,
           timeout=900, log=ARTIFACTS / "image-swift-stand-in.log")


def build_mounts():
    """What `podman build` mounts for the stand-ins: the toolchain, the git mirrors the system gitconfig rewrites
    URLs to, the URL layout's repository, and a gitconfig rewriting URLs to those."""
    folder, _ = toolchain()
    mounts = ["-v", f"{folder}:/opt/swift:ro", "-v", f"{STATE / 'git'}:/opt/test-git:ro",
              "-v", f"{STATE / 'gitconfig-build'}:/etc/gitconfig:ro"]
    config = f'[url "/opt/test-git/"]\n\tinsteadOf = {GIT_HOST}\n'
    rewrites = subprocess.run(["git", "config", "--system", "--get-regexp", r"^url\..*\.insteadof$"],
                              capture_output=True, text=True).stdout.splitlines()
    mirrors = set()
    for line in rewrites:
        key, _, value = line.partition(" ")
        base = key[len("url."):-len(".insteadof")]
        if base.startswith("/") and pathlib.Path(base).is_dir():
            config += f'[url "{base}"]\n\tinsteadOf = {value}\n'
            mirrors.add(base.rstrip("/"))
    for mirror in sorted(mirrors):
        mounts += ["-v", f"{mirror}:{mirror}:ro"]
    write_if_changed(STATE / "gitconfig-build", config)
    (STATE / "git").mkdir(parents=True, exist_ok=True)
    return mounts


# ---- phase 2: the build contexts and the builds -----------------------------------------------------------------

def working_files():
    """The working tree's files (tracked and new, not ignored), relative paths, as a user's checkout has them."""
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "-c", "-o", "--exclude-standard"],
                            capture_output=True, text=True, check=True).stdout.split("\0")
    return sorted({name for name in listed if name and (ROOT / name).is_file()})


def content_time(data):
    """A file's modification time made from its contents (a time between 2001 and 2017): SwiftPM compiles a module
    again when a file's time differs from the one it saw, so a copy dated this way keeps its cache mount warm for
    the same contents wherever they come from (a fresh clone dates every file now; so does another working tree)."""
    return 1_000_000_000 + int.from_bytes(hashlib.sha256(data).digest()[:8], "big") % 500_000_000


def sync(destination, files):
    """Makes `destination` hold exactly `files` (relative path -> source): each file copied when its contents differ,
    and dated by its contents (content_time), so that the engine's cache and SwiftPM's hold for unchanged files."""
    for name, source in files.items():
        target = destination / name
        data = pathlib.Path(source).read_bytes()
        if not (target.is_file() and target.read_bytes() == data):
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
            shutil.copymode(source, target)
        stamp = content_time(data)
        if target.stat().st_mtime != stamp:
            os.utime(target, (stamp, stamp))
    for path in sorted(destination.rglob("*"), reverse=True):
        relative = path.relative_to(destination).as_posix()
        if path.is_file() and relative not in files:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()


def app_sources():
    folder = ROOT / "Examples/Hello/Sources/Hello"
    return {f"Sources/MyServer/{p.name}": p for p in sorted(folder.glob("*.swift"))}


def manifest(dependency):
    """docs/serving-your-own-app.md's Package.swift of `MyServer`, with the dependency given."""
    return f"""// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "MyServer",
    platforms: [.macOS(.v15)],
    dependencies: [{dependency}],
    targets: [
        .executableTarget(
            name: "MyServer",
            dependencies: [
                .product(name: "Switchyard", package: "switchyard"),
                .product(name: "SwitchyardCommandLine", package: "switchyard"),
            ]
        )
    ]
)
"""


def git(*args, env=None, input=None):
    return subprocess.run(["git", *args], capture_output=True, text=True, check=True, env=env, input=input).stdout


def publish(files):
    """The working tree as one commit on `main` of .build-image/git/switchyard.git (the URL layout's "published"
    Switchyard). The commit's id depends only on the files: an unchanged tree is the same commit, and the image's
    layers stay cached."""
    bare = STATE / "git/switchyard.git"
    if not (bare / "HEAD").exists():
        git("init", "-q", "--bare", str(bare))
    env = {**os.environ, "GIT_DIR": str(bare), "GIT_INDEX_FILE": str(STATE / "git/index"),
           "GIT_AUTHOR_NAME": "Tests/image", "GIT_AUTHOR_EMAIL": "tests@example.com",
           "GIT_AUTHOR_DATE": "2000-01-01T00:00:00Z", "GIT_COMMITTER_NAME": "Tests/image",
           "GIT_COMMITTER_EMAIL": "tests@example.com", "GIT_COMMITTER_DATE": "2000-01-01T00:00:00Z"}
    (STATE / "git/index").unlink(missing_ok=True)
    paths = [str(ROOT / name) for name in files]
    blobs = git("hash-object", "-w", "--stdin-paths", env=env, input="\n".join(paths) + "\n").split()
    entries = "".join(f"{'100755' if os.access(ROOT / name, os.X_OK) else '100644'} {blob}\t{name}\n"
                      for name, blob in zip(files, blobs))
    git("update-index", "--add", "--index-info", env=env, input=entries)
    tree = git("write-tree", env=env).strip()
    commit = git("commit-tree", tree, "-m", "Switchyard's working tree, for Tests/image", env=env).strip()
    git("update-ref", "refs/heads/main", commit, env=env)
    git("symbolic-ref", "HEAD", "refs/heads/main", env=env)
    return commit


# The build commands and .dockerignore files of docker/README.md and docs/serving-your-own-app.md, with the tag each
# names there (the test tags its images per working tree instead).
DOCUMENTED = {
    "demo": ("switchyard", ["-f", "docker/Dockerfile"]),
    "url": ("my-server", ["-f", ".build/checkouts/switchyard/docker/Dockerfile", "--build-arg", "PRODUCT=MyServer"]),
    "both": ("my-server", ["-f", "switchyard/docker/Dockerfile", "--build-arg", "PACKAGE=MyServer", "--build-arg",
                           "PRODUCT=MyServer"]),
}
IGNORED = {"url": ".build\n.swiftpm\n", "both": "**/.build\n**/.build-*\n**/.swiftpm\n**/.git\n**/data\n"}


def build_command(name, tag=None):
    documented, options = DOCUMENTED[name]
    return ["build", *options, "-t", tag or documented, "."]


def prepare(name):
    """The build context of `name` (made or brought up to date) and the README's build command for it."""
    files = working_files()
    if name == "demo":
        # A checkout's root: the working tree's files, dated by their contents (sync), as the other contexts are.
        context = STATE / "contexts/demo"
        sync(context, {f: ROOT / f for f in files})
        return context, build_command(name, IMAGES[name])
    if name == "url":
        context = STATE / "contexts/url"
        commit = publish(files)
        write_if_changed(context / "Package.swift", manifest(f'.package(url: "{GIT_HOST}switchyard.git", '
                                                             'branch: "main")'))
        write_if_changed(context / ".dockerignore", IGNORED[name])
        sync(context / "Sources", {k[len("Sources/"):]: v for k, v in app_sources().items()})
        resolved = context / "Package.resolved"
        if not resolved.exists() or commit not in resolved.read_text():
            # `swift package resolve` puts the Switchyard checkout, and so its Dockerfile, under .build/checkouts.
            write_if_changed(STATE / "gitconfig-host", f'[url "{STATE / "git"}/"]\n\tinsteadOf = {GIT_HOST}\n')
            env = {**os.environ, "GIT_CONFIG_GLOBAL": str(STATE / "gitconfig-host")}
            updated = subprocess.run(["swift", "package", "update"], cwd=context, env=env, capture_output=True,
                                     text=True)
            if updated.returncode != 0 or commit not in resolved.read_text():
                raise Failure(f"swift package update in {context} did not pin {commit}: {updated.stderr[-2000:]}")
        return context, build_command(name, IMAGES[name])
    if name == "both":
        context = STATE / "contexts/both"
        write_if_changed(context / ".dockerignore", IGNORED[name])
        write_if_changed(context / "MyServer/Package.swift", manifest('.package(path: "../switchyard")'))
        sync(context / "MyServer/Sources", {k[len("Sources/"):]: v for k, v in app_sources().items()})
        sync(context / "switchyard", {f: ROOT / f for f in files})
        return context, build_command(name, IMAGES[name])
    raise Failure(f"no build named {name} (demo, url, both)")


def build(name):
    """Builds `name` with the documented command. The build stage is built first on its own (`--target build`,
    the same steps, so the documented command then finds them cached) and tagged, so that it stays in the layer
    cache; whatever an earlier build made and nothing uses any more is removed (every image these builds make has
    the label org.switchyard.test=build), so that the images do not pile up edit after edit."""
    context, command = prepare(name)
    earlier = set(engine("ps", "--all", "--external", "--quiet", check=False).stdout.split())
    before = image_id(IMAGES[name])
    log = ARTIFACTS / f"image-build-{name}.log"
    say(f"{name}: docker {shlex.join(command[:-1])} . (in {context}; log: {log.relative_to(ROOT)})")
    stage = [*command[:-3], "--target", "build", "-t", f"{IMAGES[name].replace(':', '-build:')}", "."]
    started = time.monotonic()
    docker(*stage, cwd=context, timeout=3600, log=log)
    compiled = pathlib.Path(log).read_text().count("] Compiling ")
    docker(*command, cwd=context, timeout=3600, log=log, append=True)
    seconds = time.monotonic() - started
    # A build stopped part way (an interrupted make) leaves its working container (buildah's, outside podman's own
    # list), which holds the image it started from: podman then refuses the whole prune. Those that were there before
    # this build started are such leftovers (this suite builds one image at a time) and are removed; a prune that
    # still fails only leaves layers for the next run.
    for container in set(engine("ps", "--all", "--external", "--quiet", check=False).stdout.split()) & earlier:
        engine("rm", "--force", container, check=False)
    pruned = engine("image", "prune", "--force", "--filter", f"label={TEST}=build", check=False)
    if pruned.returncode != 0:
        say(f"{name}: the unused images were not removed this time: {quiet(pruned.stderr)[-300:]}")
    after = image_id(IMAGES[name])
    times = STATE / "build-times.json"
    recorded = json.loads(times.read_text()) if times.exists() else {}
    recorded[name] = round(seconds, 1)
    times.write_text(json.dumps(recorded))
    image = "the same image as before" if before == after else "a new image"
    say(f"{name}: {image} in {seconds:.0f} s (SwiftPM compiled {compiled} modules): {IMAGES[name]}")
    if name in BINARIES:
        take_binary(name)


# The release binaries the host's suites run (make image-binaries): the demo's (test-runtime, test-explore) and the
# one beside a checkout, Examples/Hello's sources as MyServer (test-example). Taken out of the images, so that
# make test does not build every module in release mode once more on the host for them.
BINARIES = {"demo": "switchyard", "both": "hello"}


def take_binary(name):
    """Copies the image's /usr/local/bin/switchyard to .build-image/bin/ (under a name of its own), dated now: a
    waiting make (scripts/in-background.sh wait-for) knows it from one an earlier run left."""
    folder = STATE / "bin"
    folder.mkdir(exist_ok=True)
    part = folder / f".{BINARIES[name]}.part"
    holder = f"switchyard-test-{os.getpid()}-copy"
    engine("create", "--name", holder, "--label", f"{TEST}={os.getpid()}-copy", IMAGES[name])
    try:
        part.unlink(missing_ok=True)
        engine("cp", f"{holder}:/usr/local/bin/switchyard", part)
    finally:
        engine("rm", "-f", "-v", holder, check=False)
    part.chmod(0o755)
    os.utime(part)
    part.replace(folder / BINARIES[name])
    say(f"{name}: its binary is {(folder / BINARIES[name]).relative_to(ROOT)}")


# ---- phase 3: running the images ----------------------------------------------------------------------------------

class Container:
    def __init__(self, name, port):
        self.name, self.port = name, port

    def inspect(self, template):
        return engine("inspect", "--format", template, self.name).stdout.strip()

    def running(self):
        return self.inspect("{{.State.Running}}") == "true"

    def exit_code(self):
        return int(self.inspect("{{.State.ExitCode}}"))

    def logs(self):
        result = engine("logs", self.name, check=False)
        return quiet(result.stdout + result.stderr)

    def wait_answer(self, timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.running():
                raise Failure(f"{self.name} exited ({self.exit_code()}) before answering; its log:\n"
                              f"{self.logs()[-3000:]}")
            try:
                if request(self.port, "GET", "/healthz", timeout=2)[0] == 200:
                    return
            except (OSError, http.client.HTTPException):
                pass
            time.sleep(0.1)
        raise Failure(f"{self.name}: no 200 from /healthz within {timeout} s; its log:\n{self.logs()[-3000:]}")

    def call(self, method, path, body=None):
        status, headers, answer = request(self.port, method, path, body)
        try:
            return status, json.loads(answer) if answer else None
        except ValueError:
            return status, answer

    def exec(self, *command, user=None, check=False):
        return engine("exec", *(["--user", user] if user else []), self.name, *command, check=check)


class Run:
    """The run phase: every container and volume it makes is labelled with this run and removed at the end."""

    def __init__(self):
        self.id = f"{os.getpid()}-{int(time.time())}"
        self.count = 0
        self.results = []
        self.folder = pathlib.Path(tempfile.mkdtemp(prefix="switchyard-image-"))
        self.folder.chmod(0o755)

    def check(self, name, ok, detail=""):
        self.results.append((name, bool(ok)))
        print(f"  {'ok  ' if ok else 'FAIL'}  {name}" + ("" if ok else f"\n        {detail}"), flush=True)
        return bool(ok)

    def volume(self, purpose):
        name = f"switchyard-test-{self.id}-{purpose}"
        engine("volume", "create", "--label", f"{TEST}={self.id}", name)
        return name

    def start(self, image, *options, command=(), wait=True, publish=True):
        self.count += 1
        name = f"switchyard-test-{self.id}-{self.count}"
        port = free_port() if publish else None
        docker("run", "-d", "--name", name, "--label", f"{TEST}={self.id}",
               *(["-p", f"127.0.0.1:{port}:8080"] if publish else []), *options, image, *command)
        container = Container(name, port)
        if wait:
            container.wait_answer()
        return container

    def clean(self):
        """Removes this run's containers with their anonymous volumes (the image's VOLUME /data when no -v names
        one), its volumes and its folder."""
        names = engine("ps", "-a", "-q", "--filter", f"label={TEST}={self.id}", check=False).stdout.split()
        if names:
            engine("rm", "-f", "-v", "-t", "0", *names, check=False)
        volumes = engine("volume", "ls", "-q", "--filter", f"label={TEST}={self.id}", check=False).stdout.split()
        if volumes:
            engine("volume", "rm", "-f", *volumes, check=False)
        shutil.rmtree(self.folder, ignore_errors=True)


def leftovers():
    """Containers and volumes of earlier runs whose process is gone (a run killed before it could clean up)."""
    for kind in ("ps -a", "volume ls"):
        listed = engine(*kind.split(), "--filter", f"label={TEST}", "--format",
                        "{{.ID}} {{index .Labels \"" + TEST + "\"}}" if kind == "ps -a" else
                        "{{.Name}} {{index .Labels \"" + TEST + "\"}}", check=False).stdout.splitlines()
        for line in listed:
            thing, _, owner = line.partition(" ")
            pid = owner.split("-")[0]
            if pid.isdigit() and not pathlib.Path(f"/proc/{pid}").exists():
                if kind == "ps -a":
                    engine("rm", "-f", "-v", "-t", "0", thing, check=False)
                else:
                    engine("volume", "rm", "-f", thing, check=False)


def binary_facts(run, image):
    """The image's size and its binary's, and whether the binary is stripped (no symbol table, no debug info)."""
    size = int(engine("image", "inspect", "--format", "{{.Size}}", image).stdout.strip())
    holder = f"switchyard-test-{run.id}-copy"
    engine("create", "--name", holder, "--label", f"{TEST}={run.id}", image)
    try:
        copy = run.folder / "binary"
        engine("cp", f"{holder}:/usr/local/bin/switchyard", copy)
    finally:
        engine("rm", "-f", "-v", holder, check=False)
    sections = subprocess.run(["readelf", "-S", "-W", str(copy)], capture_output=True, text=True).stdout
    stripped = not re.search(r"\]\s+\.(symtab|debug_info)\s", sections)
    binary = copy.stat().st_size
    copy.unlink()
    return size, binary, stripped


def megabytes(count):
    return f"{count / 1e6:.1f} MB"


class Stream:
    """GET /api/sessions/{id}/stream, read on a thread until the server ends it: `ended` is when, `clean` whether
    it ended as HTTP says a chunked body ends (the terminating chunk), not cut off."""

    def __init__(self, port, session):
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.socket.sendall(f"GET /api/sessions/{session}/stream HTTP/1.1\r\nHost: localhost\r\n"
                            "Accept: text/event-stream\r\n\r\n".encode())
        self.data = b""
        while b"\n\n" not in self.data.partition(b"\r\n\r\n")[2]:
            chunk = self.socket.recv(65536)
            if not chunk:
                break
            self.data += chunk
        self.first_event = b"event:" in self.data or b"data:" in self.data
        self.ended = None
        self.error = None
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        try:
            while True:
                chunk = self.socket.recv(65536)
                if not chunk:
                    break
                self.data += chunk
        except OSError as error:
            self.error = error
        self.ended = time.monotonic()

    @property
    def clean(self):
        return self.error is None and self.data.endswith(b"0\r\n\r\n")


def zombies(container):
    """The processes in the container and their states (a Z is a child that died and was never waited for)."""
    listing = container.exec("bash", "-c", 'for f in /proc/[0-9]*/stat; do read -r l < "$f" && echo "$l"; done')
    processes = []
    for line in listing.stdout.splitlines():
        head, _, rest = line.rpartition(") ")
        pid, _, command = head.partition(" (")
        fields = rest.split()
        if fields:
            processes.append((int(pid), command, fields[0], int(fields[1])))
    return processes


def walk(run, container, deep_link=None):
    """The README's first minutes: the page, a session changed by a deep link and read back, /healthz, /readyz."""
    status, headers, page = request(container.port, "GET", "/")
    run.check("the page is served on the published port",
              status == 200 and headers.get("Content-Type", "").startswith("text/html") and b"Switchyard" in page,
              f"GET / -> {status} {headers.get('Content-Type')}")
    status, created = container.call("POST", "/api/sessions")
    session = created["session"]
    if deep_link is None:
        _, catalog = container.call("GET", "/api/catalog")
        deep_link = catalog["deepLinkExamples"][0]
    status_link, changed = container.call("POST", f"/api/sessions/{session}/deeplinks", {"url": deep_link})
    status_read, read = container.call("GET", f"/api/sessions/{session}")
    run.check(f"a session is created (201), changed by {deep_link} (v1) and read back at v1",
              status == 201 and status_link == 200 and changed["version"] == 1 and status_read == 200
              and read["version"] == 1, f"{status} {status_link} {status_read} {str(read)[:200]}")
    status, health = container.call("GET", "/healthz")
    run.check("/healthz answers 200 ok", status == 200 and health.get("status") == "ok", f"{status} {health}")
    status, ready = container.call("GET", "/readyz")
    run.check("/readyz answers 200 with a durable store",
              status == 200 and ready.get("store", {}).get("durable") is True, f"{status} {ready}")
    return session, read


def healthy(run, container):
    """The health status turns from starting to healthy once the engine has run the image's HEALTHCHECK (what
    Docker's daemon does every 30 s, podman does on `healthcheck run`: with no systemd here, nothing schedules it)."""
    configured = container.inspect("{{json .Config.Healthcheck}}")
    before = container.inspect("{{.State.Health.Status}}")
    ran = engine("healthcheck", "run", container.name, check=False)
    status = container.inspect("{{.State.Health.Status}}")
    return run.check("the engine runs the image's HEALTHCHECK: the health status turns from starting to healthy",
                     before == "starting" and ran.returncode == 0 and status == "healthy"
                     and "switchyard-healthcheck" in configured,
                     f"before {before}; healthcheck run: {ran.returncode} {quiet(ran.stdout + ran.stderr).strip()}; "
                     f"status {status}; configured {configured}")


def stop(run, container, what="`stop` (SIGTERM to PID 1)"):
    started = time.monotonic()
    engine("stop", container.name, timeout=60)
    seconds = time.monotonic() - started
    code = container.exit_code()
    run.check(f"{what} exits 0 within the 10 s grace period", code == 0 and seconds < 10,
              f"exit code {code} after {seconds:.1f} s; log:\n{container.logs()[-1500:]}")
    return seconds


def scenario_demo(run, image):
    data = run.volume("data")
    started = time.monotonic()
    first = run.start(image, "-v", f"{data}:/data")
    answered = time.monotonic() - started
    say(f"demo: `docker run` to the first answer: {answered:.1f} s")
    inspected = json.loads(engine("image", "inspect", image).stdout)[0]
    config, check = inspected.get("Config") or {}, inspected.get("Healthcheck") or {}
    run.check("the image runs as user 10001:10001, exposes 8080/tcp and keeps its HEALTHCHECK",
              config.get("User") == "10001:10001" and "8080/tcp" in (config.get("ExposedPorts") or {})
              and "/usr/local/bin/switchyard-healthcheck" in (check.get("Test") or []),
              f"User {config.get('User')} ExposedPorts {config.get('ExposedPorts')} Healthcheck {check}")
    session, _ = walk(run, first)
    healthy(run, first)
    owner = first.exec("stat", "-c", "%u:%g", "/data/switchyard.sqlite").stdout.strip()
    server = [p for p in zombies(first) if p[1] == "switchyard"]
    uid = first.exec("bash", "-c", f"grep ^Uid: /proc/{server[0][0]}/status" if server else "true").stdout.split()
    run.check("the server runs as 10001 and its store in the volume is its own (10001:10001)",
              owner == "10001:10001" and uid[1:2] == ["10001"], f"store {owner!r}, server {uid}")

    # An orphan: a process whose parent exits is handed to PID 1, which must wait for it when it ends.
    first.exec("bash", "-c", "sleep 0.2 & exit 0")
    time.sleep(1.0)
    dead = [p for p in zombies(first) if p[2] == "Z"]
    run.check("an orphaned process that ends is reaped by PID 1 (no zombie left)", not dead,
              f"zombies: {dead}; processes: {zombies(first)}")

    stream = Stream(first.port, session)
    run.check("an event stream is open before the stop (its first event read)", stream.first_event,
              stream.data[:300])
    stopped_at = time.monotonic()
    stop(run, first)
    stream.thread.join(5)
    run.check("the stop ends the open event stream cleanly (HTTP's last chunk) before the container is gone",
              stream.ended is not None and stream.clean and stream.ended <= time.monotonic(),
              f"ended {stream.ended and stream.ended - stopped_at}, error {stream.error}, last bytes "
              f"{stream.data[-40:]!r}")

    # A new container on the same volume: the session is there, and a change in it survives kill (SIGKILL).
    second = run.start(image, "-v", f"{data}:/data")
    status, read = second.call("GET", f"/api/sessions/{session}")
    run.check("`stop` + a new container on the volume: the session is there at v1",
              status == 200 and read["version"] == 1, f"{status} {str(read)[:200]}")
    _, catalog = second.call("GET", "/api/catalog")
    status, changed = second.call("POST", f"/api/sessions/{session}/deeplinks",
                                  {"url": catalog["deepLinkExamples"][1]})
    version = changed["version"]
    run.check("the second container changes the session (v2)", status == 200 and version == 2, f"{status} {changed}")
    engine("kill", second.name)
    code = int(engine("wait", second.name, timeout=30).stdout.strip() or -1)
    third = run.start(image, "-v", f"{data}:/data")
    status, read = third.call("GET", f"/api/sessions/{session}")
    status_ready, ready = third.call("GET", "/readyz")
    run.check(f"`kill` (exit {code}) + a new container: the store opens, ready, the session at v{version}",
              code == 137 and status == 200 and read["version"] == version and status_ready == 200,
              f"exit {code}; {status} {str(read)[:200]}; readyz {status_ready} {ready}")
    stop(run, third, "`stop` after a restart from a killed container's store")
    return answered


def scenario_folders(run, image):
    mine = run.folder / "data-10001"
    mine.mkdir()
    os.chown(mine, 10001, 10001)
    container = run.start(image, "-v", f"{mine}:/data")
    status, _ = container.call("POST", "/api/sessions")
    store = mine / "switchyard.sqlite"
    run.check("a host folder owned by 10001 at /data: the app user writes its store there",
              status == 201 and store.exists() and store.stat().st_uid == 10001,
              f"{status}, {sorted(p.name for p in mine.iterdir())}")
    stop(run, container)

    other = run.folder / "data-root"
    other.mkdir(mode=0o755)
    name = f"switchyard-test-{run.id}-refused"
    started = time.monotonic()
    refused = docker("run", "--name", name, "--label", f"{TEST}={run.id}", "-v", f"{other}:/data", image,
                     check=False, timeout=60)
    seconds = time.monotonic() - started
    output = quiet(refused.stdout + refused.stderr)
    critical = [line for line in output.splitlines() if " critical " in line]
    crash = re.search(r"Fatal error|Segmentation|Illegal instruction|backtrace|Aborted", output)
    run.check("a host folder owned by another uid at /data: exit 1 at start with one line naming /data",
              refused.returncode == 1 and seconds < 20 and len(critical) == 1 and "/data" in critical[0]
              and "10001" in critical[0] and not crash,
              f"exit {refused.returncode} after {seconds:.1f} s; output:\n{output[-1500:]}")


def scenario_read_only(run, image):
    data = run.volume("read-only")
    container = run.start(image, "-v", f"{data}:/data", "--read-only", "--tmpfs", "/tmp", "--cap-drop", "ALL",
                          "--security-opt", "no-new-privileges")
    status, created = container.call("POST", "/api/sessions")
    _, catalog = container.call("GET", "/api/catalog")
    status_link, changed = container.call("POST", f"/api/sessions/{created['session']}/deeplinks",
                                          {"url": catalog["deepLinkExamples"][0]})
    written = container.exec("touch", "/usr/local/bin/probe", user="0")
    run.check("--read-only (/data and /tmp writable, no capabilities): a session is created and changed; the root "
              "file system refuses writes", status == 201 and status_link == 200 and changed["version"] == 1
              and written.returncode != 0 and "Read-only file system" in written.stderr,
              f"{status} {status_link} {str(changed)[:200]}; touch: {written.returncode} {written.stderr.strip()}")
    stop(run, container, "`stop` of the read-only container")


SHOP = """name: shop
root: Main
coordinators:
  Main: {kind: stack, initial: home, routes: {home: {kind: root, target: Home}}}
screens:
  Home: {title: Shop}
"""

CI = """name: CI
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: make test
"""

COMPOSE = """services:
  switchyard:
    build: {context: ., dockerfile: docker/Dockerfile}
    ports: ["8080:8080"]
"""

PACKAGE_JSON = '{"name": "my-project", "version": "1.0.0", "private": true, "scripts": {"test": "node --test"}}\n'


def scenario_apps(run, image):
    container = run.start(image, "-v", f"{ROOT / 'Examples/Definitions'}:/apps:ro")
    _, catalog = container.call("GET", "/api/catalog")
    status, created = container.call("POST", "/api/sessions", {"app": "todo-data"})
    run.check("-v Examples/Definitions:/apps: its first definition (mail) is the default app, the others served",
              catalog.get("app") == "mail" and status == 201, f"catalog app {catalog.get('app')}, todo-data {status}")
    container.exec("true")
    stop(run, container, "`stop` of the container serving /apps")

    # A project's folder: a definition beside a package.json, a CI workflow and a compose file.
    apps = run.folder / "project"
    apps.mkdir()
    shutil.copy(ROOT / "Examples/Definitions/mail.json", apps / "mail.json")
    (apps / "package.json").write_text(PACKAGE_JSON)
    (apps / "ci.yml").write_text(CI)
    (apps / "docker-compose.yml").write_text(COMPOSE)
    for path in apps.iterdir():
        path.chmod(0o644)
    container = run.start(image, "-v", f"{apps}:/apps:ro")
    _, catalog = container.call("GET", "/api/catalog")
    log = container.logs()
    skipped = [name for name in ("package.json", "ci.yml", "docker-compose.yml")
               if re.search(rf"/apps/{re.escape(name)}: not an app definition", log)]
    run.check("a folder with a package.json, a CI file and a compose file at /apps: only the definition is served, "
              "each other file named once as skipped", catalog.get("app") == "mail" and len(skipped) == 3
              and " critical " not in log, f"catalog app {catalog.get('app')}, skipped {skipped}; log:\n{log[-2000:]}")

    # A definition added, then `docker kill --signal HUP` (through PID 1): served without a restart.
    before, _ = container.call("POST", "/api/sessions", {"app": "shop"})
    (apps / "shop.yaml").write_text(SHOP)
    (apps / "shop.yaml").chmod(0o644)
    docker("kill", "--signal", "HUP", container.name)
    deadline = time.monotonic() + 15
    while "reloaded the app definitions" not in container.logs() and time.monotonic() < deadline:
        time.sleep(0.1)
    after, _ = container.call("POST", "/api/sessions", {"app": "shop"})
    run.check("a definition added to /apps is served after `kill --signal HUP` (no restart)",
              before >= 400 and after == 201, f"before {before}, after {after}; log:\n{container.logs()[-1500:]}")
    stop(run, container, "`stop` after a reload")

    checked = docker("run", "--rm", "-v", f"{apps}:/apps:ro", image, "check", "/apps", check=False)
    (apps / "broken.json").write_text((ROOT / "Tests/example/broken-app.json").read_text())
    (apps / "broken.json").chmod(0o644)
    broken = docker("run", "--rm", "-v", f"{apps}:/apps:ro", image, "check", "/apps", check=False)
    run.check("`docker run … check /apps`: exit 0 on the project's folder, 1 with a broken definition in it",
              checked.returncode == 0 and "/apps/shop.yaml: app 'shop': no problems" in checked.stdout
              and broken.returncode == 1 and "/apps/broken.json:10:58: error unknownMember" in broken.stdout,
              f"{checked.returncode}: {checked.stdout[-800:]}\n{broken.returncode}: {broken.stdout[-800:]}")


def scenario_documents(run, names):
    """The pages show the commands this test runs."""
    text = (ROOT / "docker/README.md").read_text() + (ROOT / "docs/serving-your-own-app.md").read_text()
    shown = [f"docker {shlex.join(build_command(name))}" for name in names]
    shown += ["printf '" + IGNORED[name].replace("\n", "\\n") + "' > .dockerignore"
              for name in names if name in IGNORED]
    shown += ["--read-only --tmpfs /tmp --cap-drop ALL --security-opt no-new-privileges", "switchyard check /apps",
              "docker kill --signal HUP", "-v switchyard-data:/data switchyard"]
    missing = [line for line in shown if line not in text]
    run.check("docker/README.md and docs/serving-your-own-app.md show the commands the test runs", not missing,
              f"not shown: {missing}")


def scenario_app(run, image, name):
    data = run.volume(f"{name}-data")
    started = time.monotonic()
    container = run.start(image, "-v", f"{data}:/data")
    answered = time.monotonic() - started
    _, read = walk(run, container, deep_link="hello://greet/Grace")
    run.check(f"{name}: the app of its own answers (its root, its deep link's screen)",
              read["visible"]["path"] == ["names", "greeting"]
              and read["visible"]["screen"]["title"] == "Hello, Grace!", str(read)[:300])
    healthy(run, container)
    stop(run, container)
    return answered


def run_images(names):
    run = Run()
    answered = {}
    previous = signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    volumes_before = set(engine("volume", "ls", "-q").stdout.split())
    try:
        leftovers()
        for name in names:
            if not image_exists(IMAGES[name]):
                raise Failure(f"no image {IMAGES[name]}: run `python3 Tests/image/suite.py build {name}` first")
        scenarios = [("demo", lambda: scenario_demo(run, IMAGES["demo"])),
                     ("demo: host folders at /data", lambda: scenario_folders(run, IMAGES["demo"])),
                     ("demo: read-only root", lambda: scenario_read_only(run, IMAGES["demo"])),
                     ("demo: /apps", lambda: scenario_apps(run, IMAGES["demo"]))]
        scenarios += [(f"{name}: MyServer", (lambda n: lambda: scenario_app(run, IMAGES[n], n))(name))
                      for name in names if name != "demo"]
        scenarios.append(("the documents", lambda: scenario_documents(run, names)))
        durations = []
        for title, scenario in scenarios:
            say(title)
            started = time.monotonic()
            try:
                result = scenario()
                if isinstance(result, float):
                    answered[title.split(":")[0]] = result
            except (Failure, OSError, http.client.HTTPException, KeyError, TypeError, ValueError) as error:
                run.check(f"{title}: ran to its end", False, f"{type(error).__name__}: {error}")
            durations.append((title, time.monotonic() - started))
        say("sizes:")
        for name in names:
            size, binary, stripped = binary_facts(run, IMAGES[name])
            print(f"  {name:5} image {megabytes(size)}, binary {megabytes(binary)}", flush=True)
            run.check(f"{name}: the image's binary is stripped (no symbol table, no debug information)", stripped)
        times = json.loads((STATE / "build-times.json").read_text()) if (STATE / "build-times.json").exists() else {}
        say("seconds: " + ", ".join(f"{title} {seconds:.0f}" for title, seconds in durations))
        for name, seconds in answered.items():
            if name in times:
                say(f"{name}: `docker build` {times[name]:.0f} s + `docker run` to the first answer {seconds:.1f} s")
        run.clean()
        left = engine("ps", "-a", "-q", "--filter", f"label={TEST}={run.id}").stdout.split()
        volumes = [v for v in set(engine("volume", "ls", "-q").stdout.split()) - volumes_before
                   if re.fullmatch(r"[0-9a-f]{64}", v) or v.startswith(f"switchyard-test-{run.id}")]
        run.check("nothing of the run is left: no container, no volume (named or anonymous)", not left and not volumes,
                  f"containers {left}, volumes {volumes}")
    finally:
        run.clean()
        signal.signal(signal.SIGTERM, previous)
    passed = sum(ok for _, ok in run.results)
    failed = len(run.results) - passed
    print(f"{passed} passed, {failed} failed", flush=True)
    return failed == 0


def main():
    global ENV
    if len(sys.argv) < 2 or sys.argv[1] not in ("bases", "build", "run", "all"):
        sys.exit(__doc__)
    if shutil.which(ENGINE) is None:
        sys.exit(f"image: {ENGINE} is missing (apt-get install podman runc; make deps-test installs them)")
    STATE.mkdir(exist_ok=True)
    ARTIFACTS.mkdir(exist_ok=True)
    ENV = engine_environment()
    phase, names = sys.argv[1], sys.argv[2:] or ["demo", "url", "both"]
    try:
        if phase in ("bases", "all"):
            swift, debian = base_images()
            debian_stand_in(debian)
            swift_stand_in(swift, debian)
        if phase in ("build", "all"):
            for name in names:
                build(name)
        if phase in ("run", "all"):
            if not run_images(names):
                sys.exit(1)
    except Failure as failure:
        sys.exit(f"image: FAIL: {failure}")


if __name__ == "__main__":
    main()
