#!/usr/bin/env bash
# Builds the order service with zero warnings in its own sources (dependencies' warnings, such as
# swift-distributed-tracing's unhandled file, are not ours) and runs its tests, which drive it over
# real HTTP. .ci/run calls this.
set -euo pipefail
cd "$(dirname "$0")/.."
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
swift build --build-tests 2>&1 | tee "$log"
if grep -E "^$(pwd)/.*warning:" "$log" >/dev/null; then
    echo "error: the order service's build printed warnings:" >&2
    grep -E "^$(pwd)/.*warning:" "$log" >&2
    exit 1
fi
swift test
