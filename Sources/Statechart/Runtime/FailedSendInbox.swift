/// Failed sends reported while a runtime's operation held the machine, kept for the machine's
/// failed-send handlers to receive once the operation let go of it (rule R62).
///
/// ``ObservableStateMachine``'s handlers are main-actor closures: a handler may read the model or
/// send to it. Called from inside the machine's own change — the machine reports a failed send in
/// the middle of its `send` — that would be an overlapping access to the machine (undefined
/// behaviour where the access is not checked, a trap where it is). So the machine is told to
/// defer its reports here (``StateMachine/deferFailedSends(to:)``), and the driver hands them to
/// the machine's own handlers after each operation releases the machine
/// (``MachineDriver/release()``). The handlers stay where they are registered, in the machine.
final class FailedSendInbox<Event> {
    private var reports: [(Event, MachineError)] = []
    /// Whether ``reports`` has any: a flag of its own, because the driver asks after every
    /// operation, and this class's code is not specialized — asking the array looked up the
    /// metadata of `Array<(Event, MachineError)>`, of the tuple and of its `Collection`
    /// conformance, some 850 instructions of an observable model's send.
    private(set) var hasReports = false

    func record(_ event: Event, _ error: MachineError) {
        reports.append((event, error))
        hasReports = true
    }

    /// The reports recorded so far, in order; the inbox is empty afterwards.
    func take() -> [(Event, MachineError)] {
        defer {
            reports.removeAll()
            hasReports = false
        }
        return reports
    }
}
