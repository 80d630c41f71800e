#!/usr/bin/env python3
"""Drives the Hello example (its own coordinators and deep link behind the one-call command line) over HTTP:
its own flows, SQLite by default, a change kept across kill -9, and PostgreSQL with --database-url.
Ends with `N passed, N failed`."""
import json
import os
import pathlib
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
from harness import Server, request  # noqa: E402  (Tests/support/harness.py)

ROOT = pathlib.Path(__file__).resolve().parents[2]
binary = pathlib.Path(sys.argv[1]).resolve()
misdeclared = pathlib.Path(sys.argv[2]).resolve()
checks = []


def check(name, ok):
    checks.append((name, bool(ok)))


def call(server, method, path, body=None):
    status, _, answer = request(server.port, method, path, body)
    return status, json.loads(answer) if answer else None


with tempfile.TemporaryDirectory() as folder:
    # Run from an empty folder with no store flag: the sessions go to data/switchyard.sqlite there.
    log = os.path.join(folder, "hello.log")
    hello = Server(binary, log=log, public=ROOT / "Public", cwd=folder, label="Hello").start()
    try:
        status, created = call(hello, "POST", "/api/sessions")
        session = created["session"]
        _, pushed = call(hello, "POST", f"/api/sessions/{session}/transitions",
                         {"action": "push", "route": "greeting", "input": "Ada"})
        _, linked = call(hello, "POST", f"/api/sessions/{session}/deeplinks", {"url": "hello://greet/Grace"})
        status_page, _, page = request(hello.port, "GET", "/")
        check("a session starts on the example's own root", status == 201 and created["visible"]["path"] == ["names"])
        check("a transition by name pushes its screen",
              pushed["visible"]["path"] == ["names", "greeting"]
              and pushed["visible"]["screen"]["title"] == "Hello, Ada!")
        check("its own deep link opens", linked["result"]["deepLink"] == "opened"
              and linked["visible"]["screen"]["title"] == "Hello, Grace!")
        check("the page is served", status_page == 200 and b"<html" in page.lower())
        _, ready = call(hello, "GET", "/readyz")
        check("with no flags it keeps its sessions in SQLite",
              ready["store"]["durable"] and os.path.exists(os.path.join(folder, "data", "switchyard.sqlite")))
        version = linked["version"]
        hello.kill()  # kill -9: nothing is flushed on the way out
        hello.start()
        status, after = call(hello, "GET", f"/api/sessions/{session}")
        check("an acknowledged change survives kill -9 and a restart",
              status == 200 and after["version"] == version and after["visible"]["screen"]["title"] == "Hello, Grace!")
        checked = subprocess.run([binary, "check"], capture_output=True, text=True, timeout=30)
        check("`Hello check` finds its declarations sound",
              checked.returncode == 0 and "app 'hello': no problems" in checked.stdout)
        bad = subprocess.run([binary, "serve", "--port", "nope"], capture_output=True, text=True, timeout=30)
        check("its flags are switchyard's (a bad one is refused by name)",
              bad.returncode != 0 and "--port" in bad.stderr)
    finally:
        code = hello.stop()
    check("SIGTERM stops it cleanly", code == 0)

    # PostgreSQL: two Hello processes on one database serve the same sessions.
    cluster = os.path.join(folder, "pg")
    os.chmod(folder, 0o711)
    url = subprocess.run(["bash", str(ROOT / "scripts/postgres.sh"), "start", cluster], capture_output=True,
                         text=True, check=True, cwd=ROOT).stdout.strip()
    try:
        first = Server(binary, "--database-url", url, log=log, public=ROOT / "Public", cwd=folder).start()
        second = Server(binary, "--database-url", url, log=log, public=ROOT / "Public", cwd=folder).start()
        try:
            _, created = call(first, "POST", "/api/sessions")
            session = created["session"]
            call(first, "POST", f"/api/sessions/{session}/deeplinks", {"url": "hello://greet/Linus"})
            status, seen = call(second, "GET", f"/api/sessions/{session}")
            check("--database-url: another node serves the session from PostgreSQL",
                  status == 200 and seen["visible"]["screen"]["title"] == "Hello, Linus!")
        finally:
            first.stop()
            second.stop()
    finally:
        subprocess.run(["bash", str(ROOT / "scripts/postgres.sh"), "stop", cluster], capture_output=True, cwd=ROOT)

