#!/usr/bin/env bash
# Compares the ECMAScript subset's regular expressions (rule R92) with Node's engine on random
# patterns and inputs: for each case, `exec` (the index and every group), `replace` with
# `<$&|$1>`, `split` and `lastIndex` afterwards, or the error's name — as a chart's <script> runs
# them through the CLI, and as `node` runs the same function.
#
#   Scripts/regexp-differential.sh [FIRST_SEED] [SEEDS] [CASES] [STATECHART_BINARY]
#
# Defaults: seeds 1…10, 150 cases each, the release CLI (built if missing). Needs `node` and
# `python3` on PATH (Node is not part of the project's checks: this is a tool for changing the
# matcher). Prints each case that differs (at most 8 a seed), then "seed N: C cases, D differ";
# exits 1 when any differs. A case whose pattern is catastrophic on its input (Node takes tens of
# milliseconds) exhausts the evaluation's step budget, as it should: it is skipped and counted. Patterns draw on groups, lookahead, lookbehind, back references, named groups,
# classes, anchors, greedy and lazy quantifiers; inputs and patterns on ASCII, é/É, ſ and the
# Kelvin sign (the `i` flag's canonicalization), astral characters (the `u` flag's code points and
# folding: 😀, Deseret's 𐐀 and 𐐨) and property escapes; flags '', i, m, s, g, y, gi, u, iu, gu,
# uy, giu.
set -euo pipefail
first="${1:-1}"; seeds="${2:-10}"; count="${3:-150}"
root="$(cd "$(dirname "$0")/.." && pwd)"
binary="${4:-}"
if [ -z "$binary" ]; then
    (cd "$root" && swift build -c release --product statechart >/dev/null)
    binary="$(cd "$root" && swift build -c release --show-bin-path)/statechart"
fi
command -v node >/dev/null || { echo "node is not on PATH" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cat >"$work/gen.py" <<'PY'
import random, json, sys
rnd = random.Random(int(sys.argv[1]))
ATOMS = ['a', 'b', 'c', '1', ' ', '.', '\\d', '\\w', '\\s', '\\W', '[ab]', '[^a]', '[a-c1]', '\\b', '\\B', '^', '$',
         'x', 'é', 'É', 'ſ', 's', 'k', '\\u212a', '[é-ÿ]', '(?<n>a|b)', '\\k<n>',
         '😀', '𐐀', '[😀-😂]', '[^😀]', '\\u{1F600}', '\\ud83d\\ude00', '\\p{L}', '\\P{Lu}', '\\p{Nd}',
         '\\p{Emoji_Presentation}', '[\\p{Ll}1]', '\\u{10428}']
# Half the cases draw on few characters, in patterns and inputs alike, so that they match and
# their groups (inside lookarounds too) take part; the other half on every atom above.
SMALL = ['a', 'b', '1', '.', '\\d', '[ab]', '\\w', '(a)', '(b+)']
atoms, deepest = ATOMS, 3
def atom(d):
    r = rnd.random()
    if d > deepest or r < 0.35: return rnd.choice(atoms)
    if r < 0.5: return '(' + alt(d + 1) + ')'
    if r < 0.6: return '(?:' + alt(d + 1) + ')'
    if r < 0.65: return '(?=' + alt(d + 1) + ')'
    if r < 0.7: return '(?!' + alt(d + 1) + ')'
    if r < 0.75: return '\\' + str(rnd.randint(1, 3))
    if r < 0.8: return '(?<=' + alt(d + 1) + ')'
    if r < 0.84: return '(?<!' + alt(d + 1) + ')'
    return rnd.choice(['a', 'b', 'ab', '[b-c]'])
def quant(a):
    if a in ('^', '$', '\\b', '\\B'): return a
    r = rnd.random(); q = ''
    if r < 0.15: q = '*'
    elif r < 0.3: q = '+'
    elif r < 0.4: q = '?'
    elif r < 0.45:
        m = rnd.randint(0, 2); q = '{%d,%d}' % (m, m + rnd.randint(0, 2))
    elif r < 0.48: q = '{%d,}' % rnd.randint(0, 2)
    if q and rnd.random() < 0.3: q += '?'
    return a + q
def seq(d): return ''.join(quant(atom(d)) for _ in range(rnd.randint(1, 4)))
def alt(d): return '|'.join(seq(d) for _ in range(1 if rnd.random() < 0.7 else rnd.randint(2, 3)))
cases = []
for _ in range(int(sys.argv[2])):
    small = rnd.random() < 0.5
    atoms, deepest = (SMALL, 1) if small else (ATOMS, 3)
    flags = rnd.choice(['', 'i', 'm', 's', 'g', 'y', 'gi', 'u', 'iu', 'gu', 'uy', 'giu'])
    # Astral characters only in the inputs of `u` cases: without it a match may split a pair, and
    # a lone surrogate is not a string of the subset (its strings are Swift strings).
    alphabet = 'aab1b ' if small else 'abcAB1 \néÉſsSKk\u212a' + ('😀😁𐐀𐐨' if 'u' in flags else '')
    text = ''.join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 12)))
    pattern = alt(0)
    if small and rnd.random() < 0.5:
        # A lookbehind between short runs of terms: its groups, back references (to groups on
        # either side) and greedy choices run backwards, which a pattern drawn at random rarely
        # lets take part in a match.
        run = lambda extra, most: ''.join(quant(rnd.choice(SMALL + extra)) for _ in range(rnd.randint(0, most)))
        inner = run(['(a+)', '(\\w)', '(.)', '\\1', '\\2', '(a|b1)'], 3) or 'a'
        pattern = run([], 2) + rnd.choice(['(?<=', '(?<=', '(?<!']) + inner + ')' + run(['\\1'], 2)
    cases.append([pattern, flags, text])
