import Statechart

/// What the diagram exporters draw, read once from a compiled chart through its public
/// inspection API: the state tree, a short label per state, and every transition with its label
/// already written (`event [guard] / actions`). It holds no closures and no generic parameters,
/// so the DOT and Mermaid writers are plain code over arrays.
struct DiagramChart {
    /// One drawn transition: a selectable transition, an initial transition or a history default.
    struct Edge {
        /// The state it belongs to (0, the root, for chart-wide transitions).
        var source: Int
        /// Its declared targets, in document order; empty for a targetless transition.
        var targets: [Int]
        /// `event [guard] / actions`, or only the parts that exist.
        var label: String
        /// Declared `type="internal"`.
        var isInternal: Bool
        /// Its targets are computed by Swift code when it is taken.
        var hasDynamicTargets: Bool

        /// Drawn inside its source's label (UML's internal activities) rather than as an arrow.
        var isTargetless: Bool { targets.isEmpty }

        /// The label of a targetless transition, with a mark when its targets are dynamic.
        var activityLabel: String { hasDynamicTargets ? label + " → (dynamic target)" : label }
    }

    let name: String
    let ids: [String]
    let kinds: [CompiledStateKind]
    /// The parent of each state; -1 for the root.
    let parents: [Int]
    let children: [[Int]]
    /// One past the last descendant of each state: its subtree is `index ..< end`.
    let ends: [Int]
    /// What a state is called in a diagram: its id without its parent's id as a dotted prefix
    /// (`confirmed.authorizing` inside `confirmed` is `authorizing`), `H` or `H*` for history.
    let labels: [String]
    /// Each compound state's initial transition (the root's too) and each history state's default.
    let initial: [Edge?]
    /// Each state's selectable transitions, in document order.
    let transitions: [[Edge]]
    /// States drawn highlighted (the active states of a running machine).
    let highlighted: Set<Int>

    init<Event, Context>(_ chart: Chart<Event, Context>, highlighted: Set<Int> = []) {
        let count = chart.stateCount
        name = chart.name
        ids = chart.ids
        var kinds: [CompiledStateKind] = []
        var parents: [Int] = []
        var children: [[Int]] = []
        var initial: [Edge?] = []
        var transitions: [[Edge]] = []
        kinds.reserveCapacity(count)
        for i in 0..<count {
            let s = ChartStateID(Int32(i))
            kinds.append(chart.kind(of: s))
            parents.append(chart.parent(of: s).map { Int($0.index) } ?? -1)
            children.append(chart.children(of: s).map { Int($0.index) })
            let timers = Self.timers(chart.entryActions(of: s))
            initial.append(
                chart.initialTransition(of: s).map { Self.edge($0, chart: chart, timers: timers, pseudo: true) })
            transitions.append(
                chart.transitions(of: s).map { Self.edge($0, chart: chart, timers: timers, pseudo: false) })
        }
        // Descendants occupy the indices right after a state: the end of a subtree is one past
        // the end of its last child's subtree. Children have larger indices, so go backwards.
        var ends = [Int](repeating: 0, count: count)
        for i in stride(from: count - 1, through: 0, by: -1) {
            ends[i] = children[i].last.map { ends[$0] } ?? i + 1
        }
        var labels: [String] = []
        labels.reserveCapacity(count)
        for i in 0..<count {
            switch kinds[i] {
            case .shallowHistory: labels.append("H")
            case .deepHistory: labels.append("H*")
            default:
                let id = ids[i]
                let parent = parents[i]
                let prefix = parent > 0 ? ids[parent] + "." : ""
                if !prefix.isEmpty, id.hasPrefix(prefix), id.count > prefix.count {
                    labels.append(String(id.dropFirst(prefix.count)))
                } else {
                    labels.append(id)
                }
            }
        }
        self.kinds = kinds
        self.parents = parents
        self.children = children
        self.ends = ends
        self.labels = labels
        self.initial = initial
        self.transitions = transitions
        self.highlighted = highlighted
    }

