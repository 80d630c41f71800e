#!/usr/bin/env python3
"""Hostile definitions against the real server binary: it answers each with a finding and stays alive.

    python3 Tests/hostile/hostile.py BIN [--fuzz-seconds N] [--seed S]

Every input here once crashed the server (SIGSEGV from a stack overflow), or grew it without end, or held all its
threads. Each check sends it the way a user can (the anonymous POST /api/definitions/check, `switchyard check FILE`,
`serve --app FILE`) and checks the answer, that the process is still running and that /healthz answers within a
second. Then the fuzz: definitions from Examples/Definitions, mutated at random (nesting, aliases, templates that
nest, quotes, CRLF, cut and repeated slices), for a bounded time: no 5xx, no lost connection, no crash, and the
server's resident memory stays under a bound. Prints PASS/FAIL per check; exits 1 if any failed.
"""

import argparse
import glob
import http.client
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from harness import Server, request  # noqa: E402  (Tests/support/harness.py)

parser = argparse.ArgumentParser()
parser.add_argument("binary")
parser.add_argument("--fuzz-seconds", type=float, default=40)
parser.add_argument("--seed", type=int, default=int(time.time()))
arguments = parser.parse_args()
BIN = arguments.binary
RSS_BOUND_MB = 400
results = []


def rss_mb(process):
    with open(f"/proc/{process.pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0


def check_definition(server, text, yaml=True, timeout=30):
    content_type = "application/yaml" if yaml else "application/json"
    status, _, body = raw_post(server.port, "/api/definitions/check", text, content_type, timeout)
    try:
        return status, (json.loads(body) if body else None)
    except ValueError:
        return status, None


def raw_post(port, path, text, content_type, timeout=30):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("POST", path, body=text.encode(), headers={"Content-Type": content_type})
        response = connection.getresponse()
        return response.status, response.getheaders(), response.read()
    finally:
        connection.close()


def healthy_within(server, seconds=1.0):
    if not server.alive():
        return f"the server exited (code {server.process.returncode}): {server.log_text()[-400:]}"
    started = time.monotonic()
    try:
        status = request(server.port, "GET", "/healthz", timeout=seconds)[0]
    except OSError as error:
        return f"/healthz did not answer within {seconds} s ({error})"
    if status != 200:
        return f"/healthz answered {status}"
    elapsed = time.monotonic() - started
    return None if elapsed <= seconds else f"/healthz took {elapsed:.2f} s"


def check(name):
    def register(function):
        started = time.monotonic()
        try:
            detail = function()
            results.append((name, detail is None, detail, time.monotonic() - started))
        except Exception as error:  # a crash of the check is its failure
            results.append((name, False, f"{type(error).__name__}: {error}", time.monotonic() - started))
        return function
    return register


def app(title='"Hi"', data="{}"):
    return ('{"name": "x", "root": "M", "data": ' + data + ', "coordinators": {"M": {"kind": "stack", '
            '"initial": "h", "routes": {"h": {"kind": "root", "target": "H"}}}}, "screens": {"H": {"title": '
            + title + '}}}')


DEEP = "[" * 5_000 + "]" * 5_000
LAUGHS = "name: x\nl0: [a\"b, &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]]\n" + "".join(
    f"l{level}: &{chr(97 + level)} [" + ", ".join([f"*{chr(96 + level)}"] * 9) + "]\n" for level in range(1, 9))
BOMB = app(title=json.dumps("{{#data.l}}" * 32 + "x" + "{{/data.l}}" * 32), data='{"l": [1, 2, 3, 4]}')
# Checks clean (4 sections, estimated as lists of 10), but its data starts with 20 elements: the engine's check
# renders its first screen, to the end of the budget: the most work a check can do with a small file.
HEAVY = app(title=json.dumps("{{#data.l}}" * 4 + "x" + "{{/data.l}}" * 4), data='{"l": [' + ",".join(["1"] * 20) + "]}")

# (name, text, is YAML, the finding's code)
HOSTILE = [
    ("YAML nesting hidden by a quote in a plain scalar (5,000 levels)", f'd: [a"b, {DEEP}]', True, "tooDeep"),
    ("YAML nesting hidden by CRLF after an early comment", "# a comment\r\nname: x\r\nd: " + DEEP + "\r\n", True,
     "tooDeep"),
    ("YAML aliases hidden the same way (billion laughs)", LAUGHS, True, "aliasNotAllowed"),
    ("JSON nested 100,000 levels", '{"name": "x", "data": ' + "[" * 100_000 + "]" * 100_000 + "}", False, "tooDeep"),
    ("JSON with 210,000 values", '{"name": "x", "data": [' + ",".join(["0"] * 210_000) + "]}", False, "tooManyNodes"),
    ("Mustache sections after a delimiter change (3,000 levels)",
     app(title=json.dumps("{{=<% %>=}}" + "<%#a%>" * 3_000)), False, "invalidTemplate"),
    ("Mustache blocks nested 3,000 levels", app(title=json.dumps("{{$b}}" * 3_000)), False, "invalidTemplate"),
    ("Mustache parents nested 3,000 levels", app(title=json.dumps("{{<p}}" * 3_000)), False, "invalidTemplate"),
    ("a title nesting 32 sections over a 4-element list (4^32 renderings)", BOMB, False, "renderingBudget"),
    ("delimiters of 32 KiB", app(title=json.dumps("{{=" + "A" * 32_000 + " B=}}" + "A" * 30_000)), False,
     "invalidTemplate"),
]

# Parsed in linear time, answered (valid): a 60 KB line of standalone-looking tags, and a template of 8,000
# comment tags on one line.
SLOW_PARSES = [app(title=json.dumps("{{!}}" * 12_000)), app(title=json.dumps(" {{#a}}{{/a}}" * 4_000))]


def main():
    server = Server(BIN, "--store", "memory", "--session-create-rate", "0", "--definition-check-rate", "0",
                    log="test-artifacts/hostile-server.log").start()
    try:
        for name, text, yaml, code in HOSTILE:
            @check(f"check endpoint: {name} → {code}")
            def _(text=text, yaml=yaml, code=code):
                status, answer = check_definition(server, text, yaml)
                codes = [finding["code"] for finding in (answer or {}).get("diagnostics", [])]
                if status != 200 or code not in codes:
                    return f"answered {status} with {codes[:5]}"
                return healthy_within(server)

        @check("check endpoint: templates whose tags fill one long line are parsed in linear time")
        def _():
            for text in SLOW_PARSES:
                status, answer = check_definition(server, text, yaml=False, timeout=10)
                if status != 200:
                    return f"answered {status}: {answer}"
            return healthy_within(server)

        @check("check endpoint: a 1 MiB definition is refused at once (413), not parsed")
        def _():
            text = "name: x\ndata:\n" + "".join(f"  k{index}: value {index}\n" for index in range(60_000))
            started = time.monotonic()
            status, _ = check_definition(server, text)
            elapsed = time.monotonic() - started
            if status != 413:
                return f"answered {status}"
            return healthy_within(server) or (f"took {elapsed:.2f} s" if elapsed > 2 else None)

        for text, count, what in ((BOMB, 16, "16 bombs"), (HEAVY, 8, "8 checks rendering to the end of the budget")):
            @check(f"check endpoint: {what} at once leave /healthz and session creation answering within 1 s")
            def _(text=text, count=count):
                return concurrently(server, text, count)

        with tempfile.TemporaryDirectory() as folder:

            for name, text, yaml, code in HOSTILE:
                path = os.path.join(folder, "app.yaml" if yaml else "app.json")
                with open(path, "w") as file:
                    file.write(text)

                @check(f"switchyard check FILE: {name} → exit 1 with {code}")
                def _(path=path, code=code):
                    run = subprocess.run([BIN, "check", path], capture_output=True, text=True, timeout=60)
                    if run.returncode != 1 or code not in run.stdout + run.stderr:
                        return f"exit {run.returncode}: {(run.stdout + run.stderr)[-300:]}"
                    return None
                os.remove(path)

            for name, text, yaml, code in HOSTILE[:3] + HOSTILE[5:6]:
                path = os.path.join(folder, "app.yaml" if yaml else "app.json")
                with open(path, "w") as file:
                    file.write(text)

                @check(f"serve --app FILE: {name} → refused at start with exit 1, no crash")
                def _(path=path, code=code):
                    refused = Server(BIN, "--store", "memory", "--app", path).spawn()
                    exit_code = refused.wait_exit(60)
                    if exit_code != 1 or code not in refused.log_text():
                        return f"exit {exit_code}: {refused.log_text()[-300:]}"
                    return None
                os.remove(path)

        fuzz(server)
    finally:
        server.stop()

    failed = [result for result in results if not result[1]]
    for name, passed, detail, seconds in results:
        print(f"{'PASS' if passed else 'FAIL'} {name} ({seconds:.1f} s)" + ("" if passed else f": {detail}"))
    print(f"{len(results) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


def concurrently(server, text, count):
    """Sends `count` checks of `text` at once; /healthz and a session creation must answer within 1 s meanwhile."""
    statuses = []

    def send():
        try:
            statuses.append(check_definition(server, text, yaml=False)[0])
        except OSError as error:
            statuses.append(str(error))
    threads = [threading.Thread(target=send) for _ in range(count)]
    for thread in threads:
        thread.start()
    problem = healthy_within(server)
    created = request(server.port, "POST", "/api/sessions", timeout=1.0)[0]
    for thread in threads:
        thread.join()
    if problem:
        return problem
    if created != 201:
        return f"a session creation answered {created}"
    if not all(status in (200, 503) for status in statuses):
        return f"answers {statuses}"
    return None


def mutate(text, rng):
    position = rng.randrange(len(text) + 1)
    choice = rng.randrange(11)
    if choice == 0:
        return text[:position] + "[" * rng.choice([10, 70, 3_000]) + text[position:]
    if choice == 1:
        return text[:position] + "{{#a}}" * rng.choice([5, 40, 2_000]) + text[position:]
    if choice == 2:
        return text[:position] + "{{=<% %>=}}" + "<%#a%>" * rng.choice([5, 40, 2_000]) + text[position:]
    if choice == 3:
        return text[:position] + rng.choice([" &x ", " *x ", "&a [1, *a]", "<<: *x"]) + text[position:]
    if choice == 4:
        return text[:position] + rng.choice(['"', "'", "a\"b", "{{", "}}", "{{$b}}", "{{>p}}", "!!binary "]) \
            + text[position:]
    if choice == 5:
        return text.replace("\n", "\r\n")
    if choice == 6:
        end = min(len(text), position + rng.randrange(1, 200))
        return text[:position] + text[end:]
    if choice == 7:
        end = min(len(text), position + rng.randrange(1, 400))
        return text[:position] + text[position:end] * rng.choice([2, 10, 100]) + text[position:]
    if choice == 8 and text:
        index = rng.randrange(len(text))
        return text[:index] + chr(rng.randrange(32, 127)) + text[index + 1:]
    if choice == 9:
        return text[:position] + "\n" + "  " * rng.randrange(1, 120) + "- x" + text[position:]
    return text[:position] + "{{#data}}" * 6 + "x" + "{{/data}}" * 6 + text[position:]


def fuzz(server):
    rng = random.Random(arguments.seed)
    seeds = []
    for path in sorted(glob.glob("Examples/Definitions/**/*.yaml", recursive=True)
                       + glob.glob("Examples/Definitions/**/*.json", recursive=True)):
        with open(path) as file:
            seeds.append((file.read(), path.endswith(".yaml")))

    @check(f"fuzz: mutated definitions for {arguments.fuzz_seconds:g} s (seed {arguments.seed}): no 5xx, no crash, "
           f"RSS under {RSS_BOUND_MB} MB")
    def _():
        deadline = time.monotonic() + arguments.fuzz_seconds
        sent, statuses, peak = 0, {}, 0.0
        while time.monotonic() < deadline:
            text, yaml = rng.choice(seeds)
            for _ in range(rng.randrange(1, 4)):
                text = mutate(text, rng)
            try:
                status, _ = check_definition(server, text, yaml)
            except (OSError, http.client.HTTPException) as error:
                return f"request {sent} failed ({error}); the server {'runs' if server.alive() else 'exited'}"
            sent += 1
            statuses[status] = statuses.get(status, 0) + 1
            if status >= 500:
                return f"request {sent} answered {status}"
            if sent % 25 == 0:
                peak = max(peak, rss_mb(server.process))
                problem = healthy_within(server, 2.0)
                if problem:
                    return problem
                if peak > RSS_BOUND_MB:
                    return f"resident memory reached {peak:.0f} MB"
        print(f"fuzz: {sent} definitions, answers {statuses}, peak RSS {peak:.0f} MB")
        return healthy_within(server)


if __name__ == "__main__":
    sys.exit(main())
