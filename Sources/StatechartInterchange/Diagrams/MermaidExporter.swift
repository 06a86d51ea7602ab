import Statechart

/// Draws a compiled chart as a Mermaid `stateDiagram-v2`, the diagram GitHub renders from a
/// ```` ```mermaid ```` block.
///
/// - Compound states are nested composite states (`state "label" as id { … }`) with their own
///   `[*] --> initial`; the regions of a parallel state are separated by `--`.
/// - A final state leads to `[*]`; a history pseudo-state is a state labelled `H` or `H*` with an
///   arrow to its default.
/// - Transitions read `from --> to : event [guard] / actions`. Eventless transitions read
///   `always …`, delayed transitions of the typed API `after 30s`, transitions declared internal
///   end with `(internal)`. Targetless transitions are written in their state's box
///   (`id : event / actions`), or as an arrow to itself for a composite state. Chart-wide
///   transitions leave an `any state` box.
///
/// Identifiers are escaped so that any state name works: an id that is a plain ASCII identifier
/// (letters, digits, `_`) and no Mermaid keyword is used as it is; any other (dots, spaces,
/// non-ASCII letters, keywords) is replaced by a generated alias `s<index>` and the name is shown
/// as its label. Labels are written with Mermaid's entity codes (`#58;` for `:`) wherever a
/// character would end or change the statement. Mermaid cannot draw an arrow declared inside
/// one composite state to a state inside another, so such arrows are declared at the top level;
/// an initial transition of a composite state to a deeper state starts at the composite's
/// `[*]` and goes to the child that contains it, labelled with the real target.
///
/// A flat chart gives what swift-state-kit's `exportMermaid()` gives: a `state "label" as id`
/// declaration per state, `[*] --> initial`, and `from --> to : event` per transition. The
/// output is deterministic.
public enum MermaidExporter {
    /// The diagram, starting with `stateDiagram-v2` and ending with a newline.
    public static func export<Event, Context>(_ chart: Chart<Event, Context>) -> String {
        var writer = MermaidWriter(DiagramChart(chart))
        return writer.write()
    }

    /// The diagram of a typed machine with its attached children.
    ///
    /// - Throws: ``ChartError`` when the machine does not compile.
    public static func export<State, Event, Context>(
        _ machine: Machine<State, Event, Context>
    ) throws(ChartError) -> String {
        export(try TypedChart(machine).chart)
    }

    /// The diagram of a running machine's chart, its active states in the style class `active`.
    public static func export<State, Event, Context>(_ machine: StateMachine<State, Event, Context>) -> String {
        let chart = machine.typed.chart
        let active = Set(machine.activeStateIDs.compactMap { chart.state(withID: $0).map { Int($0.index) } })
        var writer = MermaidWriter(DiagramChart(chart, highlighted: active))
        return writer.write()
    }

    /// Whether an id can be a Mermaid state identifier as it is: ASCII letters, digits and `_`,
    /// starting with a letter, not of the form of a generated alias (`s12`), and not a word the
    /// `stateDiagram` lexer reads as a keyword (`state`, `note`, `class`, `end`, `default…`, …).
    static func isPlainIdentifier(_ id: String) -> Bool {
        let scalars = Array(id.unicodeScalars)
        guard let first = scalars.first, isASCIILetter(first) else { return false }
        guard scalars.allSatisfy({ isASCIILetter($0) || isASCIIDigit($0) || $0 == "_" }) else { return false }
        if first == "s" || first == "S", scalars.count > 1, scalars.dropFirst().allSatisfy(isASCIIDigit) { return false }
        let lower = id.lowercased()
        if reservedWords.contains(lower) { return false }
        return !reservedPrefixes.contains { lower.hasPrefix($0) }
    }

    /// Words that are keywords where a state identifier can stand, or names Mermaid uses itself.
    private static let reservedWords: Set<String> = [
        "state", "note", "class", "classdef", "style", "click", "scale", "end", "as", "left", "right", "of", "over",
        "root", "direction", "hide", "fork", "join", "choice", "divider", "start", "tb", "bt", "lr", "rl",
    ]
    /// Prefixes the lexer matches without a following space.
    private static let reservedPrefixes = ["default", "statediagram", "acctitle", "accdescr"]

