"""The exploration of real apps, through the binary a user runs (issue 47's proof):

1. `explore` the demo built in, its data twin, the seed examples and the mail example: no trap, no route never
   entered (exit 0); the fixture Tests/explore/trap.yaml: both its trap and its route no guard lets in (exit 1);
2. `paths` writes the twin's suite; a server serves the twin (in memory); `test --server` runs the suite green
   with 100.0 % transition coverage; a suite whose expected paths were tampered with fails (exit 1);
3. `paths --format curl` of the fixture runs green under bash against a server of it.

    python3 Tests/explore/run.py BINARY        (a release build: the exploration of the demo takes seconds)
"""

import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests/support"))
import harness  # noqa: E402

BINARY = pathlib.Path(sys.argv[1]).resolve()
TWIN = ROOT / "Examples/Definitions/todo-data.yaml"
failures = []


def check(name, ok, detail=""):
    print(("ok  " if ok else "FAIL") + " " + name + ("" if ok else f": {detail}"), flush=True)
    if not ok:
        failures.append(name)


def run(*arguments, timeout=300):
    started = time.monotonic()
    done = subprocess.run([BINARY, *map(str, arguments)], capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    return done, time.monotonic() - started


for target in [None, TWIN, *sorted((ROOT / "Examples/Definitions/Seeds").glob("*.yaml")),
               ROOT / "Examples/Definitions/mail.json"]:
    done, seconds = run("explore", *([target] if target else []))
    first = done.stdout.splitlines()[0] if done.stdout else done.stderr.strip()
    check(f"explore {target.name if target else 'the demo'}: {first} (wall {seconds:.1f} s)",
          done.returncode == 0 and "no errors" in done.stdout, done.stdout[-2000:] + done.stderr[-2000:])

done, _ = run("explore", "--json", ROOT / "Tests/explore/trap.yaml")
report = json.loads(done.stdout) if done.stdout else {}
check("explore finds the fixture's trap and the route its guard never lets in (exit 1)",
      done.returncode == 1
      and [trap["pointer"] for trap in report.get("traps", [])] == ["/coordinators/Main/routes/terms"]
      and [route["pointer"] for route in report.get("neverEntered", [])] == ["/coordinators/Main/routes/vault"],
      done.stdout[-2000:] + done.stderr)

with tempfile.TemporaryDirectory() as folder:
    suite = pathlib.Path(folder) / "twin-suite.json"
    done, seconds = run("paths", TWIN, "--output", suite)
    check(f"paths writes the twin's suite: {done.stderr.strip()} (wall {seconds:.1f} s)", done.returncode == 0,
          done.stderr)
    # A suite creates a session per case: no limit on creations per address (at the default 60 a minute it waits).
    server = harness.Server(BINARY, "--store", "memory", "--app", TWIN, "--demo", "off", "--session-create-rate",
                            "0", public=ROOT / "Public")
    server.start()
    try:
        done, seconds = run("test", "--server", server.url, suite, timeout=900)
        last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr.strip()
        check(f"test runs the twin's suite against the server: {last} (wall {seconds:.1f} s)",
              done.returncode == 0 and last.endswith("coverage: 100.0 % of "
                                                     f"{json.loads(suite.read_text())['transitions']} transitions"),
              done.stdout[-3000:] + done.stderr[-2000:])
        # A suite that expects another path fails, naming the step.
        value = json.loads(suite.read_text())
        value["cases"] = value["cases"][:1]
        value["cases"][0]["steps"][-1]["path"] = ["nowhere"]
        tampered = pathlib.Path(folder) / "tampered.json"
        tampered.write_text(json.dumps(value))
        done, _ = run("test", "--server", server.url, tampered)
        check("a step that lands elsewhere than the suite expects fails (exit 1) with both paths",
              done.returncode == 1 and "expected nowhere, found " in done.stdout, done.stdout + done.stderr)
    finally:
        server.stop()

# The same kind of suite as a curl script run by bash, and as a test file run by `node --test` with the JavaScript
# client beside it, against a server of the fixture; the node file with one expected path changed fails.
with tempfile.TemporaryDirectory() as folder:
    script = pathlib.Path(folder) / "trap-suite.sh"
    done, _ = run("paths", ROOT / "Tests/explore/trap.yaml", "--format", "curl", "--output", script)
    node_file = pathlib.Path(folder) / "trapped.test.mjs"
    node_done, _ = run("paths", ROOT / "Tests/explore/trap.yaml", "--format", "node", "--output", node_file)
    (pathlib.Path(folder) / "switchyard-client.js").write_bytes((ROOT / "Public/js/switchyard-client.js").read_bytes())
    server = harness.Server(BINARY, "--store", "memory", "--app", ROOT / "Tests/explore/trap.yaml", "--demo", "off",
                            "--session-create-rate", "0", public=ROOT / "Public")
    server.start()
    try:
        ran = subprocess.run(["bash", script], capture_output=True, text=True, timeout=120,
                             env={**os.environ, "SERVER": server.url})
        check("paths --format curl writes a script that runs green against the server",
              done.returncode == 0 and ran.returncode == 0 and "FAIL" not in ran.stdout, ran.stdout + ran.stderr)
        node = ["node", "--test", "--test-reporter=tap"]
        ran = subprocess.run([*node, node_file], capture_output=True, text=True, timeout=120,
                             env={**os.environ, "SERVER": server.url})
        cases = ran.stdout.count("\nok ")
        check(f"paths --format node writes a node --test file that runs green against the server ({cases} cases)",
              node_done.returncode == 0 and ran.returncode == 0 and cases > 0 and "\nnot ok " not in ran.stdout,
              node_done.stderr + ran.stdout[-3000:] + ran.stderr[-2000:])
        text = node_file.read_text()
        first = text.index(', ["', text.index("const cases = ["))
        node_file.write_text(text[:first] + ', ["nowhere"' + text[text.index("]", first):])
        ran = subprocess.run([*node, node_file], capture_output=True, text=True, timeout=120,
                             env={**os.environ, "SERVER": server.url})
        check("the node file with an expected path changed fails, naming the step",
              ran.returncode != 0 and "\nnot ok " in ran.stdout and "nowhere" in ran.stdout, ran.stdout[-3000:])
    finally:
        server.stop()

print(f"explore: {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
