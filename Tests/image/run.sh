#!/usr/bin/env bash
# docker/Dockerfile built and run by a real container engine (podman; Tests/image/suite.py says what stands in for
# what this machine lacks). Needs root (podman's images and debootstrap for the stand-ins).
#   bash Tests/image/run.sh              everything: base images, the three builds, the runs
#   bash Tests/image/run.sh bases        the base images (stand-ins kept between runs)
#   bash Tests/image/run.sh build NAME…  demo, url, both
#   bash Tests/image/run.sh run [NAME…]  the images run and checked: `N passed, N failed`
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "$#" = 0 ]; then set -- all; fi
exec python3 Tests/image/suite.py "$@"
