import Statechart

/// Extended state for interpreter tests: a log that actions append to.
struct Log: Sendable {
    var lines: [String] = []
    var flag = false
    var count = 0
}

typealias TestChart = ChartDefinition<String, Log>
typealias TestInstance = ChartInstance<String, Log>

/// An action that appends `line` to the log.
func log(_ line: String) -> Action<String, Log> {
    .run(line) { $0.lines.append(line) }
}

struct TestError: Error, CustomStringConvertible {
    var description: String { "boom" }
}

extension ChartDefinition where Event == String, Context == Log {
    /// A test chart whose events are their own names.
    static func test(_ name: String = "test", initial: [String] = []) -> Self {
        Self(name: name, initial: initial, eventName: { $0 })
    }

    /// Adds a state that logs "enter id" / "exit id".
    @discardableResult
    mutating func state(_ id: String, _ kind: StateKind = .state, in parent: Node? = nil, initial: [String]? = nil) -> Node {
        let n = addState(id, kind: kind, in: parent ?? root, initial: initial)
        if case .history = kind { return n }
        addOnEntry([log("enter \(id)")], to: n)
        addOnExit([log("exit \(id)")], to: n)
        return n
    }

    /// Adds a transition.
    mutating func on(
        _ node: Node, _ event: String?, to targets: [String] = [], type: TransitionKind = .external,
        guard g: Guard<String, Log>? = nil, actions: [Action<String, Log>] = []
    ) {
        addTransition(
            TransitionDefinition(on: event.map { .names($0.split(separator: " ").map(String.init)) }, guard: g, to: targets, kind: type, actions: actions),
            from: node)
    }
}

/// Compiles and starts a test chart, with tracing on.
func start(_ def: TestChart) throws -> TestInstance {
    var i = TestInstance(chart: try Chart(def), context: Log())
    i.isTracing = true
    try i.start()
    return i
}

extension ChartInstance {
    /// The active atomic ids, sorted, for order-independent comparison.
    var atomic: [String] { activeAtomicIDs.sorted() }
}