    var count: Int { ids.count }

    /// One drawn arrow: a compound state's initial transition to one of its targets, a history
    /// state's default, or a selectable transition to one of its targets (one arrow per target).
    /// Targetless transitions are no arrows.
    struct Arrow {
        enum Kind { case initial, historyDefault, transition }
        var kind: Kind
        var source: Int
        var target: Int
        /// The transition's position in `transitions[source]` (`nil` for initial arrows).
        var transition: Int?
        var edge: Edge

        /// A name for the arrow made of letters, digits and `_` only, unique in the chart:
        /// `t<source>_<transition>_<target>` or `i<source>_<target>`. Both renderers use it, so a
        /// Graphviz layout can be matched back to the chart's arrows.
        /// `<source>_<transition>` for a selectable transition's arrows (`nil` for initial
        /// arrows): the value of their `data-transition` attribute in the SVG diagrams, the same
        /// for every target of one transition.
        var transitionKey: String? { transition.map { "\(source)_\($0)" } }

        var key: String {
            if let k = transition { return "t\(source)_\(k)_\(target)" }
            return "i\(source)_\(target)"
        }
    }

    /// Every arrow, state by state in document order: a state's initial (or default) arrows
    /// first, then its transitions' arrows in document order. The DOT writer writes its edges in
    /// this order.
    var arrows: [Arrow] {
        var result: [Arrow] = []
        for s in 0..<count {
            if let initial = initial[s] {
                let kind: Arrow.Kind = kinds[s].isHistory ? .historyDefault : .initial
                for target in initial.targets {
                    result.append(Arrow(kind: kind, source: s, target: target, transition: nil, edge: initial))
                }
            }
            for (k, t) in transitions[s].enumerated() {
                for target in t.targets {
                    result.append(Arrow(kind: .transition, source: s, target: target, transition: k, edge: t))
                }
            }
        }
        return result
    }

    /// The CSS classes of a state's group in the SVG diagrams: `state`, then `region` for a
    /// parallel state's child, then its kind (`atomic`, `compound`, `parallel`, `final`,
    /// `history shallow`, `history deep`).
    func stateClasses(_ i: Int) -> String {
        let word: String
        switch kinds[i] {
        case .atomic: word = "atomic"
        case .compound: word = "compound"
        case .parallel: word = "parallel"
        case .final: word = "final"
        case .shallowHistory: word = "history shallow"
        case .deepHistory: word = "history deep"
        }
        let isRegion = parents[i] >= 0 && kinds[parents[i]] == .parallel
        return "state " + (isRegion ? "region " : "") + word
    }

    /// The tooltip of a state in the SVG diagrams: its id, then its transitions.
    func tooltip(_ i: Int) -> String {
        var lines = [ids[i]]
        for edge in transitions[i] {
            if edge.isTargetless {
                lines.append(edge.activityLabel)
            } else {
                let targets = edge.targets.map { ids[$0] }.joined(separator: " ")
                lines.append((edge.label.isEmpty ? "" : edge.label + " ") + "→ " + targets)
            }
        }
        if let initial = initial[i], !initial.targets.isEmpty {
            lines.append("initial → " + initial.targets.map { ids[$0] }.joined(separator: " "))
        }
        return lines.joined(separator: "\n")
    }

    /// Whether `a` is `b` or one of its descendants.
    func isWithin(_ a: Int, _ b: Int) -> Bool { a >= b && a < ends[b] }

    /// The child of `ancestor` whose subtree holds `state` (`state` itself when it is a child).
    func childOf(_ ancestor: Int, containing state: Int) -> Int {
        var s = state
        while parents[s] >= 0, parents[s] != ancestor { s = parents[s] }
        return s
    }

    // MARK: - Labels

