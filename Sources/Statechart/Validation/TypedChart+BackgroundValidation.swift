extension TypedChart {
    /// ``validate()`` for a machine that is suspended to background states with
    /// `StateMachine.suspend(to:)` (rule R42): each background state counts as entered from every
    /// state of the top level that is not final, as `suspend(to:)` enters it, so a state reached
    /// only that way is not reported as unreachable.
    ///
    /// A background state is outside the state map — no route or event leads to it — so
    /// ``validate()`` alone cannot know that it is entered.
    ///
    /// - Parameter backgroundStates: The states the machine may be suspended to (top-level states).
    /// - Returns: The diagnostics, errors first.
    public func validate<S: Hashable & Sendable>(backgroundStates: [S]) -> [ChartDiagnostic] {
        var edges: [(from: Int32, to: Int32)] = []
        for level in levels {
            for from in level.stateIDs {
                guard let f = chart.state(withID: from)?.index else { continue }
                let targets = (level.routes[from] ?? []).union(level.finals.contains(from) ? [] : level.globals)
                for to in targets.sorted() where to != from {
                    if let t = chart.state(withID: to)?.index { edges.append((f, t)) }
                }
            }
        }
        let top = chart.children(of: chart.root).filter { chart.kind(of: $0) != .final && !chart.kind(of: $0).isHistory }
        for background in backgroundStates {
            for b in states(for: background) where chart.parent(of: b) == chart.root {
                for from in top where from != b { edges.append((from.index, b.index)) }
            }
        }
        return chart.validate(requestEdges: edges)
    }
}
