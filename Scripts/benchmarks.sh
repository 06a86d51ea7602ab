#!/usr/bin/env bash
# Statechart's benchmarks (the separate package in Benchmarks/, package-benchmark).
#
#   Scripts/benchmarks.sh            the regression gate: heap allocations per event must equal the
#                                    committed thresholds (Benchmarks/Thresholds/). Independent of
#                                    wall time, so it is stable on a shared or slow machine.
#   Scripts/benchmarks.sh --update   re-record the thresholds after a deliberate change (commit them)
#   Scripts/benchmarks.sh --all      run every benchmark: time per event, build time, SCXML
#                                    parsing, allocations (the figures of Docs/Performance.md)
#   Scripts/benchmarks.sh --instructions
#                                    instructions per event under valgrind's callgrind: exact and
#                                    repeatable, for comparing two versions on a busy machine
#
# Exit status of the gate: 0 when every allocation count equals its threshold, or only improved
# (then it says to run --update and commit); 1 on any regression, on a benchmark without a
# committed threshold, or when the benchmarks do not build or run.
#
# Environment: BENCHMARK_SCRATCH_PATH=DIR builds in DIR instead of Benchmarks/.build.
set -euo pipefail
# Benchmarks measure the library users build: never with the interpreter's internal invariant
# check (rule R75), which .ci/run exports for the tests and would otherwise reach Package.swift.
unset STATECHART_INTERNAL_CHECKS

self="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
root="$(dirname "$(dirname "$self")")"
cd "$root/Benchmarks"

gate_target="StatechartAllocations"
mode="${1:-check}"
scratch=()
if [ -n "${BENCHMARK_SCRATCH_PATH:-}" ]; then scratch=(--scratch-path "$BENCHMARK_SCRATCH_PATH"); fi

# `swift package` runs the plugin; --disable-sandbox lets it write thresholds and run the benchmark
# executables with the malloc interposer preloaded.
benchmark() { swift package "${scratch[@]}" --disable-sandbox benchmark "$@"; }

start=$SECONDS
log="$(mktemp)"
trap 'rm -f "$log" "$log.cg"' EXIT

case "$mode" in
    --all | all)
        benchmark --no-progress
        ;;
    --update | update)
        benchmark thresholds update --target "$gate_target" --no-progress
        echo "Thresholds written to Benchmarks/Thresholds/: review and commit them."
        ;;
    check | --check)
        echo "== benchmark gate: heap allocations per event ($gate_target vs Benchmarks/Thresholds) =="
        # Every gate benchmark must have a committed threshold, or it would silently go unchecked.
        benchmark list --target "$gate_target" >"$log" 2>&1 || { cat "$log"; exit 1; }
        names="$(sed -n "/^Target '$gate_target' available benchmarks:/,\$p" "$log" | tail -n +2 | grep -v '^[[:space:]]*$' || true)"
        if [ -z "$names" ]; then
            cat "$log"
            echo "error: could not list the benchmarks of $gate_target" >&2
            exit 1
        fi
        missing=0
        while IFS= read -r name; do
            if [ ! -f "Thresholds/$gate_target.$name.p90.json" ]; then
                echo "error: no committed threshold for $gate_target:$name (run Scripts/benchmarks.sh --update)" >&2
                missing=1
            fi
        done <<<"$names"
        [ "$missing" = 0 ] || exit 1

        set +e
        benchmark thresholds check --target "$gate_target" --no-progress 2>&1 | tee "$log"
        status=${PIPESTATUS[0]}
        set -e
        # package-benchmark's own codes (2 regression, 4 improvement) reach us as 1 through
        # `swift package`, so the verdict is read from its summary line.
        if [ "$status" = 0 ] && grep -q "is EQUAL to the defined thresholds" "$log"; then
            echo "benchmark gate: passed, allocation counts equal the thresholds ($((SECONDS - start)) s)"
        elif grep -q "is WORSE than the defined thresholds" "$log"; then
            echo "benchmark gate: FAILED, more heap allocations than the committed thresholds ($((SECONDS - start)) s)" >&2
            exit 1
        elif grep -q "is BETTER than the defined thresholds" "$log"; then
            echo "benchmark gate: passed with improvements: run Scripts/benchmarks.sh --update and commit Benchmarks/Thresholds ($((SECONDS - start)) s)"
        else
            echo "benchmark gate: FAILED, the check did not complete (exit status $status)" >&2
            exit 1
        fi
        ;;
    --instructions | instructions)
        command -v valgrind >/dev/null || { echo "error: valgrind is not installed" >&2; exit 1; }
        swift build "${scratch[@]}" -c release --product InstructionCounts
        bin="$(swift build "${scratch[@]}" -c release --show-bin-path)/InstructionCounts"
        events=20000
        collected() {
            valgrind --tool=callgrind --callgrind-out-file="$log.cg" "$bin" "$1" "$2" 2>&1 |
                awk '/Collected/ { print $4 }'
        }
        printf '%-14s %14s\n' "case" "instr/event"
        for c in handWritten flat innermost bubbleToTop parallel parallelOneRegion history request scale10 scale100000; do
            base="$(collected "$c" 0)"
            total="$(collected "$c" "$events")"
            printf '%-14s %14s\n' "$c" "$(((total - base) / events))"
        done
        rm -f "$log.cg"
        ;;
    -h | --help | help)
        sed -n '2,17p' "$self"
        ;;
    *)
        echo "usage: Scripts/benchmarks.sh [--all | --update | --instructions | --help]" >&2
        exit 2
        ;;
esac
