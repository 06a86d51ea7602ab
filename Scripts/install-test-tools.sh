#!/usr/bin/env bash
# Installs the Debian packages some tests use, when they are missing: Graphviz (`dot`, which parses
# every DOT file the exporter writes, DiagramTests) and Chromium (which opens the run page headless
# and checks its highlighted states, RunPageTests). Never needed by the library.
#
# Soft: when a package cannot be installed (no apt-get, no root, no network), it says so and exits 0;
# the tests that need it are then skipped with a message naming what is missing.
set -uo pipefail

missing=()
command -v dot >/dev/null 2>&1 || missing+=(graphviz)
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || missing+=(chromium)
if [ ${#missing[@]} -eq 0 ]; then
    echo "install-test-tools: graphviz and chromium are installed"
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-test-tools: no apt-get; missing ${missing[*]}: their tests will be skipped" >&2
    exit 0
fi
sudo=()
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo=(sudo -n); else
        echo "install-test-tools: not root and no sudo; missing ${missing[*]}: their tests will be skipped" >&2
        exit 0
    fi
fi
echo "install-test-tools: installing ${missing[*]}"
if "${sudo[@]}" apt-get update -qq >/dev/null &&
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
    echo "install-test-tools: installed ${missing[*]}"
else
    echo "install-test-tools: could not install ${missing[*]}: their tests will be skipped" >&2
fi
exit 0