# An app whose TabNavigation leaves out a tab and whose inbox names a route with a typo: `serve` refuses to start,
# `check` fails, naming both.
with tempfile.TemporaryDirectory() as folder:
    refused = subprocess.run([misdeclared, "--store", "memory", "--port", "0"], capture_output=True, text=True,
                             timeout=30, cwd=folder)
    check("a misdeclared tab stops the start with a line naming it",
          refused.returncode == 1 and "MailTabs, route 'archive': the tab route is not in its TabNavigation"
          in refused.stderr and "listening" not in refused.stderr)
    checked = subprocess.run([misdeclared, "check"], capture_output=True, text=True, timeout=30, cwd=folder)
    check("`check` fails on it, an error line and a warning line (an icon the page lacks)",
          checked.returncode == 1 and checked.stdout.startswith("app 'mail': error: MailTabs, route 'archive'")
          and "warning: MailTabs, route 'archive': it names the icon 'archivebox'" in checked.stdout)
    check("`check` reports in the same run a screen's button naming a route its coordinator lacks",
          "error: MailTabs, route 'inbox': its screen 'Inbox' has an action (route) naming the route 'archiv', "
          "which MailTabs does not have" in checked.stdout and "did you mean 'archive'?" in checked.stdout)

# Apps as data: `check FILE` names each finding with its pointer; `--app FOLDER` serves the definitions in it first
# (the first is the default app), beside the program's own apps.
with tempfile.TemporaryDirectory() as folder:
    broken = subprocess.run([binary, "check", ROOT / "Tests/example/broken-app.json"], capture_output=True,
                            text=True, timeout=30, cwd=folder)
    check("`check FILE` fails on a broken definition, one line per finding with its line, column, pointer and a "
          "suggestion, in the order of the file",
          broken.returncode == 1 and broken.stdout.splitlines() == [
              f"{ROOT}/Tests/example/broken-app.json:10:32: error unknownTarget at /coordinators/App/routes/checkout/"
              "target: 'Chekout' is neither a screen nor a coordinator of this definition (did you mean 'Checkout'?)",
              f"{ROOT}/Tests/example/broken-app.json:10:58: error unknownMember at /coordinators/App/routes/checkout/"
              "presentaton: a route has no member 'presentaton' (did you mean 'presentation'?)",
          ] or print(broken.stdout, broken.stderr))
    sound = subprocess.run([binary, "check", ROOT / "Examples/Definitions"], capture_output=True, text=True,
                           timeout=30, cwd=folder)
    check("`check FOLDER` passes the example definitions",
          sound.returncode == 0 and "mail.json: app 'mail': no problems" in sound.stdout)
    refused = subprocess.run([binary, "--store", "memory", "--port", "0", "--app",
                              ROOT / "Tests/example/broken-app.json"], capture_output=True, text=True, timeout=30,
                             cwd=folder)
    check("`serve --app` refuses to start on a broken definition, naming the finding",
          refused.returncode == 1 and "error unknownMember at /coordinators/App/routes/checkout/presentaton"
          in refused.stderr)
    served = Server(binary, "--store", "memory", "--app", str(ROOT / "Examples/Definitions"),
                    log=os.path.join(folder, "apps.log"), public=ROOT / "Public", cwd=folder).start()
    try:
        _, mail = call(served, "POST", "/api/sessions")
        _, hello = call(served, "POST", "/api/sessions", {"app": "hello"})
        _, pending = call(served, "POST", f"/api/sessions/{mail['session']}/deeplinks", {"url": "mail://message/m2"})
        item = mail["visible"]["item"]
        status, logged = call(served, "POST", f"/api/sessions/{mail['session']}/events",
                              {"from": item, "name": "login", "fields": {"user": "ada"}})
        check("`--app FOLDER` serves the definition as the default app, beside the program's own",
              mail["visible"]["path"] == ["login"] and hello["visible"]["path"] == ["names"])
        check("the defined app runs its event, its data and its pending deep link over HTTP",
              pending["result"]["deepLink"] == "pending" and status == 200
              and logged["visible"]["path"] == ["home", "inbox", "list", "message"]
              and logged["visible"]["screen"]["title"] == "Message m2")
    finally:
        served.stop()

