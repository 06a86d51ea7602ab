/// A compiled typed machine: the ``Chart`` plus the tables that map its indices back to the
/// user's values. Shared by every ``StateMachine`` that runs it.
public final class TypedChart<Event: Hashable & Sendable, Context>: @unchecked Sendable {
    // @unchecked: the AnyHashable values stored here wrap `Hashable & Sendable` state values
    // only, and nothing here is mutated after init.

    /// The one chart the interpreter runs.
    public let chart: Chart<Event, Context>
    let valueByIndex: [AnyHashable?]
    let indicesByValue: [AnyHashable: [Int32]]
    let levelOfIndex: [Int32]
    let levels: [TypedLevel<Context>]
    /// Per level, the index of its container (the root for the top level).
    let containerOfLevel: [Int32]
    /// States only ever mentioned as targets, never declared (rule R65), for ``validate()``.
    let mentionedOnly: [Int32]

    /// Compiles a machine and all its attached children.
    ///
    /// Inlinable so that compiling the emitted definition (`Chart.init`, whose assembly of events,
    /// guards and actions is generic) runs specialized for the caller's event and context types;
    /// walking the machine's declarations stays in the library.
    @inlinable
    public convenience init<State>(_ machine: Machine<State, Event, Context>) throws(ChartError) {
        let emitter = try TypedChartEmitter<Event, Context>.emitting(machine)
        try self.init(emitter: emitter, chart: Chart(emitter.definition))
    }

    @usableFromInline
    init(emitter: TypedChartEmitter<Event, Context>, chart: Chart<Event, Context>) {
        self.chart = chart
        let reordered = Self.reorderedIndices(of: emitter.definition, in: chart)
        var valueByIndex = [AnyHashable?](repeating: nil, count: chart.stateCount)
        var indicesByValue: [AnyHashable: [Int32]] = [:]
        var levelOfIndex = [Int32](repeating: -1, count: chart.stateCount)
        for (node, value) in emitter.valueOfNode.enumerated() {
            let i = reordered?[node] ?? Int32(node)
            if let value {
                valueByIndex[Int(i)] = value
                indicesByValue[value, default: []].append(i)
            }
            levelOfIndex[Int(i)] = emitter.levelOfNode[node]
        }
        // The same value at several indices (a machine attached in several places) is listed in index order.
        if reordered != nil { indicesByValue = indicesByValue.mapValues { $0.sorted() } }
        self.valueByIndex = valueByIndex
        self.indicesByValue = indicesByValue
        self.levelOfIndex = levelOfIndex
        self.levels = emitter.levels
        self.containerOfLevel = emitter.containerOfLevel.map { reordered?[Int($0)] ?? $0 }
        self.mentionedOnly = emitter.mentionedOnly.compactMap { chart.state(withID: $0)?.index }
    }

    /// The chart index of each definition node, or `nil` when it is the node's own index. The
    /// compiler numbers states in document order, and the emitter adds every node in that order
    /// (a state, then what is attached to it), so the two agree; checking costs one comparison of
    /// ids per state, and a lookup by id is the fallback should they ever differ.
    private static func reorderedIndices(of definition: ChartDefinition<Event, Context>, in chart: Chart<Event, Context>)
        -> [Int32]?
    {
        let ids = chart.ids
        if ids.count == definition.nodeCount, ids.indices.allSatisfy({ ids[$0] == definition.id(of: .init($0)) }) {
            return nil
        }
        return (0..<definition.nodeCount).map { chart.state(withID: definition.id(of: .init($0)))?.index ?? 0 }
    }

    /// The typed value of a state (`nil` for the root, regions and history pseudo-states).
    public func value(of state: ChartStateID) -> AnyHashable? { valueByIndex[Int(state.index)] }

    /// Every state whose value is `value` (one unless a machine is attached in several places).
    public func states<T: Hashable & Sendable>(for value: T) -> [ChartStateID] {
        (indicesByValue[AnyHashable(value)] ?? []).map(ChartStateID.init)
    }
}

extension TypedChart {
    /// ``Chart/validate()`` for a typed machine: state requests along declared ``Routes`` and to
    /// ``Global`` states count as ways in and out of a state, and a state that is only ever
    /// mentioned as a target — no ``When``, ``Final``, ``Global`` or flat ``Transition`` declares
    /// it — is reported as `undeclared-state` (rule R65): the builder added it, but it may be a typo.
    public func validate() -> [ChartDiagnostic] {
        chart.validate(requestEdges: requestEdges(), mentionedOnly: mentionedOnly)
    }

    /// The edges that state requests (routes and global routes of each level) add to the chart's
    /// own transitions, for reachability: from each state of a level to each state it may request.
    func requestEdges() -> [(from: Int32, to: Int32)] {
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
        return edges
    }
}
