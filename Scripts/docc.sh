#!/usr/bin/env bash
# Builds the DocC documentation of the Statechart module with warnings as errors, without the
# swift-docc-plugin (shared/notes/toolchain.md): symbol graph from the compiler, then docc convert.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 Scripts/docc-articles.py --check
graphs="$PWD/.build-docs/symbol-graphs"
rm -rf "$graphs" && mkdir -p "$graphs"
swift build --scratch-path .build-docs --target Statechart \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" >/dev/null
docc convert Sources/Statechart/Statechart.docc --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name Statechart --fallback-bundle-identifier org.statechart \
    --output-path .build-docs/Statechart.doccarchive --warnings-as-errors
echo "DocC: built without warnings"
