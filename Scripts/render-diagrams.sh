#!/usr/bin/env bash
# Renders the example diagrams of Docs/Diagrams.md from their SCXML sources:
#
#   Docs/Diagrams/NAME.scxml  →  Docs/Diagrams/NAME.svg   (statechart export --format dot | dot -Tsvg)
#                             →  Docs/Diagrams/NAME.mmd   (statechart export --format mermaid)
#
# for NAME in order, sync, parallel-history. Installs Graphviz with apt-get when `dot` is missing,
# builds the `statechart` command, and writes the files in place: commit them after a change of
# the exporters or of a source.
#
#   Scripts/render-diagrams.sh           render every diagram
#   Scripts/render-diagrams.sh --check   render into a temporary folder and fail when a committed
#                                        file differs (the same Graphviz version is needed for SVG)
#
# Environment: DIAGRAMS_SCRATCH_PATH=DIR builds in DIR (default: .build-diagrams).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
mode="${1:-render}"
case "$mode" in
  render | --check) ;;
  *) echo "usage: Scripts/render-diagrams.sh [--check]" >&2; exit 2 ;;
esac

if ! command -v dot > /dev/null 2>&1; then
  echo "render-diagrams: installing graphviz" >&2
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then sudo=(sudo); fi
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq graphviz > /dev/null
fi

scratch="${DIAGRAMS_SCRATCH_PATH:-.build-diagrams}"
swift build --scratch-path "$scratch" --product statechart
statechart="$(swift build --scratch-path "$scratch" --show-bin-path)/statechart"

out="Docs/Diagrams"
if [ "$mode" = "--check" ]; then
  out="$(mktemp -d)"
  trap 'rm -rf "$out"' EXIT
fi

status=0
for name in order sync parallel-history; do
  source="Docs/Diagrams/$name.scxml"
  "$statechart" export "$source" --format dot | dot -Tsvg > "$out/$name.svg"
  "$statechart" export "$source" --format mermaid > "$out/$name.mmd"
  if [ "$mode" = "--check" ]; then
    for ext in svg mmd; do
      if ! cmp -s "$out/$name.$ext" "Docs/Diagrams/$name.$ext"; then
        echo "render-diagrams: Docs/Diagrams/$name.$ext is not what $source gives" >&2
        status=1
      fi
    done
  else
    echo "wrote Docs/Diagrams/$name.svg and $name.mmd"
  fi
done
exit "$status"
