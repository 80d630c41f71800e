"""Runs the README's curl walk against a fresh server and compares each documented output with the real one.

Usage: readme_walk.py README URL
Every `console` block of the README is a list of commands (`$ …`, continued by a trailing backslash or an open
single quote) and the
output documented under each. Each command runs in bash, in order, in one shell state (so `S=…` carries on), with
`localhost:8080` and `127.0.0.1:8080` pointed at URL; `$S` is set from the session the first command creates.
The documented output matches the real one when, after session ids (32 hex digits) and ISO times are replaced by
placeholders and each JSON line's wrapping is joined:
- a documented HTTP head (status line and headers) is the real head, line for line and in order, where a line `…`
  stands for any lines left out (so a cut is always marked) and `…` within a line for any text;
- the documented body is the real body, where `…` stands for any text;
- lines that start with `#` are the README's comments, not output. A stream (`curl -N`) is read for 1 s and
  compared up to its first event; when a comment under it shows a `curl` command to run from another terminal, that
  command runs while the stream is open, and the whole stream is compared (the event it caused included).
Exits 1, naming the command, on the first mismatch.
"""

import re
import subprocess
import sys
import time

SESSION = re.compile(r"[0-9a-f]{32}")
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z")


def blocks(readme):
    """The console blocks of the README, each as its lines."""
    found, current = [], None
    for line in open(readme, encoding="utf-8").read().splitlines():
        if current is None and line.strip() == "```console":
            current = []
        elif current is not None and line.strip() == "```":
            found.append(current)
            current = None
        elif current is not None:
            current.append(line)
    return found


def commands(lines):
    """(command, documented output lines, comment lines) triples of one block."""
    pairs, command, output, comments = [], None, [], []
    continued = False
    def unfinished(text):
        # A trailing backslash, or a single-quoted argument still open, continues on the next line.
        return text.rstrip().endswith("\\") or text.count("'") % 2 == 1

    for line in lines:
        if continued:
            command += "\n" + line
            continued = unfinished(command)
        elif line.startswith("$ "):
            if command is not None:
                pairs.append((command, output, comments))
            command, output, comments = line[2:], [], []
            continued = unfinished(command)
        elif command is not None and line.lstrip().startswith("#"):
            comments.append(line.lstrip()[1:].strip())
        elif command is not None:
            output.append(line)
    if command is not None:
        pairs.append((command, output, comments))
    return pairs


def normalized(text):
    return TIME.sub("<time>", SESSION.sub("<id>", text))


def pattern(documented):
    """A regular expression for a documented body: `…` is any text, the rest literal."""
    return re.compile("".join(".*?" if part == "…" else re.escape(part) for part in re.split("(…)", documented)),
                      re.DOTALL)


def head_pattern(head):
    """A regular expression for a documented head: a line `…` is any lines (a cut), `…` in a line any text in it."""
    parts = []
    for line in head:
        if line.strip() == "…":
            parts.append("(?:[^\n]*\n)*?")
        else:
            parts.append("".join("[^\n]*?" if part == "…" else re.escape(part)
                                 for part in re.split("(…)", normalized(line))) + "\n")
    return re.compile("".join(parts))


def compare(command, documented, actual):
    documented = [line for line in documented if line.strip()] if not any(
        line.startswith("HTTP/") for line in documented) else documented
    if documented and documented[0].startswith("HTTP/"):
        head_end = documented.index("") if "" in documented else len(documented)
        head, body = documented[:head_end], documented[head_end + 1:]
        real_head, _, real_body = actual.replace("\r\n", "\n").partition("\n\n")
        if not head_pattern(head).fullmatch(normalized(real_head) + "\n"):
            return ("the head differs (each header shown in order, a line … for any left out):\n"
                    + "\n".join(head) + f"\nreal:\n{real_head}")
        documented, actual = body, real_body
    expected = normalized("".join(line.strip() for line in documented))
    real = normalized("".join(line.strip() for line in actual.strip().splitlines()))
    if expected and not pattern(expected).fullmatch(real):
        return f"expected (… is any text):\n{expected}\nreal:\n{real}"
    return None


def main():
    readme, url = sys.argv[1], sys.argv[2].rstrip("/")
    state = ""  # shell lines that carry on: the session variable
    ran = 0
    def pointed(command):
        return command.replace("http://127.0.0.1:8080", url).replace("localhost:8080", url)

    for block in blocks(readme):
        for command, documented, comments in commands(block):
            shell = pointed(command)
            if shell.startswith("S="):
                continue  # set from the session the walk created
            stream = " -sN " in shell or " -N " in shell
            # A change made from another terminal while the stream is open: its command is in a comment.
            change = next((pointed(comment) for comment in comments if comment.startswith("curl ")), None)
            if stream and change:
                running = subprocess.Popen(["bash", "-c", f"{state}\ntimeout 2 {shell} || true"],
                                           stdout=subprocess.PIPE, text=True)
                time.sleep(0.5)
                changed = subprocess.run(["bash", "-c", f"{state}\n{change}"], capture_output=True, text=True,
                                         timeout=30)
                actual = running.communicate(timeout=30)[0]
                if changed.returncode != 0:
                    sys.exit(f"README walk: the change `{change}` under `{command}` failed:\n{changed.stderr}")
                actual = "\n\n".join(actual.split("\n\n")[:2])
            else:
                if stream:
                    shell = f"timeout 1 {shell} || true"
                    documented = documented[:documented.index("")] if "" in documented else documented
                run = subprocess.run(["bash", "-c", f"{state}\n{shell}"], capture_output=True, text=True,
                                     timeout=30)
                actual = run.stdout
                if stream:
                    actual = actual.split("\n\n")[0]
            if ran == 0:
                found = SESSION.search(actual)
                if not found:
                    sys.exit(f"README walk: the first command created no session:\n{actual}")
                state = f"S={found.group(0)}"
            problem = compare(command, documented, actual)
            if problem:
                sys.exit(f"README walk: `{command}`\n{problem}")
            ran += 1
    if ran < 5:
        sys.exit(f"README walk: only {ran} commands found in {readme}")
    print(f"README walk: {ran} commands, each answered as documented")


if __name__ == "__main__":
    main()