print(json.dumps(cases))
PY

cat >"$work/run.js" <<'JS'
function runAll(cases) {
  var out = [];
  for (var k = 0; k < cases.length; k++) {
    var c = cases[k];
    try {
      var r = new RegExp(c[0], c[1]);
      var m = r.exec(c[2]);
      var replaced = c[2].replace(new RegExp(c[0], c[1]), '<$&|$1>');
      var parts = c[2].split(new RegExp(c[0], c[1]));
      out.push([m === null ? null : [m.index].concat(m.slice(0)), replaced, parts, r.lastIndex]);
    } catch (e) { out.push('E:' + e.name); }
  }
  return JSON.stringify(out);
}
JS

cat >"$work/compare.py" <<'PY'
# Runs the cases through a chart (all in one run; case by case when that run ended in the step
# budget, skipping the cases that exhaust it alone: a catastrophic pattern) and compares the
# results with Node's.
import sys, json, html, subprocess
work, seed, binary = sys.argv[1], sys.argv[2], sys.argv[3]
cases = json.load(open(f'{work}/cases.json'))
node = json.loads(open(f'{work}/node.out').read())
js = open(f'{work}/run.js').read()
def chart(batch):
    open(f'{work}/chart.scxml', 'w').write(f'''<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="s">
  <datamodel><data id="cases" expr="{html.escape(json.dumps(batch), quote=True)}"/></datamodel>
  <script>{html.escape(js, quote=False)}</script>
  <state id="s"><onentry><log expr="runAll(cases)"/></onentry></state>
</scxml>''')
    out = subprocess.run([binary, 'run', '--no-http', f'{work}/chart.scxml'], capture_output=True, text=True).stdout
    if 'StepBudgetExceeded' in out: return 'budget'
    lines = [l for l in out.splitlines() if '[' in l]
    return json.loads(lines[0][lines[0].index('['):]) if lines else None
ours = chart(cases)
if ours == 'budget':
    ours = [r[0] if isinstance(r, list) else r for r in (chart([c]) for c in cases)]
if not isinstance(ours, list) or len(ours) != len(cases):
    print(f'seed {seed}: the chart printed no result'); sys.exit(1)
def lone_surrogate(value):
    # Python reads a surrogate pair of JSON as one character; a lone one stays a surrogate.
    return any(0xD800 <= ord(ch) <= 0xDFFF for ch in json.dumps(value, ensure_ascii=False))
bad = budget = lone = 0
for c, a, b in zip(cases, node, ours):
    if b == 'budget':
        budget += 1
    elif lone_surrogate(a):
        # Node matched inside a surrogate pair: V8 tries a start between the two halves of a
        # pair under `u` (ECMAScript's AdvanceStringIndex steps over the pair), and a lone
        # surrogate is not a string of the subset.
        lone += 1
    elif a != b:
        bad += 1
        if bad <= 8: print('DIFF', json.dumps(c), '\n  node', json.dumps(a), '\n  ours', json.dumps(b))
skipped = f' ({budget} over the step budget, skipped)' if budget else ''
skipped += f' ({lone} with a lone surrogate in Node\'s result, skipped)' if lone else ''
print(f'seed {seed}: {len(cases) - budget - lone} cases, {bad} differ{skipped}')
sys.exit(1 if bad else 0)
PY

status=0
for seed in $(seq "$first" $((first + seeds - 1))); do
    python3 "$work/gen.py" "$seed" "$count" >"$work/cases.json"
    node -e "const fs = require('fs'); eval(fs.readFileSync('$work/run.js', 'utf8'));
             console.log(runAll(JSON.parse(fs.readFileSync('$work/cases.json', 'utf8'))));" >"$work/node.out"
    python3 "$work/compare.py" "$work" "$seed" "$binary" || status=1
done
exit $status
