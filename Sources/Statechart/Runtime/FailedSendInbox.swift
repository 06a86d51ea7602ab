/// Failed sends reported while a runtime's operation held the machine, for handlers that must run
/// only once the operation let go of it (rule R62).
///
/// ``ObservableStateMachine``'s handlers are main-actor closures: a handler may read the model or
/// send to it. Called from inside the machine's own change — the machine reports a failed send in
/// the middle of its `send` — that would be an overlapping access to the machine (undefined
/// behaviour where the access is not checked, a trap where it is). The machine is given one
/// handler that only records the report here; the driver hands the reports over after each
/// operation releases the machine (``MachineDriver/release()``).
final class FailedSendInbox<Event> {
    private var handlers: [(id: Int, handler: (Event, MachineError) -> Void)] = []
    private var nextID = 0
    private var reports: [(Event, MachineError)] = []

    var hasReports: Bool { !reports.isEmpty }

    /// The handler the machine calls: it records the report and nothing else.
    var recorder: (Event, MachineError) -> Void {
        { [unowned self] event, error in reports.append((event, error)) }
    }

    func add(_ handler: @escaping (Event, MachineError) -> Void) -> ObserverToken {
        nextID += 1
        handlers.append((nextID, handler))
        return ObserverToken(id: nextID)
    }

    func remove(_ token: ObserverToken) { handlers.removeAll { $0.id == token.id } }

    /// Calls the handlers for every report, in order, each report to every handler in
    /// registration order. A handler may cause more reports (it may send): they are handed over
    /// by the operation that caused them, or here when no other operation holds the machine.
    func deliver() {
        while !reports.isEmpty {
            let batch = reports
            reports.removeAll()
            let current = handlers
            for (event, error) in batch {
                for h in current { h.handler(event, error) }
            }
        }
    }
}
