import Statechart
import Testing

/// How much a ``TestStore`` operation must state (rule R78), as in The Composable Architecture.
public enum Exhaustivity: Hashable, Sendable {
    /// Every step of the trace and every change of an `Equatable` context must be stated.
    case on
    /// Only what a closure states must hold: stated steps must happen in that order (others may
    /// happen between them), and the context properties a `context:` closure sets must have those
    /// values. An operation without closures checks nothing.
    case off
}

extension TestStore {
    /// Compares the context after an operation with the one expected (rule R78).
    ///
    /// Exhaustive: the expectation closure turns the context *before* the operation into the one
    /// expected after it (TCA's `store.send(.x) { $0.count = 1 }`); without a closure the context
    /// must not change. Not exhaustive: the closure is applied to the context *after* the
    /// operation, so only what it sets is compared. A context that is not `Equatable` is compared
    /// only when a closure asks for it, and then that is an issue of its own.
    func checkContext(
        _ operation: String, before: Context, _ expected: ((inout Context) throws -> Void)?,
        location: Testing.SourceLocation
    ) {
        let actual = machine.context
        guard let expected else {
            // Nothing stated: exhaustive stores still require an Equatable context to be unchanged.
            if exhaustivity == .on, Self.equal(before, actual) == false {
                report(operation, "the context changed, and the test did not state how", before, actual, location: location)
            }
            return
        }
        var wanted = exhaustivity == .on ? before : actual
        do {
            try expected(&wanted)
        } catch {
            Issue.record(
                Comment(rawValue: "\(operation): the context expectation threw \(error)"), sourceLocation: location)
            return
        }
        switch Self.equal(wanted, actual) {
        case true?:
            break
        case false?:
            report(operation, "the context differs from the expected one", wanted, actual, location: location)
        case nil:
            Issue.record(
                Comment(
                    rawValue: """
                        \(operation): the context (\(Context.self)) is not Equatable, so the store cannot \
                        compare it: make it Equatable to state it with `context:`
                        """), sourceLocation: location)
        }
    }

    private func report(
        _ operation: String, _ problem: String, _ expected: Context, _ actual: Context,
        location: Testing.SourceLocation
    ) {
        let lines = ValueDifference.lines(expected: expected, actual: actual)
        let message = """
            \(operation): \(problem) (- expected, + actual):
            \(lines.map { "  " + $0 }.joined(separator: "\n"))
            """
        Issue.record(Comment(rawValue: message), sourceLocation: location)
    }

    /// `a == b` when `Context` is `Equatable`; `nil` when it is not.
    static func equal(_ a: Context, _ b: Context) -> Bool? {
        guard let a = a as? any Equatable else { return nil }
        return isEqual(a, b)
    }

    private static func isEqual<T: Equatable>(_ a: T, _ b: Any) -> Bool {
        (b as? T) == a
    }

    // MARK: - Finishing

    /// Checks that nothing is left to happen (rule R78), as TCA's `finish()`: records an issue for
    /// every delayed send or `After` timer still pending, every piece of `perform` work queued and
    /// not taken with ``takePendingWork()``, and every invoked `Work` still running (its state is
    /// active). Call it at the end of a test; it checks whatever ``exhaustivity`` is.
    ///
    /// - Parameters:
    ///   - fileID: The file of the call, where issues are recorded (leave the default).
    ///   - filePath: The path of that file (leave the default).
    ///   - line: The line of the call (leave the default).
    ///   - column: The column of the call (leave the default).
    public func finish(
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) {
        let location = Testing.SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let instance = machine.instance
        var problems: [String] = []
        if instance.pendingDelayedSends > 0, let due = instance.nextDueTime {
            problems.append(
                "\(instance.pendingDelayedSends) delayed send(s) or timer(s) pending, the next due at \(due) "
                    + "of machine time (now \(instance.now)): advance(by:) to fire them, or leave their state")
        }
        for work in instance.pendingWork {
            problems.append(
                "work \(work.name.map { "'\($0)'" } ?? "(unnamed)") queued by '\(work.source)' was not run: "
                    + "take it with takePendingWork()")
        }
        for running in instance.runningInvocationTokens {
            problems.append(
                "the work invoked by '\(instance.chart.id(of: running.state))' is still running: "
                    + "leave the state to cancel it")
        }
        if !problems.isEmpty {
            let message = "finish(): the machine has work left:\n" + problems.map { "  " + $0 }.joined(separator: "\n")
            Issue.record(Comment(rawValue: message), sourceLocation: location)
        }
    }

    /// Takes the work queued by actions with `perform` (rule R51), so that the test can run it
    /// and send its result; ``finish(fileID:filePath:line:column:)`` fails while any is left.
    public mutating func takePendingWork() -> [PendingWork<Event>] {
        machine.takePendingWork()
    }
}
