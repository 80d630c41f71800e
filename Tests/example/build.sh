#!/usr/bin/env bash
# The example's release build, as its image's build stage makes it: Examples/Hello staged in .build-stage/hello
# (docker/stage-app.sh: a static release binary, the page, the health check), and the demo's product `switchyard`
# from the same build (Examples/Hello/.build-static holds every module it needs), for test-runtime.
# make test runs it in the background (scripts/in-background.sh) while suites that mostly wait go on.
set -euo pipefail
cd "$(dirname "$0")/../.."
SWIFT="${SWIFT:-swift}"
echo "example: building Examples/Hello as its image does"
SCRATCH=Examples/Hello/.build-static bash docker/stage-app.sh Examples/Hello Hello .build-stage/hello
# (stage-app.sh made the build plan afresh, so files added to this package are seen.)
"$SWIFT" build -c release --static-swift-stdlib --package-path Examples/Hello \
  --scratch-path Examples/Hello/.build-static --product switchyard
