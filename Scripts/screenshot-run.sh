#!/usr/bin/env bash
# Renders the example run page of Docs/RunPage.md to Docs/RunPage.png with headless Chromium:
#
#   statechart run Docs/Diagrams/parallel-history.scxml power play louder pause --html PAGE.html
#   chromium --headless --screenshot  PAGE.html#step=4   →  Docs/RunPage.png
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

"$bin" run Docs/Diagrams/parallel-history.scxml power play louder pause --html "$work/page.html"
# The page opens at the step its fragment names: step 4 is after `pause`.
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
  --user-data-dir="$work/profile" --window-size=1100,520 \
  --screenshot="$root/Docs/RunPage.png" "file://$work/page.html#step=4" 2> "$work/chromium.log" \
  || { cat "$work/chromium.log" >&2; exit 1; }
echo "wrote Docs/RunPage.png"
