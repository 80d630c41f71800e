#!/usr/bin/env python3
"""What the Dockerfile's runtime stage (its last FROM) says, as JSON: the apt packages it installs, its ENV, USER,
WORKDIR, ENTRYPOINT, CMD and HEALTHCHECK command. The runtime checks read the image's facts from here, so that
they cannot drift from the Dockerfile.

    python3 docker/dockerfile_runtime.py docker/Dockerfile
"""
import json
import re
import shlex
import sys


def instructions(text):
    lines, current = [], ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.endswith("\\"):
            current += line[:-1] + " "
            continue
        lines.append(current + line)
        current = ""
    stages = [i for i, line in enumerate(lines) if re.match(r"(?i)FROM\s", line)]
    return lines[stages[-1]:]


def exec_form(argument):
    argument = argument.strip()
    return json.loads(argument) if argument.startswith("[") else ["/bin/sh", "-c", argument]


def main():
    facts = {"packages": [], "env": {}, "user": None, "workdir": "/", "entrypoint": [], "cmd": [], "healthcheck": []}
    for line in instructions(open(sys.argv[1]).read()):
        keyword, _, argument = line.partition(" ")
        keyword = keyword.upper()
        if keyword == "RUN":
            for command in re.split(r"&&|;|\|\|", argument):
                words = shlex.split(command)
                while words and "=" in words[0]:
                    words.pop(0)
                if words[:2] == ["apt-get", "install"]:
                    facts["packages"] += [w.split("=")[0] for w in words[2:] if not w.startswith("-")]
        elif keyword == "ENV":
            for pair in shlex.split(argument):
                name, _, value = pair.partition("=")
                facts["env"][name] = value
        elif keyword == "USER":
            facts["user"] = argument.strip()
        elif keyword == "WORKDIR":
            facts["workdir"] = argument.strip()
        elif keyword == "ENTRYPOINT":
            facts["entrypoint"] = exec_form(argument)
        elif keyword == "CMD":
            facts["cmd"] = exec_form(argument)
        elif keyword == "HEALTHCHECK":
            command = re.search(r"\bCMD\s+(.*)$", argument)
            facts["healthcheck"] = exec_form(command.group(1)) if command else []
    if not facts["packages"]:
        sys.exit("no apt-get install in the runtime stage of " + sys.argv[1])
    print(json.dumps(facts))


if __name__ == "__main__":
    main()
