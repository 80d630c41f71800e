#!/usr/bin/env bash
# Builds the engine's DocC documentation (Sources/Switchyard/Switchyard.docc) with the toolchain's docc, warnings
# as errors (a broken symbol link fails), into .build-docs/Switchyard.doccarchive.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT="${SWIFT:-swift}"
DOCC="${DOCC:-$(dirname "$(command -v "$SWIFT")")/docc}"
"$SWIFT" build --scratch-path .build-docs --target Switchyard \
  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc .build-docs/symbols
"$DOCC" convert Sources/Switchyard/Switchyard.docc --additional-symbol-graph-dir .build-docs/symbols \
  --fallback-display-name Switchyard --fallback-bundle-identifier org.switchyard.Switchyard \
  --output-path .build-docs/Switchyard.doccarchive --warnings-as-errors
echo "docs: .build-docs/Switchyard.doccarchive (open it with Xcode, or serve it with docc preview)"