    /// Timer keys started on entry (typed `After` transitions) and their delays: an event
    /// `timer.<key>` of a transition of this state is written `after <delay>`.
    private static func timers(_ blocks: [[ChartActionInfo]]) -> [String: Duration] {
        var timers: [String: Duration] = [:]
        for block in blocks {
            for action in block {
                if case .send(let name, let delay, let id) = action, name.hasPrefix("timer."), id == name {
                    timers[name] = delay
                }
            }
        }
        return timers
    }

    private static func edge<Event, Context>(
        _ t: ChartTransitionInfo, chart: Chart<Event, Context>, timers: [String: Duration], pseudo: Bool
    ) -> Edge {
        var parts: [String] = []
        if !pseudo {
            if let events = t.events {
                parts.append(eventText(events, chart: chart, timers: timers))
            } else {
                parts.append("always")
            }
            if let g = t.guardCondition { parts.append("[" + guardText(g, ids: chart.ids) + "]") }
        }
        if !t.actions.isEmpty { parts.append("/ " + t.actions.map(actionText).joined(separator: ", ")) }
        return Edge(
            source: Int(t.source.index), targets: t.targets.map { Int($0.index) },
            label: parts.joined(separator: " "),
            // The root's transitions are the top level's any-state routes, internal so that they
            // never leave their level (rule R33): drawn from the "any state" box, not as internal.
            isInternal: !pseudo && t.kind == .internal && t.source.index != 0,
            hasDynamicTargets: t.hasDynamicTargets)
    }

    private static func eventText<Event, Context>(
        _ events: ChartEventDescriptorInfo, chart: Chart<Event, Context>, timers: [String: Duration]
    ) -> String {
        switch events {
        case .any: return "*"
        case .names(let tokens):
            if tokens.isEmpty { return "(no event)" }
            return tokens.map { token in timers[token].map { "after " + SCXMLDelay.format($0) } ?? token }
                .joined(separator: " ")
        case .event(let name): return name
        case .matching: return "(predicate)"
        case .done(let s): return "done.state." + chart.id(of: s)
        case .error: return "error"
        }
    }

    /// A piece of a condition still to write.
    private enum GuardPiece {
        case guardInfo(ChartGuardInfo, parenthesized: Bool)
        case text(String)
    }

    private static func guardText(_ g: ChartGuardInfo, ids: [String]) -> String {
        // An explicit stack: the nesting of a condition comes from a document.
        var out = ""
        var stack: [GuardPiece] = [.guardInfo(g, parenthesized: false)]
        while let piece = stack.popLast() {
            switch piece {
            case .text(let s): out += s
            case .guardInfo(let g, let parenthesized):
                switch g {
                case .inState(let s): out += "In(" + ids[Int(s.index)] + ")"
                case .predicate: out += "guard"
                case .expression(let source): out += source
                case .not(let inner):
                    out += "!"
                    stack.append(.guardInfo(inner, parenthesized: true))
                case .all(let gs), .any(let gs):
                    let isAll = if case .all = g { true } else { false }
                    if gs.isEmpty {
                        out += isAll ? "true" : "false"
                    } else if gs.count == 1 {
                        stack.append(.guardInfo(gs[0], parenthesized: parenthesized))
                    } else {
                        if parenthesized {
                            out += "("
                            stack.append(.text(")"))
                        }
                        for (k, inner) in gs.enumerated().reversed() {
                            stack.append(.guardInfo(inner, parenthesized: true))
                            if k > 0 { stack.append(.text(isAll ? " && " : " || ")) }
                        }
                    }
                }
            }
        }
        return out
    }

    private static func actionText(_ a: ChartActionInfo) -> String {
        switch a {
        case .raise(let e): return "raise " + e
        case .send(let e, let delay, _): return delay > .zero ? "send \(e) after \(SCXMLDelay.format(delay))" : "send " + e
        case .cancel(let id): return "cancel " + id
        case .log(let label, _): return "log " + label
        case .run(let name): return name ?? "action"
        case .content(let source): return source.split(separator: "\n").first.map(String.init) ?? ""
        }
    }
}
