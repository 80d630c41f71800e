#!/usr/bin/env bash
# Builds the `switchyard` and `switchyard-bench` binaries of an earlier commit (default: 77eb7d1, the release a turn before issue 45) in a
# scratch folder of its own, .build-baseline/<commit>/, and prints its path. Built once per commit and kept; never
# a dependency of the product. Prints the folder holding both. Usage: baseline.sh [COMMIT]
set -euo pipefail
cd "$(dirname "$0")/../.."
commit=$(git rev-parse --short=7 "${1:-77eb7d1}^{commit}")
folder=.build-baseline/$commit
binaries=$folder/src/.build/release
if [ ! -x "$binaries/switchyard" ] || [ ! -x "$binaries/switchyard-bench" ]; then
    echo "bench: building the baseline $commit into $folder (once)" >&2
    if [ ! -f "$folder/src/Package.swift" ]; then
        mkdir -p "$folder/src"
        git archive "$commit" | tar -x -C "$folder/src"
    fi
    (cd "$folder/src" && swift build -c release --product switchyard >&2 \
        && swift build -c release --product switchyard-bench >&2)
fi
echo "$PWD/$binaries"
