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
        var edges = requestEdges()
        let top = chart.children(of: chart.root).filter { chart.kind(of: $0) != .final && !chart.kind(of: $0).isHistory }
        for background in backgroundStates {
            for b in states(for: background) where chart.parent(of: b) == chart.root {
                for from in top where from != b { edges.append((from.index, b.index)) }
            }
        }
        return chart.validate(requestEdges: edges, mentionedOnly: mentionedOnly)
    }
}
