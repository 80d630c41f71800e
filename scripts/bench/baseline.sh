#!/usr/bin/env bash
# Builds the `switchyard` binary of an earlier commit (default: 77eb7d1, the release a turn before issue 45) in a
# scratch folder of its own, .build-baseline/<commit>/, and prints its path. Built once per commit and kept; never
# a dependency of the product. Usage: baseline.sh [COMMIT]
set -euo pipefail
cd "$(dirname "$0")/../.."
commit=$(git rev-parse --short=7 "${1:-77eb7d1}^{commit}")
folder=.build-baseline/$commit
binary=$folder/src/.build/release/switchyard
if [ ! -x "$binary" ]; then
    echo "bench: building the baseline $commit into $folder (once)" >&2
    rm -rf "$folder/src"
    mkdir -p "$folder/src"
    git archive "$commit" | tar -x -C "$folder/src"
    (cd "$folder/src" && swift build -c release --product switchyard >&2)
fi
echo "$PWD/$binary"
