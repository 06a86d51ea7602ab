extension StateMachine where Event: CaseIterable {
    /// Every event of a `CaseIterable` event type that would be handled now (rule R59).
    public var validEvents: [Event] { validEvents(among: Array(Event.allCases)) }
}