# A reload (SIGHUP) picks up a changed definition for new sessions while every session goes on; one that a stored
# session could not be restored under is refused, naming the session, and the server goes on as it was.
with tempfile.TemporaryDirectory() as folder:
    apps = pathlib.Path(folder, "apps")
    apps.mkdir()
    shop = apps / "shop.yaml"

    def write_shop(title, basket=True):
        routes = "home: {kind: root, target: Home}" + (", basket: {target: Basket}" if basket else "")
        screens = f"Home: {{title: {title}}}" + (", Basket: {title: Basket}" if basket else "")
        shop.write_text(f"name: shop\nroot: Main\ncoordinators: {{Main: {{kind: stack, initial: home, "
                        f"routes: {{{routes}}}}}}}\nscreens: {{{screens}}}\n")

    def reloaded(server, count):
        import time
        deadline = time.time() + 10
        while time.time() < deadline and server.log_text().count("reload") < count:
            time.sleep(0.05)
        return server.log_text()

    write_shop("Shop")
    served = Server(binary, "--app", str(apps), log=os.path.join(folder, "reload.log"), public=ROOT / "Public",
                    cwd=folder).start()
    try:
        _, first = call(served, "POST", "/api/sessions")
        _, basket = call(served, "POST", f"/api/sessions/{first['session']}/transitions",
                         {"action": "push", "route": "basket"})
        write_shop("New shop")
        os.kill(served.process.pid, signal.SIGHUP)
        log = reloaded(served, 1)
        _, second = call(served, "POST", "/api/sessions")
        status, still = call(served, "GET", f"/api/sessions/{first['session']}")
        check("SIGHUP reloads a changed definition: new sessions get it, a session running goes on",
              "reloaded the app definitions" in log and second["visible"]["screen"]["title"] == "New shop"
              and status == 200 and still["visible"]["path"] == ["home", "basket"] or print(log[-2000:]))
        write_shop("Shop without a basket", basket=False)
        os.kill(served.process.pid, signal.SIGHUP)
        log = reloaded(served, 3)
        _, third = call(served, "POST", "/api/sessions")
        check("a reload that a stored session could not be restored under is refused, naming it; nothing changes",
              f"reload refused: session {first['session']} of 'shop'" in log and served.alive()
              and third["visible"]["screen"]["title"] == "New shop" or print(log[-2000:]))
    finally:
        served.stop()

# The guide's package (docs/serving-your-own-app.md, "From an empty folder"): its manifest, beside a checkout named
# switchyard/, with the example's sources, loads and every product it names exists. Nothing is compiled: building a
# target that does not exist makes SwiftPM load the whole package graph (where a wrong product is an error) and
# then stop at "no target named".
with tempfile.TemporaryDirectory() as folder:
    guide = (ROOT / "docs/serving-your-own-app.md").read_text()
    manifest = guide.split("`MyServer/Package.swift`:\n\n   ```swift\n", 1)[1].split("   ```", 1)[0]
    package = pathlib.Path(folder, "MyServer")
    (package / "Sources/MyServer").mkdir(parents=True)
    (package / "Package.swift").write_text("\n".join(line[3:] for line in manifest.splitlines()) + "\n")
    for source in (ROOT / "Examples/Hello/Sources/Hello").glob("*.swift"):
        (package / "Sources/MyServer" / source.name).write_text(source.read_text())
    os.symlink(ROOT, pathlib.Path(folder, "switchyard"))
    loaded = subprocess.run([os.environ.get("SWIFT", "swift"), "build", "--target", "graph-check-only"],
                            capture_output=True, text=True, timeout=300, cwd=package)
    output = loaded.stdout + loaded.stderr
    check("the guide's Package.swift loads against this package, every product it names found",
          "no target named 'graph-check-only'" in output and "not found in package" not in output
          or print(output[-2000:]))

# Examples/Hello's own Package.swift (its dependency on this package by the path ../..): the binary above is its
# sources built as the image beside a checkout builds them, under another manifest; this one loads too, every product
# it names found (nothing compiled, as above).
with tempfile.TemporaryDirectory() as folder:
    loaded = subprocess.run([os.environ.get("SWIFT", "swift"), "build", "--package-path", ROOT / "Examples/Hello",
                             "--scratch-path", folder, "--target", "graph-check-only"],
                            capture_output=True, text=True, timeout=300)
    output = loaded.stdout + loaded.stderr
    check("Examples/Hello's Package.swift loads against this package, every product it names found",
          "no target named 'graph-check-only'" in output and "not found in package" not in output
          or print(output[-2000:]))

failed = 0
for name, ok in checks:
    print(f"example: {'PASS' if ok else 'FAIL'} {name}")
    failed += 0 if ok else 1
print(f"{len(checks) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