    static func isASCIILetter(_ c: Unicode.Scalar) -> Bool { (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") }
    static func isASCIIDigit(_ c: Unicode.Scalar) -> Bool { c >= "0" && c <= "9" }

    /// A label as Mermaid text: characters that would end or change a statement (`:` `;` `"` `#`
    /// `%`, braces), that Mermaid reads as markup (`<` `>` `&` `` ` `` `|` `$` `\`, and `*` `_` `~`
    /// when there are two of them) or as a list or heading at the start of a label, become entity
    /// codes `#<decimal>;`; line breaks
    /// become spaces; a space after `direction` becomes `#32;` (the lexer would read a direction
    /// statement). In a state's label `[` and `]` are coded too (`[[fork]]` is a keyword there).
    static func text(_ label: String, isStateLabel: Bool) -> String {
        // `*`, `_` and `~` mark up only in pairs: a single one (`H*`, `not_synced`) stays.
        var counts: [Unicode.Scalar: Int] = [:]
        for c in label.unicodeScalars where c == "*" || c == "_" || c == "~" { counts[c, default: 0] += 1 }
        var out = ""
        var leadingDigits = true
        var isFirst = true
        for c in label.unicodeScalars {
            let code: Bool
            switch c {
            case "\n", "\r", "\t", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}":
                out += " "
                isFirst = false
                leadingDigits = false
                continue
            case ":", ";", "\"", "#", "%", "{", "}", "<", ">", "&", "`", "|", "$", "\\":
                code = true
            case "*", "_", "~":
                code = isFirst || counts[c, default: 0] > 1
            case "[", "]":
                code = isStateLabel || isFirst
            case ".", ")":
                // "1." or "1)" at the start is an ordered list in Markdown.
                code = isFirst || (leadingDigits && !out.isEmpty)
            default:
                if c.value < 0x20 || c.value == 0x7F {
                    out += " "
                    isFirst = false
                    leadingDigits = false
                    continue
                }
                // Any other ASCII punctuation at the start could begin Markdown (`- `, `+ `, `= `).
                code = isFirst && c.isASCII && !isASCIILetter(c) && !isASCIIDigit(c)
            }
            if code {
                out += "#\(c.value);"
            } else {
                out.unicodeScalars.append(c)
            }
            if !isASCIIDigit(c) { leadingDigits = false }
            isFirst = false
        }
        return guardDirection(out)
    }

    /// Replaces the space after any `direction` (any case) by `#32;`.
    private static func guardDirection(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        let word = Array("direction".unicodeScalars)
        guard scalars.count > word.count else { return text }
        var out = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            if i + word.count < scalars.count, scalars[i + word.count] == " ",
                (0..<word.count).allSatisfy({ lowercased(scalars[i + $0]) == word[$0] })
            {
                out.append(contentsOf: scalars[i..<(i + word.count)])
                out.append(contentsOf: "#32;".unicodeScalars)
                i += word.count + 1
            } else {
                out.append(scalars[i])
                i += 1
            }
        }
        return String(out)
    }

    private static func lowercased(_ c: Unicode.Scalar) -> Unicode.Scalar {
        c >= "A" && c <= "Z" ? Unicode.Scalar(c.value + 32)! : c
    }
}

/// Writes one `stateDiagram-v2`: the state tree as nested blocks, each block's own arrows in it,
/// and the arrows Mermaid can only draw from the top level at the end.
private struct MermaidWriter {
    let d: DiagramChart
    /// The Mermaid identifier of each state (the root's is the `any state` box).
    let alias: [String]
    var out = ""

    init(_ d: DiagramChart) {
        self.d = d
        alias = (0..<d.count).map { i in
            i > 0 && MermaidExporter.isPlainIdentifier(d.ids[i]) ? d.ids[i] : "s\(i)"
        }
    }

    /// Compound and parallel states with children are composite states.
    func isComposite(_ i: Int) -> Bool {
        i > 0 && (d.kinds[i] == .compound || d.kinds[i] == .parallel) && !d.children[i].isEmpty
    }

    /// The scope whose block declares an arrow between `a` and `b`: their common parent when it
    /// is the root or a compound (not parallel: its block is split into regions), else the root.
    func scope(_ a: Int, _ b: Int) -> Int {
        let p = d.parents[a]
        return p == d.parents[b] && p >= 0 && d.kinds[p] != .parallel ? p : 0
    }

    mutating func write() -> String {
        out += "stateDiagram-v2\n"
        if !d.transitions[0].isEmpty {
            line("state " + quoted("any state") + " as " + alias[0], depth: 1)
            for t in d.transitions[0] where t.isTargetless { line(alias[0] + " : " + label(t.activityLabel), depth: 1) }
        }
        writeScope(0, depth: 1)
        if !d.highlighted.isEmpty {
            line("classDef active font-weight:bold,stroke-width:3px,stroke:blue", depth: 1)
            line("class " + d.highlighted.sorted().map { alias[$0] }.joined(separator: ",") + " active", depth: 1)
        }
        return out
    }

    private enum Task {
        /// Declares a state (opening a block for a composite one).
        case open(Int, depth: Int)
        /// Writes a composite's arrows, closes its block and writes what follows its declaration.
        case close(Int, depth: Int)
        /// `[*] --> initial` of a compound state.
        case initial(Int, depth: Int)
        /// `--` between two regions of a parallel state.
        case divider(depth: Int)
    }

