extension StateMachine where Event: CaseIterable {
    /// Every event of a `CaseIterable` event type that would be handled now (rule R59).
    /// Inlinable, as ``validEvents(among:)`` is: each question specialized for the caller's types.
    @inlinable
    public var validEvents: [Event] { validEvents(among: Array(Event.allCases)) }
}
