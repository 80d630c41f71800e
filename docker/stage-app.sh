#!/usr/bin/env bash
# Builds an app's server program and stages what the image's runtime stage copies, exactly as docker/Dockerfile's
# build stage does (the Dockerfile runs this script from the Switchyard package it found; the tests run it too):
#   STAGING/usr/local/bin/switchyard   PRODUCT of the package in PACKAGE, a static release build (Swift runtime
#                                      and Foundation linked in), stripped, whatever the product is called
#   STAGING/app/Public                 the web page: PAGE if given, else the page of this Switchyard package
#   STAGING/switchyard-healthcheck     docker/healthcheck.sh (the image's HEALTHCHECK)
# Usage: bash docker/stage-app.sh PACKAGE PRODUCT STAGING [PAGE]
#   SCRATCH=dir  SwiftPM's scratch path (default: PACKAGE/.build)
set -euo pipefail
[ "$#" -ge 3 ] || { echo "usage: stage-app.sh PACKAGE PRODUCT STAGING [PAGE]" >&2; exit 2; }
for argument in "$1" "$2" "$3"; do
    [ -n "$argument" ] || { echo "stage-app: PACKAGE, PRODUCT and STAGING must not be empty" >&2; exit 2; }
done
switchyard=$(cd "$(dirname "$0")/.." && pwd)
package=$1
product=$2
staging=$3
page=${4:-$switchyard/Public}
build=(swift build -c release --static-swift-stdlib --package-path "$package")
[ -n "${SCRATCH:-}" ] && build+=(--scratch-path "$SCRATCH")
[ -d "$page" ] || { echo "stage-app: the page folder '$page' does not exist" >&2; exit 1; }

echo "stage-app: building $product in $package (release, static Swift runtime)"
# SwiftPM 6.3 keeps its build plan while the root package's manifest and files stay the same, and does not see a
# file added to a package it depends on by path (the "folder holding both" layout, Examples/Hello): the next build
# then fails with "cannot find type … in scope". Without the plan it makes one again (a second or two) and compiles
# only what changed.
scratch="${SCRATCH:-$package/.build}"
rm -f "$scratch/release/description.json" "$scratch/release.yaml"
"${build[@]}" --product "$product"
binary="$("${build[@]}" --show-bin-path)/$product"
[ -x "$binary" ] || { echo "stage-app: no executable '$product' at $binary (is PRODUCT an executable product of $package?)" >&2; exit 1; }

rm -rf "$staging/usr/local/bin/switchyard" "$staging/app/Public" "$staging/switchyard-healthcheck"
install -D -m 0755 "$binary" "$staging/usr/local/bin/switchyard"
# Without its symbol table and debug information: a quarter of its size (a crash's backtrace then names addresses
# instead of functions; the unstripped binary stays in the scratch folder).
strip "$staging/usr/local/bin/switchyard"
mkdir -p "$staging/app"
cp -R "$page" "$staging/app/Public"
# Read-only for everybody but its owner (root in the image).
chmod -R u=rwX,go=rX "$staging/app/Public"
install -m 0755 "$switchyard/docker/healthcheck.sh" "$staging/switchyard-healthcheck"
echo "stage-app: staged $product ($(du -h "$staging/usr/local/bin/switchyard" | cut -f1)), the page from $page"
