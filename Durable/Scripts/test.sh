#!/usr/bin/env bash
# Builds the Durable package (Durable/) and its tests, fails on any warning in the project's own
# code (this package and the core library it builds by path), then runs the tests.
#
#   Durable/Scripts/test.sh                      # everything
#   Durable/Scripts/test.sh --filter TimerTests  # extra arguments go to `swift test`
#
# DURABLE_SCRATCH names the build folder (default Durable/.build). Warnings are only printed when
# a file is compiled, so the check is complete on a fresh build folder (as in CI).
set -euo pipefail

package="$(cd "$(dirname "$0")/.." && pwd)"
scratch="${DURABLE_SCRATCH:-$package/.build}"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

swift build --package-path "$package" --scratch-path "$scratch" --build-tests 2>&1 | tee "$log"
# Dependencies fetched from elsewhere live under checkouts/; their warnings are not ours.
if grep -E ': warning: ' "$log" | grep -v '/checkouts/'; then
    echo "Durable: the build printed warnings (above); the project builds with zero warnings." >&2
    exit 1
fi
swift test --package-path "$package" --scratch-path "$scratch" --skip-build "$@"
