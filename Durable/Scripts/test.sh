#!/usr/bin/env bash
# Builds the Durable package (Durable/) and its tests, fails on any warning in the project's own
# code (this package and the core library it builds by path), then runs the tests against a real
# PostgreSQL server: a throwaway cluster of its own, removed on exit (also on failure).
#
#   Durable/Scripts/test.sh                      # everything, then the fault test (FaultTests)
#   Durable/Scripts/test.sh --filter TimerTests  # extra arguments go to `swift test`
#
# DURABLE_SCRATCH names the build folder (default Durable/.build). Warnings are only printed when
# a file is compiled, so the check is complete on a fresh build folder (as in CI).
#
# PostgreSQL: when STATECHART_POSTGRES_URL is set already, the tests use that server. Otherwise
# the script installs PostgreSQL from Debian when it is missing (`apt-get install -y postgresql`),
# creates a cluster in a `mktemp -d` folder (owned by the `postgres` user when run as root:
# `initdb` refuses root), starts it on 127.0.0.1 on a free port, and exports its URL. It sets
# STATECHART_REQUIRE_POSTGRES=1, so a PostgreSQL test that finds no server fails instead of
# skipping (Tests/…/PostgresTestSupport.swift).
set -euo pipefail

package="$(cd "$(dirname "$0")/.." && pwd)"
scratch="${DURABLE_SCRATCH:-$package/.build}"
log="$(mktemp)"

# shellcheck source=postgres.sh
source "$(dirname "$0")/postgres.sh"

cleanup() {
    stop_postgres
    rm -f "$log"
}
trap cleanup EXIT

swift build --package-path "$package" --scratch-path "$scratch" --build-tests 2>&1 | tee "$log"
# Dependencies fetched from elsewhere live under checkouts/; their warnings are not ours.
if grep -E ': warning: ' "$log" | grep -v '/checkouts/'; then
    echo "Durable: the build printed warnings (above); the project builds with zero warnings." >&2
    exit 1
fi
if [ -z "${STATECHART_POSTGRES_URL:-}" ]; then
    start_postgres
else
    export STATECHART_REQUIRE_POSTGRES=1
    echo "Durable: PostgreSQL tests use STATECHART_POSTGRES_URL"
fi
# Runs `swift test` with a time limit: a run still going after it hangs (a request that never
# returns, a worker that never exits), and ends with a message rather than let CI's clock run out.
run_tests() {
    local limit="$1"
    shift
    timeout --kill-after=20 "$limit" swift test --package-path "$package" --scratch-path "$scratch" --skip-build "$@" || {
        status=$?
        if [ "$status" = 124 ] || [ "$status" = 137 ]; then
            echo "Durable: the tests did not finish within $limit s (hung)" >&2
            # swift test runs the tests in a child of its own, which the timeout's signal may not reach.
            pkill -9 -f StatechartDurablePackageTests.xctest || true
            pkill -9 -f DurableFaultWorker || true
        fi
        exit "$status"
    }
}
# The tests take seconds each.
run_tests 600 "$@"
# Then, on a full run, the fault test on its own (FaultTests.swift: worker processes killed with
# SIGKILL while ~100,000 events are sent; minutes long, and it loads both cores, so it does not
# run beside the other tests). Its scale can be set with STATECHART_FAULT_* (see the test).
if [ "$#" = 0 ]; then
    echo "Durable: the fault test (several PostgreSQL nodes, kill -9)"
    STATECHART_FAULT_TEST=1 run_tests 1200 --filter FaultTests
fi