    /// Declares the states of `scope` and everything inside them, then `scope`'s arrows.
    private mutating func writeScope(_ scope: Int, depth: Int) {
        // An explicit stack: the nesting depth comes from a document.
        var tasks: [Task] = [.close(scope, depth: depth)]
        openBody(scope, depth: depth, into: &tasks)
        while let task = tasks.popLast() {
            switch task {
            case .divider(let depth):
                line("--", depth: depth)
            case .initial(let s, let depth):
                writeInitial(of: s, depth: depth)
            case .close(let s, let depth):
                writeArrows(of: s, depth: depth)
                if s != scope {
                    line("}", depth: depth - 1)
                    writeAttached(s, depth: depth - 1)
                }
            case .open(let s, let depth):
                guard isComposite(s) else {
                    line("state " + quoted(d.labels[s]) + " as " + alias[s], depth: depth)
                    writeAttached(s, depth: depth)
                    continue
                }
                line("state " + quoted(d.labels[s]) + " as " + alias[s] + " {", depth: depth)
                tasks.append(.close(s, depth: depth + 1))
                openBody(s, depth: depth + 1, into: &tasks)
            }
        }
    }

    /// Pushes a scope's `[*] --> initial` and the declarations of its children (separated by
    /// `--` in a parallel state), to be popped in that order.
    private func openBody(_ s: Int, depth: Int, into tasks: inout [Task]) {
        let isParallel = d.kinds[s] == .parallel
        for (k, c) in d.children[s].enumerated().reversed() {
            tasks.append(.open(c, depth: depth))
            if isParallel && k > 0 { tasks.append(.divider(depth: depth)) }
        }
        if d.initial[s] != nil && !isParallel { tasks.append(.initial(s, depth: depth)) }
    }

    /// What is written right after a state's declaration, so that it stays in the same region:
    /// its targetless transitions and, for a final state, its arrow to `[*]`.
    private mutating func writeAttached(_ s: Int, depth: Int) {
        // A composite's description would be refused by Mermaid: its targetless transitions
        // are arrows to itself instead.
        for t in d.transitions[s] where t.isTargetless {
            if isComposite(s) {
                line(alias[s] + " --> " + alias[s] + " : " + label(t.activityLabel), depth: depth)
            } else {
                line(alias[s] + " : " + label(t.activityLabel), depth: depth)
            }
        }
        if d.kinds[s] == .final { line(alias[s] + " --> [*]", depth: depth) }
    }

    /// `[*] --> initial` of a compound (or the root); a deeper target is reached through the
    /// child that contains it.
    private mutating func writeInitial(of s: Int, depth: Int) {
        guard let initial = d.initial[s] else { return }
        for target in initial.targets {
            var text = initial.label
            var to = target
            if s > 0, d.parents[target] != s {
                to = d.childOf(s, containing: target)
                text = ("to " + d.labels[target] + " " + text).trimmingSpaces()
            }
            line("[*] --> " + alias[to] + (text.isEmpty ? "" : " : " + label(text)), depth: depth)
        }
    }

    /// The arrows declared in `s`'s block: those between two of its children (the root's block
    /// also gets every arrow no other block can hold).
    private mutating func writeArrows(of s: Int, depth: Int) {
        for source in s == 0 ? Array(0..<d.count) : d.children[s] {
            if let initial = d.initial[source], d.kinds[source].isHistory {
                for target in initial.targets where scope(source, target) == s {
                    line(alias[source] + " --> " + alias[target] + suffix(initial), depth: depth)
                }
            }
            for t in d.transitions[source] where !t.isTargetless {
                for target in t.targets where (source == 0 ? 0 : scope(source, target)) == s {
                    line(alias[source] + " --> " + alias[target] + suffix(t), depth: depth)
                }
            }
        }
    }

    private func suffix(_ t: DiagramChart.Edge) -> String {
        let text = t.isInternal ? (t.label + " (internal)").trimmingSpaces() : t.label
        return text.isEmpty ? "" : " : " + label(text)
    }

    // MARK: - Text

    private func label(_ text: String) -> String { MermaidExporter.text(text, isStateLabel: false) }

    /// A state's label between quotes (a space for an empty name: `""` would not lex).
    private func quoted(_ text: String) -> String {
        "\"" + (text.isEmpty ? " " : MermaidExporter.text(text, isStateLabel: true)) + "\""
    }

    private mutating func line(_ text: String, depth: Int) {
        out += String(repeating: "    ", count: depth) + text + "\n"
    }
}

extension String {
    /// The string without leading and trailing spaces.
    fileprivate func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
