#!/usr/bin/env bash
# libFuzzer for Statechart (the separate package in Fuzz/): builds the fuzz targets with the flags
# of the toolchain notes (release, -sanitize=fuzzer plus AddressSanitizer), makes the seed corpora
# and runs a target.
#
#   Scripts/fuzz.sh build                        build both targets
#   Scripts/fuzz.sh seeds                        (re)make the seed corpora only
#   Scripts/fuzz.sh loader [libFuzzer options]   fuzz the SCXML loader, e.g. -max_total_time=1200
#   Scripts/fuzz.sh run [libFuzzer options]      fuzz a loaded chart with event sequences, e.g. -runs=100000
#   Scripts/fuzz.sh script [libFuzzer options]   fuzz the ECMAScript subset (parser, evaluator, budgets)
#   Scripts/fuzz.sh replay loader|run|script FILE...  run the target once on each file (a crash reproducer)
#
# Seeds: every .scxml of Specs/ and of the SCION charts (../shared/conformance/scion) for the loader;
# for `run`, each of them followed by a NUL byte and a short program of events, clock advances,
# resets and snapshots. The dictionary of SCXML tokens is Fuzz/scxml.dict. For `script`, the
# expressions and scripts of Fuzz/seeds-script, with the dictionary Fuzz/script.dict.
#
# Everything generated stays in ignored directories: Fuzz/.build-fuzz (the build) and
# Fuzz/.build-fuzz-data/{seeds,corpus,artifacts}/<target> (corpora and crash artifacts). A crash
# becomes a regression test in Tests/InterchangeTests/HostileInputTests.swift, never a committed
# artifact. Default libFuzzer options: -timeout=10 -rss_limit_mb=4096 -max_len=16384
# -print_final_stats=1 (yours come after, so they win). FUZZ_JOBS=N runs N jobs in parallel.
# Leaks are detected, except the toolchain's own listed in Fuzz/lsan.supp. The one in FoundationXML
# (72 bytes per XML parse error) grew the process by ~1 GB per 5 million inputs while the loader
# read XML with XMLParser (until 2026-11-27), hence the 4 GB RSS limit.
set -euo pipefail
# The Swift runtime's backtracer trips AddressSanitizer after a crash: leave reports to libFuzzer.
export SWIFT_BACKTRACE=enable=no

root="$(cd "$(dirname "$0")/.." && pwd)"
fuzz="$root/Fuzz"
data="$fuzz/.build-fuzz-data"
scion="$root/../shared/conformance/scion"

build() {
    local product
    for product in LoaderFuzz RunFuzz ScriptFuzz; do
        (cd "$fuzz" && swift build -c release --product "$product" --scratch-path .build-fuzz \
            --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer)
    done
}

seeds() {
    rm -rf "$data/seeds"
    mkdir -p "$data/seeds/loader" "$data/seeds/run"
    local files=()
    while IFS= read -r -d '' f; do files+=("$f"); done < <(
        find "$root/Specs" "$scion" -name '*.scxml' -print0 2>/dev/null | sort -z)
    local n=0
    for f in "${files[@]}"; do
        n=$((n + 1))
        cp "$f" "$data/seeds/loader/seed-$n.scxml"
        # The chart, a NUL, then: events 0–11, advance 500 ms, snapshot, events 0–3, advance
        # 60 s, reset, events 4–6, done.state of state 1, error.execution.
        { cat "$f"; printf '\000\000\001\002\003\004\005\006\007\010\011\012\013\304\350\000\001\002\003\307\340\004\005\006\360\001\364'; } \
            >"$data/seeds/run/seed-$n"
    done
    mkdir -p "$data/seeds/script"
    cp "$fuzz"/seeds-script/* "$data/seeds/script/"
    echo "seeds: $n charts from Specs/ and $(basename "$scion") into $data/seeds"
}

run_target() {
    local target="$1" binary="$2" dict="$fuzz/scxml.dict"
    shift 2
    if [ "$target" = script ]; then dict="$fuzz/script.dict"; fi
    [ -d "$data/seeds/$target" ] || seeds
    mkdir -p "$data/corpus/$target" "$data/artifacts/$target"
    local jobs=()
    if [ -n "${FUZZ_JOBS:-}" ]; then jobs=(-jobs="$FUZZ_JOBS" -workers="$FUZZ_JOBS"); fi
    cd "$data"
    LSAN_OPTIONS="suppressions=$fuzz/lsan.supp:print_suppressions=0" \
    "$fuzz/.build-fuzz/release/$binary" "corpus/$target" "seeds/$target" \
        -dict="$dict" -artifact_prefix="artifacts/$target/" \
        -timeout=10 -rss_limit_mb=4096 -max_len=16384 -print_final_stats=1 "${jobs[@]}" "$@"
}

case "${1:-}" in
build) build ;;
seeds) seeds ;;
loader) shift; build; run_target loader LoaderFuzz "$@" ;;
run) shift; build; run_target run RunFuzz "$@" ;;
script) shift; build; run_target script ScriptFuzz "$@" ;;
replay)
    shift
    target="${1:?loader or run}"
    shift
    case "$target" in
    loader) binary=LoaderFuzz ;;
    script) binary=ScriptFuzz ;;
    *) binary=RunFuzz ;;
    esac
    build
    LSAN_OPTIONS="suppressions=$fuzz/lsan.supp:print_suppressions=0" "$fuzz/.build-fuzz/release/$binary" "$@"
    ;;
*)
    sed -n '2,23p' "$0"
    exit 2
    ;;
esac
