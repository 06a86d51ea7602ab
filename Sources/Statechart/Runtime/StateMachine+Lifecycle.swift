extension StateMachine {
    /// The one check of rule R68, made first by every operation that would move the machine
    /// (`send`, `transition(to:)`, `transition()`, `advance(by:)`, `suspend(to:)`, `resume()`): a
    /// machine that reached a top-level final state refuses it with
    /// ``MachineError/finished(finalState:)`` naming that state, and nothing changes. `reset()`,
    /// `undo()` and `restore(from:)` are the ways back; queries keep answering.
    @usableFromInline
    func refuseAfterEnd() throws(MachineError) {
        if isFinished { throw core.notRunningError() }
    }
}
