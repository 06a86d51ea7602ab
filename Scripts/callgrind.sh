# Instructions per event of a case of Benchmarks/Sources/InstructionCounts, counted exactly by
# valgrind's callgrind. Sourced, not run, by Scripts/instruction-gate.sh (the committed gate) and
# Scripts/targets.sh (issue 16's targets on this machine), so both count the same way:
#
#   source Scripts/callgrind.sh
#   ensure_valgrind
#   instructions_per_event BINARY CASE EVENTS
#
# The case runs twice, with 0 and with EVENTS events; the difference divided by EVENTS is the
# figure, so building, loading and starting the machine cancel out.

# Installs valgrind (a Debian package) when it is missing.
ensure_valgrind() {
    command -v valgrind >/dev/null 2>&1 && return 0
    source "$(dirname "${BASH_SOURCE[0]}")/debian-packages.sh"
    install_debian_packages valgrind
}

# The instructions callgrind collected for one run of BINARY CASE EVENTS. Deterministic hashing:
# a case whose path hashes strings (the checks of a state request look routes and global states up
# in sets) moved by up to 6 % from run to run with the per-process seed.
callgrind_collected() {
    local out
    out="$(mktemp)"
    SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$out" "$1" "$2" "$3" 2>&1 \
        | awk '/Collected/ { print $4 }'
    rm -f "$out"
}

# Prints the instructions per event of CASE (an integer); exits the script when callgrind reports
# no count (the case failed or does not exist).
instructions_per_event() {
    local base total
    base="$(callgrind_collected "$1" "$2" 0)"
    total="$(callgrind_collected "$1" "$2" "$3")"
    if [ -z "$base" ] || [ -z "$total" ]; then
        echo "error: callgrind did not report a count for case '$2'" >&2
        exit 1
    fi
    echo $(((total - base) / $3))
}
