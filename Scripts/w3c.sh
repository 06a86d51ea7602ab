#!/usr/bin/env bash
# Runs the W3C SCXML IRP's mandatory automated tests, in their ECMAScript form, through the CLI:
#
#   Scripts/w3c.sh W3C_DIR [STATECHART_BINARY]
#
# W3C_DIR holds the transformed tests (testN.scxml, their sub-charts and data files) and the IRP's
# manifest.xml, either beside them or one level up — for example uSCXML's test/w3c/ecma with
# test/w3c/manifest.xml (the tests are public; they are not part of this repository). A test
# passes when `statechart run testN.scxml +100s`, run in W3C_DIR, ends in the top-level final
# state `pass` (Docs/DataModel.md). Prints one line per failing test, then "N passed, M failed".
# With W3C_CONFORMANCE=optional it runs the optional automated tests instead (those of the XPath
# data model are not in the ECMAScript folder: they are reported missing).
set -euo pipefail
dir="${1:?usage: Scripts/w3c.sh W3C_DIR [STATECHART_BINARY]}"
binary="${2:-$(cd "$(dirname "$0")/.." && swift build -c release --product statechart >/dev/null && swift build -c release --show-bin-path)/statechart}"
[[ "$binary" = /* ]] || binary="$PWD/$binary"
manifest="$dir/manifest.xml"
[ -f "$manifest" ] || manifest="$dir/../manifest.xml"
[ -f "$manifest" ] || { echo "no manifest.xml in $dir or its parent" >&2; exit 2; }
passed=0; failed=0
conformance="${W3C_CONFORMANCE:-mandatory}"
for id in $(python3 - "$manifest" "$conformance" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
for m in re.finditer(r'<test id="[^"]+" conformance="' + sys.argv[2] + r'" manual="false">\s*<start uri="([^"]+)"', text):
    print(m.group(1).split('/')[-1].rsplit('.', 1)[0])
PY
); do
    if [ ! -f "$dir/$id.scxml" ]; then echo "$id: missing"; failed=$((failed + 1)); continue; fi
    last=$(cd "$dir" && timeout 20 "$binary" run "$id.scxml" +100s 2>&1 | tail -1 || true)
    if [[ "$last" == *"→ pass (final)"* ]]; then passed=$((passed + 1)); else echo "$id: $last"; failed=$((failed + 1)); fi
done
echo "$passed passed, $failed failed"
