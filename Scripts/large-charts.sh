#!/usr/bin/env bash
# The large-input tests in release mode, at full size (Docs/Reliability.md, H1): a generated chart
# of 1,000,000 states must load with the default limits. A debug `swift test` runs the same test
# with 100,000 states; this sets STATECHART_LARGE_TESTS=1 for the full size.
#
#   Scripts/large-charts.sh [swift test options]      builds in .build-large
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
STATECHART_LARGE_TESTS=1 swift test -c release -Xswiftc -enable-testing --scratch-path .build-large \
    --filter 'HostileInputTests' "$@"
