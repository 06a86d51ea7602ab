#!/usr/bin/env bash
# Builds the order service with zero warnings in its own sources (dependencies' warnings, such as
# swift-distributed-tracing's unhandled file, are not ours) and runs its tests, which drive it over
# real HTTP — on SQLite, and on PostgreSQL: the throwaway cluster of Durable/Scripts/postgres.sh
# unless STATECHART_POSTGRES_URL names a server. .ci/run calls this.
#
# ORDER_SERVICE_SCRATCH names the build folder (default .build here). .ci/run points it at the
# Durable package's build folder: the two resolve the same versions of swift-nio, PostgresNIO and the
# rest, so the service's build compiles only what Durable lacks (Hummingbird, AsyncHTTPClient, its own
# code): 215 s instead of 646 s on a slow machine. Warnings in this package's own files still show,
# since they are compiled here either way.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=(--scratch-path "${ORDER_SERVICE_SCRATCH:-$(pwd)/.build}")
log="$(mktemp)"
# shellcheck source=../../../Scripts/postgres.sh
source "../../Scripts/postgres.sh"
cleanup() {
    stop_postgres
    rm -f "$log"
}
trap cleanup EXIT
swift build "${scratch[@]}" --build-tests 2>&1 | tee "$log"
if grep -E "^$(pwd)/.*warning:" "$log" >/dev/null; then
    echo "error: the order service's build printed warnings:" >&2
    grep -E "^$(pwd)/.*warning:" "$log" >&2
    exit 1
fi
if [ -z "${STATECHART_POSTGRES_URL:-}" ]; then start_postgres; else export STATECHART_REQUIRE_POSTGRES=1; fi
# Seconds of tests; still running after 10 minutes means hung: stop with a message (see ../../Scripts/test.sh).
timeout --kill-after=20 600 swift test "${scratch[@]}" --skip-build || {
    status=$?
    if [ "$status" = 124 ] || [ "$status" = 137 ]; then
        echo "OrderService: the tests did not finish within 10 minutes (hung)" >&2
        pkill -9 -f OrderServicePackageTests.xctest || true  # the test process is swift test's child
    fi
    exit "$status"
}
