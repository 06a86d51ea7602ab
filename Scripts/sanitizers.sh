#!/usr/bin/env bash
# The test suite under ThreadSanitizer and AddressSanitizer, with the commands of the toolchain
# notes (/work/shared/notes/toolchain.md):
#
#   Scripts/sanitizers.sh            both, TSan first
#   Scripts/sanitizers.sh thread     TSan only: release build with -enable-testing (in debug builds
#                                    TSan reports false races on Synchronization's Mutex)
#   Scripts/sanitizers.sh address    ASan only: debug build, Swift Testing only (XCTest's own leaks
#                                    would fail the run)
#
# Extra arguments go to `swift test` (e.g. --filter ConcurrencyStress). The TSan run sets
# STATECHART_STRESS_EVENTS=100000, so the concurrency stress test sends its full 8 × 100,000
# events: races are what it looks for, and release code runs them in about a minute. The ASan run
# keeps the test's 8 × 10,000: memory errors do not need the volume, and 800,000 debug sends under
# ASan took 244 s of CI's 90 minutes. The ASan run also walks a quarter of the random-walk tests'
# seeds (STATECHART_RANDOM_WALKS_PERCENT=25, Tests/StatechartTests/RandomWalkShare.swift): those
# walks are most of a debug run's time, and the plain and TSan runs walk them all. Each variable can
# be overridden in the environment. Both runs set STATECHART_INTERNAL_CHECKS=1, so the interpreter
# checks its invariants after every operation (rule R75). Builds go to .build-tsan and .build-asan.
# Exit status: non-zero when a run fails or a sanitizer reports anything.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
export STATECHART_INTERNAL_CHECKS="${STATECHART_INTERNAL_CHECKS:-1}"
# Sanitizer reports end the run with a non-zero status instead of a warning.
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1}"
# FoundationXML leaks 72 bytes per XML parse error (see the file): not ours, suppressed.
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$root/Fuzz/lsan.supp:print_suppressions=0}"

mode="${1:-all}"
if [ $# -gt 0 ]; then shift; fi

thread() {
    local events="${STATECHART_STRESS_EVENTS:-100000}"
    echo "== ThreadSanitizer (release, -enable-testing; stress test 8 × $events events)"
    STATECHART_STRESS_EVENTS="$events" \
        swift test -c release -Xswiftc -enable-testing --sanitize=thread --scratch-path .build-tsan "$@"
}

address() {
    local share="${STATECHART_RANDOM_WALKS_PERCENT:-25}"
    echo "== AddressSanitizer (debug, Swift Testing only; $share % of the random walks' seeds)"
    STATECHART_RANDOM_WALKS_PERCENT="$share" \
        swift test --sanitize=address --disable-xctest --scratch-path .build-asan "$@"
}

case "$mode" in
thread) thread "$@" ;;
address) address "$@" ;;
all)
    thread "$@"
    address "$@"
    ;;
*)
    sed -n '2,20p' "$0"
    exit 2
    ;;
esac
