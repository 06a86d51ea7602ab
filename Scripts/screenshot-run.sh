#!/usr/bin/env bash
# Renders the example run page of Docs/RunPage.md with headless Chromium, in both layouts:
#
#   statechart run Docs/Diagrams/parallel-history.scxml power play louder pause --html PAGE.html --layout L
#   chromium --headless --screenshot  PAGE.html#step=4
#
#   --layout boxes     →  Docs/RunPage.png           (the page's own layout, no Graphviz)
#   --layout graphviz  →  Docs/RunPage-graphviz.png  (needs Graphviz's dot on PATH)
#
# Builds the `statechart` command first. Commit the picture after a change of the page.
#
# Environment: RUN_PAGE_SCRATCH_PATH=DIR builds in DIR (default: .build-run-page);
#              CHROMIUM=PATH uses that browser (default: chromium or chromium-browser on PATH).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
scratch="${RUN_PAGE_SCRATCH_PATH:-.build-run-page}"
browser="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
if [ -z "$browser" ]; then
  echo "screenshot-run: no chromium or chromium-browser on PATH (set CHROMIUM)" >&2
  exit 1
fi

swift build --scratch-path "$scratch" --product statechart
bin="$(swift build --scratch-path "$scratch" --show-bin-path)/statechart"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The page opens at the step its fragment names: step 4 is after `pause`.
shoot() { # LAYOUT PNG WIDTH HEIGHT
  "$bin" run Docs/Diagrams/parallel-history.scxml power play louder pause --html "$work/$1.html" --layout "$1" >/dev/null
  "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --user-data-dir="$work/profile" --window-size="$3,$4" \
    --screenshot="$root/Docs/$2" "file://$work/$1.html#step=4" 2> "$work/chromium.log" \
    || { cat "$work/chromium.log" >&2; exit 1; }
  echo "wrote Docs/$2"
}
shoot boxes RunPage.png 1300 560
if command -v dot >/dev/null 2>&1; then
  shoot graphviz RunPage-graphviz.png 1300 780
else
  echo "screenshot-run: no dot on PATH (apt-get install graphviz): Docs/RunPage-graphviz.png not remade" >&2
fi
