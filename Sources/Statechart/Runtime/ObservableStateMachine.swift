import Observation

/// A ``StateMachine`` for SwiftUI: an `@Observable` model on the main actor whose properties
/// change after every send, so views that read them update (rule R56).
///
/// ```swift
/// struct OrderView: View {
///     @State var order: ObservableStateMachine<OrderState, OrderEvent, Order>  // made by the app
///     var body: some View {
///         Text("Status: \(order.state)")
///         Button("Confirm") { try? order.send(.confirm) }.disabled(!order.canSend(.confirm))
///     }
/// }
/// ```
@MainActor
@Observable
public final class ObservableStateMachine<State: Hashable & Sendable, Event: Hashable & Sendable, Context> {
    /// The machine; reading it is observed as a whole.
    public private(set) var machine: StateMachine<State, Event, Context>

    /// Compiles and starts a machine.
    public init(_ declaration: Machine<State, Event, Context>, context: Context) throws(MachineError) {
        machine = try StateMachine(declaration, context: context)
    }

    /// Wraps a machine that is already running.
    public init(_ machine: StateMachine<State, Event, Context>) {
        self.machine = machine
    }

    /// The active top-level state.
    public var state: State { machine.state }
    /// The ids of the active atomic states.
    public var activeStateIDs: [String] { machine.activeStateIDs }
    /// The extended state.
    public var context: Context { machine.context }
    /// Whether a state with this value is active.
    public func isActive<T: Hashable & Sendable>(_ value: T) -> Bool { machine.isActive(value) }

    /// Whether `event` would be handled now, with guards evaluated and nothing changed (rule R59).
    public func canSend(_ event: Event) -> Bool { machine.canSend(event) }

    /// Sends an event (rules R1–R9).
    public func send(_ event: Event) throws(MachineError) {
        try machine.send(event)
    }

    /// Requests a state (rule R26).
    public func transition<T: Hashable & Sendable>(to target: T) throws(MachineError) {
        try machine.transition(to: target)
    }

    /// Returns to the initial configuration (rule R19).
    public func reset() throws(MachineError) {
        try machine.reset()
    }
}
